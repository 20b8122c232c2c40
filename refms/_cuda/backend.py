"""The ``gpu`` kernel backend: refms's kernel contract served by the CUDA library.

:mod:`refms.kernels` dispatches every primitive's kernels by the backend of its tensors'
arrays (``refms/kernels/backend.py``: the protocol).  This module builds the ``gpu``
backend -- arrays are :class:`~refms._cuda.device.DeviceArray`, kernels are the launchers
of :mod:`refms._cuda.ops` -- and ``activate`` makes it the default, so that new
tensors and parameters live on the device (``set_context(device_target="GPU")``).

Each contract kernel keeps the reference kernel's dtype rules: the result dtype is what
the numpy reference gives for the same input dtypes (found once per dtype combination on
one-element host arrays), inputs are cast to it on the device, then the CUDA kernel runs.
Inputs of a dtype the library has no kernels for (float16, complex, ...), and contract
kernels absent from the table below, run on the host with a counted copy
(:func:`refms.kernels.fallback_counts`).
"""
import functools

import numpy as np

from .. import kernels
from . import codes, device, indexing, ops
from .device import DeviceArray

__all__ = ["activate", "deactivate", "make_backend", "TABLE"]

NAME = "gpu"
SUPPORTED = frozenset(codes.DTYPES)


# ---- helpers -----------------------------------------------------------------------------

def _runtime():
    return device.runtime(_STATE["device_id"])


def _on_host(name, *args):
    """Run contract kernel ``name`` on the host for these arguments (a counted fallback)."""
    backend = kernels.backend(NAME)
    return kernels._fallback(backend, name, kernels._host_kernel(name))(*args)


def _device(value, rt=None, dtype=None):
    """A DeviceArray for ``value`` (host numbers and arrays are uploaded)."""
    if isinstance(value, DeviceArray):
        return value if dtype is None or value.dtype == dtype else ops.cast(value, dtype)
    host = np.asarray(value, dtype=dtype)
    return (rt or _runtime()).to_device(host)


def _probe(value):
    """A one-element stand-in of ``value`` for the dtype probe (Python numbers stay weak)."""
    if isinstance(value, DeviceArray):
        return np.ones((1,), value.dtype)
    if isinstance(value, (bool, int, float)):
        return value
    return np.ones((1,), np.asarray(value).dtype)


def _dtype_of(value):
    return value.dtype if isinstance(value, DeviceArray) else np.asarray(value).dtype


@functools.lru_cache(maxsize=None)
def _result_dtype_cached(name, kinds):
    probes = [np.ones((1,), k) if isinstance(k, np.dtype) else k for k in kinds]
    with np.errstate(all="ignore"):
        return np.asarray(kernels.reference_kernel(name)(*probes)).dtype


def _result_dtype(name, *values):
    """The dtype the reference kernel ``name`` gives for these inputs' dtypes."""
    kinds = tuple(v.dtype if isinstance(v, DeviceArray) else
                  (type(v)(1) if isinstance(v, (bool, int, float)) else np.asarray(v).dtype)
                  for v in values)
    return _result_dtype_cached(name, kinds)


def _floats(*arrays):
    return all(isinstance(a, DeviceArray) and a.dtype in codes.FLOAT_DTYPES for a in arrays)


# ---- elementwise -------------------------------------------------------------------------

UNARY = ("neg", "abs", "square", "sqrt", "rsqrt", "reciprocal", "exp", "log", "log1p", "expm1",
         "sin", "cos", "asin", "acos", "atan", "erf", "floor", "ceil", "trunc", "round", "sign", "relu", "sigmoid",
         "tanh", "gelu", "logical_not", "isnan", "isinf", "isfinite")
BINARY = ("add", "sub", "mul", "div", "floor_div", "floor_mod", "fmod", "pow", "maximum",
          "minimum", "equal", "not_equal", "greater", "greater_equal", "less", "less_equal",
          "logical_and", "logical_or", "atan2")
