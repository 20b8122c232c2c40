"""In-place Tensor methods (``x.add_(y)``...): refms/_tensor_inplace.py.

Expected values from the definitions (x ← f(x, ...)); the graph-mode gradients are
those of the static-graph tutorial's examples (worked by hand: d/dx of
(p₁ + p₂ + x + y)·x + y at x = 1, y = 2 is 6).
"""
import numpy as np
import pytest

import refms
from refms import Tensor, grad, nn


def t(*values, dtype=refms.float32):
    return Tensor(np.array(values), dtype)


@pytest.mark.parametrize("call,want", [
    (lambda x: x.add_(t(1.0, 1.0, 1.0), alpha=2), [3.0, 0.0, 4.5]),
    (lambda x: x.sub_(1), [0.0, -3.0, 1.5]),
    (lambda x: x.mul_(2), [2.0, -4.0, 5.0]),
    (lambda x: x.div_(2), [0.5, -1.0, 1.25]),
    (lambda x: x.div_(2, rounding_mode="floor"), [0.0, -1.0, 1.0]),
    (lambda x: x.floor_divide_(2), [0.0, -1.0, 1.0]),
    (lambda x: x.remainder_(2), [1.0, 0.0, 0.5]),
    (lambda x: x.clamp_(-1, 2), [1.0, -1.0, 2.0]),
    (lambda x: x.fill_(7), [7.0, 7.0, 7.0]),
    (lambda x: x.fill_(t(3.0).reshape(())), [3.0, 3.0, 3.0]),
    (lambda x: x.zero_(), [0.0, 0.0, 0.0]),
    (lambda x: x.copy_(t(4.0)), [4.0, 4.0, 4.0]),
    (lambda x: x.masked_fill_(Tensor(np.array([True, False, True])), 0.0), [0.0, -2.0, 0.0]),
    (lambda x: x.floor_(), [1.0, -2.0, 2.0]),
    (lambda x: x.sign_(), [1.0, -1.0, 1.0]),
    (lambda x: x.exp_(), list(np.exp(np.array([1.0, -2.0, 2.5], np.float32)))),
    (lambda x: x.tanh_(), list(np.tanh(np.array([1.0, -2.0, 2.5], np.float32)))),
])
def test_pynative_updates_the_tensor_and_returns_it(call, want):
    x = t(1.0, -2.0, 2.5)
    out = call(x)
    assert out is x
    np.testing.assert_allclose(x.asnumpy(), want, rtol=1e-6)
    assert x.dtype == refms.float32


def test_the_dtype_and_shape_are_kept():
    x = t(2, 3, dtype=refms.int32)
    x.add_(1.5)
    assert x.dtype == refms.int32 and x.asnumpy().tolist() == [3, 4]
    y = Tensor(np.zeros((2, 3), np.float32))
    y.add_(t(1.0, 2.0, 3.0))
    np.testing.assert_array_equal(y.asnumpy(), [[1, 2, 3], [1, 2, 3]])
    with pytest.raises(RuntimeError):
        t(1.0, 2.0).add_(Tensor(np.ones((2, 2), np.float32)))


def test_addmm_():
    x = Tensor(np.ones((2, 2), np.float32))
    a = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))
    x.addmm_(a, a, beta=2, alpha=0.5)
    np.testing.assert_allclose(x.asnumpy(), 2 + 0.5 * np.array([[7.0, 10.0], [15.0, 22.0]]))


def test_pynative_gradient_sees_the_updated_value():
    def f(x):
        y = x * 2
        y.add_(x)          # y = 3x
        y.mul_(x)          # y = 3x²
        return y
    np.testing.assert_allclose(grad(f)(t(3.0)).asnumpy(), [18.0])


def test_pynative_in_place_on_a_differentiated_leaf_raises():
    """Documented: "A leaf tensor that requires grad is being used in an inplace operator"."""
    def f(x, y):
        x.add_(y)
        return x
    with pytest.raises(RuntimeError, match="leaf tensor"):
        grad(f)(t(2.0), t(3.0))


def test_graph_mode_rebinds_the_variable():
    @refms.jit
    def f(x, y):
        z = x * 1
        z.add_(y)
        w = z.mul_(2)
        return z, w

    z, w = f(t(2.0), t(3.0))
    np.testing.assert_allclose(z.asnumpy(), [10.0])
    np.testing.assert_allclose(w.asnumpy(), [10.0])


def test_graph_mode_writes_an_updated_input_back():
    """MindSpore 2.10 (recorded on CPU): after ``x.add_(y)`` in a jit function, the caller's x
    holds x + y."""
    @refms.jit
    def f(x, y):
        x.add_(y)
        x.mul_(2)
        return x

    x = t(2.0)
    out = f(x, t(3.0))
    np.testing.assert_allclose(out.asnumpy(), [10.0])
    np.testing.assert_allclose(x.asnumpy(), [10.0])
    y = t(1.0)

    @refms.jit
    def g(y):
        z = y * 1
        z.add_(1)                      # z is not an input: y keeps its value
        return z
    np.testing.assert_allclose(g(y).asnumpy(), [2.0])
    np.testing.assert_allclose(y.asnumpy(), [1.0])


def test_graph_mode_loop_and_gradient():
    @refms.jit
    def f(x):
        y = x * 1
        for _ in range(3):
            y.add_(x)
        return y
    np.testing.assert_allclose(f(t(3.0)).asnumpy(), [12.0])
    np.testing.assert_allclose(grad(f)(t(3.0)).asnumpy(), [4.0])


def test_graph_mode_parameter_example_gradients():
    """The tutorial's "Parameter usage" example: out = (p₁ + p₂ + x + y)·x, then out.add_(y)."""
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.param1 = refms.Parameter(t(1.0), name="param1")
            self.param2 = refms.Parameter(t(1.0), name="param2")

        def construct(self, x, y):
            out = self.param1 + self.param2 + x + y
            out = out * x
            return out.add_(y)

    net = Net()
    net.construct = refms.jit(net.construct)
    x, y = t(1.0), t(2.0)
    np.testing.assert_allclose(net(x, y).asnumpy(), [7.0])
    inputs, params = refms.ops.GradOperation(get_all=True, get_by_list=True)(
        net, refms.ParameterTuple(net.trainable_params()))(x, y)
    np.testing.assert_allclose([g.asnumpy()[0] for g in inputs], [6.0, 2.0])
    np.testing.assert_allclose([g.asnumpy()[0] for g in params], [1.0, 1.0])
