"""Every kernel of the CUDA library, run on its CPU shim build, against a reference.

On a machine with a GPU the same tests run a second time on the real library (those
cases carry the ``gpu`` marker and the id ``gpu``).

The references are refms's numpy reference kernels (refms/kernels/) where the contract
has the kernel, numpy for elementwise ops, and float64 central differences or the
published formulas for backward passes and optimizer updates.  Shapes are small: the
shim runs one std::thread per CUDA thread for kernels with barriers.  Shapes are chosen
to cross tile and block edges (GEMM tiles are 128 x 128, K in slices of 8 through two
shared buffers: odd K crosses both; reduction blocks 32..256).
"""
import re

import numpy as np
import pytest

from refms._cuda import build, ops
from refms.kernels import reference_kernel

from refms._cuda import device

from cuda_support import gpu_reason, shim_runtime

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def _devices():
    params = [pytest.param("shim", id="shim")]
    if gpu_reason() is None:
        params.append(pytest.param("gpu", id="gpu", marks=pytest.mark.gpu))
    return params


@pytest.fixture(scope="module", params=_devices())
def rt(request):
    runtime = shim_runtime() if request.param == "shim" else device.runtime()
    runtime.synchronous = False
    return runtime


RNG = np.random.default_rng(1234)


def rand(*shape, dtype=np.float32, low=-2.0, high=2.0):
    return RNG.uniform(low, high, size=shape).astype(dtype)


def close(actual, expected, dtype=np.float32, rtol=None, atol=None):
    tight = np.dtype(dtype) == np.float64
    np.testing.assert_allclose(actual, expected, rtol=rtol or (1e-10 if tight else 2e-5),
                               atol=atol or (1e-10 if tight else 2e-5))


def _global_kernels():
    """Names of the __global__ functions of csrc/*.cu (``__global__ void [__launch_bounds__(..)] name(``)."""
    names = set()
    for path in build.sources():
        names.update(re.findall(r"^__global__ void\s+(?:__launch_bounds__\(.*\)\s+)?(\w+)\(",
                                open(path).read(), re.M))
    return names


def test_every_kernel_is_tested():
    """Every __global__ kernel of csrc/ is listed in KERNEL_TESTS with the tests that run it."""
    assert _global_kernels() == set(KERNEL_TESTS)
    for tests in KERNEL_TESTS.values():
        for name in tests.split():
            assert callable(globals()[name]), name


# ---- elementwise -------------------------------------------------------------------------

UNARY_NUMPY = {
    "copy": lambda x: x, "neg": np.negative, "abs": np.abs, "exp": np.exp, "log": np.log,
    "sqrt": np.sqrt, "rsqrt": lambda x: 1 / np.sqrt(x), "square": np.square,
    "reciprocal": lambda x: 1 / x, "sin": np.sin, "cos": np.cos, "tanh": np.tanh,
    "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan,
    "sigmoid": lambda x: 1 / (1 + np.exp(-x)), "relu": lambda x: np.maximum(x, 0),
    "floor": np.floor, "ceil": np.ceil, "round": np.rint, "sign": np.sign, "log1p": np.log1p,
    "expm1": np.expm1, "erf": None, "logical_not": np.logical_not,
    "softplus": lambda x: np.log1p(np.exp(x)), "isnan": np.isnan, "isinf": np.isinf,
    "isfinite": np.isfinite, "trunc": np.trunc,
    "gelu": lambda x: 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3))),
}
POSITIVE = ("log", "sqrt", "rsqrt", "log1p")


@pytest.mark.parametrize("name", sorted(UNARY_NUMPY))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_unary(rt, name, dtype):
    low, high = (0.1, 3) if name in POSITIVE else (-1, 1) if name in ("asin", "acos") else (-3, 3)
    x = rand(3, 5, 7, dtype=dtype, low=low, high=high)
    x[0, 0, 0] = 2.5 if high > 1 else 1.0                  # a tie for round (half to even)
    if name in ("isnan", "isinf", "isfinite"):
        x[1, 1, :3] = [np.nan, np.inf, -np.inf]
    expected_fn = UNARY_NUMPY[name]
    if expected_fn is None:                                # erf: scipy is a dependency
        from scipy.special import erf as expected_fn
    out = ops.unary(name, rt.to_device(x)).numpy()
    close(out, expected_fn(x), dtype)


@pytest.mark.parametrize("name", ["copy", "neg", "abs", "square", "relu", "sign"])
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.int8])
def test_unary_integer(rt, name, dtype):
    x = RNG.integers(-9, 10, size=(4, 6)).astype(dtype)
    np.testing.assert_array_equal(ops.unary(name, rt.to_device(x)).numpy(), UNARY_NUMPY[name](x))


def test_unary_reads_strided_view(rt):
    x = rand(4, 6)
    view = rt.to_device(x).transpose((1, 0))              # strides (1, 6): read in place
    np.testing.assert_array_equal(ops.unary("copy", view).numpy(), x.T)
    np.testing.assert_array_equal(ops.contiguous(view).numpy(), x.T)


BINARY_NUMPY = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide,
    "floor_div": np.floor_divide, "floor_mod": np.mod, "pow": np.power,
    "maximum": np.maximum, "minimum": np.minimum, "equal": np.equal,
    "not_equal": np.not_equal, "less": np.less, "less_equal": np.less_equal,
    "greater": np.greater, "greater_equal": np.greater_equal,
    "logical_and": np.logical_and, "logical_or": np.logical_or,
    "squared_difference": lambda a, b: (a - b) ** 2,
    "relu_grad": lambda dy, x: np.where(x > 0, dy, 0),
    "sigmoid_grad": lambda y, dy: dy * y * (1 - y), "tanh_grad": lambda y, dy: dy * (1 - y * y),
    "atan2": np.arctan2, "fmod": np.fmod,
}


@pytest.mark.parametrize("name", sorted(BINARY_NUMPY))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_binary_broadcasting(rt, name, dtype):
    a = rand(3, 1, 4, dtype=dtype, low=0.5 if name == "pow" else -3, high=3)
    b = rand(5, 1, dtype=dtype, low=0.5, high=3) * np.where(RNG.random((5, 1)) < 0.5, -1, 1).astype(dtype)
    if name == "pow":
        b = np.abs(b)
    b[0, 0] = a[0, 0, 0]                                   # one equal pair for the comparisons
    out = ops.binary(name, rt.to_device(a), rt.to_device(b)).numpy()
    expected = BINARY_NUMPY[name](a, b)
    assert out.shape == expected.shape == (3, 5, 4)
    if expected.dtype == bool:
        np.testing.assert_array_equal(out, expected)
    else:
        close(out, expected, dtype)