BITWISE = ("bitwise_and", "bitwise_or", "invert")


def _unary(name):
    def kernel(x):
        out = _result_dtype(name, x)
        compute = x.dtype if out == np.bool_ else out
        if compute not in SUPPORTED:
            return _on_host(name, x)
        return ops.unary(name, _device(x, dtype=compute))
    kernel.__name__ = f"cuda_{name}"
    return kernel


def _binary(name):
    def kernel(x, y):
        rt = x.runtime if isinstance(x, DeviceArray) else y.runtime
        out = _result_dtype(name, x, y)
        compute = out if out != np.bool_ else np.result_type(_probe(x), _probe(y))
        if compute not in SUPPORTED:
            return _on_host(name, x, y)
        op = name
        if name == "sub" and compute == np.bool_:
            op = "not_equal"                                  # bool - bool: exclusive or
        return ops.binary(op, _device(x, rt, compute), _device(y, rt, compute))
    kernel.__name__ = f"cuda_{name}"
    return kernel


def _bitwise(name):
    """Integers and bools on the device (bits.cu); floats go to the host, where numpy
    rejects them with its own TypeError."""
    def kernel(x, y=None):
        args = (x,) if y is None else (x, y)
        out = _result_dtype(name, *args)
        if out not in SUPPORTED or out in codes.FLOAT_DTYPES:
            return _on_host(name, *args)
        rt = next(v.runtime for v in args if isinstance(v, DeviceArray))
        if y is None:
            return ops.bitwise(name, _device(x, rt, out))
        return ops.bitwise(name, _device(x, rt, out), _device(y, rt, out))
    kernel.__name__ = f"cuda_{name}"
    return kernel


def round_to_bfloat16(x):
    if not _floats(x):
        return _on_host("round_to_bfloat16", x)
    return ops.round_to_bfloat16(x if x.dtype == np.float32 else ops.cast(x, np.float32))


def where(cond, x, y):
    rt = next(v.runtime for v in (cond, x, y) if isinstance(v, DeviceArray))
    out = _result_dtype("where", np.ones(1, bool), x, y)
    if out not in SUPPORTED:
        return _on_host("where", cond, x, y)
    return ops.where(_device(cond, rt, np.bool_), _device(x, rt, out), _device(y, rt, out))


def relu_grad(dy, y):
    """dy where y > 0, else 0: the library's binary ``relu_grad``, for dy and y of one dtype
    (another pair goes to the host: casting y to dy's dtype could change its sign test)."""
    if _dtype_of(dy) != _dtype_of(y):
        return _on_host("relu_grad", dy, y)
    return _RELU_GRAD(dy, y)


_RELU_GRAD = _binary("relu_grad")


def clip(x, low, high):
    if low is not None:
        x = _binary("maximum")(x, low)
    if high is not None:
        x = _binary("minimum")(x, high)
    return x if (low is not None or high is not None) else copy(x)


def scale(x, factor):
    if x.dtype not in SUPPORTED:
        return _on_host("scale", x, factor)
    return ops.binary("mul", x, _device(np.asarray(factor, x.dtype), x.runtime))


def add_n(xs):
    total = copy(xs[0])
    for x in xs[1:]:
        total = _binary("add")(total, x)
    return total


# ---- conversion, creation, shape ---------------------------------------------------------

def cast(x, np_dtype):
    np_dtype = np.dtype(np_dtype)
    if x.dtype not in SUPPORTED or np_dtype not in SUPPORTED:
        return _on_host("cast", x, np_dtype)
    return ops.cast(x, np_dtype) if x.dtype != np_dtype else ops.contiguous(x)


def copy(x):
    return ops.contiguous(x)


def full(shape, value, np_dtype):
    np_dtype = np.dtype(np_dtype)
    if np_dtype not in SUPPORTED:
        return _on_host("full", shape, value, np_dtype)
    return ops.fill(_runtime(), tuple(shape), np_dtype, value)


