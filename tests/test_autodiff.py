"""Automatic differentiation in PyNative mode, rule by rule from semantics 4 and 5.1.

Every expected value below was printed by MindSpore 2.10 for the same program.
"""
import numpy as np
import pytest

import refms as ms
from refms import Parameter, ParameterTuple, Tensor, ops
from refms.ops import GradOperation


def values(result):
    """Nested tuples of Tensors -> nested tuples of Python lists (Tensors) / values (others)."""
    if isinstance(result, Tensor):
        return result.asnumpy().tolist()
    if isinstance(result, (tuple, list)):
        return tuple(values(r) for r in result)
    return result


def f32(*data):
    return Tensor(np.array(data, np.float32))


# -- 4.1 GradOperation's eight return structures ---------------------------------------------

W = Parameter(f32(2.0), name="w")
B = Parameter(f32(3.0), name="b")


def net(x, y):
    """x·w·y + b with w = 2, b = 3."""
    return x * W * y + B


#: (get_all, get_by_list, sens_param, expected) for x = 5, y = 7, sens = 10 (semantics 4.1).
GRAD_OPERATION_TABLE = [
    (False, False, False, [14.0]),
    (False, False, True, [140.0]),
    (False, True, False, ([35.0], [1.0])),
    (False, True, True, ([350.0], [10.0])),
    (True, False, False, ([14.0], [10.0])),
    (True, False, True, ([140.0], [100.0])),
    (True, True, False, (([14.0], [10.0]), ([35.0], [1.0]))),
    (True, True, True, (([140.0], [100.0]), ([350.0], [10.0]))),
]


@pytest.mark.parametrize("get_all,get_by_list,sens_param,expected", GRAD_OPERATION_TABLE,
                         ids=[f"all={a}-list={b}-sens={c}" for a, b, c, _ in GRAD_OPERATION_TABLE])
def test_grad_operation_table(get_all, get_by_list, sens_param, expected):
    op = GradOperation(get_all=get_all, get_by_list=get_by_list, sens_param=sens_param)
    grad_fn = op(net, ParameterTuple([W, B])) if get_by_list else op(net)
    args = (f32(5.0), f32(7.0)) + ((f32(10.0),) if sens_param else ())
    result = grad_fn(*args)
    if not get_all and not get_by_list:
        assert isinstance(result, Tensor)           # the first input's gradient, bare
    assert values(result) == expected


def test_grad_operation_get_all_single_input_is_a_one_tuple():
    result = GradOperation(get_all=True)(lambda x: x * 3)(f32(1.0))
    assert isinstance(result, tuple) and len(result) == 1
    assert values(result) == ([3.0],)


def test_grad_operation_weights_as_list_or_single_parameter():
    x, y = f32(5.0), f32(7.0)
    as_list = GradOperation(get_by_list=True)(net, [W, B])(x, y)
    assert values(as_list) == ([35.0], [1.0])
    single = GradOperation(get_by_list=True)(net, W)(x, y)
    assert isinstance(single, Tensor) and values(single) == [35.0]


# -- 4.2 grad / value_and_grad ------------------------------------------------------------------

def f(x, y):
    return x * x * y


def f_and_aux(x, y):
    return x * x * y, x + y


X, Y = f32(5.0), f32(7.0)


def test_grad_default_position_is_bare():
    result = ms.grad(f)(X, Y)
    assert isinstance(result, Tensor) and values(result) == [70.0]


@pytest.mark.parametrize("position,expected", [
    (1, [25.0]), ((0, 1), ([70.0], [25.0])), ((1,), [25.0]), ((0,), [70.0]),
])
def test_grad_positions(position, expected):
    result = ms.grad(f, grad_position=position)(X, Y)
    assert values(result) == expected
    if not isinstance(expected, tuple):
        assert isinstance(result, Tensor)          # a one-element position tuple is bare too


def test_grad_with_weights():
    x, y = f32(5.0), f32(7.0)
    assert values(ms.grad(net, 0, (W, B))(x, y)) == ([14.0], ([35.0], [1.0]))
    assert values(ms.grad(net, None, (W, B))(x, y)) == ([35.0], [1.0])
    single = ms.grad(net, None, W)(x, y)
    assert isinstance(single, Tensor) and values(single) == [35.0]


