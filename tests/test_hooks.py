"""The four cell hooks (semantics 5.2-5.6).

The numbered experiments of semantics 5.3-5.5 use a cell ``T(x) = 3x`` inside
``Outer(x) = 5·T(x)`` at x = 1; every expected number was printed by MindSpore
2.10 for the same program.  r1.x behaviour is selected with ``compat``.
"""
import numpy as np
import pytest

import refms as ms
from refms import Tensor, nn, ops


def scalar(t):
    return float(t.asnumpy().reshape(-1)[0])


class T(nn.Cell):
    def construct(self, x):
        return x * 3


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.t = T()

    def construct(self, x):
        return self.t(x) * 5


X = Tensor([1.0])


def grad_of(net):
    return scalar(ops.GradOperation()(net)(X))


def use_r1(version="1.7"):
    """r1.x behaviour; those pages set PyNative explicitly (their default mode was GRAPH)."""
    ms.set_context(compat=version, mode=ms.PYNATIVE_MODE)


# -- 5.3 what the backward hook sees -----------------------------------------------------------

def test_backward_hook_sees_grad_wrt_inputs_then_grad_wrt_output():
    net, seen = Outer(), []

    def hook(cell, grad_input, grad_output):
        seen.append((cell, scalar(grad_input[0]), scalar(grad_output[0])))
        return (grad_input[0] * 100,)

    net.t.register_backward_hook(hook)
    assert grad_of(net) == 1500.0
    assert seen == [(net.t, 15.0, 5.0)]


def test_r1_order_swaps_the_two_gradients_and_passes_a_cell_id():
    use_r1()
    net, seen = Outer(), []
    net.t.register_backward_hook(lambda cell_id, g1, g2: seen.append((cell_id, scalar(g1[0]),
                                                                       scalar(g2[0]))))
    assert grad_of(net) == 15.0
    assert seen == [(f"T({id(net.t)})", 5.0, 15.0)]


def test_hook_returning_a_bare_tensor_for_one_input():
    net = Outer()
    net.t.register_backward_hook(lambda cell, gi, go: gi[0] * 2)
    assert grad_of(net) == 30.0


def test_hook_returning_the_wrong_arity_names_the_cell_and_shapes():
    net = Outer()
    net.t.register_backward_hook(lambda cell, gi, go: (gi[0], gi[0]))
    with pytest.raises(TypeError, match=r"return value size is 2 not equal to expect grad input "
                                        r"size 1.*cell 'T'.*\[\(1,\)\]"):
        ms.grad(net)(X)


def test_tuple_outputs_and_non_tensor_inputs():
    seen = []

    class Two(nn.Cell):
        def construct(self, x, k, y):
            return x * 2 * k, y * 3

    class O2(nn.Cell):
        def __init__(self):
            super().__init__()
            self.t = Two()
            self.t.register_backward_hook(
                lambda c, gi, go: seen.append(([scalar(g) for g in gi], [scalar(g) for g in go])))

        def construct(self, x, y):
            a, b = self.t(x, 1, y)
            return a * 5 + b * 7

    grads = ms.grad(O2(), (0, 1))(Tensor([1.0]), Tensor([1.0]))
    assert [scalar(g) for g in grads] == [10.0, 21.0]
    assert seen == [([10.0, 21.0], [5.0, 7.0])]