def full_like(x, value):
    if x.dtype not in SUPPORTED:
        return _on_host("full_like", x, value)
    return ops.fill(x.runtime, x.shape, x.dtype, value)


def arange(n, np_dtype):
    np_dtype = np.dtype(np_dtype)
    if np_dtype not in SUPPORTED:
        return _on_host("arange", n, np_dtype)
    return ops.arange(_runtime(), n, 0, 1, np_dtype)


def _shape_of(x, transform):
    """Apply a numpy shape function to a zero-size stand-in of x: (new shape, kept axes)."""
    marker = np.lib.stride_tricks.as_strided(np.arange(max(x.ndim, 1)), shape=x.shape,
                                             strides=(0,) * x.ndim)
    return transform(marker).shape


def reshape(x, shape):
    x = x if x.is_contiguous() else ops.contiguous(x)
    return x.reshape(_shape_of(x, lambda m: np.reshape(m, shape)))


def transpose(x, perm):
    return x.transpose(tuple(int(p) % max(x.ndim, 1) for p in perm))


def expand_dims(x, axis):
    new_shape = _shape_of(x, lambda m: np.expand_dims(m, axis))
    x = x if x.is_contiguous() else ops.contiguous(x)
    return x.reshape(new_shape)


def squeeze(x, axes):
    new_shape = _shape_of(x, lambda m: np.squeeze(m, axis=tuple(axes)))
    x = x if x.is_contiguous() else ops.contiguous(x)
    return x.reshape(new_shape)


def broadcast_to(x, shape):
    return ops.broadcast_to(x, tuple(shape))


def flip(x, axis):
    return ops.flip(x, axis) if x.dtype in SUPPORTED else _on_host("flip", x, axis)


def tile(x, reps):
    return ops.tile(x, reps) if x.dtype in SUPPORTED else _on_host("tile", x, reps)


def _joined(name, xs, axis):
    rt = next(x.runtime for x in xs if isinstance(x, DeviceArray))
    out = np.result_type(*[_dtype_of(x) for x in xs])      # numpy's rule for concatenate
    if out not in SUPPORTED:
        return None
    return [_device(x, rt, out) for x in xs]


def concat(xs, axis):
    pieces = _joined("concat", xs, axis)
    return _on_host("concat", xs, axis) if pieces is None else ops.concat(pieces, axis)


def stack(xs, axis):
    pieces = _joined("stack", xs, axis)
    return _on_host("stack", xs, axis) if pieces is None else ops.stack(pieces, axis)


def split(x, sections, axis):
    return ops.split(x, sections, axis) if x.dtype in SUPPORTED else _on_host("split", x, sections, axis)


# ---- reductions and arg-reductions -------------------------------------------------------

def _reduce(name):
    def kernel(x, axes, keepdims):
        if x.dtype not in SUPPORTED:
            return _on_host(f"reduce_{name}", x, axes, keepdims)
        return ops.reduce(name, x, tuple(axes), keepdims)
    kernel.__name__ = f"cuda_reduce_{name}"
    return kernel


def reduce_all(x, axes, keepdims):
    return ops.reduce("min", ops.cast(x, np.bool_) if x.dtype != np.bool_ else x, tuple(axes), keepdims)


def reduce_any(x, axes, keepdims):
    return ops.reduce("max", ops.cast(x, np.bool_) if x.dtype != np.bool_ else x, tuple(axes), keepdims)


def _arg(name):
    def kernel(x, axis):
        if x.dtype not in SUPPORTED:
            return _on_host(name, x, axis)
        if axis is None:
            return ops.reduce(name, reshape(x, (-1,)), (0,), False)
        return ops.reduce(name, x, (int(axis) % x.ndim,), False)
    kernel.__name__ = f"cuda_{name}"
    return kernel


