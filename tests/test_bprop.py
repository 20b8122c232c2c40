"""A Cell's own ``bprop`` (semantics 6); expected values printed by MindSpore 2.10."""
import numpy as np
import pytest

import refms as ms
from refms import Parameter, Tensor, nn, ops
from refms.ops import GradOperation

grad_all = GradOperation(get_all=True)


def values(result):
    if isinstance(result, Tensor):
        return result.asnumpy().tolist()
    return tuple(values(r) for r in result)


class SeedNet(nn.Cell):
    """Seeds 000/002: construct = x·y·y, bprop returns (x + y, x·y)."""

    def construct(self, x, y):
        z = x * y
        z = z * y
        return z

    def bprop(self, x, y, out, dout):
        return x + y, x * y


def test_seed_example():
    assert values(grad_all(SeedNet())(Tensor(1.0), Tensor(2.0))) == (3.0, 2.0)


def test_the_bprop_ignoring_dout_ignores_sens():
    op = GradOperation(get_all=True, sens_param=True)
    assert values(op(SeedNet())(Tensor(1.0), Tensor(2.0), Tensor(5.0))) == (3.0, 2.0)


def test_nested_bprop_cell_sees_out_and_dout():
    seen = []

    class Logged(SeedNet):
        def bprop(self, x, y, out, dout):
            seen.append((out.asnumpy().item(), dout.asnumpy().item()))
            return x + y, x * y

    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.n = Logged()

        def construct(self, x, y):
            return self.n(2 * x, y) * 3

    assert values(grad_all(Outer())(Tensor(1.0), Tensor(2.0))) == (8.0, 4.0)
    assert seen == [(8.0, 3.0)]


class WithParam(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor([2.0]), name="w")

    def construct(self, x):
        return x * self.w

    def bprop(self, x, out, dout):
        return (dout * 7,)


def test_parameters_inside_a_bprop_cell_get_zero_gradients():
    net = WithParam()
    gx, (gw,) = ms.grad(net, 0, net.trainable_params())(Tensor([3.0]))
    assert gx.asnumpy().tolist() == [7.0] and gw.asnumpy().tolist() == [0.0]


def test_outer_parameters_are_unaffected():
    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = WithParam()
            self.v = Parameter(Tensor([5.0]), name="v")

        def construct(self, x):
            return self.inner(x * self.v)

    net = Outer()
    _, (gv, gw) = ms.grad(net, 0, net.trainable_params())(Tensor([3.0]))   # Outer.v first
    assert gw.asnumpy().tolist() == [0.0] and gv.asnumpy().tolist() == [21.0]


def test_forward_values_are_those_of_construct():
    assert SeedNet()(Tensor(1.0), Tensor(2.0)).asnumpy().item() == 4.0


def make(bprop_result):
    class Net(nn.Cell):
        def construct(self, x, y):
            return x * y

        def bprop(self, x, y, out, dout):
            return bprop_result(x, y)

    return Net()


def test_too_few_gradients_is_an_error_naming_the_cell_and_shapes():
    net = make(lambda x, y: (x,))
    with pytest.raises(RuntimeError, match=r"Grad size should lager than forward inputs, but got "
                                           r"1 vs 2.*cell 'Net'.*\[\(\), \(\)\]"):
        grad_all(net)(Tensor(1.0), Tensor(2.0))


def test_non_tensor_inputs_count_in_the_arity():
    class K(nn.Cell):
        def construct(self, x, y, k):
            return x * y * k

        def bprop(self, x, y, k, out, dout):
            return x, y

    with pytest.raises(RuntimeError, match="got 2 vs 3"):
        grad_all(K())(Tensor(1.0), Tensor(2.0), 3)


def test_none_result_is_a_type_error():
    with pytest.raises(TypeError, match="The python function output is none"):
        grad_all(make(lambda x, y: None))(Tensor(1.0), Tensor(2.0))


def test_extra_entries_are_ignored_and_none_entries_mean_zero():
    net = make(lambda x, y: (x + 10, None, x))
    assert values(grad_all(net)(Tensor(1.0), Tensor(2.0))) == (11.0, 0.0)