def test_grad_position_must_be_a_valid_non_negative_index():
    with pytest.raises(ValueError, match="grad_position must be >= 0"):
        ms.grad(f, grad_position=-1)(X, Y)
    # past the inputs: RuntimeError in PyNative, IndexError in graph mode, as MindSpore 2.10
    # raises (tests/recorders/record_tutorials.py, "grad_position_out_of_range")
    with pytest.raises(RuntimeError, match="out of range"):
        ms.grad(f, grad_position=2)(X, Y)

    @ms.jit
    def compiled(x, y):
        return ms.grad(f, grad_position=2)(x, y)
    with pytest.raises(IndexError, match="out of range"):
        compiled(X, Y)


def test_grad_needs_positions_or_weights():
    with pytest.raises(ValueError, match="`grad_position` and `weight` can not be None at the "
                                         "same time."):
        ms.grad(net, None, None)


def test_has_aux_differentiates_the_first_output_only():
    grads, aux = ms.grad(f_and_aux, has_aux=True)(X, Y)
    assert values(grads) == [70.0]
    assert isinstance(aux, tuple) and values(aux) == ([12.0],)
    assert values(ms.grad(f_and_aux, (0, 1), has_aux=True)(X, Y)) == \
        (([70.0], [25.0]), ([12.0],))
    three = ms.grad(lambda a, b: (a * a * b, a + b, a), has_aux=True)(X, Y)
    assert values(three) == ([70.0], ([12.0], [5.0]))


def test_has_aux_needs_several_outputs():
    with pytest.raises(ValueError, match="When has_aux is True, origin fn requires more than "
                                         "one outputs."):
        ms.grad(lambda a, b: a * b, has_aux=True)(X, Y)


def test_multi_output_is_differentiated_as_the_sum():
    assert values(ms.grad(f_and_aux)(X, Y)) == [71.0]


def test_value_and_grad():
    value, grads = ms.value_and_grad(f)(X, Y)
    assert values(value) == [175.0] and values(grads) == [70.0]
    assert values(ms.value_and_grad(f_and_aux)(X, Y)) == (([175.0], [12.0]), [71.0])
    assert values(ms.value_and_grad(f_and_aux, has_aux=True)(X, Y)) == (([175.0], [12.0]), [70.0])


def test_value_and_grad_with_weights():
    x, y = f32(5.0), f32(7.0)
    assert values(ms.value_and_grad(net, None, (W,))(x, y)) == ([73.0], ([35.0],))
    assert values(ms.value_and_grad(net, 0, (W,))(x, y)) == ([73.0], ([14.0], ([35.0],)))
    assert values(ms.value_and_grad(net, None, W)(x, y)) == ([73.0], [35.0])


def test_return_ids():
    x, y = f32(5.0), f32(7.0)
    assert values(ms.grad(net, 0, (W,), return_ids=True)(x, y)) == ((0, [14.0]), (("w", [35.0]),))
    assert values(ms.grad(net, (0, 1), (W, B), return_ids=True)(x, y)) == \
        (((0, [14.0]), (1, [10.0])), (("w", [35.0]), ("b", [1.0])))
    assert values(ms.grad(net, None, (W, B), return_ids=True)(x, y)) == \
        (("w", [35.0]), ("b", [1.0]))


# -- 4.3 inputs that are not plain Tensors ---------------------------------------------------------

def test_python_numbers_are_skipped():
    x, y = f32(5.0), f32(7.0)
    assert values(GradOperation(get_all=True)(lambda a, n, b: a * b * n)(x, 3, y)) == \
        ([21.0], [15.0])
    assert GradOperation()(lambda n, a: a * n)(3, x) == ()
    assert values(ms.grad(lambda a, n, b: a * b * n, grad_position=(0, 1, 2))(x, 3, y)) == \
        ([21.0], [15.0])


def test_tuple_arguments_are_skipped():
    x, y = f32(5.0), f32(7.0)
    assert ms.grad(lambda pair, b: pair[0] * b, grad_position=0)((x, y), y) == ()


def test_int_tensor_inputs_get_gradients_in_their_own_dtype():
    ga, gb = GradOperation(get_all=True)(lambda a, b: a * b)(Tensor(np.array([5], np.int32)),
                                                              f32(7.0))
    assert ga.dtype == ms.int32 and ga.tolist() == [7]
    assert gb.dtype == ms.float32 and gb.tolist() == [5.0]