def cumsum(x, axis, exclusive, reverse):
    """Prefix sums (scan.cu); a bool scan is a running "or": sums of 0/1 compared with 0."""
    if x.dtype not in SUPPORTED:
        return _on_host("cumsum", x, axis, exclusive, reverse)
    if x.dtype == np.bool_:
        sums = ops.cumsum(ops.cast(x, np.int64), axis, exclusive, reverse)
        return ops.cast(sums, np.bool_)
    return ops.cumsum(x, axis, exclusive, reverse)


def exclusive_cumprod_both(x):
    if x.dtype not in SUPPORTED or x.dtype == np.bool_:
        return _on_host("exclusive_cumprod_both", x)
    return ops.exclusive_cumprod_both(x)


def batch_norm_unbiased(variance, n):
    """variance * n / (n - 1) (n = 1: numpy's division by zero, quietly)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        factor = n / np.float64(n - 1)
    out = _result_dtype("batch_norm_unbiased", variance, n)
    if not _floats(variance) or out not in SUPPORTED:
        return _on_host("batch_norm_unbiased", variance, n)
    return ops.binary("mul", _device(variance, dtype=out),
                      _device(np.asarray(factor, out), variance.runtime))


# ---- sorting -----------------------------------------------------------------------------

def sort(x, axis, descending):
    if x.dtype not in SUPPORTED:
        return _on_host("sort", x, axis, descending)
    return ops.sort(x, axis, descending)


def topk(x, k, sorted):
    if x.dtype not in SUPPORTED:
        return _on_host("topk", x, k, sorted)
    return ops.topk(x, k, sorted)


# ---- indexing ----------------------------------------------------------------------------

_INDEX_DTYPES = (np.dtype(np.int32), np.dtype(np.int64))


def first_outside(indices, low, high):
    """Always None on the GPU: reading the indices here would wait for the device.

    The device kernels that consume indices (take, take_along_axis, the sparse
    cross-entropy) check them themselves and report a bad one, naming the op, at the next
    synchronizing point -- or at the op with pynative_synchronize=True.  Consumers without a
    device kernel run on the host, where numpy rejects an out-of-range index.
    """
    return None


def take(x, indices, axis):
    if x.dtype not in SUPPORTED or indices.dtype not in _INDEX_DTYPES:
        return _on_host("take", x, indices, axis)
    if axis is None:                                      # numpy: take from the flattened x
        x, axis = reshape(x, (-1,)), 0
    return ops.gather(x, indices, axis, op="take")


def take_along_axis(x, index, axis):
    if x.dtype not in SUPPORTED or index.dtype not in _INDEX_DTYPES:
        return _on_host("take_along_axis", x, index, axis)
    return ops.take_along_axis(x, index, axis, op="take_along_axis")


def one_hot(indices, depth, axis, on_value, off_value):
    on = on_value.numpy() if isinstance(on_value, DeviceArray) else np.asarray(on_value)
    off = off_value.numpy() if isinstance(off_value, DeviceArray) else np.asarray(off_value)
    dtype = np.result_type(on, off)
    if axis not in (-1, indices.ndim) or dtype not in SUPPORTED or indices.dtype not in _INDEX_DTYPES:
        return _on_host("one_hot", indices, depth, axis, on_value, off_value)
    return ops.one_hot(indices, depth, on.item(), off.item(), dtype)


def count_true(mask):
    """The number of True elements (a synchronizing read of one number)."""
    return ops.count_true(ops.cast(mask, np.bool_) if mask.dtype != np.bool_ else mask)


def getitem(x, index):
    if x.dtype not in SUPPORTED:
        return _on_host("getitem", x, index)
    return indexing.getitem(x, index)


def setitem(x, index, value):
    """x[index] = value in place (value cast to x's dtype, as numpy's assignment does)."""
    if x.dtype not in SUPPORTED:
        return _on_host("setitem", x, index, value)
    indexing.setitem(x, index, _device(value, x.runtime, x.dtype))


_ATOMIC = tuple(np.dtype(t) for t in (np.int32, np.int64, np.float32, np.float64))


def index_add(shape, index, updates):
    if updates.dtype not in _ATOMIC:
        return _on_host("index_add", shape, index, updates)
    return indexing.index_add(updates.runtime, shape, index, updates)


def scatter_along_axis(x, index, updates, axis, reduction):
    rt = x.runtime
    add = reduction == "add"
    if (x.dtype not in (_ATOMIC if add else SUPPORTED) or index.dtype not in _INDEX_DTYPES
            or reduction not in ("add", "none")):
        return _on_host("scatter_along_axis", x, index, updates, axis, reduction)
    return ops.scatter_along_axis(x, index, _device(updates, rt, x.dtype), axis, reduction,
                                  op="scatter_along_axis")


def segment_sum(x, ids, n):
    if x.dtype not in _ATOMIC or ids.dtype not in _INDEX_DTYPES:
        return _on_host("segment_sum", x, ids, n)
    return ops.segment_sum(x, ids, n, op="segment_sum")


def _mask(mask, rt):
    mask = _device(mask, rt)
    return mask if mask.dtype == np.bool_ else ops.cast(mask, np.bool_)


def masked_select(x, mask):
    if x.dtype not in SUPPORTED:
        return _on_host("masked_select", x, mask)
    return ops.masked_select(x, _mask(mask, x.runtime))


def masked_scatter(x, mask, source):
    if x.dtype not in SUPPORTED:
        return _on_host("masked_scatter", x, mask, source)
    return ops.masked_scatter(x, _mask(mask, x.runtime), _device(source, x.runtime, x.dtype),
                              op="masked_scatter")


# ---- the numerical kernels ---------------------------------------------------------------

def _float_kernel(name, launcher, n_arrays):
    """``launcher`` for float32/float64 inputs, the host otherwise."""
    def kernel(*args):
        if not _floats(*args[:n_arrays]):
            return _on_host(name, *args)
        return launcher(*args)
    kernel.__name__ = f"cuda_{name}"
    return kernel


def batch_norm_grad(dy, x, scale, mean, variance, epsilon, is_training):
    """BatchNorm's backward on the device when every array has one float dtype."""
    arrays = (dy, x, scale, mean, variance)
    if not _floats(*arrays) or len({a.dtype for a in arrays}) != 1:
        return _on_host("batch_norm_grad", *arrays, epsilon, is_training)
    return ops.batch_norm_backward(dy, x, scale, mean, variance, epsilon, is_training,
                                   op="batch_norm_grad")