def test_numbers_and_dtype_are_converted():
    assert values(grad_all(make(lambda x, y: (1.0, 2.0)))(Tensor(1.0), Tensor(2.0))) == (1.0, 2.0)
    net = make(lambda x, y: (Tensor([3], ms.int32), Tensor([4], ms.int32)))
    gx, gy = grad_all(net)(Tensor([1.0]), Tensor([2.0]))
    assert gx.dtype == ms.float32 and gx.asnumpy().tolist() == [3.0]


def test_broadcast_shaped_gradient_is_sum_reduced_and_other_shapes_raise():
    net = make(lambda x, y: (Tensor([1.0, 2.0]), y))
    gx, _ = grad_all(net)(Tensor([1.0]), Tensor([2.0]))
    assert gx.asnumpy().tolist() == [3.0]
    net = make(lambda x, y: (Tensor([1.0, 2.0, 3.0]), y))
    with pytest.raises(RuntimeError, match=r"input 0 has shape \(3,\).*input's shape \(2,\)"):
        grad_all(net)(Tensor([1.0, 1.0]), Tensor([2.0, 2.0]))


def test_a_bare_tensor_for_one_input():
    class One(nn.Cell):
        def construct(self, x):
            return x * x

        def bprop(self, x, out, dout):
            return ops.ones_like(x) * 9

    assert ms.grad(One())(Tensor([2.0])).asnumpy().tolist() == [9.0]


def test_defaults_of_construct_are_bound():
    seen = []

    class D(nn.Cell):
        def construct(self, x, y=2.0):
            return x * y

        def bprop(self, x, y, out, dout):
            seen.append(y)
            return (dout * y, 0.0)

    assert ms.grad(D())(Tensor([3.0])).asnumpy().tolist() == [2.0]
    assert seen == [2.0]


def test_tuple_outputs_get_tuple_douts_with_integer_ones():
    seen = []

    class Pair(nn.Cell):
        def construct(self, x):
            return x * 2, Tensor([1, 2], ms.int32)

        def bprop(self, x, out, dout):
            seen.append(tuple(d.dtype for d in dout))
            return (dout[0] * 2,)

    assert ms.grad(Pair())(Tensor([1.0])).asnumpy().tolist() == [2.0]
    assert seen == [(ms.float32, ms.int32)]


def test_without_gradient_recording_construct_runs_plainly():
    calls = []

    class B(SeedNet):
        def bprop(self, x, y, out, dout):
            calls.append(1)
            return x, y

    B()(Tensor(1.0), Tensor(2.0))
    assert calls == []


class Sampler(nn.Cell):
    """Seed 003's MySampler: numpy picks, a custom bprop scatters the gradient back."""

    def __init__(self, max_num):
        super().__init__()
        self.max_num = max_num

    def construct(self, x):
        pos_value, pos_indice = [], []
        for i in range(x.shape[0]):
            a = x[i].asnumpy()
            pos_ind = np.random.choice(np.where(a > 0.5)[0], self.max_num)
            pos_value.append(Tensor(a[pos_ind], ms.float32))
            pos_indice.append(Tensor(pos_ind, ms.int32))
        return ops.stack(pos_value, axis=0), ops.stack(pos_indice, axis=0)

    def bprop(self, x, out, dout):
        pos_indices, grad_x = out[1], dout[0]
        dx = [ops.UnsortedSegmentSum()(grad_x[i], pos_indices[i], x.shape[1])
              for i in range(x.shape[0])]
        return ops.stack(dx, axis=0)


def test_seed_003_sampler_with_set_grad_runs_forward_once():
    ms.set_seed(1)
    x = Tensor(np.random.uniform(0, 3, (2, 5)), ms.float32)
    sampler = Sampler(3).set_grad()
    _, pos_indices = sampler(x)
    assert pos_indices.asnumpy().tolist() == [[3, 1, 3], [1, 4, 1]]
    dx = ms.grad(sampler, grad_position=0)(x)
    assert dx.asnumpy().tolist() == [[0, 1, 0, 2, 0], [0, 2, 0, 0, 1]]