@pytest.mark.parametrize("name", ["add", "sub", "mul", "floor_div", "floor_mod", "maximum",
                                  "minimum", "less", "equal", "pow"])
@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_binary_integer(rt, name, dtype):
    a = RNG.integers(-20, 20, size=(6, 5)).astype(dtype)
    b = RNG.integers(1, 6, size=(5,)).astype(dtype) * np.array([1, -1, 1, -1, 1], dtype)
    if name == "pow":
        b = np.abs(b)
    out = ops.binary(name, rt.to_device(a), rt.to_device(b)).numpy()
    np.testing.assert_array_equal(out, BINARY_NUMPY[name](a, b))


def test_binary_maximum_nan_rule_is_mindspores(rt):
    """x > y ? x : y (MindSpore 2.10, recorded): maximum(nan, 0) = 0, maximum(1, nan) = nan."""
    a = np.array([np.nan, 1.0, 2.0], np.float32)
    b = np.array([0.0, np.nan, 1.0], np.float32)
    np.testing.assert_array_equal(ops.binary("maximum", rt.to_device(a), rt.to_device(b)).numpy(),
                                  np.array([0.0, np.nan, 2.0], np.float32))


CAST_DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.int32, np.int64, np.float32, np.float64]


@pytest.mark.parametrize("src", CAST_DTYPES)
@pytest.mark.parametrize("dst", CAST_DTYPES)
def test_cast(rt, src, dst):
    x = np.array([0, 1, -1, 2.75, -3.5, 100, 0.25], dtype=np.float64)
    if np.dtype(src).kind in "bu":
        x = np.abs(x)
    x = x.astype(src)
    np.testing.assert_array_equal(ops.cast(rt.to_device(x), dst).numpy(), x.astype(dst))


def test_cast_to_bool_is_nonzero(rt):
    x = np.array([0.0, 0.5, -2.0], np.float32)
    np.testing.assert_array_equal(ops.cast(rt.to_device(x), np.bool_).numpy(), [False, True, True])


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_, np.uint8])
def test_fill(rt, dtype):
    value = 1 if dtype == np.bool_ else 7
    out = ops.fill(rt, (3, 1000), dtype, value).numpy()      # several blocks
    np.testing.assert_array_equal(out, np.full((3, 1000), value, dtype))


def test_fill_large_int64_is_exact(rt):
    value = 2 ** 60 + 3
    assert ops.fill(rt, (2,), np.int64, value).numpy().tolist() == [value, value]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
def test_arange(rt, dtype):
    start, step = (1.5, 0.25) if np.dtype(dtype).kind == "f" else (-3, 2)
    out = ops.arange(rt, 300, start, step, dtype).numpy()
    close(out, (start + np.arange(300) * step).astype(dtype), dtype)


def test_where(rt):
    cond = RNG.random((4, 1)) < 0.5
    a, b = rand(4, 3), rand(3)
    out = ops.where(rt.to_device(cond), rt.to_device(a), rt.to_device(b)).numpy()
    np.testing.assert_array_equal(out, np.where(cond, a, b))


def test_copy_strided_into_a_view(rt):
    out = ops.fill(rt, (4, 6), np.float32, 0.0)
    x = rand(4, 3)
    ops.copy_into(out.view((4, 3), (6, 2), 1), rt.to_device(x))      # columns 1, 3, 5
    expected = np.zeros((4, 6), np.float32)
    expected[:, 1::2] = x
    np.testing.assert_array_equal(out.numpy(), expected)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_concat_stack_split(rt, axis):
    xs = [rand(2, 3, 4), rand(2, 3, 4), rand(2, 3, 4)]
    if axis == 1:
        xs[1] = rand(2, 5, 4)
    device_xs = [rt.to_device(x) for x in xs]
    np.testing.assert_array_equal(ops.concat(device_xs, axis).numpy(), np.concatenate(xs, axis))
    if axis != 1:
        np.testing.assert_array_equal(ops.stack(device_xs, axis).numpy(), np.stack(xs, axis))
    whole = np.concatenate(xs, axis)
    for sections in (next(d for d in (3, 2, 1) if whole.shape[axis] % d == 0), [1, 3]):
        parts = ops.split(rt.to_device(whole), sections, axis)
        expected = np.split(whole, sections, axis)
        assert len(parts) == len(expected)
        for part, want in zip(parts, expected):
            np.testing.assert_array_equal(part.numpy(), want)


@pytest.mark.parametrize("axis", [0, 1, (0, 2), None])
def test_flip(rt, axis):
    x = rand(3, 4, 5)
    np.testing.assert_array_equal(ops.flip(rt.to_device(x), axis).numpy(), np.flip(x, axis))


@pytest.mark.parametrize("reps", [2, (2, 1), (1, 3, 2)])
def test_tile(rt, reps):
    x = rand(2, 3)
    np.testing.assert_array_equal(ops.tile(rt.to_device(x), reps).numpy(), np.tile(x, reps))


