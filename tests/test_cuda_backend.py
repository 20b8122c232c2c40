"""The ``gpu`` kernel backend (refms/_cuda/backend.py) on the CPU shim build.

Every kernel of the backend's table is run through the dispatcher
(``refms.kernels.run``) on device arrays and compared with the cpu reference kernel on
the same host values; results must come back as device arrays, with nothing falling back
through the host.  Then: dtypes without CUDA kernels fall back with a counted copy, and
in-place kernels write device memory.
"""
import numpy as np
import pytest

from refms import kernels
from refms._cuda import backend, device, loader
from refms._cuda.device import DeviceArray

from cuda_support import shim_library_path

RNG = np.random.default_rng(7)


def f32(*shape, low=-2.0, high=2.0):
    return RNG.uniform(low, high, size=shape).astype(np.float32)


@pytest.fixture(scope="module")
def gpu():
    path = shim_library_path()
    if path.startswith("no "):
        pytest.skip(path)
    mp = pytest.MonkeyPatch()
    mp.setenv(loader.ENV_LIBRARY, path)
    loader.reset()
    device.reset_runtime()
    backend.activate(0)                       # gpu is the default backend in this module
    yield kernels.backend("gpu")
    backend.unregister()
    mp.undo()
    loader.reset()
    device.reset_runtime()