def _softmax(name, log):
    def kernel(x, axis):
        axes = axis if isinstance(axis, (tuple, list)) else (axis,)
        if not _floats(x) or len(axes) != 1:
            return _on_host(name, x, axis)
        return ops.softmax(x, axes[0], log)
    kernel.__name__ = f"cuda_{name}"
    return kernel


def _sparse_xent(logits, labels, is_grad):
    if not _floats(logits) or labels.dtype not in (np.dtype(np.int32), np.dtype(np.int64)):
        return _on_host("sparse_softmax_cross_entropy", logits, labels, is_grad)
    return ops.sparse_softmax_cross_entropy(logits, labels, is_grad, op="sparse_softmax_cross_entropy")


def _pool_divisor(divisor):
    if isinstance(divisor, DeviceArray):
        return divisor.numpy()
    return divisor


# ---- state (in place) --------------------------------------------------------------------

def assign(variable, value):
    """variable <- value (cast to variable's dtype, broadcast to its shape), in place."""
    if variable.dtype not in SUPPORTED or not variable.is_contiguous():
        return _on_host("assign", variable, value)
    rt = variable.runtime
    value = _device(value, rt)
    if value.dtype != variable.dtype:
        value = ops.cast(value, variable.dtype)
    value = ops.broadcast_to(value, variable.shape)
    if variable.nbytes:
        rt._check(rt.lib.refms_cuda_memcpy_d2d(variable.ptr, value.ptr, variable.nbytes), "assign")