def test_gradients_flow_through_casts():
    result = ms.grad(lambda a: (a * 2).astype(ms.int32))(f32(1.5))
    assert result.dtype == ms.float32 and values(result) == [2.0]


def test_unused_inputs_and_constant_outputs_get_zeros():
    used, unused = GradOperation(get_all=True)(lambda a, b: a * 2)(
        f32(1.0, 2.0), Tensor(np.array([1, 2], np.int32)))
    assert values(used) == [2.0, 2.0]
    assert unused.dtype == ms.int32 and unused.tolist() == [0, 0]
    x, y = f32(5.0), f32(7.0)
    assert values(GradOperation(get_all=True)(lambda a, b: 5)(x, y)) == ([0.0], [0.0])
    assert values(GradOperation(get_all=True)(lambda a, b: f32(5.0))(x, y)) == ([0.0], [0.0])


# -- 4.4 output seeding: every output leaf gets ones ----------------------------------------------

def test_every_output_leaf_is_seeded_with_ones():
    x, y = f32(5.0), f32(7.0)
    grad_all = GradOperation(get_all=True)
    assert values(grad_all(lambda a, b: (a * b, 2 * a))(x, y)) == ([9.0], [5.0])
    assert values(grad_all(lambda a, b: (a * b, (2 * a, 3 * b)))(x, y)) == ([9.0], [8.0])
    assert values(ms.grad(lambda a: a * f32(1.0, 2.0, 3.0))(f32(1.0, 1.0, 1.0))) == \
        [1.0, 2.0, 3.0]


def test_sens_must_match_the_outputs():
    x, y = f32(5.0), f32(7.0)
    two = GradOperation(get_all=True, sens_param=True)(lambda a, b: (a * b, a + b))
    assert values(two(x, y, (f32(1.0), f32(10.0)))) == ([17.0], [15.0])
    with pytest.raises(RuntimeError, match="The given sens gradient's size should be same as "
                                           "out of network!"):
        GradOperation(sens_param=True)(lambda a, b: (a * b, a + b))(x, y, f32(1.0))
    with pytest.raises(ValueError):
        GradOperation(sens_param=True)(net)(x, y, f32(1.0, 2.0))


# -- 4.5 stop_gradient ---------------------------------------------------------------------------

def test_stop_gradient_blocks_and_returns_a_new_tensor():
    x, y = f32(5.0), f32(7.0)
    grads = GradOperation(get_all=True)(lambda a, b: ops.stop_gradient(a * b) + a * b)(x, y)
    assert values(grads) == ([7.0], [5.0])
    assert ops.stop_gradient(x) is not x
    assert values(ops.stop_gradient(x)) == [5.0]
    assert values(ms.grad(lambda a: ops.stop_gradient(a) * a)(f32(3.0))) == [3.0]


# -- 4.6 parameters --------------------------------------------------------------------------------

def test_frozen_weights_get_zero_gradients():
    frozen = Parameter(f32(2.0), name="frozen", requires_grad=False)

    def frozen_net(x, y):
        return x * frozen * y + B

    x, y = f32(5.0), f32(7.0)
    grads = GradOperation(get_by_list=True, sens_param=True)(
        frozen_net, ParameterTuple([frozen, B]))(x, y, f32(10.0))
    assert values(grads) == ([0.0], [10.0])
    assert values(ms.grad(frozen_net, None, [frozen, B])(x, y)) == ([0.0], [1.0])


def test_unused_weights_get_zeros_of_their_shape():
    unused = Parameter(f32(1.0, 1.0), name="unused")
    assert values(ms.grad(net, None, [W, unused])(f32(5.0), f32(7.0))) == ([35.0], [0.0, 0.0])


# -- 4.7 higher order ------------------------------------------------------------------------------

def cube(x):
    return x * x * x


def test_higher_order_gradients():
    assert values(GradOperation()(GradOperation()(cube))(f32(2.0))) == [12.0]
    assert values(ms.grad(ms.grad(ms.grad(cube)))(f32(2.0))) == [6.0]


# -- 4.8 gradients of the seed ops -----------------------------------------------------------------