X = f32(3, 4)
Y = f32(4)
POS = f32(3, 4, low=0.1, high=3)
IMG = f32(2, 3, 6, 6)
W = f32(4, 3, 3, 3)
LOGITS = f32(5, 7)
SAMPLES = {  # kernel -> argument tuples (host values); arrays go to the device
    **{name: [(X,)] for name in ("neg", "abs", "square", "exp", "sin", "cos", "erf", "floor",
                                 "ceil", "trunc", "round", "sign", "relu", "sigmoid", "tanh",
                                 "gelu", "isnan", "isinf", "isfinite", "expm1")},
    **{name: [(POS,)] for name in ("sqrt", "rsqrt", "reciprocal", "log", "log1p")},
    **{name: [(X / 2,)] for name in ("asin", "acos", "atan")},          # X / 2 lies in [-1, 1]
    "logical_not": [(X > 0,)],
    **{name: [(X, Y), (np.arange(12).reshape(3, 4), np.int32(3) + np.zeros(4, np.int32))]
       for name in ("add", "sub", "mul", "maximum", "minimum", "equal", "not_equal", "greater",
                    "greater_equal", "less", "less_equal")},
    "div": [(X, POS), (np.arange(6), np.full(6, 4))],
    "floor_div": [(X, POS), (np.arange(-6, 6), np.full(12, 4))],
    "floor_mod": [(X, POS), (np.arange(-6, 6), np.full(12, 4))],
    "pow": [(POS, Y)],
    "logical_and": [(X > 0, Y > 0)], "logical_or": [(X > 0, Y > 0)],
    "where": [(X > 0, X, Y)], "clip": [(X, -0.5, 0.5), (X, None, 0.1)], "scale": [(X, 2.5)],
    "relu_grad": [(Y, X), (np.arange(6, dtype=np.int32), np.arange(-3, 3, dtype=np.int32))],
    "add_n": [([X, X, Y],)],
    "cast": [(X, np.int32), (X, np.bool_), (np.arange(5), np.float32)], "copy": [(X,)],
    "full": [((2, 3), 1.5, np.float32), ((4,), 7, np.int64)], "full_like": [(X, 3.0)],
    "arange": [(7, np.int32)],
    "reshape": [(X, (2, 6)), (X, (-1,))], "transpose": [(IMG, (0, 2, 3, 1))],
    "expand_dims": [(X, 1)], "squeeze": [(f32(3, 1, 4), (1,))], "broadcast_to": [(Y, (3, 4))],
    "flip": [(X, 1)], "tile": [(Y, (2, 1))],
    "concat": [([X, X], 0)], "stack": [([X, X], 1)], "split": [(X, 2, 1)],
    **{f"reduce_{name}": [(X, (1,), False), (X, (), True)] for name in ("sum", "mean", "max", "min", "prod")},
    "reduce_all": [(X > -1, (0,), False)], "reduce_any": [(X > 1, (), False)],
    "argmax": [(X, 1), (X, None)], "argmin": [(X, 0)],
    "matmul": [(X, f32(4, 5), False, False), (X, f32(5, 4), False, True)],
    "batch_matmul": [(f32(2, 3, 4), f32(2, 4, 5), False, False)],
    "conv2d": [(IMG, W, (1, 1), (1, 1, 1, 1), (1, 1), 1)],
    "conv2d_backprop_input": [(f32(2, 4, 6, 6), W, IMG.shape, (1, 1), (1, 1, 1, 1), (1, 1), 1)],
    "conv2d_backprop_filter": [(f32(2, 4, 6, 6), IMG, W.shape, (1, 1), (1, 1, 1, 1), (1, 1), 1)],
    "max_pool2d": [(IMG, (2, 2), (2, 2), (0, 0, 0, 0))],
    "avg_pool2d": [(IMG, (3, 3), (2, 2), (1, 1, 1, 1), None)],
    "avg_pool2d_grad": [(f32(2, 3, 3, 3), IMG.shape, (3, 3), (2, 2), (1, 1, 1, 1), None)],
    "softmax": [(X, 1), (X, (0,))], "log_softmax": [(X, -1)],
    "softmax_cross_entropy": [(LOGITS, np.eye(7, dtype=np.float32)[[0, 3, 6, 1, 2]])],
    "sparse_softmax_cross_entropy": [(LOGITS, np.array([0, 3, 6, 1, 2], np.int32), False),
                                     (LOGITS, np.array([0, 3, 6, 1, 2], np.int64), True)],
    "batch_norm_statistics": [(IMG,)],
    "batch_norm": [(IMG, f32(3), f32(3), f32(3), f32(3, low=0.5, high=1.5), 1e-5)],
    "batch_norm_grad": [(f32(*IMG.shape), IMG, f32(3), f32(3), f32(3, low=0.5, high=1.5), 1e-5, training)
                        for training in (True, False)],
    "writable": [(X,)],
    "take": [(X, np.array([2, -1, 0], np.int64), 0), (X, np.array([[3, 1]], np.int32), 1)],
    "take_along_axis": [(X, np.array([[0, 3], [1, 1], [-1, 2]], np.int64), 1),
                        (X, np.array([[2, 0, 1, -3]], np.int32), 0)],
    "one_hot": [(np.array([0, 2, 5, -1], np.int64), 4, 1, np.float32(1), np.float32(0))],
    "count_true": [(X > 0,)],
    "first_outside": [(np.array([0, 9]), 0, 5)],
    "fmod": [(X, POS), (np.arange(-6, 6), np.full(12, 4))],
    "atan2": [(X, POS), (X, -POS), (np.zeros((3, 4)), -POS)],
    "bitwise_and": [(np.arange(12).reshape(3, 4), np.int32(5) + np.zeros(4, np.int32)), (X > 0, Y > 0)],
    "bitwise_or": [(np.arange(12).reshape(3, 4), np.arange(4)), (X > 0, Y > 0)],
    "invert": [(np.arange(-3, 3),), (X > 0,)],
    "round_to_bfloat16": [(X * 1000,), (X.astype(np.float64),)],
    "cumsum": [(X, 1, False, False), (X, 0, True, True), (X > 0, 1, False, False)],
    "exclusive_cumprod_both": [(X,)],
    "batch_norm_unbiased": [(POS[0], 5)],
    "sort": [(X, 1, False), (X, 0, True)], "topk": [(X, 2, True), (X, 3, False)],
    "getitem": [(X, (1, slice(None, None, 2))), (X, (np.array([2, 0]),)), (X, (X[:, 0] > 0,))],
    "index_add": [((3, 4), (np.array([0, 2, 0]),), f32(3, 4))],
    "scatter_along_axis": [(X, np.array([[0, 3], [1, 2], [3, 0]]), f32(3, 2), 1, "none"),
                           (X, np.array([[0, 1], [1, 1], [3, 3]]), f32(3, 2), 1, "add")],
    "segment_sum": [(X, np.array([2, -1, 2]), 4)],
    "masked_select": [(X, X > 0), (X, Y > 0)],
    "masked_scatter": [(X, X > 0, f32(12))],
}
#: where the gpu backend means to differ from the host kernel (documented in backend.py)
EXPECTED_DIFFERENT = {"first_outside": None}
#: kernels whose index arguments stay host values (the primitives' n_tensor_inputs)
TENSOR_INPUTS = {"getitem": 1, "index_add": 0}
RANDOM = ("bernoulli", "uniform_real", "standard_normal", "uniform_int")
IN_PLACE = ("assign", "moving_average", "setitem", "apply_momentum")
SEPARATE = ("max_pool2d_grad", "max_pool2d_grad_grad")   # need an argmax: below