def moving_average(variable, value, momentum):
    """variable <- (1 - m) variable + m value, in place."""
    if not _floats(variable):
        return _on_host("moving_average", variable, value, momentum)
    value = _device(value, variable.runtime, variable.dtype)
    updated = ops.binary("add", scale(variable, 1 - momentum), scale(value, momentum))
    assign(variable, updated)


def apply_momentum(variable, accumulation, gradient, lr, momentum, use_nesterov):
    """v <- momentum v + g;  p <- p - lr v (Nesterov: p <- p - (lr g + lr momentum v)), in
    place, by one kernel that reads lr and momentum on the device (no host read)."""
    if not _floats(variable) or not variable.is_contiguous() or not accumulation.is_contiguous():
        return _on_host("apply_momentum", variable, accumulation, gradient, lr, momentum,
                        use_nesterov)
    rt, dtype = variable.runtime, variable.dtype
    gradient, lr, momentum = (_device(v, rt, dtype) for v in (gradient, lr, momentum))
    if (gradient.shape != variable.shape or accumulation.shape != variable.shape
            or lr.size != 1 or momentum.size != 1):          # broadcasting: the host's rules
        return _on_host("apply_momentum", variable, accumulation, gradient, lr, momentum,
                        use_nesterov)
    if not gradient.is_contiguous():
        gradient = ops.contiguous(gradient, "apply_momentum")
    ops.apply_momentum(variable, accumulation, gradient, lr, momentum, use_nesterov)


def writable(x):
    return True


# ---- random ------------------------------------------------------------------------------

def _seed(rng):
    """A Philox key drawn from the op's host generator (so set_seed governs it)."""
    return int(rng.integers(0, 2 ** 63))


def bernoulli(rng, shape, p, np_dtype):
    """keep-masks on the device: Philox keyed by a seed drawn from the op's generator."""
    np_dtype = np.dtype(np_dtype)
    if np_dtype not in SUPPORTED:
        return _on_host("bernoulli", rng, shape, p, np_dtype)
    return ops.bernoulli(_runtime(), shape, p, _seed(rng), 0, np_dtype)


def uniform_real(rng, shape):
    return ops.uniform(_runtime(), shape, _seed(rng), 0, np.float32)


def standard_normal(rng, shape):
    return ops.normal(_runtime(), shape, _seed(rng), 0, np.float32)


def uniform_int(rng, shape, low, high):
    return ops.uniform_int(_runtime(), shape, low, high, _seed(rng), 0)


# ---- the table ---------------------------------------------------------------------------