# ---- reductions --------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["sum", "mean", "max", "min", "prod"])
@pytest.mark.parametrize("axis,keepdims", [((), False), ((1,), False), ((0, 2), True),
                                           ((2,), True), ((0,), False)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_reduce(rt, name, axis, keepdims, dtype):
    x = rand(3, 70, 2, dtype=dtype, low=0.9 if name == "prod" else -2, high=1.1 if name == "prod" else 2)
    out = ops.reduce(name, rt.to_device(x), axis, keepdims).numpy()
    expected = reference_kernel(f"reduce_{name}")(x, axis, keepdims)
    assert out.shape == expected.shape
    close(out, expected, dtype, rtol=1e-4 if name == "prod" and dtype == np.float32 else None)


@pytest.mark.parametrize("name", ["sum", "max"])
def test_reduce_longer_than_a_block(rt, name):
    """600 elements per output: each of the 256 threads folds several before the tree."""
    x = rand(2, 600, dtype=np.float64)
    close(ops.reduce(name, rt.to_device(x), (1,), False).numpy(),
          reference_kernel(f"reduce_{name}")(x, (1,), False), np.float64)


@pytest.mark.parametrize("name", ["sum", "max", "min", "prod"])
def test_reduce_integer_exact(rt, name):
    x = RNG.integers(-3, 4, size=(6, 7)).astype(np.int64)
    out = ops.reduce(name, rt.to_device(x), (0,), False).numpy()
    np.testing.assert_array_equal(out, reference_kernel(f"reduce_{name}")(x, (0,), False))


def test_reduce_max_propagates_nan(rt):
    x = rand(3, 40)
    x[1, 17] = np.nan
    out = ops.reduce("max", rt.to_device(x), (1,), False).numpy()
    np.testing.assert_array_equal(np.isnan(out), [False, True, False])


@pytest.mark.parametrize("name", ["argmax", "argmin"])
@pytest.mark.parametrize("axis", [0, 1, 2])
def test_argmax(rt, name, axis):
    x = np.round(rand(3, 100, 2), 1)                        # many ties: the first index wins
    out = ops.reduce(name, rt.to_device(x), (axis,), False).numpy()
    np.testing.assert_array_equal(out, getattr(np, name)(x, axis=axis))


def test_argmax_first_nan_wins(rt):
    x = np.array([[1.0, np.nan, 5.0, np.nan]], np.float32)
    assert ops.reduce("argmax", rt.to_device(x), (1,), False).numpy().tolist() == [1]


# ---- softmax family ----------------------------------------------------------------------

@pytest.mark.parametrize("log", [False, True])
@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_softmax(rt, log, axis, dtype):
    x = rand(3, 40, 2, dtype=dtype, low=-30, high=30)
    out = ops.softmax(rt.to_device(x), axis, log).numpy()
    expected = reference_kernel("log_softmax" if log else "softmax")(x, axis)
    close(out, expected, dtype, atol=1e-5)


def _central_difference(f, x, dy, eps=1e-6):
    """d(sum(f(x) * dy))/dx by float64 central differences."""
    grad = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        plus, minus = x.copy(), x.copy()
        plus[i] += eps
        minus[i] -= eps
        grad[i] = (np.sum(f(plus) * dy) - np.sum(f(minus) * dy)) / (2 * eps)
    return grad


@pytest.mark.parametrize("log", [False, True])
@pytest.mark.parametrize("axis", [0, 1])
def test_softmax_backward(rt, log, axis):
    x, dy = rand(3, 5, dtype=np.float64), rand(3, 5, dtype=np.float64)
    forward = reference_kernel("log_softmax" if log else "softmax")
    y = forward(x, axis)
    dx = ops.softmax_backward(rt.to_device(y), rt.to_device(dy), axis, log).numpy()
    np.testing.assert_allclose(dx, _central_difference(lambda v: forward(v, axis), x, dy), atol=1e-7)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_softmax_cross_entropy(rt, dtype):
    logits = rand(6, 300, dtype=dtype, low=-10, high=10)
    labels = RNG.dirichlet(np.ones(300), size=6).astype(dtype)
    loss, dlogits = ops.softmax_cross_entropy(rt.to_device(logits), rt.to_device(labels))
    expected_loss, expected_dlogits = reference_kernel("softmax_cross_entropy")(logits, labels)
    close(loss.numpy(), expected_loss, dtype, rtol=1e-5)
    close(dlogits.numpy(), expected_dlogits, dtype)


@pytest.mark.parametrize("is_grad", [False, True])
@pytest.mark.parametrize("label_dtype", [np.int32, np.int64])
def test_sparse_softmax_cross_entropy(rt, is_grad, label_dtype):
    logits = rand(2, 5, 10)
    labels = RNG.integers(0, 10, size=(2, 5)).astype(label_dtype)
    out = ops.sparse_softmax_cross_entropy(rt.to_device(logits), rt.to_device(labels), is_grad).numpy()
    expected = reference_kernel("sparse_softmax_cross_entropy")(logits, labels, is_grad)
    assert out.shape == expected.shape
    close(out, expected, np.float32)


def test_sparse_softmax_cross_entropy_bad_label_is_reported(rt):
    logits, labels = rand(3, 4), np.array([0, 4, 1], np.int32)
    ops.sparse_softmax_cross_entropy(rt.to_device(logits), rt.to_device(labels), False,
                                     op="SparseSoftmaxCrossEntropyWithLogits")
    with pytest.raises(RuntimeError, match=r"SparseSoftmaxCrossEntropyWithLogits.*index 4 is out of range \[0, 4\)"):
        rt.synchronize()


# ---- matrix products ---------------------------------------------------------------------

@pytest.mark.parametrize("transpose_a", [False, True])
@pytest.mark.parametrize("transpose_b", [False, True])
@pytest.mark.parametrize("m,k,n", [(1, 1, 1), (131, 20, 9), (7, 130, 140), (64, 0, 3), (129, 43, 257)])
def test_matmul(rt, transpose_a, transpose_b, m, k, n):
    a = rand(*((k, m) if transpose_a else (m, k)))
    b = rand(*((n, k) if transpose_b else (k, n)))
    out = ops.matmul(rt.to_device(a), rt.to_device(b), transpose_a, transpose_b).numpy()
    close(out, reference_kernel("matmul")(a, b, transpose_a, transpose_b), rtol=1e-5, atol=1e-4)


def test_matmul_float64(rt):
    a, b = rand(40, 33, dtype=np.float64), rand(33, 17, dtype=np.float64)
    close(ops.matmul(rt.to_device(a), rt.to_device(b)).numpy(), a @ b, np.float64)


@pytest.mark.parametrize("a_shape,b_shape", [((3, 5, 4), (3, 4, 6)), ((2, 1, 5, 4), (3, 4, 6)),
                                             ((5, 4), (2, 4, 6)), ((2, 3, 5, 4), (1, 4, 6))])
@pytest.mark.parametrize("transpose_b", [False, True])
def test_batch_matmul(rt, a_shape, b_shape, transpose_b):
    a = rand(*a_shape)
    b = rand(*b_shape)
    if transpose_b:
        b = np.ascontiguousarray(np.swapaxes(b, -1, -2))
    out = ops.batch_matmul(rt.to_device(a), rt.to_device(b), False, transpose_b).numpy()
    close(out, reference_kernel("batch_matmul")(a, b, False, transpose_b), rtol=1e-5, atol=1e-5)


# ---- convolution -------------------------------------------------------------------------

CONV_CASES = [  # x shape, w shape, stride, pad (t, b, l, r), dilation, groups
    ((2, 3, 7, 6), (4, 3, 3, 3), (1, 1), (0, 0, 0, 0), (1, 1), 1),
    ((1, 4, 9, 8), (6, 2, 3, 2), (2, 1), (1, 2, 0, 1), (1, 2), 2),
    ((2, 2, 5, 5), (3, 1, 1, 1), (1, 2), (0, 0, 0, 0), (1, 1), 1) if False else
    ((2, 2, 5, 5), (4, 2, 1, 1), (1, 2), (0, 0, 0, 0), (1, 1), 1),
    ((1, 6, 6, 6), (6, 1, 3, 3), (1, 1), (1, 1, 1, 1), (2, 2), 6),       # depthwise
]


@pytest.mark.parametrize("x_shape,w_shape,stride,pad,dilation,groups", CONV_CASES)
def test_conv2d_forward_and_backward(rt, x_shape, w_shape, stride, pad, dilation, groups):
    x, w = rand(*x_shape), rand(*w_shape)
    args = (stride, pad, dilation, groups)
    y = reference_kernel("conv2d")(x, w, *args)
    close(ops.conv2d(rt.to_device(x), rt.to_device(w), *args).numpy(), y, rtol=1e-5, atol=1e-5)
    dout = rand(*y.shape)
    dx = ops.conv2d_backprop_input(rt.to_device(dout), rt.to_device(w), x_shape, *args).numpy()
    close(dx, reference_kernel("conv2d_backprop_input")(dout, w, x_shape, *args), rtol=1e-5, atol=1e-5)
    dw = ops.conv2d_backprop_filter(rt.to_device(dout), rt.to_device(x), w_shape, *args).numpy()
    close(dw, reference_kernel("conv2d_backprop_filter")(dout, x, w_shape, *args), rtol=1e-5, atol=1e-4)


def test_im2col_col2im_are_adjoint(rt):
    """<im2col(x), c> == <x, col2im(c)> (the col2im kernel is im2col's transpose)."""
    x = rand(2, 3, 6, 5, dtype=np.float64)
    geometry = ((3, 2), (2, 1), (1, 0, 2, 1), (1, 2))
    cols, out_hw = ops.im2col(rt.to_device(x), *geometry)
    c = rand(*cols.shape, dtype=np.float64)
    back = ops.col2im(rt.to_device(c), x.shape, *geometry, out_hw).numpy()
    np.testing.assert_allclose(np.sum(cols.numpy() * c), np.sum(x * back), rtol=1e-12)


# ---- pooling -----------------------------------------------------------------------------

POOL_CASES = [((2, 3, 7, 6), (2, 2), (2, 2), (0, 0, 0, 0)),
              ((1, 2, 7, 7), (3, 3), (2, 2), (1, 1, 1, 1)),
              ((1, 1, 5, 6), (3, 2), (1, 2), (0, 1, 1, 0))]


@pytest.mark.parametrize("x_shape,kernel,stride,pad", POOL_CASES)
def test_max_pool2d(rt, x_shape, kernel, stride, pad):
    x = np.round(rand(*x_shape), 1)                        # ties: the first maximum wins
    x.flat[3] = np.nan
    y, argmax = ops.max_pool2d(rt.to_device(x), kernel, stride, pad)
    expected_y, expected_argmax = reference_kernel("max_pool2d")(x, kernel, stride, pad)
    np.testing.assert_array_equal(y.numpy(), expected_y)
    np.testing.assert_array_equal(argmax.numpy(), expected_argmax)
    dout = rand(*expected_y.shape)
    dx = ops.max_pool2d_grad(rt.to_device(dout), argmax, x_shape).numpy()
    close(dx, reference_kernel("max_pool2d_grad")(dout, expected_argmax, x_shape))
    ddx = rand(*x_shape)
    ddy = ops.max_pool2d_grad_grad(rt.to_device(ddx), argmax).numpy()
    np.testing.assert_array_equal(ddy, reference_kernel("max_pool2d_grad_grad")(ddx, expected_argmax))


@pytest.mark.parametrize("x_shape,kernel,stride,pad", POOL_CASES)
@pytest.mark.parametrize("explicit_divisor", [False, True])
def test_avg_pool2d(rt, x_shape, kernel, stride, pad, explicit_divisor):
    x = rand(*x_shape)
    divisor = float(kernel[0] * kernel[1]) if explicit_divisor else None
    y = ops.avg_pool2d(rt.to_device(x), kernel, stride, pad, divisor).numpy()
    expected = reference_kernel("avg_pool2d")(x, kernel, stride, pad, divisor)
    close(y, expected)
    dout = rand(*expected.shape)
    dx = ops.avg_pool2d_grad(rt.to_device(dout), x_shape, kernel, stride, pad, divisor).numpy()
    close(dx, reference_kernel("avg_pool2d_grad")(dout, x_shape, kernel, stride, pad, divisor))


# ---- batch normalisation -----------------------------------------------------------------

@pytest.mark.parametrize("shape", [(4, 3), (5, 2, 7), (3, 4, 5, 6)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_batch_norm_statistics_and_forward(rt, shape, dtype):
    x = rand(*shape, dtype=dtype) + dtype(100)               # |mean| >> std: two passes needed
    mean, variance = ops.batch_norm_statistics(rt.to_device(x))
    expected_mean, expected_variance = reference_kernel("batch_norm_statistics")(x)
    close(mean.numpy(), expected_mean, dtype, rtol=1e-6)
    close(variance.numpy(), expected_variance, dtype, rtol=1e-4)
    c = shape[1]
    scale, bias = rand(c, dtype=dtype), rand(c, dtype=dtype)
    y = ops.batch_norm(rt.to_device(x), rt.to_device(scale), rt.to_device(bias), mean, variance, 1e-5)
    expected = reference_kernel("batch_norm")(x, scale, bias, expected_mean, expected_variance, 1e-5)
    close(y.numpy(), expected, dtype, rtol=1e-4, atol=1e-4 if dtype == np.float32 else None)


@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_backward(rt, training):
    x, dy = rand(3, 2, 2, 2, dtype=np.float64), rand(3, 2, 2, 2, dtype=np.float64)
    scale, bias = rand(2, dtype=np.float64), rand(2, dtype=np.float64)
    eps = 1e-3
    running_mean, running_var = rand(2, dtype=np.float64), rand(2, dtype=np.float64, low=0.5, high=2)
    stats = reference_kernel("batch_norm_statistics")

    def forward(x_, scale_=scale, bias_=bias):
        mean, var = stats(x_) if training else (running_mean, running_var)
        return reference_kernel("batch_norm")(x_, scale_, bias_, mean, var, eps)

    mean, var = stats(x) if training else (running_mean, running_var)
    dx, dscale, dbias = ops.batch_norm_backward(rt.to_device(dy), rt.to_device(x), rt.to_device(scale),
                                                rt.to_device(mean), rt.to_device(var), eps, training)
    np.testing.assert_allclose(dx.numpy(), _central_difference(forward, x, dy), atol=1e-6)
    np.testing.assert_allclose(dscale.numpy(), _central_difference(lambda s: forward(x, s), scale, dy), atol=1e-6)
    np.testing.assert_allclose(dbias.numpy(), _central_difference(lambda b: forward(x, scale, b), bias, dy), atol=1e-6)


# ---- optimizers --------------------------------------------------------------------------

@pytest.mark.parametrize("nesterov", [False, True])
def test_apply_momentum(rt, nesterov):
    var, accum = rand(300, dtype=np.float64), rand(300, dtype=np.float64)
    dvar, daccum = rt.to_device(var), rt.to_device(accum)
    lr, momentum = 0.1, 0.9
    for _ in range(3):
        grad = rand(300, dtype=np.float64)
        ops.apply_momentum(dvar, daccum, rt.to_device(grad), lr, momentum, nesterov)
        accum = momentum * accum + grad
        var = var - (lr * grad + lr * momentum * accum if nesterov else lr * accum)
    close(dvar.numpy(), var, np.float64)
    close(daccum.numpy(), accum, np.float64)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("nesterov", [False, True])
def test_apply_momentum_device_scalars_equals_the_cpu_kernel(rt, dtype, nesterov):
    var, accum = rand(1000, dtype=dtype), rand(1000, dtype=dtype)
    lr, momentum = np.asarray(0.1, dtype), np.asarray(0.9, dtype)
    dvar, daccum = rt.to_device(var), rt.to_device(accum)
    dlr, dmomentum = rt.to_device(lr), rt.to_device(momentum)
    for _ in range(3):
        grad = rand(1000, dtype=dtype)
        ops.apply_momentum(dvar, daccum, rt.to_device(grad), dlr, dmomentum, nesterov)
        reference_kernel("apply_momentum")(var, accum, grad, lr, momentum, nesterov)
    close(dvar.numpy(), var, dtype)
    close(daccum.numpy(), accum, dtype)


@pytest.mark.parametrize("momentum,dampening,weight_decay,nesterov",
                         [(0.0, 0.0, 0.0, False), (0.9, 0.1, 0.01, False), (0.9, 0.0, 0.0, True)])
def test_sgd(rt, momentum, dampening, weight_decay, nesterov):
    param, accum = rand(50, dtype=np.float64), np.zeros(50)
    dparam, daccum = rt.to_device(param), rt.to_device(accum)
    lr = 0.05
    for step in range(3):
        grad = rand(50, dtype=np.float64)
        ops.sgd(dparam, daccum, rt.to_device(grad), lr, momentum, dampening, weight_decay, nesterov, step == 0)
        g = grad + weight_decay * param                   # torch.optim.SGD's documented update
        if momentum:
            accum = g if step == 0 else momentum * accum + (1 - dampening) * g
            g = g + momentum * accum if nesterov else accum
        param = param - lr * g
    close(dparam.numpy(), param, np.float64)


@pytest.mark.parametrize("nesterov", [False, True])
def test_adam(rt, nesterov):
    var, m, v = rand(40, dtype=np.float64), np.zeros(40), np.zeros(40)
    dvar, dm, dv = rt.to_device(var), rt.to_device(m), rt.to_device(v)
    lr, beta1, beta2, eps = 0.01, 0.9, 0.999, 1e-8
    for t in range(1, 4):
        grad = rand(40, dtype=np.float64)
        ops.adam(dvar, dm, dv, rt.to_device(grad), lr, beta1, beta2, eps, beta1 ** t, beta2 ** t, nesterov)
        m = beta1 * m + (1 - beta1) * grad
        v = beta2 * v + (1 - beta2) * grad ** 2
        lr_t = lr * np.sqrt(1 - beta2 ** t) / (1 - beta1 ** t)
        direction = beta1 * m + (1 - beta1) * grad if nesterov else m
        var = var - lr_t * direction / (np.sqrt(v) + eps)
    close(dvar.numpy(), var, np.float64)
    close(dm.numpy(), m, np.float64)
    close(dv.numpy(), v, np.float64)


# ---- bits, scans, sorting (bits.cu, scan.cu, sort.cu) -----------------------------------------

@pytest.mark.parametrize("name", ["bitwise_and", "bitwise_or", "invert"])
@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8, np.int16, np.int32, np.int64])
def test_bitwise(rt, name, dtype):
    a = RNG.integers(-100, 100, size=(3, 1, 5)).astype(dtype)
    b = RNG.integers(-100, 100, size=(4, 1)).astype(dtype)
    reference = reference_kernel(name)
    if name == "invert":
        np.testing.assert_array_equal(ops.bitwise(name, rt.to_device(a)).numpy(), reference(a))
    else:
        np.testing.assert_array_equal(ops.bitwise(name, rt.to_device(a), rt.to_device(b)).numpy(),
                                      reference(a, b))


def test_bitwise_rejects_floats(rt):
    with pytest.raises(TypeError, match="integers or bools"):
        ops.bitwise("bitwise_and", rt.to_device(rand(3)), rt.to_device(rand(3)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.int8])
def test_fmod(rt, dtype):
    a = (rand(3, 1, 7, low=-9, high=9) if np.dtype(dtype).kind == "f" else
         RNG.integers(-20, 20, size=(3, 1, 7))).astype(dtype)
    b = np.array([[3], [-2], [0.75 if np.dtype(dtype).kind == "f" else 5]], dtype)
    out = ops.binary("fmod", rt.to_device(a), rt.to_device(b)).numpy()
    expected = reference_kernel("fmod")(a, b)
    if np.dtype(dtype).kind == "f":
        close(out, expected, dtype)
    else:
        np.testing.assert_array_equal(out, expected)


def test_round_to_bfloat16(rt):
    x = rand(5, 33) * 1e3
    bits = np.array([0x3F808000, 0x3F818000, 0x3F80FFFF, 0x7F7FFFFF], np.uint32)   # ties, overflow
    x[0, :4] = bits.view(np.float32)
    x[1, :3] = [np.nan, np.inf, -np.inf]
    out = ops.round_to_bfloat16(rt.to_device(x)).numpy()
    np.testing.assert_array_equal(out.view(np.uint32), reference_kernel("round_to_bfloat16")(x).view(np.uint32))


@pytest.mark.parametrize("axis", [0, 1, 2])
@pytest.mark.parametrize("exclusive,reverse", [(False, False), (True, False), (False, True), (True, True)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
def test_cumsum(rt, axis, exclusive, reverse, dtype):
    x = rand(3, 5, 7, low=-3, high=3).astype(dtype)
    out = ops.cumsum(rt.to_device(x), axis, exclusive, reverse).numpy()
    close(out, reference_kernel("cumsum")(x, axis, exclusive, reverse), dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_exclusive_cumprod_both(rt, dtype):
    x = rand(4, 3, 5, low=-2, high=2).astype(dtype)
    x[0, 0, 2] = 0                                         # a zero: no division
    out = ops.exclusive_cumprod_both(rt.to_device(x)).numpy()
    close(out, reference_kernel("exclusive_cumprod_both")(x), dtype)


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_sort_is_stable_with_nan_placed_as_numpy(rt, axis, descending, dtype):
    x = RNG.integers(-4, 4, size=(5, 7, 3)).astype(dtype)          # many ties
    if np.dtype(dtype).kind == "f":
        x[1, 2, 0] = x[3, 3, 1] = x[4, 0, 2] = np.nan
    values, indices = ops.sort(rt.to_device(x), axis, descending)
    expected_values, expected_indices = reference_kernel("sort")(x, axis, descending)
    np.testing.assert_array_equal(values.numpy(), expected_values)
    np.testing.assert_array_equal(indices.numpy(), expected_indices)


@pytest.mark.parametrize("sorted_", [True, False])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_topk(rt, sorted_, dtype):
    x = RNG.integers(-5, 5, size=(3, 4, 9)).astype(dtype)
    x[0, 1, 3] = np.nan
    values, indices = ops.topk(rt.to_device(x), 4, sorted_)
    expected_values, expected_indices = reference_kernel("topk")(x, 4, sorted_)
    np.testing.assert_array_equal(values.numpy(), expected_values)
    np.testing.assert_array_equal(indices.numpy(), expected_indices)


# ---- indexing through offsets, scatters, segments, masks (scatter.cu) ---------------------

from refms._cuda import indexing  # noqa: E402

INDEXES = [
    (1, slice(None, None, 2)), (Ellipsis, None, slice(3, 0, -1)), (-1,),       # basic: views
    (np.array([2, 0, 2]),), (slice(1, 3), np.array([[0], [4]]), np.array([1, 2, 3])),
    (np.array([True, False, True]),), (np.array([1, 0]), Ellipsis, np.array([0, 3])),
    (np.array([0, 2]), slice(None), np.array([1, 1])),                          # split: first
]


@pytest.mark.parametrize("index", INDEXES, ids=range(len(INDEXES)))
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8])
def test_getitem(rt, index, dtype):
    x = (rand(3, 5, 4) * 10).astype(dtype)
    out = indexing.getitem(rt.to_device(x), index).numpy()
    np.testing.assert_array_equal(out, reference_kernel("getitem")(x, index))


def test_getitem_of_a_strided_view(rt):
    x = rand(4, 6)
    view = rt.to_device(x).transpose((1, 0))
    index = (np.array([5, 0, 2]), slice(1, None))
    np.testing.assert_array_equal(indexing.getitem(view, index).numpy(), x.T[index])


@pytest.mark.parametrize("index", INDEXES, ids=range(len(INDEXES)))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_setitem(rt, index, dtype):
    x = rand(3, 5, 4, dtype=dtype)
    shape = np.zeros((3, 5, 4))[index].shape
    value = rand(*shape[-1:], dtype=dtype)                # broadcast along the leading axes
    target = rt.to_device(x)
    indexing.setitem(target, index, rt.to_device(value))
    expected = x.copy()
    reference_kernel("setitem")(expected, index, value)
    np.testing.assert_array_equal(target.numpy(), expected)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
def test_index_add_accumulates_repeats(rt, dtype):
    index = (np.array([1, 3, 1, 1]), slice(None, None, 2))
    updates = (rand(4, 3) * 5).astype(dtype)
    out = indexing.index_add(rt, (5, 6), index, rt.to_device(updates)).numpy()
    close(out, reference_kernel("index_add")((5, 6), index, updates), dtype, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("axis", [0, 1, 2])
@pytest.mark.parametrize("reduction", ["none", "add"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_scatter_along_axis(rt, axis, reduction, dtype):
    x = rand(3, 4, 5, dtype=dtype)
    shape = list(x.shape)
    shape[axis] = 2
    if reduction == "none":        # distinct positions along the axis: the written value is defined
        index = np.argsort(RNG.random(x.shape), axis=axis).take(range(2), axis=axis) - x.shape[axis]
    else:
        index = RNG.integers(-x.shape[axis], x.shape[axis], size=shape)
    updates = rand(*shape, dtype=dtype)
    out = ops.scatter_along_axis(rt.to_device(x), rt.to_device(index), rt.to_device(updates), axis,
                                 reduction).numpy()
    expected = reference_kernel("scatter_along_axis")(x, index % x.shape[axis], updates, axis, reduction)
    close(out, expected, dtype)


def test_scatter_along_axis_bad_index_is_reported(rt):
    x, index = rt.to_device(rand(2, 3)), rt.to_device(np.array([[0], [3]], np.int64))
    ops.scatter_along_axis(x, index, rt.to_device(rand(2, 1)), 1, op="TensorScatterElements")
    with pytest.raises(RuntimeError, match=r"For 'TensorScatterElements', the index 3 is out of range \[-3, 3\)"):
        rt.synchronize()


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
@pytest.mark.parametrize("ids_dtype", [np.int32, np.int64])
def test_segment_sum(rt, dtype, ids_dtype):
    x = (rand(7, 3, 2) * 4).astype(dtype)
    ids = np.array([0, 4, -1, 4, 2, 0, 4], ids_dtype)
    out = ops.segment_sum(rt.to_device(x), rt.to_device(ids), 5).numpy()
    close(out, reference_kernel("segment_sum")(x, ids, 5), dtype, rtol=1e-6, atol=1e-6)


def test_segment_sum_bad_id_is_reported(rt):
    ops.segment_sum(rt.to_device(rand(3)), rt.to_device(np.array([0, 5, 1])), 4, op="UnsortedSegmentSum")
    with pytest.raises(RuntimeError, match=r"For 'UnsortedSegmentSum', the index 5 is out of range \[0, 4\)"):
        rt.synchronize()


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
def test_masked_select_and_scatter(rt, dtype):
    x = (rand(3, 5, 7) * 9).astype(dtype)
    mask = RNG.random((5, 1)) < 0.5                        # broadcast against x
    out = ops.masked_select(rt.to_device(x), rt.to_device(mask)).numpy()
    np.testing.assert_array_equal(out, reference_kernel("masked_select")(x, mask))
    source = (rand(200) * 9).astype(dtype)
    full_mask = np.broadcast_to(mask, x.shape)
    scattered = ops.masked_scatter(rt.to_device(x), rt.to_device(mask), rt.to_device(source)).numpy()
    np.testing.assert_array_equal(scattered, reference_kernel("masked_scatter")(x, full_mask, source))


def test_masked_scatter_short_source_is_reported(rt):
    x, mask = rt.to_device(rand(6)), rt.to_device(np.ones(6, bool))
    ops.masked_scatter(x, mask, rt.to_device(rand(4)), op="MaskedScatter")
    with pytest.raises(RuntimeError, match=r"For 'MaskedScatter', the index 4 is out of range \[0, 4\)"):
        rt.synchronize()


# ---- random ------------------------------------------------------------------------------

def _philox_reference(counter, key):
    """Philox4x32-10 in Python integers (Salmon et al. 2011)."""
    c, k = list(counter), list(key)
    mask = 0xFFFFFFFF
    for _ in range(10):
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k[0], p1 & mask, (p0 >> 32) ^ c[3] ^ k[1], p0 & mask]
        k = [(k[0] + 0x9E3779B9) & mask, (k[1] + 0xBB67AE85) & mask]
    return c


def test_philox_known_answer(rt):
    """Random123's known-answer vector for counter 0, key 0, and the Python reference."""
    assert ops.philox(rt, 4, 0, 0).numpy().tolist() == [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]
    seed, offset = 0x123456789ABCDEF, 77
    words = ops.philox(rt, 10, seed, offset).numpy().tolist()
    expected = []
    for group in range(3):
        expected += _philox_reference([group, 0, offset, 0], [seed & 0xFFFFFFFF, seed >> 32])
    assert words == expected[:10]


def test_uniform_and_bernoulli(rt):
    u = ops.uniform(rt, (4000,), seed=3, offset=0).numpy()
    assert u.dtype == np.float32 and u.min() >= 0 and u.max() < 1
    assert abs(u.mean() - 0.5) < 0.02 and abs(u.var() - 1 / 12) < 0.01
    words = ops.philox(rt, 8, 3, 0).numpy()
    np.testing.assert_array_equal(u[:8], (words >> 8).astype(np.float32) / np.float32(2 ** 24))
    b = ops.bernoulli(rt, (4000,), 0.3, seed=3, offset=0, dtype=np.int32).numpy()
    np.testing.assert_array_equal(b, (u < 0.3).astype(np.int32))        # the same draws


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_normal_is_box_muller_of_the_philox_words(rt, dtype):
    z = ops.normal(rt, (4001,), seed=9, offset=2, dtype=dtype).numpy()
    assert z.dtype == dtype and abs(z.mean()) < 0.06 and abs(z.std() - 1) < 0.05
    u = (ops.philox(rt, 8, 9, 2).numpy() >> 8) / 2.0 ** 24
    radius = np.sqrt(-2 * np.log(1 - u[0::2]))
    expected = np.stack([radius * np.cos(2 * np.pi * u[1::2]), radius * np.sin(2 * np.pi * u[1::2])], 1)
    close(z[:8], expected.reshape(-1).astype(dtype), dtype, rtol=1e-6, atol=1e-6)


def test_uniform_int(rt):
    values = ops.uniform_int(rt, (3, 1001), -3, 4, seed=4, offset=0).numpy()
    assert values.dtype == np.int32 and values.min() == -3 and values.max() == 3
    counts = np.bincount(values.reshape(-1) + 3)
    assert counts.min() > 3003 / 7 * 0.8
    words = ops.philox(rt, 6, 4, 0).numpy().astype(np.uint64)
    np.testing.assert_array_equal(values.reshape(-1)[:6], -3 + ((words * 7) >> 32).astype(np.int64))
    with pytest.raises(ValueError, match="low must be less than high"):
        ops.uniform_int(rt, (2,), 3, 3, seed=1, offset=0)


def test_dropout(rt):
    x = rand(1000) + 3
    y, mask = ops.dropout(rt.to_device(x), 0.7, seed=5, offset=0)
    y, mask = y.numpy(), mask.numpy()
    assert set(np.unique(mask)) <= {0.0, 1.0}
    assert abs(mask.mean() - 0.7) < 0.05                  # 1000 Bernoulli(0.7): sd 0.0145
    close(y, x * mask / np.float32(0.7))
    again = ops.dropout(rt.to_device(x), 0.7, seed=5, offset=0)[1].numpy()
    other = ops.dropout(rt.to_device(x), 0.7, seed=5, offset=1)[1].numpy()
    np.testing.assert_array_equal(again, mask)             # counter-based: reproducible
    assert (other != mask).any()
    assert not ops.dropout(rt.to_device(x), 0.0, seed=5, offset=0)[0].numpy().any()


# ---- indexing ----------------------------------------------------------------------------

@pytest.mark.parametrize("axis", [0, 1, 2])
@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
def test_gather(rt, axis, index_dtype):
    x = rand(3, 4, 5)
    index = RNG.integers(-x.shape[axis], x.shape[axis], size=(2, 3)).astype(index_dtype)
    out = ops.gather(rt.to_device(x), rt.to_device(index), axis).numpy()
    np.testing.assert_array_equal(out, np.take(x, index, axis=axis))


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_take_along_axis(rt, axis):
    x = rand(3, 4, 5)
    shape = list(x.shape)
    shape[axis] = 2
    index = RNG.integers(-x.shape[axis], x.shape[axis], size=shape).astype(np.int64)
    out = ops.take_along_axis(rt.to_device(x), rt.to_device(index), axis).numpy()
    np.testing.assert_array_equal(out, np.take_along_axis(x, index, axis))


def test_take_along_axis_bad_index_is_reported(rt):
    x, index = rt.to_device(rand(2, 3)), rt.to_device(np.array([[0], [3]], np.int32))
    ops.take_along_axis(x, index, 1, op="GatherD")
    with pytest.raises(RuntimeError, match=r"For 'GatherD', the index 3 is out of range \[-3, 3\)"):
        rt.synchronize()


def test_one_hot(rt):
    index = np.array([0, 3, -1, 2], np.int64)
    out = ops.one_hot(rt.to_device(index), 4, 1.0, 0.0, np.float32).numpy()
    expected = np.zeros((4, 4), np.float32)
    expected[[0, 1, 3], [0, 3, 2]] = 1
    np.testing.assert_array_equal(out, expected)


# ---- asynchronous errors and memory ------------------------------------------------------

def test_bad_gather_index_surfaces_at_next_synchronizing_point(rt):
    x, index = rt.to_device(rand(5, 2)), rt.to_device(np.array([1, 7], np.int64))
    out = ops.gather(x, index, 0, op="Gather")                # returns: the kernel runs "later"
    following = ops.unary("exp", x)                           # more work is queued after it
    with pytest.raises(RuntimeError, match=r"For 'Gather', the index 7 is out of range \[-5, 5\).*"
                                           r"synchronizing point.*pynative_synchronize=True"):
        out.numpy()
    following.numpy()                                         # the record was cleared


def test_bad_gather_index_raises_at_the_op_when_synchronous(rt):
    x, index = rt.to_device(rand(5, 2)), rt.to_device(np.array([-6], np.int32))
    rt.synchronous = True
    try:
        with pytest.raises(RuntimeError, match=r"For 'Gather', the index -6 is out of range \[-5, 5\)\.$"):
            ops.gather(x, index, 0, op="Gather")
    finally:
        rt.synchronous = False


def test_memory_is_reused_and_released(rt):
    before = rt.memory_in_use()
    a = rt.to_device(rand(1000))
    assert rt.memory_in_use() == before + 4096
    ptr = a.ptr
    del a
    assert rt.memory_in_use() == before
    b = rt.to_device(rand(1000))                              # same size: the cached block
    assert b.ptr == ptr


#: kernel -> the tests of this file that launch it (checked by test_every_kernel_is_tested).
KERNEL_TESTS = {
    "unary_kernel": "test_unary test_unary_integer test_unary_reads_strided_view",
    "unary_predicate_kernel": "test_unary",
    "binary_kernel": "test_binary_broadcasting test_binary_integer",
    "compare_kernel": "test_binary_broadcasting test_binary_integer",
    "cast_kernel": "test_cast",
    "cast_to_bool_kernel": "test_cast test_cast_to_bool_is_nonzero",
    "fill_kernel": "test_fill test_fill_large_int64_is_exact",
    "arange_kernel": "test_arange",
    "where_kernel": "test_where",
    "reduce_kernel": "test_reduce test_reduce_longer_than_a_block test_reduce_integer_exact "
                     "test_reduce_max_propagates_nan",
    "arg_reduce_kernel": "test_argmax test_argmax_first_nan_wins",
    "softmax_kernel": "test_softmax",
    "softmax_backward_kernel": "test_softmax_backward",
    "softmax_cross_entropy_kernel": "test_softmax_cross_entropy",
    "sparse_softmax_cross_entropy_kernel": "test_sparse_softmax_cross_entropy "
                                           "test_sparse_softmax_cross_entropy_bad_label_is_reported",
    "mean_of_rows_kernel": "test_sparse_softmax_cross_entropy",
    "gemm_kernel": "test_matmul test_matmul_float64 test_batch_matmul test_conv2d_forward_and_backward",
    "im2col_kernel": "test_conv2d_forward_and_backward test_im2col_col2im_are_adjoint",
    "col2im_kernel": "test_conv2d_forward_and_backward test_im2col_col2im_are_adjoint",
    "max_pool2d_kernel": "test_max_pool2d",
    "max_pool2d_grad_kernel": "test_max_pool2d",
    "max_pool2d_grad_grad_kernel": "test_max_pool2d",
    "avg_pool2d_kernel": "test_avg_pool2d",
    "avg_pool2d_grad_kernel": "test_avg_pool2d",
    "batch_norm_statistics_kernel": "test_batch_norm_statistics_and_forward",
    "batch_norm_kernel": "test_batch_norm_statistics_and_forward",
    "batch_norm_backward_kernel": "test_batch_norm_backward",
    "apply_momentum_kernel": "test_apply_momentum test_apply_momentum_device_scalars_equals_the_cpu_kernel",
    "sgd_kernel": "test_sgd",
    "adam_kernel": "test_adam",
    "philox_kernel": "test_philox_known_answer",
    "dropout_kernel": "test_dropout",
    "uniform_kernel": "test_uniform_and_bernoulli",
    "bernoulli_kernel": "test_uniform_and_bernoulli",
    "copy_strided_kernel": "test_copy_strided_into_a_view test_concat_stack_split test_flip test_tile",
    "gather_kernel": "test_gather test_bad_gather_index_surfaces_at_next_synchronizing_point "
                     "test_bad_gather_index_raises_at_the_op_when_synchronous",
    "one_hot_kernel": "test_one_hot",
    "take_along_axis_kernel": "test_take_along_axis test_take_along_axis_bad_index_is_reported",
    "bitwise_kernel": "test_bitwise test_bitwise_rejects_floats",
    "round_to_bfloat16_kernel": "test_round_to_bfloat16",
    "cumsum_kernel": "test_cumsum test_masked_select_and_scatter",
    "exclusive_cumprod_both_kernel": "test_exclusive_cumprod_both",
    "sort_kernel": "test_sort_is_stable_with_nan_placed_as_numpy test_topk",
    "normal_kernel": "test_normal_is_box_muller_of_the_philox_words",
    "uniform_int_kernel": "test_uniform_int",
    "gather_offsets_kernel": "test_getitem test_getitem_of_a_strided_view",
    "scatter_offsets_kernel": "test_setitem",
    "scatter_add_offsets_kernel": "test_index_add_accumulates_repeats",
    "scatter_along_axis_kernel": "test_scatter_along_axis test_scatter_along_axis_bad_index_is_reported",
    "segment_sum_kernel": "test_segment_sum test_segment_sum_bad_id_is_reported",
    "masked_select_kernel": "test_masked_select_and_scatter",
    "masked_scatter_kernel": "test_masked_select_and_scatter test_masked_scatter_short_source_is_reported",
}