def _upload(value, rt):
    if isinstance(value, np.ndarray):
        return rt.to_device(value)
    if isinstance(value, list):
        return [_upload(v, rt) for v in value]
    return value


def _compare(actual, expected):
    if isinstance(expected, tuple):
        assert isinstance(actual, tuple) and len(actual) == len(expected)
        for a, e in zip(actual, expected):
            _compare(a, e)
        return
    if expected is None or isinstance(expected, (bool, int, np.bool_)) and not isinstance(actual, DeviceArray):
        assert actual == expected
        return
    assert isinstance(actual, DeviceArray), type(actual)
    expected = np.asarray(expected)
    host = actual.numpy()
    assert host.dtype == expected.dtype, (host.dtype, expected.dtype)
    assert host.shape == expected.shape
    np.testing.assert_allclose(host, expected, rtol=2e-5, atol=2e-5)


def test_table_covers_the_samples(gpu):
    missing = set(gpu.kernels) - set(SAMPLES) - set(RANDOM) - set(IN_PLACE) - set(SEPARATE)
    assert not missing, f"kernels of the gpu table without a sample here: {sorted(missing)}"


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_kernel_equals_the_cpu_reference(gpu, name):
    if name not in gpu.kernels:
        pytest.skip(f"{name} is not in this version's kernel contract")
    rt = device.runtime()
    kernels.reset_fallback_counts()
    for args in SAMPLES[name]:
        expected = EXPECTED_DIFFERENT[name] if name in EXPECTED_DIFFERENT else \
            kernels.reference_kernel(name)(*args)
        actual = kernels.run(lambda *a: kernels.call(name)(*a), [_upload(a, rt) for a in args],
                             TENSOR_INPUTS.get(name))
        _compare(actual, expected)
    assert kernels.fallback_counts() == {}


def test_max_pool_gradients(gpu):
    rt = device.runtime()
    y, argmax = kernels.reference_kernel("max_pool2d")(IMG, (2, 2), (2, 2), (0, 0, 0, 0))
    dout = f32(*y.shape)
    got = kernels.run(lambda d, a: kernels.call("max_pool2d_grad")(d, a, IMG.shape),
                      [rt.to_device(dout), rt.to_device(argmax)])
    _compare(got, kernels.reference_kernel("max_pool2d_grad")(dout, argmax, IMG.shape))
    got = kernels.run(lambda d, a: kernels.call("max_pool2d_grad_grad")(d, a),
                      [rt.to_device(IMG), rt.to_device(argmax)])
    _compare(got, kernels.reference_kernel("max_pool2d_grad_grad")(IMG, argmax))