def _table():
    table = {}
    table.update({name: _unary(name) for name in UNARY})
    table.update({name: _binary(name) for name in BINARY})
    table.update({name: _bitwise(name) for name in BITWISE})
    table.update({f"reduce_{name}": _reduce(name) for name in ("sum", "mean", "max", "min", "prod")})
    table.update({
        "where": where, "clip": clip, "scale": scale, "add_n": add_n, "relu_grad": relu_grad,
        "cast": cast, "copy": copy, "full": full, "full_like": full_like, "arange": arange,
        "reshape": reshape, "transpose": transpose, "expand_dims": expand_dims,
        "squeeze": squeeze, "broadcast_to": broadcast_to, "flip": flip, "tile": tile,
        "concat": concat, "stack": stack, "split": split,
        "reduce_all": reduce_all, "reduce_any": reduce_any,
        "argmax": _arg("argmax"), "argmin": _arg("argmin"),
        "matmul": _float_kernel("matmul", ops.matmul, 2),
        "batch_matmul": _float_kernel("batch_matmul", ops.batch_matmul, 2),
        "conv2d": _float_kernel("conv2d", ops.conv2d, 2),
        "conv2d_backprop_input": _float_kernel("conv2d_backprop_input", ops.conv2d_backprop_input, 2),
        "conv2d_backprop_filter": _float_kernel("conv2d_backprop_filter", ops.conv2d_backprop_filter, 2),
        "max_pool2d": _float_kernel("max_pool2d", ops.max_pool2d, 1),
        "max_pool2d_grad": _float_kernel("max_pool2d_grad", ops.max_pool2d_grad, 1),
        "max_pool2d_grad_grad": _float_kernel("max_pool2d_grad_grad", ops.max_pool2d_grad_grad, 1),
        "avg_pool2d": _float_kernel("avg_pool2d", lambda x, k, s, p, d=None: ops.avg_pool2d(
            x, k, s, p, _pool_divisor(d)), 1),
        "avg_pool2d_grad": _float_kernel("avg_pool2d_grad", lambda g, xs, k, s, p, d=None: ops.avg_pool2d_grad(
            g, xs, k, s, p, _pool_divisor(d)), 1),
        "softmax": _softmax("softmax", False), "log_softmax": _softmax("log_softmax", True),
        "softmax_cross_entropy": _float_kernel("softmax_cross_entropy", ops.softmax_cross_entropy, 2),
        "sparse_softmax_cross_entropy": _sparse_xent,
        "batch_norm_statistics": _float_kernel("batch_norm_statistics", ops.batch_norm_statistics, 1),
        "batch_norm": _float_kernel("batch_norm", ops.batch_norm, 5),
        "batch_norm_grad": batch_norm_grad,
        "assign": assign, "moving_average": moving_average, "writable": writable,
        "apply_momentum": apply_momentum,
        "bernoulli": bernoulli, "uniform_real": uniform_real,
        "standard_normal": standard_normal, "uniform_int": uniform_int,
        "first_outside": first_outside, "take": take, "take_along_axis": take_along_axis,
        "one_hot": one_hot, "count_true": count_true,
        "round_to_bfloat16": round_to_bfloat16, "cumsum": cumsum,
        "exclusive_cumprod_both": exclusive_cumprod_both,
        "batch_norm_unbiased": batch_norm_unbiased, "sort": sort, "topk": topk,
        "getitem": getitem, "setitem": setitem, "index_add": index_add,
        "scatter_along_axis": scatter_along_axis, "segment_sum": segment_sum,
        "masked_select": masked_select, "masked_scatter": masked_scatter,
    })
    known = set(kernels.kernel_names())
    return {name: fn for name, fn in table.items() if name in known}


TABLE = None
_STATE = {"device_id": 0, "registered": False}


def make_backend():
    """The ``gpu`` Backend record (protocol of refms/kernels/backend.py)."""
    return kernels.Backend(NAME, DeviceArray, to_host=lambda a: a.numpy(),
                           from_host=lambda h: _runtime().to_device(np.asarray(h)),
                           write_host=_write_host, kernels=_table(), implementation="cuda")


def _write_host(array, host):
    host = np.ascontiguousarray(np.broadcast_to(np.asarray(host).astype(array.dtype, copy=False), array.shape))
    rt = array.runtime
    if not array.is_contiguous():
        raise ValueError("write_host needs a contiguous device array")
    if host.nbytes:
        rt._check(rt.lib.refms_cuda_memcpy_h2d(array.ptr, host.ctypes.data, host.nbytes), "copy to the device")


def activate(device_id=0):
    """Register the gpu backend (once) and make it the default: new tensors live on the GPU."""
    _STATE["device_id"] = int(device_id)
    _runtime()
    if not _STATE["registered"]:
        kernels.register_backend(make_backend())
        _STATE["registered"] = True
    kernels.set_default_backend(NAME)


def deactivate():
    """Make cpu the default backend again (tensors already on the GPU stay there)."""
    if _STATE["registered"]:
        kernels.set_default_backend("cpu")


def unregister():
    """Remove the gpu backend (tests that switch libraries)."""
    if _STATE["registered"]:
        kernels.unregister_backend(NAME)
        _STATE["registered"] = False