def test_maximum_and_minimum_split_ties_evenly():
    grad_all = GradOperation(get_all=True)
    a, b = f32(1.0, 2.0), f32(1.0, 3.0)
    assert values(grad_all(ops.maximum)(a, b)) == ([0.5, 0.0], [0.5, 1.0])
    assert values(grad_all(ops.minimum)(a, b)) == ([0.5, 1.0], [0.5, 0.0])


def test_reduce_max_splits_ties_evenly():
    assert values(ms.grad(lambda a: a.max())(f32(1.0, 3.0, 3.0))) == [0.0, 0.5, 0.5]


def test_broadcast_add_sums_back_to_the_input_shape():
    dx, dy = GradOperation(get_all=True)(ops.add)(Tensor(np.ones((2, 3), np.float32)),
                                                  Tensor(np.ones((3,), np.float32)))
    assert dx.shape == (2, 3) and values(dx) == [[1.0] * 3] * 2
    assert dy.shape == (3,) and values(dy) == [2.0, 2.0, 2.0]


def test_matmul_gradients():
    x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))
    y = Tensor(np.array([[5.0, 6.0], [7.0, 8.0]], np.float32))
    dx, dy = GradOperation(get_all=True)(ops.MatMul())(x, y)
    ones = np.ones((2, 2), np.float32)
    np.testing.assert_allclose(dx.asnumpy(), ones @ y.asnumpy().T)
    np.testing.assert_allclose(dy.asnumpy(), x.asnumpy().T @ ones)


def test_zeros_like_has_zero_gradient():
    assert values(ms.grad(lambda a: ops.zeros_like(a) + a * 0)(f32(3.0))) == [0.0]


# -- 5.1 HookBackward and Tensor.register_hook -----------------------------------------------------

def hook_test_grads(hook_fn):
    """Seed 000's example: z = x·y; z = hook(z); return z·y at x = 1, y = 2 (all gradients)."""
    hook = ops.HookBackward(hook_fn)

    def hook_test(x, y):
        z = x * y
        z = hook(z)
        return z * y

    return GradOperation(get_all=True)(hook_test)(Tensor(1, ms.float32), Tensor(2, ms.float32))


def test_hook_backward_sees_a_tuple_and_keeps_gradients():
    seen = []
    grads = hook_test_grads(seen.append)
    assert len(seen) == 1 and isinstance(seen[0], tuple) and len(seen[0]) == 1
    assert isinstance(seen[0][0], Tensor) and seen[0][0].shape == () and seen[0][0].item() == 2.0
    assert values(grads) == (4.0, 4.0)


def test_hook_backward_replaces_gradients():
    assert values(hook_test_grads(lambda grads: (grads[0] * 10,))) == (40.0, 22.0)
    assert values(hook_test_grads(lambda grads: grads[0] * 10)) == (40.0, 22.0)   # bare (2.10)


def test_hook_backward_forward_is_identity():
    hook = ops.HookBackward(lambda grads: None)
    single = hook(f32(1.0, 2.0))
    assert isinstance(single, Tensor) and values(single) == [1.0, 2.0]
    pair = hook(Tensor(1.0), Tensor(2.0))
    assert isinstance(pair, tuple) and values(pair) == (1.0, 2.0)


def test_hook_backward_needs_a_function():
    with pytest.raises(TypeError):
        ops.HookBackward(3)


def test_tensor_register_hook_on_an_intermediate():
    seen = []

    def scale_by_ten(grad):
        seen.append(grad)
        return grad * 10

    def g(x):
        y = x * 3
        y.register_hook(scale_by_ten)
        return y * y

    assert values(ms.grad(g)(Tensor(2.0))) == 360.0
    assert len(seen) == 1 and isinstance(seen[0], Tensor) and seen[0].item() == 12.0


def test_tensor_register_hook_on_an_input_and_remove():
    x = Tensor(2.0)
    seen = []

    def scale_by_ten(grad):
        seen.append(grad.item())
        return grad * 10

    handle = x.register_hook(scale_by_ten)
    assert values(ms.grad(lambda a: a * a)(x)) == 40.0
    assert seen == [4.0]
    handle.remove()
    assert values(ms.grad(lambda a: a * a)(x)) == 4.0
    assert seen == [4.0]
