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


# -- index, scatter and random in-place methods (refms/_tensor_inplace_index.py) ---------------
# MindSpore 2.10's CPU backend has no kernel for them ("The kernel InplaceIndexAddExt
# unregistered"), so the expected values come from numpy's indexing written out below.

X0 = np.arange(12, dtype=np.float64).reshape(3, 4) / 4 - 1


def i64(*values):
    return Tensor(np.array(values, np.int64))


def _index_add(x, dim, index, src, alpha):
    out = x.copy()
    for k, j in enumerate(index):
        if dim == 0:
            out[j] += alpha * src[k]
        else:
            out[:, j] += alpha * src[:, k]
    return out


def _index_copy(x, dim, index, src):
    out = x.copy()
    for k, j in enumerate(index):
        if dim == 0:
            out[j] = src[k]
        else:
            out[:, j] = src[:, k]
    return out


def _scatter(x, dim, index, src, add):
    out = x.copy()
    for p in np.ndindex(*index.shape):
        target = list(p)
        target[dim] = index[p]
        out[tuple(target)] = out[tuple(target)] + src[p] if add else src[p]
    return out


SRC34 = np.linspace(-2, 3, 12).reshape(3, 4)
SRC32 = np.linspace(-2, 3, 6).reshape(3, 2)
IDX_SCATTER = np.array([[0, 2], [1, 3], [0, 1]], np.int64)

#: (name, method call on (x, src) -> x, numpy reference on (x, src), src array)
INDEX_METHODS = [
    ("index_add_-dim0", lambda x, s: x.index_add_(0, i64(2, 0, 2), s, alpha=2),
     lambda x, s: _index_add(x, 0, [2, 0, 2], s, 2), SRC34),
    ("index_add_-dim1", lambda x, s: x.index_add_(1, i64(3, 0), s),
     lambda x, s: _index_add(x, 1, [3, 0], s, 1), SRC32),
    ("index_copy_", lambda x, s: x.index_copy_(1, i64(3, 0), s),
     lambda x, s: _index_copy(x, 1, [3, 0], s), SRC32),
    ("index_fill_", lambda x, s: x.index_fill_(1, i64(1, 3), -5.0),
     lambda x, s: np.where(np.isin(np.arange(4), [1, 3])[None, :], -5.0, x), None),
    ("index_fill_-tensor", lambda x, s: x.index_fill_(0, i64(1), Tensor(np.array(7.0))),
     lambda x, s: np.where(np.arange(3)[:, None] == 1, 7.0, x), None),
    ("scatter_", lambda x, s: x.scatter_(1, Tensor(IDX_SCATTER), s),
     lambda x, s: _scatter(x, 1, IDX_SCATTER, s, False), SRC32),
    ("scatter_-larger-src", lambda x, s: x.scatter_(1, Tensor(IDX_SCATTER), s),
     lambda x, s: _scatter(x, 1, IDX_SCATTER, s[:, :2], False), SRC34),
    ("scatter_-value", lambda x, s: x.scatter_(0, Tensor(np.array([[2, 0, 1]], np.int64)),
                                               value=9.0),
     lambda x, s: _scatter(x, 0, np.array([[2, 0, 1]]), np.full((1, 3), 9.0), False), None),
    ("scatter_add_", lambda x, s: x.scatter_add_(1, Tensor(IDX_SCATTER), s),
     lambda x, s: _scatter(x, 1, IDX_SCATTER, s, True), SRC32),
    ("masked_scatter_", lambda x, s: x.masked_scatter_(Tensor(np.array([True, False, True,
                                                                         False])), s),
     lambda x, s: np.where(np.array([True, False, True, False])[None, :],
                           np.zeros_like(x) + _masked_source(s), x), SRC34),
    ("put_", lambda x, s: x.put_(i64(0, 5, -1), s),
     lambda x, s: _put(x, [0, 5, 11], s.reshape(-1), False), np.array([-1.0, -2.0, -3.0])),
    ("put_-accumulate", lambda x, s: x.put_(i64(1, 1, -1), s, accumulate=True),
     lambda x, s: _put(x, [1, 1, 11], s, True), np.array([10.0, 20.0, 30.0])),
    ("index_put_", lambda x, s: x.index_put_((i64(0, 2), i64(1, 3)), s),
     lambda x, s: _put(x, [1, 11], s, False), np.array([-1.0, -2.0])),
    ("index_put_-rows-accumulate", lambda x, s: x.index_put_((i64(0, 0),), s, accumulate=True),
     lambda x, s: x + np.array([[2.0], [0.0], [0.0]]) * s, np.array([1.0, -1.0, 0.5, 2.0])),
    ("fill_diagonal_", lambda x, s: x.fill_diagonal_(2.5),
     lambda x, s: np.where(np.eye(3, 4, dtype=bool), 2.5, x), None),
]


def _masked_source(s):
    """The masked positions in row-major order take source[0], source[1], ..."""
    out = np.zeros((3, 4))
    order = iter(s.reshape(-1))
    for r in range(3):
        for c in (0, 2):
            out[r, c] = next(order)
    return out


def _put(x, index, src, accumulate):
    out = x.reshape(-1).copy()
    for k, j in enumerate(index):
        out[j] = out[j] + src[k] if accumulate else src[k]
    return out.reshape(x.shape)


def _method_on_a_copy(call):
    """y = x·1 (not a leaf), the in-place call on y, y returned (what a program writes)."""
    def run(x, s):
        y = x * 1
        call(y, s)
        return y
    return run