def test_in_place_kernels_write_device_memory(gpu):
    rt = device.runtime()
    variable = rt.to_device(np.zeros((3, 4), np.float32))
    kernels.run(lambda v, u: kernels.call("assign")(v, u), [variable, rt.to_device(Y)])
    np.testing.assert_array_equal(variable.numpy(), np.broadcast_to(Y, (3, 4)))
    kernels.run(lambda v, u: kernels.call("moving_average")(v, u, 0.25),
                [variable, rt.to_device(X)])
    np.testing.assert_allclose(variable.numpy(), 0.75 * np.broadcast_to(Y, (3, 4)) + 0.25 * X, rtol=1e-6)
    target = rt.to_device(X)
    kernels.run(lambda v: kernels.call("setitem")(v, (np.array([0, 2]), slice(1, 3)), 7.5), [target])
    expected = X.copy()
    expected[np.array([0, 2]), 1:3] = 7.5
    np.testing.assert_array_equal(target.numpy(), expected)
    assert kernels.fallback_counts() == {}


@pytest.mark.parametrize("nesterov", [False, True])
def test_apply_momentum_writes_both_buffers_on_the_device(gpu, nesterov):
    rt = device.runtime()
    kernels.reset_fallback_counts()
    p, v, g = X.copy(), Y.copy() * np.ones((3, 4), np.float32), f32(3, 4)
    lr, momentum = np.float32(0.1), np.float32(0.9)
    p_dev, v_dev = rt.to_device(p), rt.to_device(v)
    kernels.run(lambda *a: kernels.call("apply_momentum")(*a, nesterov),
                [p_dev, v_dev, rt.to_device(g), rt.to_device(np.asarray(lr)),
                 rt.to_device(np.asarray(momentum))])
    kernels.reference_kernel("apply_momentum")(p, v, g, lr, momentum, nesterov)
    np.testing.assert_allclose(p_dev.numpy(), p, rtol=1e-6)
    np.testing.assert_allclose(v_dev.numpy(), v, rtol=1e-6)
    assert kernels.fallback_counts() == {}


def test_random_kernels_follow_the_generator(gpu):
    draw = lambda seed: kernels.run(                                           # noqa: E731
        lambda: kernels.call("bernoulli")(np.random.default_rng(seed), (1000,), 0.7, np.float32),
        [])
    first, again, other = draw(1).numpy(), draw(1).numpy(), draw(2).numpy()
    np.testing.assert_array_equal(first, again)
    assert (first != other).any() and abs(first.mean() - 0.7) < 0.06
    u = kernels.run(lambda: kernels.call("uniform_real")(np.random.default_rng(0), (500,)), []).numpy()
    assert u.dtype == np.float32 and 0 <= u.min() and u.max() < 1
    z = kernels.run(lambda: kernels.call("standard_normal")(np.random.default_rng(0), (2, 500)), []).numpy()
    assert z.dtype == np.float32 and z.shape == (2, 500) and abs(z.mean()) < 0.15
    i = kernels.run(lambda: kernels.call("uniform_int")(np.random.default_rng(0), (500,), 2, 5), []).numpy()
    assert i.dtype == np.int32 and set(np.unique(i)) == {2, 3, 4}


def test_dtypes_without_cuda_kernels_fall_back_with_a_counted_copy(gpu):
    rt = device.runtime()
    x = rt.to_device(X.astype(np.float16))
    kernels.reset_fallback_counts()
    out = kernels.run(lambda a: kernels.call("exp")(a), [x])
    assert isinstance(out, DeviceArray) and out.dtype == np.float16
    np.testing.assert_allclose(out.numpy(), np.exp(X.astype(np.float16)), rtol=1e-3)
    assert kernels.fallback_counts() == {("gpu", "exp"): 1}


def test_numpy_on_a_device_array_is_a_clear_error(gpu):
    x = device.runtime().to_device(X)
    with pytest.raises(TypeError, match="numpy cannot compute on a DeviceArray .*refms.kernels"):
        np.maximum(x, 0)
