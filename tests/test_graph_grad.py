"""Graph autodiff (refms/autograd/graph_grad.py) against the PyNative tape.

Every gradient transform is run twice on the same function — once with the
function plain (PyNative: tape) and once compiled (``jit``, or a Cell in
GRAPH_MODE: the IR → IR transform) — and must give the same structure, dtypes
and values (semantics 4, 5.1, 6).
"""
import numpy as np
import pytest

import refms as ms
from refms import Tensor, Parameter, ParameterTuple, ops, nn
from refms.graph import ir_text


def same(a, b, rtol=1e-6):
    if isinstance(a, Tensor):
        assert isinstance(b, Tensor), f"{b!r} is not a Tensor"
        assert a.dtype == b.dtype, (a.dtype, b.dtype)
        assert a.shape == b.shape, (a.shape, b.shape)
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=rtol, atol=1e-7)
        return
    if isinstance(a, (tuple, list)):
        assert type(a) is type(b) and len(a) == len(b), (a, b)
        for x, y in zip(a, b):
            same(x, y, rtol)
        return
    assert a == b, (a, b)


def T(*values):
    return Tensor(np.array(values, np.float32))


def f(x, y):
    return x * x * y


def two(x, y):
    return x * x * y, x + y


def nested(x, y):
    return x * y, (2 * x, 3 * y)


def with_int(a, n, b):
    return a * b * n


def unused(x, y):
    return x * 2


TRANSFORMS = [
    ("grad", lambda fn: ms.grad(fn)),
    ("grad_pos1", lambda fn: ms.grad(fn, grad_position=1)),
    ("grad_pos01", lambda fn: ms.grad(fn, grad_position=(0, 1))),
    ("grad_pos_tuple1", lambda fn: ms.grad(fn, grad_position=(1,))),
    ("value_and_grad", lambda fn: ms.value_and_grad(fn, grad_position=(0, 1))),
    ("GradOperation", lambda fn: ops.GradOperation()(fn)),
    ("GradOperation_all", lambda fn: ops.GradOperation(get_all=True)(fn)),
]


@pytest.mark.parametrize("name,transform", TRANSFORMS, ids=[t[0] for t in TRANSFORMS])
@pytest.mark.parametrize("fn", [f, two, nested, unused], ids=lambda fn: fn.__name__)
def test_transforms_agree_with_pynative(name, transform, fn):
    x, y = T(5.0), T(7.0)
    same(transform(fn)(x, y), transform(ms.jit(fn))(x, y))


def test_non_tensor_inputs_are_skipped_in_both_modes():
    x, y = T(5.0), T(3.0)
    grad_all = ops.GradOperation(get_all=True)
    same(grad_all(with_int)(x, 3, y), grad_all(ms.jit(with_int))(x, 3, y))
    assert len(grad_all(ms.jit(with_int))(x, 3, y)) == 2


def test_has_aux_and_return_ids():
    x, y = T(5.0), T(7.0)
    for kwargs in ({"has_aux": True}, {"grad_position": (0, 1), "has_aux": True},
                   {"grad_position": (0, 1), "return_ids": True}):
        same(ms.grad(two, **kwargs)(x, y), ms.grad(ms.jit(two), **kwargs)(x, y))
    same(ms.value_and_grad(two, has_aux=True)(x, y),
         ms.value_and_grad(ms.jit(two), has_aux=True)(x, y))


def test_integer_inputs_get_integer_gradients():
    a, b = Tensor(np.array([5], np.int32)), T(7.0)
    eager = ops.GradOperation(get_all=True)(lambda u, v: u * v)(a, b)
    compiled = ops.GradOperation(get_all=True)(ms.jit(lambda u, v: u * v))(a, b)
    same(eager, compiled)
    assert str(compiled[0].dtype) == "Int32"


def test_stop_gradient():
    def fn(a, b):
        return ops.stop_gradient(a * b) + a * b
    grad_all = ops.GradOperation(get_all=True)
    same(grad_all(fn)(T(5.0), T(7.0)), grad_all(ms.jit(fn))(T(5.0), T(7.0)))