@pytest.mark.parametrize("mode", ["pynative", "graph"])
@pytest.mark.parametrize("name,call,ref,src", INDEX_METHODS, ids=[m[0] for m in INDEX_METHODS])
def test_index_methods_follow_numpy(name, call, ref, src, mode):
    s = np.zeros(1) if src is None else src
    want = ref(X0.astype(np.float32).astype(np.float64), s.astype(np.float32))
    x = Tensor(X0.astype(np.float32))
    if mode == "pynative":
        out = call(x, Tensor(s.astype(np.float32)))
        assert out is x
    else:
        out = refms.jit(_method_on_a_copy(call))(x, Tensor(s.astype(np.float32)))
    assert out.dtype == refms.float32
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("name,call,ref,src", [m for m in INDEX_METHODS if m[3] is not None],
                         ids=[m[0] for m in INDEX_METHODS if m[3] is not None])
def test_index_methods_gradients_float64(name, call, ref, src):
    """⟨∇ Σ y·u, v⟩ of y = x·1 updated in place equals the float64 central difference."""
    rng = np.random.default_rng(5)
    u = rng.standard_normal(X0.shape)
    fn = _method_on_a_copy(call)

    def projected(x, s):
        return (fn(x, s) * Tensor(u)).sum()
    v = [rng.standard_normal(X0.shape), rng.standard_normal(src.shape)]

    def value(step):
        return float(projected(Tensor(X0 + step * v[0]), Tensor(src + step * v[1])).asnumpy())
    numeric = (value(1e-6) - value(-1e-6)) / 2e-6
    gx, gs = grad(projected, grad_position=(0, 1))(Tensor(X0), Tensor(src))
    analytic = float((gx.asnumpy() * v[0]).sum() + (gs.asnumpy() * v[1]).sum())
    np.testing.assert_allclose(analytic, numeric, rtol=1e-6, atol=1e-8)


def test_fill_diagonal_wrap_and_cube():
    """torch's layout: a tall matrix with wrap restarts after a gap row; a cube fills (i, i, i)."""
    tall = Tensor(np.zeros((7, 3), np.float32)).fill_diagonal_(2.0, wrap=True).asnumpy()
    want = np.zeros((7, 3))
    for r in (0, 1, 2, 4, 5, 6):
        want[r, r % 4] = 2.0
    np.testing.assert_array_equal(tall, want)
    np.testing.assert_array_equal(
        Tensor(np.zeros((7, 3), np.float32)).fill_diagonal_(2.0).asnumpy(),
        np.where(np.eye(7, 3, dtype=bool), 2.0, 0.0))
    cube = Tensor(np.zeros((3, 3, 3), np.float32)).fill_diagonal_(1.0).asnumpy()
    want = np.zeros((3, 3, 3))
    for i in range(3):
        want[i, i, i] = 1.0
    np.testing.assert_array_equal(cube, want)


@pytest.mark.parametrize("call,error", [
    (lambda: Tensor(np.zeros(3, np.float32)).fill_diagonal_(1.0), ValueError),
    (lambda: Tensor(np.zeros((2, 3, 3), np.float32)).fill_diagonal_(1.0), ValueError),
    (lambda: Tensor(np.zeros(4, np.float32)).put_(Tensor(np.array([0], np.int32)),
                                                  Tensor(np.ones(1, np.float32))), TypeError),
    (lambda: Tensor(np.zeros(4, np.float32)).put_(i64(0), Tensor(np.ones(1, np.int32))),
     TypeError),
    (lambda: Tensor(np.zeros((2, 2), np.float32)).index_put_(i64(0), Tensor(np.ones(2, np.float32))),
     TypeError),
    (lambda: Tensor(np.zeros((2, 2), np.float32)).index_put_((i64(0),), Tensor(np.ones(2)),
                                                             accumulate=1), TypeError),
    (lambda: Tensor(np.zeros(4, np.float32)).random_(3, 3), RuntimeError),
    (lambda: Tensor(np.zeros(4, np.float32)).random_(0.5, 3), TypeError),
    (lambda: Tensor(np.zeros(4, np.float32)).masked_scatter_(
        Tensor(np.ones(4, bool)), Tensor(np.ones(2, np.float32))), ValueError),
])
def test_index_and_random_methods_reject_bad_input(call, error):
    """The exception types MindSpore 2.10 documents in each method's Raises section."""
    with pytest.raises(error):
        call()


def test_random_fills_have_their_distributions():
    refms.set_seed(3)
    n = 40000
    b = Tensor(np.zeros(n, np.float32)).bernoulli_(0.25).asnumpy()
    assert set(np.unique(b)) <= {0.0, 1.0} and abs(b.mean() - 0.25) < 0.01
    e = Tensor(np.zeros(n, np.float64)).exponential_(2.0).asnumpy()
    assert e.min() >= 0 and abs(e.mean() - 0.5) < 0.01 and abs(e.var() - 0.25) < 0.02
    r = Tensor(np.zeros(n, np.int32)).random_(2, 5)
    assert r.dtype == refms.int32
    values, counts = np.unique(r.asnumpy(), return_counts=True)
    assert values.tolist() == [2, 3, 4] and counts.min() > n / 3 * 0.95
    big = Tensor(np.zeros(n, np.float32)).random_().asnumpy()
    assert big.min() >= 0 and big.max() < 2 ** 24 and (big == np.floor(big)).all()
    p = Tensor(np.array([0.0, 1.0] * 5, np.float32))
    np.testing.assert_array_equal(Tensor(np.zeros(10, np.float32)).bernoulli_(p).asnumpy(),
                                  p.asnumpy())