def test_a_cell_called_twice_fires_its_hook_per_call():
    seen = []

    class Lin(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(Tensor([3.0]), name="w")

        def construct(self, x):
            return x * self.w

    class Twice(nn.Cell):
        def __init__(self):
            super().__init__()
            self.lin = Lin()
            self.lin.register_backward_hook(
                lambda c, gi, go: seen.append((scalar(gi[0]), scalar(go[0]))))

        def construct(self, x):
            return self.lin(self.lin(x) * 2)

    assert scalar(ms.grad(Twice())(Tensor([5.0]))) == 18.0
    assert seen == [(3.0, 1.0), (18.0, 6.0)]


def test_constant_input_gives_none_in_grad_input():
    seen = []

    class Lin(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(Tensor([3.0]), name="w")

        def construct(self, x):
            return x * self.w

    class O(nn.Cell):
        def __init__(self):
            super().__init__()
            self.lin = Lin()
            self.lin.register_backward_hook(lambda c, gi, go: seen.append((gi, scalar(go[0]))))

        def construct(self, x):
            return self.lin(ops.ones((1,), ms.float32) * 2) * x

    net = O()
    weights = ms.grad(net, None, net.trainable_params())(Tensor([5.0]))
    assert scalar(weights[0]) == 10.0
    assert seen == [((None,), 5.0)]


# -- 5.4 scope relative to forward hooks -----------------------------------------------------

def combined_net():
    net, seen = Outer(), []
    net.t.register_forward_pre_hook(lambda c, args: (args[0] * 7,))
    net.t.register_forward_hook(lambda c, args, out: out * 11)
    net.t.register_backward_hook(lambda c, gi, go: seen.append((scalar(gi[0]), scalar(go[0]))))
    return net, seen


def test_forward_hook_ops_are_inside_the_backward_hook_scope_in_2x():
    net, seen = combined_net()
    assert grad_of(net) == 1155.0
    assert seen == [(165.0, 5.0)]                       # 3·11·5, 5


def test_r1_scope_leaves_forward_hook_ops_outside():
    use_r1()
    net, seen = combined_net()
    assert grad_of(net) == 1155.0
    assert seen == [(55.0, 165.0)]      # r1 order: grad w.r.t. output (11·5), w.r.t. input (3·11·5)


# -- 5.5 return values, ordering, removal -------------------------------------------------------

def test_forward_pre_hooks_chain_in_order_and_prepend():
    t = T()
    t.register_forward_pre_hook(lambda c, a: (a[0] + 1,))
    t.register_forward_pre_hook(lambda c, a: (a[0] * 10,))
    assert scalar(t(X)) == 60.0
    t = T()
    t.register_forward_pre_hook(lambda c, a: (a[0] + 1,))
    t.register_forward_pre_hook(lambda c, a: (a[0] * 10,), prepend=True)
    assert scalar(t(X)) == 33.0


def test_forward_pre_hook_non_tuple_return_replaces_all_args():
    class Add(nn.Cell):
        def construct(self, *args):
            return len(args)

    cell = Add()
    cell.register_forward_pre_hook(lambda c, a: a[0])
    assert cell(X, X, X) == 1


def test_forward_hook_replaces_output_and_none_keeps_it():
    t = T()
    t.register_forward_hook(lambda c, a, out: None)
    t.register_forward_hook(lambda c, a, out: out + 1)
    assert scalar(t(X)) == 4.0


def test_backward_hooks_chain():
    net, seen = Outer(), []

    def b1(cell, gi, go):
        seen.append(("b1", scalar(gi[0])))
        return (gi[0] * 2,)

    def b2(cell, gi, go):
        seen.append(("b2", scalar(gi[0])))
        return (gi[0] * 10,)

    net.t.register_backward_hook(b1)
    net.t.register_backward_hook(b2)
    assert grad_of(net) == 300.0
    assert seen == [("b1", 15.0), ("b2", 30.0)]


def test_backward_pre_hook_replaces_the_arriving_gradient():
    net, seen = Outer(), []

    def pre(cell, grad_output):
        seen.append(("pre", scalar(grad_output[0])))
        return (grad_output[0] * 7,)

    net.t.register_backward_pre_hook(pre)
    net.t.register_backward_hook(lambda c, gi, go: seen.append(("bh", scalar(gi[0]),
                                                                 scalar(go[0]))))
    assert grad_of(net) == 105.0
    assert seen == [("pre", 5.0), ("bh", 105.0, 35.0)]


def test_backward_pre_hook_wrong_arity():
    net = Outer()
    net.t.register_backward_pre_hook(lambda c, go: (go[0], go[0]))
    with pytest.raises(TypeError, match="backward pre hook return value size is 2.*cell 'T'"):
        ms.grad(net)(X)


def test_handles_remove_their_hook():
    net = Outer()
    handle = net.t.register_backward_hook(lambda c, gi, go: (gi[0] * 100,))
    other = net.t.register_backward_hook(lambda c, gi, go: None)
    assert handle.handle_id != other.handle_id
    assert grad_of(net) == 1500.0
    handle.remove()
    assert grad_of(net) == 15.0


def test_hooks_fire_on_plain_forward_calls():
    fired = []
    t = T()
    t.register_forward_pre_hook(lambda c, a: fired.append("pre"))
    t.register_forward_hook(lambda c, a, o: fired.append("post"))
    t(X)
    assert fired == ["pre", "post"]


def test_with_kwargs_hooks():
    class K(nn.Cell):
        def construct(self, x, scale=1.0):
            return x * scale

    k = K()
    k.register_forward_pre_hook(lambda c, args, kwargs: (args, {"scale": 4.0}), with_kwargs=True)
    k.register_forward_hook(lambda c, args, kwargs, out: out + kwargs["scale"], with_kwargs=True)
    assert scalar(k(X)) == 8.0


def test_forward_hook_on_a_bprop_cell_is_ignored():
    class B(nn.Cell):
        def construct(self, x):
            return x * 2

        def bprop(self, x, out, dout):
            return (dout,)

    b = B()
    b.register_forward_hook(lambda c, a, o: o * 100)
    assert scalar(b(X)) == 2.0


def test_a_new_tensor_from_a_pre_hook_cuts_the_gradient():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.relu = nn.ReLU()
            self.relu.register_forward_pre_hook(lambda c, a: Tensor(np.ones([1], np.float32)))

        def construct(self, x, y):
            return self.relu(x + y)

    grads = ops.GradOperation(get_all=True)(Net())(X, X)
    assert [scalar(g) for g in grads] == [0.0, 0.0]


def test_hook_must_be_callable():
    with pytest.raises(TypeError, match="Expected a callable hook function"):
        T().register_forward_hook(3)


def test_cell_id_in_r1_for_forward_hooks_and_cell_in_2x():
    owners = []
    t = T()
    t.register_forward_pre_hook(lambda owner, a: owners.append(owner))
    t(X)
    use_r1("1.6")
    t(X)
    assert owners == [t, f"T({id(t)})"]


def test_r1_cell_hooks_do_nothing_in_graph_mode():
    fired = []
    t = T()
    t.register_forward_hook(lambda c, a, o: fired.append(1))
    ms.set_context(mode=ms.GRAPH_MODE)
    t(X)                                    # 2.10 compiles hooks in: they run
    ms.set_context(compat="1.7")            # mode stays GRAPH_MODE
    t(X)                                    # r1.7 docs: ignored in graph mode
    assert fired == [1]