class Net(nn.Cell):
    """net(x, y) = x·w·y + b with w = 2, b = 3 (semantics 4.1)."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(T(2.0), name="w")
        self.b = Parameter(T(3.0), name="b")

    def construct(self, x, y):
        return x * self.w * y + self.b


GRAD_OPERATION_TABLE = [  # semantics 4.1 [ran 2.10]: x=5, y=7, sens=10
    (False, False, False, [14.0]),
    (False, False, True, [140.0]),
    (False, True, False, ([35.0], [1.0])),
    (False, True, True, ([350.0], [10.0])),
    (True, False, False, ([14.0], [10.0])),
    (True, False, True, ([140.0], [100.0])),
    (True, True, False, (([14.0], [10.0]), ([35.0], [1.0]))),
    (True, True, True, (([140.0], [100.0]), ([350.0], [10.0]))),
]


def as_numbers(value):
    if isinstance(value, Tensor):
        return value.asnumpy().tolist()
    return tuple(as_numbers(v) for v in value)


@pytest.mark.parametrize("get_all,get_by_list,sens_param,expected", GRAD_OPERATION_TABLE)
def test_grad_operation_table_in_graph_mode(get_all, get_by_list, sens_param, expected):
    net = Net()
    weights = ParameterTuple(net.trainable_params())
    ms.set_context(mode=ms.GRAPH_MODE)
    op = ops.GradOperation(get_all=get_all, get_by_list=get_by_list, sens_param=sens_param)
    fn = op(net, weights) if get_by_list else op(net)
    args = (T(5.0), T(7.0)) + ((T(10.0),) if sens_param else ())
    result = fn(*args)
    expected = tuple(expected) if isinstance(expected, tuple) else expected
    assert as_numbers(result) == (expected if not isinstance(expected, list) else expected)


def test_weights_single_parameter_frozen_and_unused():
    net = Net()
    net.b.requires_grad = False
    spare = Parameter(T(1.0, 1.0), name="spare")
    x, y = T(5.0), T(7.0)
    eager = (ms.grad(net, None, net.w)(x, y), ms.grad(net, None, [net.w, net.b, spare])(x, y),
             ms.grad(net, 0, ParameterTuple([net.w]))(x, y))
    ms.set_context(mode=ms.GRAPH_MODE)
    compiled = (ms.grad(net, None, net.w)(x, y), ms.grad(net, None, [net.w, net.b, spare])(x, y),
                ms.grad(net, 0, ParameterTuple([net.w]))(x, y))
    same(eager, compiled)
    assert as_numbers(compiled[1]) == ([35.0], [0.0], [0.0, 0.0])


def test_sens_of_a_tuple_output_must_match():
    grad = ops.GradOperation(sens_param=True)
    with pytest.raises(RuntimeError, match="sens gradient's size"):
        grad(ms.jit(two))(T(5.0), T(7.0), T(1.0))
    same(grad(two)(T(5.0), T(7.0), (T(1.0), T(2.0))),
         grad(ms.jit(two))(T(5.0), T(7.0), (T(1.0), T(2.0))))


# -- control flow ------------------------------------------------------------------------------

def branchy(x, y):
    if (x * y).sum() > 10:
        z = x * y * y
    else:
        z = x + y
    return z * x


def loopy(x):
    while x.sum() < 50:
        x = x * x + 1
    return x


def broken_loop(x, w):
    for k in range(6):
        x = x * w + k
        if x.sum() > 30:
            break
    return x


@pytest.mark.parametrize("fn,args", [
    (branchy, (T(2.0), T(3.0))), (branchy, (T(0.5), T(1.0))), (loopy, (T(1.5),)),
    (broken_loop, (T(1.0), T(2.0))), (broken_loop, (T(0.1), T(0.5))),
], ids=["if-true", "if-false", "while", "for-break", "for-complete"])
def test_gradients_through_control_flow(fn, args):
    positions = tuple(range(len(args)))
    same(ms.grad(fn, positions)(*args), ms.grad(ms.jit(fn), positions)(*args))


def test_gradient_through_a_tensor_condition_keeps_the_switch():
    text = ir_text(ms.grad(ms.jit(branchy), (0, 1)), T(2.0), T(3.0))
    assert "Switch(" in text


# -- custom bprop, hooks, higher order ---------------------------------------------------------------

class MulAdd(nn.Cell):
    """semantics 6.1: construct x·y·y, bprop returns (x + y, x·y) whatever dout is."""

    def construct(self, x, y):
        return x * y * y

    def bprop(self, x, y, out, dout):
        return x + y, x * y


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = MulAdd()

    def construct(self, x, y):
        return self.inner(2 * x, y) * 3


def test_custom_bprop_in_graph_mode():
    grad_all = ops.GradOperation(get_all=True)
    ms.set_context(mode=ms.GRAPH_MODE)
    assert as_numbers(grad_all(MulAdd())(T(1.0), T(2.0))) == ([3.0], [2.0])
    sens = ops.GradOperation(get_all=True, sens_param=True)(MulAdd())(T(1.0), T(2.0), T(5.0))
    assert as_numbers(sens) == ([3.0], [2.0])
    assert as_numbers(grad_all(Outer())(T(1.0), T(2.0))) == ([8.0], [4.0])


def test_hook_backward_is_ignored_in_graph_mode():
    """semantics 5.1: in GRAPH mode and inside jit the hook is silently ignored."""
    called = []

    def hook_fn(grads):
        called.append(grads)
        return (grads[0] * 10,)
    hook = ops.HookBackward(hook_fn)

    def hook_test(x, y):
        z = x * y
        z = hook(z)
        return z * y
    grad_all = ops.GradOperation(get_all=True)
    eager = grad_all(hook_test)(T(1.0), T(2.0))
    assert called and as_numbers(eager) == ([40.0], [22.0])
    called.clear()
    assert as_numbers(grad_all(ms.jit(hook_test))(T(1.0), T(2.0))) == ([4.0], [4.0])
    assert not called


def cube(x):
    return x * x * x


def test_higher_order_in_graph():
    """semantics 4.7: grad(grad(cube)) = 6x → 12 at 2; three times → 6."""
    assert as_numbers(ops.GradOperation()(ops.GradOperation()(ms.jit(cube)))(T(2.0))) == [12.0]
    assert as_numbers(ms.grad(ms.grad(ms.grad(ms.jit(cube))))(T(2.0))) == [6.0]


def test_jit_inside_a_pynative_gradient():
    """A compiled call under a recording tape is one tape entry with a compiled backward."""
    jf = ms.jit(f)
    net = Net()
    jnet = ms.jit(net.construct)

    def plain(x, y):
        return jf(x, y) * 2 + jnet(x, y)
    eager = ms.grad(lambda x, y: f(x, y) * 2 + net(x, y), (0, 1), net.trainable_params())
    mixed = ms.grad(plain, (0, 1), net.trainable_params())
    same(eager(T(5.0), T(7.0)), mixed(T(5.0), T(7.0)))


def test_backward_reads_the_value_a_primitive_read_in_graph_mode():
    """out = x·w; assign(w, 10); return out: GRAPH_MODE differentiates the product with the
    value w had when it was read (grad_x = 2), PyNative's backward reads the updated
    Parameter (grad_x = 10, semantics 4.6) -- MindSpore 2.10, recorded as the programs
    read_then_assign_graph / _pynative of tests/graph_assign_programs.py."""
    class Assigning(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(T(2.0), name="w")

        def construct(self, x):
            out = x * self.w
            ops.assign(self.w, T(10.0))
            return out
    for mode, expected in ((ms.GRAPH_MODE, [2.0]), (ms.PYNATIVE_MODE, [10.0])):
        net = Assigning()
        ms.set_context(mode=mode)
        gx, gw = ms.grad(net, 0, net.w)(T(5.0))
        assert as_numbers(gx) == expected and as_numbers(gw) == [5.0]
        assert as_numbers(net.w) == [10.0]


def test_grad_inside_construct_compiles_one_flat_graph():
    class GradNet(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net
            self.grad_op = ops.GradOperation(get_by_list=True)
            self.weights = ParameterTuple(net.trainable_params())

        def construct(self, x, y):
            return self.grad_op(self.net, self.weights)(x, y)
    wrapper = GradNet(Net())
    text = ir_text(wrapper, T(5.0), T(7.0))
    assert "Total subgraphs: 1" in text and "call @" not in text
    ms.set_context(mode=ms.GRAPH_MODE)
    assert as_numbers(wrapper(T(5.0), T(7.0))) == ([35.0], [1.0])


def test_cell_hooks_compile_into_the_graph():
    """semantics 5.4–5.6: forward pre-hook ×13 (outside the backward hook's scope), cell ×3,
    forward hook ×11 (inside), outer ×5; the backward pre-hook multiplies dout by 7 and the
    backward hook doubles grad_input — same numbers in PyNative and GRAPH_MODE."""
    class Triple(nn.Cell):
        def construct(self, x):
            return x * 3

    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = Triple()

        def construct(self, x):
            return self.inner(x) * 5

    def run(mode):
        ms.set_context(mode=mode)
        seen = []
        net = Outer()
        net.inner.register_forward_pre_hook(lambda cell, args: (args[0] * 13,))
        net.inner.register_forward_hook(lambda cell, args, out: out * 11)

        def backward_pre(cell, grad_output):
            seen.append(("pre", as_numbers(grad_output)))
            return (grad_output[0] * 7,)

        def backward(cell, grad_input, grad_output):
            seen.append(("backward", as_numbers(grad_input), as_numbers(grad_output)))
            return (grad_input[0] * 2,)
        net.inner.register_backward_pre_hook(backward_pre)
        net.inner.register_backward_hook(backward)
        grads = ops.GradOperation()(net)(T(1.0))
        return as_numbers(grads), as_numbers(net(T(1.0))), seen

    eager = run(ms.PYNATIVE_MODE)
    compiled = run(ms.GRAPH_MODE)
    assert eager == compiled
    assert compiled == ([30030.0], [2145.0], [("pre", ([5.0],)),
                                              ("backward", ([1155.0],), ([35.0],))])


def test_gradient_of_a_closure_inside_a_compiled_function():
    """grad of a nested function that captures a variable of the enclosing graph: the captured
    value is passed in (lambda lifting) and gets no gradient."""
    @ms.jit
    def outer(x, n=3):
        def inner(z):
            return z * z * n
        return ms.grad(inner)(x), ops.GradOperation()(lambda v: v * x)(x)
    assert as_numbers(outer(T(2.0))) == ([12.0], [2.0])
    assert as_numbers(outer(T(2.0), n=1)) == ([4.0], [2.0])


def test_a_compiled_program_cannot_return_a_function():
    from refms.graph import GraphCompileError

    @ms.jit
    def returns_closure(x):
        def inner(z):
            return z * x
        return inner
    with pytest.raises(GraphCompileError, match="returns a function"):
        returns_closure(T(1.0))
