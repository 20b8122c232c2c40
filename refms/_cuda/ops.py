"""Python launchers of the CUDA kernels: shapes, output allocation, and the ctypes call.

Each function takes and returns :class:`~refms._cuda.device.DeviceArray` values and
mirrors a kernel of the contract in :mod:`refms.kernels` (same arguments, same result,
computed on the device).  A launcher checks what the kernel cannot (dtypes, ranks),
works out the launch's shape arguments, allocates the outputs from the caching
allocator, and calls the entry point through ``Runtime.call``, which raises launch
errors at once and kernel errors at the next synchronizing point.

The ``op`` argument names the operation in error messages (the primitive that asked,
when the caller knows it).
"""
import ctypes
import math

import numpy as np

from . import codes, cublas
from . import device
from .device import DeviceArray, contiguous_strides

I64 = ctypes.c_int64


def _i64(values):
    """A host int64_t array for a shape/stride argument."""
    values = [int(v) for v in values]
    return (I64 * max(len(values), 1))(*values)


def _dtype(x, op, floats_only=False):
    try:
        code = codes.dtype_code(x.dtype)
    except KeyError:
        code = None
    if code is None or (floats_only and x.dtype not in codes.FLOAT_DTYPES):
        kinds = "float32 or float64" if floats_only else "bool, int8-64, uint8, float32, float64"
        raise TypeError(f"For '{op}', the CUDA kernel supports {kinds}, but got {x.dtype}.")
    return code


def _broadcast_strides(x, shape):
    """Strides reading x as if broadcast to ``shape`` (stride 0 on broadcast axes)."""
    lead = len(shape) - x.ndim
    strides = []
    for axis, size in enumerate(shape):
        if axis < lead:
            strides.append(0)
        else:
            own = x.shape[axis - lead]
            strides.append(0 if own == 1 and size != 1 else x.strides[axis - lead])
    return strides


# ---- elementwise -------------------------------------------------------------------------

def unary(name, x, op=None):
    """out = f(x) elementwise (``name`` a key of ``codes.UNARY``); bool for logical_not/isnan."""
    op = op or name
    code = _dtype(x, op)
    rt = x.runtime
    out = rt.empty(x.shape, np.bool_ if name in codes.UNARY_BOOL_RESULT else x.dtype)
    rt.call(op, "refms_unary", codes.UNARY[name], code, out.size, x.ndim, _i64(x.shape), x.ptr,
            _i64(x.strides), out.ptr)
    return out


def contiguous(x, op="copy"):
    """A contiguous copy of a (possibly strided) DeviceArray."""
    return unary("copy", x, op)


def broadcast_to(x, shape, op="broadcast_to"):
    """A contiguous copy of x broadcast to ``shape``."""
    view = x.view(tuple(shape), _broadcast_strides(x, tuple(shape)))
    return contiguous(view, op)


def copy_into(dst, src, op="copy"):
    """dst[...] = src (broadcast to dst's shape); dst may be any strided view."""
    rt = dst.runtime
    rt.call(op, "refms_copy_strided", _dtype(dst, op), dst.size, dst.ndim, _i64(dst.shape),
            src.ptr, _i64(_broadcast_strides(src, dst.shape)), dst.ptr, _i64(dst.strides))


def concat(xs, axis, op="Concat"):
    """The arrays joined along ``axis`` (one dtype)."""
    axis %= xs[0].ndim
    shape = list(xs[0].shape)
    shape[axis] = sum(x.shape[axis] for x in xs)
    out = xs[0].runtime.empty(shape, xs[0].dtype)
    start = 0
    for x in xs:
        if x.size:
            piece = out.view(x.shape, out.strides, start * out.strides[axis])
            copy_into(piece, x, op)
        start += x.shape[axis]
    return out


def stack(xs, axis, op="Stack"):
    """The arrays stacked along a new ``axis``."""
    axis %= xs[0].ndim + 1
    return concat([x.view(x.shape[:axis] + (1,) + x.shape[axis:],
                          x.strides[:axis] + (0,) + x.strides[axis:]) for x in xs], axis, op)


def split(x, sections, axis, op="Split"):
    """As numpy.split: ``sections`` equal parts, or the split indices; contiguous copies."""
    axis %= x.ndim
    size = x.shape[axis]
    if isinstance(sections, (int, np.integer)):
        bounds = [size // sections * k for k in range(1, sections)]
    else:
        bounds = [int(b) for b in sections]
    edges = [0] + [min(max(b, 0), size) for b in bounds] + [size]
    parts = []
    for lo, hi in zip(edges[:-1], edges[1:]):
        hi = max(hi, lo)
        shape = x.shape[:axis] + (hi - lo,) + x.shape[axis + 1:]
        parts.append(contiguous(x.view(shape, x.strides, lo * x.strides[axis]), op))
    return tuple(parts)


def flip(x, axis, op="ReverseV2"):
    """x reversed along ``axis`` (an int, a tuple, or None for all): a negative-stride read."""
    axes = range(x.ndim) if axis is None else [a % x.ndim for a in np.atleast_1d(axis)]
    strides, offset = list(x.strides), 0
    for a in axes:
        offset += (x.shape[a] - 1) * strides[a]
        strides[a] = -strides[a]
    return contiguous(x.view(x.shape, strides, offset) if x.size else x, op)


def tile(x, reps, op="Tile"):
    """As numpy.tile: x repeated ``reps`` times along each axis."""
    reps = tuple(int(r) for r in np.atleast_1d(reps))
    ndim = max(len(reps), x.ndim)
    reps = (1,) * (ndim - len(reps)) + reps
    x = x.view((1,) * (ndim - x.ndim) + x.shape, (0,) * (ndim - x.ndim) + x.strides)
    shape, strides = [], []
    for r, size, stride in zip(reps, x.shape, x.strides):
        shape += [r, size]
        strides += [0, stride]
    out = contiguous(x.view(shape, strides), op)
    return out.reshape(tuple(r * s for r, s in zip(reps, x.shape)))


def binary(name, a, b, op=None):
    """out = f(a, b) elementwise with numpy broadcasting; both inputs of one dtype."""
    op = op or name
    if a.dtype != b.dtype:
        raise TypeError(f"For '{op}', the CUDA kernel needs inputs of one dtype, "
                        f"got {a.dtype} and {b.dtype}.")
    code = _dtype(a, op)
    shape = a.shape if a.shape == b.shape else np.broadcast_shapes(a.shape, b.shape)
    rt = a.runtime
    out = rt.empty(shape, np.bool_ if name in codes.BINARY_BOOL_RESULT else a.dtype)
    rt.call(op, "refms_binary", codes.BINARY[name], code, out.size, len(shape), _i64(shape),
            a.ptr, _i64(_broadcast_strides(a, shape)), b.ptr, _i64(_broadcast_strides(b, shape)),
            out.ptr)
    return out


def where(cond, a, b, op="Select"):
    """out = cond ? a : b, broadcasting all three."""
    shape = np.broadcast_shapes(cond.shape, a.shape, b.shape)
    rt = a.runtime
    out = rt.empty(shape, a.dtype)
    rt.call(op, "refms_where", _dtype(a, op), out.size, len(shape), _i64(shape),
            cond.ptr, _i64(_broadcast_strides(cond, shape)), a.ptr, _i64(_broadcast_strides(a, shape)),
            b.ptr, _i64(_broadcast_strides(b, shape)), out.ptr)
    return out


def bitwise(name, a, b=None, op=None):
    """a & b, a | b (broadcast) or ~a (``name``: bitwise_and, bitwise_or, invert) of integers
    or bools; ``invert`` of a bool is its logical not."""
    op = op or name
    b = a if b is None else b
    if a.dtype != b.dtype:
        raise TypeError(f"For '{op}', the CUDA kernel needs inputs of one dtype, "
                        f"got {a.dtype} and {b.dtype}.")
    code = _dtype(a, op)
    if a.dtype in codes.FLOAT_DTYPES:
        raise TypeError(f"For '{op}', the inputs must be integers or bools, but got {a.dtype}.")
    shape = np.broadcast_shapes(a.shape, b.shape)
    rt = a.runtime
    out = rt.empty(shape, a.dtype)
    rt.call(op, "refms_bitwise", codes.BITWISE[name], code, out.size, len(shape), _i64(shape),
            a.ptr, _i64(_broadcast_strides(a, shape)), b.ptr, _i64(_broadcast_strides(b, shape)),
            out.ptr)
    return out


def round_to_bfloat16(x, op="round_to_bfloat16"):
    """float32 x rounded to the nearest bfloat16 (ties to even), as float32."""
    if x.dtype != np.float32:
        raise TypeError(f"For '{op}', the CUDA kernel takes float32, but got {x.dtype}.")
    x = x if x.is_contiguous() else contiguous(x, op)
    out = x.runtime.empty(x.shape, np.float32)
    x.runtime.call(op, "refms_round_to_bfloat16", out.size, x.ptr, out.ptr)
    return out


def cast(x, dtype, op="Cast"):
    """x converted to ``dtype`` (float -> int truncates toward zero; -> bool: x != 0)."""
    dtype = np.dtype(dtype)
    rt = x.runtime
    source = x if x.is_contiguous() else contiguous(x, op)
    out = rt.empty(x.shape, dtype)
    rt.call(op, "refms_cast", _dtype(source, op), codes.dtype_code(dtype), out.size, source.ptr, out.ptr)
    return out


def fill(rt, shape, dtype, value, op="Fill"):
    """A new array of ``shape`` filled with ``value``."""
    out = rt.empty(shape, dtype)
    int_value = int(value) if out.dtype.kind in "biu" else 0
    rt.call(op, "refms_fill", _dtype(out, op), out.size, float(value), int_value, out.ptr)
    return out


def arange(rt, n, start, step, dtype, op="Range"):
    """out[i] = start + i * step, i < n."""
    out = rt.empty((int(n),), dtype)
    rt.call(op, "refms_arange", _dtype(out, op), out.size, float(start), float(step), out.ptr)
    return out


# ---- reductions --------------------------------------------------------------------------

def reduce(name, x, axis, keepdims, op=None):
    """Reduce over ``axis`` (a tuple of non-negative ints; () = every axis).

    ``name``: sum, mean, max, min, prod; argmax/argmin (one axis, int64 result).
    """
    op = op or f"reduce_{name}"
    axes = tuple(range(x.ndim)) if axis == () else tuple(sorted(a % max(x.ndim, 1) for a in axis))
    kept = [d for d in range(x.ndim) if d not in axes]
    out_shape = tuple(1 if d in axes else x.shape[d] for d in range(x.ndim)) if keepdims \
        else tuple(x.shape[d] for d in kept)
    if name in ("max", "min", "argmax", "argmin") and any(x.shape[d] == 0 for d in axes):
        raise ValueError(f"For '{op}', cannot reduce an empty axis with {name}.")
    rt = x.runtime
    out = rt.empty(out_shape, np.int64 if name.startswith("arg") else x.dtype)
    rt.call(op, "refms_reduce", codes.REDUCE[name], _dtype(x, op), out.size, len(kept),
            _i64([x.shape[d] for d in kept]), _i64([x.strides[d] for d in kept]),
            len(axes), _i64([x.shape[d] for d in axes]), _i64([x.strides[d] for d in axes]),
            x.ptr, out.ptr)
    return out


# ---- scans and sorting -------------------------------------------------------------------

def _lines(x, axis):
    """(outer, n, inner) of a contiguous x around ``axis``."""
    axis %= max(x.ndim, 1)
    outer = int(math.prod(x.shape[:axis]))
    inner = int(math.prod(x.shape[axis + 1:]))
    return outer, (x.shape[axis] if x.ndim else 1), inner


def cumsum(x, axis, exclusive=False, reverse=False, op="CumSum"):
    """Prefix sums along ``axis`` in x's dtype (see scan.cu)."""
    x = x if x.is_contiguous() else contiguous(x, op)
    outer, n, inner = _lines(x, axis)
    out = x.runtime.empty(x.shape, x.dtype)
    x.runtime.call(op, "refms_cumsum", _dtype(x, op), outer, n, inner, int(bool(exclusive)),
                   int(bool(reverse)), x.ptr, out.ptr)
    return out


def exclusive_cumprod_both(x, op="exclusive_cumprod_both"):
    """y_i = prod_{t != i} x_t along the last axis, without division."""
    x = x if x.is_contiguous() else contiguous(x, op)
    n = x.shape[-1] if x.ndim else 1
    out = x.runtime.empty(x.shape, x.dtype)
    x.runtime.call(op, "refms_exclusive_cumprod_both", _dtype(x, op), x.size // max(n, 1), n,
                   x.ptr, out.ptr)
    return out


def sort(x, axis, descending=False, op="Sort"):
    """(values, int64 indices) of a stable sort along ``axis`` (NaN largest; see sort.cu)."""
    x = x if x.is_contiguous() else contiguous(x, op)
    outer, n, inner = _lines(x, axis)
    rt = x.runtime
    values, indices = rt.empty(x.shape, x.dtype), rt.empty(x.shape, np.int64)
    rt.call(op, "refms_sort", _dtype(x, op), outer, n, inner, int(bool(descending)), x.ptr,
            values.ptr, _int64p(indices))
    return values, indices


def topk(x, k, sorted=True, op="TopK"):
    """(values, int64 indices) of the k largest along the last axis: the first k of a
    descending sort; unsorted, the k positions in increasing index order."""
    values, indices = sort(x, -1, descending=True, op=op)
    shape = x.shape[:-1] + (int(k),)
    values = contiguous(values.view(shape, values.strides), op)
    indices = contiguous(indices.view(shape, indices.strides), op)
    if not sorted:
        indices, _ = sort(indices, -1, op=op)
        values = take_along_axis(x, indices, -1, op=op)
    return values, indices


# ---- softmax family ----------------------------------------------------------------------

def _rows(x, axis, op):
    """(outer, n, inner) of a contiguous x around ``axis`` (an int or a 1-tuple)."""
    if isinstance(axis, (tuple, list)):
        if len(axis) != 1:
            raise ValueError(f"For '{op}', the CUDA kernel takes one axis, got {axis}.")
        axis = axis[0]
    axis %= x.ndim
    outer = int(math.prod(x.shape[:axis]))
    inner = int(math.prod(x.shape[axis + 1:]))
    return outer, x.shape[axis], inner


def softmax(x, axis, log=False, op=None):
    """softmax (or log-softmax) of x along ``axis``."""
    op = op or ("LogSoftmax" if log else "Softmax")
    x = x if x.is_contiguous() else contiguous(x, op)
    outer, n, inner = _rows(x, axis, op)
    out = x.runtime.empty(x.shape, x.dtype)
    x.runtime.call(op, "refms_softmax", _dtype(x, op, True), int(log), outer, n, inner, x.ptr, out.ptr)
    return out


def log_softmax(x, axis, op="LogSoftmax"):
    return softmax(x, axis, True, op)


def softmax_backward(y, dy, axis, log=False, op=None):
    """dx from the forward output y and dy (see softmax.cu)."""
    op = op or ("LogSoftmaxGrad" if log else "SoftmaxGrad")
    y = y if y.is_contiguous() else contiguous(y, op)
    dy = dy if dy.is_contiguous() else contiguous(dy, op)
    outer, n, inner = _rows(y, axis, op)
    out = y.runtime.empty(y.shape, y.dtype)
    y.runtime.call(op, "refms_softmax_backward", _dtype(y, op, True), int(log), outer, n, inner,
                   y.ptr, dy.ptr, out.ptr)
    return out


def softmax_cross_entropy(logits, labels, op="SoftmaxCrossEntropyWithLogits"):
    """(loss (N,), dlogits (N, C)) for dense labels."""
    logits, labels = contiguous(logits, op), contiguous(labels, op)
    rows, classes = logits.shape
    rt = logits.runtime
    loss, dlogits = rt.empty((rows,), logits.dtype), rt.empty(logits.shape, logits.dtype)
    rt.call(op, "refms_softmax_cross_entropy", _dtype(logits, op, True), rows, classes,
            logits.ptr, labels.ptr, loss.ptr, dlogits.ptr)
    return loss, dlogits


def sparse_softmax_cross_entropy(logits, labels, is_grad, op="SparseSoftmaxCrossEntropyWithLogits"):
    """Mean loss (0-d) or its gradient w.r.t. logits; a label outside [0, C) is reported."""
    logits, labels = contiguous(logits, op), contiguous(labels, op)
    classes = logits.shape[-1]
    rows = labels.size
    rt = logits.runtime
    workspace = rt.empty((max(rows, 1),), np.float64)
    out = rt.empty(logits.shape if is_grad else (), logits.dtype)
    rt.call(op, "refms_sparse_softmax_cross_entropy", _dtype(logits, op, True),
            _dtype(labels, op), rows, classes, logits.ptr, labels.ptr, int(bool(is_grad)),
            workspace.ptr, out.ptr, rt.launch_id(op))
    return out


# ---- matrix products ---------------------------------------------------------------------

def gemm(a, b, trans_a, trans_b, m, n, k, batch, stride_a, stride_b, op="MatMul"):
    """C[batch] = op(A) op(B) for contiguous row-major A, B; by cuBLAS or our tiled kernel."""
    rt = a.runtime
    shape = (batch, m, n) if batch != 1 else (m, n)
    if k == 0:              # empty sums are zero; cuBLAS rejects the zero leading dimension
        return fill(rt, shape, a.dtype, 0, op)
    c = rt.empty(shape, a.dtype)
    if c.size == 0:
        return c
    lda = m if trans_a else k
    ldb = k if trans_b else n
    if cublas.chosen(rt) == "cublas" and a.dtype in codes.FLOAT_DTYPES:
        cublas.gemm(rt, a, b, c, trans_a, trans_b, m, n, k, lda, ldb, batch, stride_a, stride_b, op)
    else:
        rt.call(op, "refms_gemm", _dtype(a, op, True), int(trans_a), int(trans_b), m, n, k,
                a.ptr, lda, stride_a, b.ptr, ldb, stride_b, c.ptr, n, m * n, batch)
    return c


def matmul(a, b, transpose_a=False, transpose_b=False, op="MatMul"):
    """op(a) @ op(b) of 2-D arrays."""
    a = a if a.is_contiguous() else contiguous(a, op)
    b = b if b.is_contiguous() else contiguous(b, op)
    m, k = (a.shape[1], a.shape[0]) if transpose_a else a.shape
    k2, n = (b.shape[1], b.shape[0]) if transpose_b else b.shape
    if k != k2:
        raise ValueError(f"For '{op}', the inner dimensions differ: {a.shape} and {b.shape} "
                         f"(transpose_a={transpose_a}, transpose_b={transpose_b}).")
    return gemm(a, b, transpose_a, transpose_b, m, n, k, 1, 0, 0, op)


def batch_matmul(a, b, transpose_a=False, transpose_b=False, op="BatchMatMul"):
    """op(a)[..., i, k] @ op(b)[..., k, j] with broadcast batch dimensions."""
    batch_shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    batch = int(math.prod(batch_shape))

    def prepare(x):
        if x.shape[:-2] == tuple(batch_shape) or int(math.prod(x.shape[:-2])) == 1:
            x = x if x.is_contiguous() else contiguous(x, op)
            shared = int(math.prod(x.shape[:-2])) == 1 and batch != 1
            return x, 0 if shared else x.shape[-1] * x.shape[-2]
        x = broadcast_to(x, tuple(batch_shape) + x.shape[-2:], op)
        return x, x.shape[-1] * x.shape[-2]

    a, stride_a = prepare(a)
    b, stride_b = prepare(b)
    m, k = (a.shape[-1], a.shape[-2]) if transpose_a else a.shape[-2:]
    n = b.shape[-2] if transpose_b else b.shape[-1]
    c = gemm(a, b, transpose_a, transpose_b, m, n, k, batch, stride_a, stride_b, op)
    return c.reshape(tuple(batch_shape) + (m, n))


# ---- convolution -------------------------------------------------------------------------

def _conv_out(x_shape, kernel, stride, pad, dilation):
    oh = (x_shape[2] + pad[0] + pad[1] - dilation[0] * (kernel[0] - 1) - 1) // stride[0] + 1
    ow = (x_shape[3] + pad[2] + pad[3] - dilation[1] * (kernel[1] - 1) - 1) // stride[1] + 1
    return oh, ow


def im2col(x, kernel, stride, pad, dilation, op="Conv2D"):
    """cols (C*kh*kw, N*OH*OW) of a contiguous NCHW x (see conv.cu)."""
    out_hw = _conv_out(x.shape, kernel, stride, pad, dilation)
    n, c = x.shape[:2]
    cols = x.runtime.empty((c * kernel[0] * kernel[1], n * out_hw[0] * out_hw[1]), x.dtype)
    x.runtime.call(op, "refms_im2col", _dtype(x, op, True), _i64(x.shape), _i64(kernel),
                   _i64(stride), _i64(pad), _i64(dilation), _i64(out_hw), x.ptr, cols.ptr)
    return cols, out_hw


def col2im(cols, x_shape, kernel, stride, pad, dilation, out_hw, op="Conv2DBackpropInput"):
    x = cols.runtime.empty(x_shape, cols.dtype)
    cols.runtime.call(op, "refms_col2im", _dtype(cols, op, True), _i64(x_shape), _i64(kernel),
                      _i64(stride), _i64(pad), _i64(dilation), _i64(out_hw), cols.ptr, x.ptr)
    return x


def conv2d(x, w, stride, pad, dilation, groups, op="Conv2D"):
    """y (N, O, OH, OW) = W ⋆ x: im2col, then Y'[g] = W[g] · cols[g] batched over groups."""
    x = x if x.is_contiguous() else contiguous(x, op)
    w = w if w.is_contiguous() else contiguous(w, op)
    n = x.shape[0]
    o = w.shape[0]
    cols, (oh, ow) = im2col(x, w.shape[2:], stride, pad, dilation, op)
    k = cols.shape[0] // groups                       # C/G * kh * kw
    p = n * oh * ow
    y = gemm(w, cols, False, False, o // groups, p, k, groups, (o // groups) * k, k * p, op)
    # (G, O/G, N*OH*OW) = (O, N, OH*OW) -> (N, O, OH, OW)
    y = y.reshape((o, n, oh * ow)).transpose((1, 0, 2))
    return contiguous(y, op).reshape((n, o, oh, ow))


def conv2d_backprop_input(dout, w, x_shape, stride, pad, dilation, groups, op="Conv2DBackpropInput"):
    """dx = col2im(W[g]^T · dY'[g])."""
    w = w if w.is_contiguous() else contiguous(w, op)
    n, o, oh, ow = dout.shape
    k = (x_shape[1] // groups) * w.shape[2] * w.shape[3]
    p = n * oh * ow
    dout = dout if dout.is_contiguous() else contiguous(dout, op)
    grads = contiguous(dout.reshape((n, o, oh * ow)).transpose((1, 0, 2)), op)   # (O, N, OH*OW)
    cols = gemm(w, grads, True, False, k, p, o // groups, groups, (o // groups) * k, (o // groups) * p, op)
    cols = cols.reshape((groups * k, p))
    return col2im(cols, tuple(x_shape), w.shape[2:], stride, pad, dilation, (oh, ow), op)


def conv2d_backprop_filter(dout, x, w_shape, stride, pad, dilation, groups, op="Conv2DBackpropFilter"):
    """dW[g] = dY'[g] · cols[g]^T."""
    x = x if x.is_contiguous() else contiguous(x, op)
    dout = dout if dout.is_contiguous() else contiguous(dout, op)
    n, o, oh, ow = dout.shape
    cols, _ = im2col(x, tuple(w_shape[2:]), stride, pad, dilation, op)
    k = cols.shape[0] // groups
    p = n * oh * ow
    grads = contiguous(dout.reshape((n, o, oh * ow)).transpose((1, 0, 2)), op)
    dw = gemm(grads, cols, False, True, o // groups, k, p, groups, (o // groups) * p, k * p, op)
    return dw.reshape(tuple(w_shape))


# ---- pooling -----------------------------------------------------------------------------

def _pool_out(x_shape, kernel, stride, pad):
    return ((x_shape[2] + pad[0] + pad[1] - kernel[0]) // stride[0] + 1,
            (x_shape[3] + pad[2] + pad[3] - kernel[1]) // stride[1] + 1)


def max_pool2d(x, kernel, stride, pad, op="MaxPool"):
    """(y, argmax) as refms.kernels.pool.max_pool2d."""
    x = x if x.is_contiguous() else contiguous(x, op)
    out_hw = _pool_out(x.shape, kernel, stride, pad)
    rt = x.runtime
    y = rt.empty(x.shape[:2] + out_hw, x.dtype)
    argmax = rt.empty(y.shape, np.int64)
    rt.call(op, "refms_max_pool2d", _dtype(x, op, True), _i64(x.shape), _i64(kernel), _i64(stride),
            _i64(pad), _i64(out_hw), x.ptr, y.ptr, ctypes.cast(argmax.ptr, ctypes.POINTER(I64)))
    return y, argmax


def _int64p(array):
    return ctypes.cast(array.ptr, ctypes.POINTER(I64))


def max_pool2d_grad(dout, argmax, x_shape, op="MaxPoolGrad"):
    dout = dout if dout.is_contiguous() else contiguous(dout, op)
    dx = dout.runtime.empty(tuple(x_shape), dout.dtype)
    dout.runtime.call(op, "refms_max_pool2d_grad", _dtype(dout, op, True), _i64(x_shape),
                      _i64(dout.shape[2:]), dout.ptr, _int64p(argmax), dx.ptr)
    return dx


def max_pool2d_grad_grad(ddx, argmax, op="MaxPoolGradGrad"):
    ddx = ddx if ddx.is_contiguous() else contiguous(ddx, op)
    ddy = ddx.runtime.empty(argmax.shape, ddx.dtype)
    ddx.runtime.call(op, "refms_max_pool2d_grad_grad", _dtype(ddx, op, True), _i64(ddx.shape),
                     _i64(argmax.shape[2:]), ddx.ptr, _int64p(argmax), ddy.ptr)
    return ddy


def _divisor(rt, x_shape, kernel, stride, pad, divisor, dtype):
    from ..kernels.pool import real_cell_counts      # host arithmetic on the shape only
    out_hw = _pool_out(x_shape, kernel, stride, pad)
    if divisor is None:
        divisor = real_cell_counts(x_shape, kernel, stride, pad)
    divisor = np.broadcast_to(np.asarray(divisor, dtype=dtype), out_hw)
    return rt.to_device(divisor), out_hw


def avg_pool2d(x, kernel, stride, pad, divisor=None, op="AvgPool"):
    x = x if x.is_contiguous() else contiguous(x, op)
    rt = x.runtime
    div, out_hw = _divisor(rt, x.shape, kernel, stride, pad, divisor, x.dtype)
    y = rt.empty(x.shape[:2] + out_hw, x.dtype)
    rt.call(op, "refms_avg_pool2d", _dtype(x, op, True), _i64(x.shape), _i64(kernel), _i64(stride),
            _i64(pad), _i64(out_hw), x.ptr, div.ptr, y.ptr)
    return y


def avg_pool2d_grad(dout, x_shape, kernel, stride, pad, divisor=None, op="AvgPoolGrad"):
    dout = dout if dout.is_contiguous() else contiguous(dout, op)
    rt = dout.runtime
    div, out_hw = _divisor(rt, x_shape, kernel, stride, pad, divisor, dout.dtype)
    dx = rt.empty(tuple(x_shape), dout.dtype)
    rt.call(op, "refms_avg_pool2d_grad", _dtype(dout, op, True), _i64(x_shape), _i64(kernel),
            _i64(stride), _i64(pad), _i64(out_hw), dout.ptr, div.ptr, dx.ptr)
    return dx


# ---- batch normalisation -----------------------------------------------------------------

def _nchw(x):
    n, c = x.shape[:2]
    return n, c, int(math.prod(x.shape[2:]))


def batch_norm_statistics(x, op="BatchNorm"):
    """(mean, biased variance) per channel."""
    x = x if x.is_contiguous() else contiguous(x, op)
    n, c, hw = _nchw(x)
    rt = x.runtime
    mean, variance = rt.empty((c,), x.dtype), rt.empty((c,), x.dtype)
    rt.call(op, "refms_batch_norm_statistics", _dtype(x, op, True), n, c, hw, x.ptr, mean.ptr, variance.ptr)
    return mean, variance


def batch_norm(x, scale, bias, mean, variance, epsilon, op="BatchNorm"):
    x = x if x.is_contiguous() else contiguous(x, op)
    n, c, hw = _nchw(x)
    y = x.runtime.empty(x.shape, x.dtype)
    x.runtime.call(op, "refms_batch_norm", _dtype(x, op, True), n, c, hw, x.ptr, scale.ptr, bias.ptr,
                   mean.ptr, variance.ptr, float(epsilon), y.ptr)
    return y


def batch_norm_backward(dy, x, scale, mean, variance, epsilon, training, op="BatchNormGrad"):
    """(dx, dscale, dbias)."""
    x = x if x.is_contiguous() else contiguous(x, op)
    dy = dy if dy.is_contiguous() else contiguous(dy, op)
    n, c, hw = _nchw(x)
    rt = x.runtime
    dx, dscale, dbias = rt.empty(x.shape, x.dtype), rt.empty((c,), x.dtype), rt.empty((c,), x.dtype)
    rt.call(op, "refms_batch_norm_backward", _dtype(x, op, True), int(bool(training)), n, c, hw,
            dy.ptr, x.ptr, scale.ptr, mean.ptr, variance.ptr, float(epsilon), dx.ptr, dscale.ptr, dbias.ptr)
    return dx, dscale, dbias


# ---- optimizers (in place) ---------------------------------------------------------------

def apply_momentum(var, accum, grad, lr, momentum, use_nesterov=False, op="ApplyMomentum"):
    """ApplyMomentum in place; ``lr`` and ``momentum`` are one-element device arrays of var's
    dtype (nn.Momentum keeps them as Parameters: the kernel reads them, no host read) or host
    numbers, which are uploaded."""
    rt = var.runtime
    lr, momentum = (v if isinstance(v, DeviceArray) else rt.to_device(np.asarray(v, var.dtype))
                    for v in (lr, momentum))
    rt.call(op, "refms_apply_momentum", _dtype(var, op, True), var.size, var.ptr, accum.ptr,
            grad.ptr, lr.ptr, momentum.ptr, int(bool(use_nesterov)))


def sgd(param, accum, grad, lr, momentum, dampening, weight_decay, nesterov, first_step, op="SGD"):
    param.runtime.call(op, "refms_sgd", _dtype(param, op, True), param.size, param.ptr, accum.ptr,
                       grad.ptr, float(lr), float(momentum), float(dampening), float(weight_decay),
                       int(bool(nesterov)), int(bool(first_step)))


def adam(var, m, v, grad, lr, beta1, beta2, epsilon, beta1_power, beta2_power, use_nesterov=False,
         op="Adam"):
    var.runtime.call(op, "refms_adam", _dtype(var, op, True), var.size, var.ptr, m.ptr, v.ptr,
                     grad.ptr, float(lr), float(beta1), float(beta2), float(epsilon),
                     float(beta1_power), float(beta2_power), int(bool(use_nesterov)))


# ---- random ------------------------------------------------------------------------------

def philox(rt, n, seed, offset, op="philox"):
    """n uint32 words of Philox4x32-10 for (seed, offset)."""
    out = rt.empty((int(n),), np.uint32)
    rt.call(op, "refms_philox", out.size, int(seed) % 2 ** 64, int(offset) % 2 ** 64, out.ptr)
    return out


def uniform(rt, shape, seed, offset, dtype=np.float32, op="UniformReal"):
    """Uniform [0, 1) numbers of ``dtype`` from Philox (seed, offset)."""
    out = rt.empty(tuple(shape), dtype)
    rt.call(op, "refms_uniform", _dtype(out, op, True), out.size, int(seed) % 2 ** 64,
            int(offset) % 2 ** 64, out.ptr)
    return out


def bernoulli(rt, shape, p, seed, offset, dtype, op="Bernoulli"):
    """1 with probability p, else 0, in ``dtype``, from Philox (seed, offset)."""
    out = rt.empty(tuple(shape), dtype)
    rt.call(op, "refms_bernoulli", _dtype(out, op), out.size, float(p), int(seed) % 2 ** 64,
            int(offset) % 2 ** 64, out.ptr)
    return out


def normal(rt, shape, seed, offset, dtype=np.float32, op="StandardNormal"):
    """Standard normal numbers of ``dtype`` from Philox (seed, offset) by Box-Muller."""
    out = rt.empty(tuple(shape), dtype)
    rt.call(op, "refms_normal", _dtype(out, op, True), out.size, int(seed) % 2 ** 64,
            int(offset) % 2 ** 64, out.ptr)
    return out


def uniform_int(rt, shape, low, high, seed, offset, op="UniformInt"):
    """int32 numbers uniform over [low, high) from Philox (seed, offset)."""
    low, high = int(low), int(high)
    if high <= low:
        raise ValueError(f"For '{op}', low must be less than high, but got low={low}, high={high}.")
    out = rt.empty(tuple(shape), np.int32)
    rt.call(op, "refms_uniform_int", out.size, low, high, int(seed) % 2 ** 64,
            int(offset) % 2 ** 64, out.ptr)
    return out


def dropout(x, keep_prob, seed, offset, op="Dropout"):
    """(y, mask): mask ~ Bernoulli(keep_prob) in x's dtype, y = x * mask / keep_prob."""
    x = x if x.is_contiguous() else contiguous(x, op)
    rt = x.runtime
    y, mask = rt.empty(x.shape, x.dtype), rt.empty(x.shape, x.dtype)
    rt.call(op, "refms_dropout", _dtype(x, op, True), x.size, float(keep_prob), int(seed) % 2 ** 64,
            int(offset) % 2 ** 64, x.ptr, y.ptr, mask.ptr)
    return y, mask


# ---- indexing ----------------------------------------------------------------------------

def gather(x, index, axis, op="Gather"):
    """out = take(x, index, axis); an index outside [-n, n) is reported (async), n = x.shape[axis]."""
    x = x if x.is_contiguous() else contiguous(x, op)
    index = index if index.is_contiguous() else contiguous(index, op)
    axis %= x.ndim
    outer = int(math.prod(x.shape[:axis]))
    inner = int(math.prod(x.shape[axis + 1:]))
    rt = x.runtime
    out = rt.empty(x.shape[:axis] + index.shape + x.shape[axis + 1:], x.dtype)
    rt.call(op, "refms_gather", _dtype(x, op), _dtype(index, op), outer, x.shape[axis], inner,
            index.size, x.ptr, index.ptr, out.ptr, rt.launch_id(op))
    return out


def take_along_axis(x, index, axis, op="GatherD"):
    """out[..., j, ...] = x[..., index[..., j, ...], ...] (index's shape; negatives wrap)."""
    index = index if index.is_contiguous() else contiguous(index, op)
    axis %= x.ndim
    rt = x.runtime
    out = rt.empty(index.shape, x.dtype)
    rt.call(op, "refms_take_along_axis", _dtype(x, op), _dtype(index, op), index.ndim,
            _i64(index.shape), _i64(x.strides), axis, x.shape[axis], x.ptr, index.ptr, out.ptr,
            rt.launch_id(op))
    return out


def one_hot(index, depth, on_value, off_value, dtype, op="OneHot"):
    index = index if index.is_contiguous() else contiguous(index, op)
    rt = index.runtime
    out = rt.empty(index.shape + (int(depth),), dtype)
    rt.call(op, "refms_one_hot", _dtype(out, op), _dtype(index, op), index.size, int(depth),
            index.ptr, float(on_value), float(off_value), out.ptr)
    return out


def scatter_along_axis(x, index, updates, axis, reduction="none", op="TensorScatterElements"):
    """A copy of x with x[..., index[...], ...] = updates (or += for reduction "add")."""
    index = index if index.is_contiguous() else contiguous(index, op)
    axis %= x.ndim
    out = contiguous(x, op)
    updates = broadcast_to(updates, index.shape, op)
    rt = x.runtime
    rt.call(op, "refms_scatter_along_axis", _dtype(x, op), _dtype(index, op),
            int(reduction == "add"), index.ndim, _i64(index.shape), _i64(out.strides), axis,
            x.shape[axis], index.ptr, updates.ptr, out.ptr, rt.launch_id(op))
    return out


def segment_sum(x, ids, n, op="UnsortedSegmentSum"):
    """y[s] = sum of x[i] over ids[i] = s (ids < 0 dropped; ids >= n reported)."""
    x = x if x.is_contiguous() else contiguous(x, op)
    ids = ids if ids.is_contiguous() else contiguous(ids, op)
    rt = x.runtime
    out = fill(rt, (int(n),) + x.shape[ids.ndim:], x.dtype, 0, op)
    inner = int(math.prod(x.shape[ids.ndim:]))
    rt.call(op, "refms_segment_sum", _dtype(x, op), _dtype(ids, op), ids.size, inner, int(n),
            x.ptr, ids.ptr, out.ptr, rt.launch_id(op))
    return out


def _mask_positions(mask, op):
    """(flat bool mask, exclusive prefix sum of it as int64 positions)."""
    flat = mask.reshape((-1,)) if mask.is_contiguous() else contiguous(mask, op).reshape((-1,))
    return flat, cumsum(cast(flat, np.int64, op), 0, exclusive=True, op=op)


def count_true(mask, op="count_true"):
    """The number of True elements: a synchronizing read of one number."""
    flat = mask.reshape((-1,)) if mask.is_contiguous() else contiguous(mask, op).reshape((-1,))
    return int(reduce("sum", cast(flat, np.int64, op), (), False, op).numpy())


def masked_select(x, mask, op="MaskedSelect"):
    """1-D: the elements of x where mask (both broadcast); reads the count (synchronizes)."""
    shape = np.broadcast_shapes(x.shape, mask.shape)
    x, mask = broadcast_to(x, shape, op), broadcast_to(mask, shape, op)
    flat, positions = _mask_positions(mask, op)
    out = x.runtime.empty((count_true(flat, op),), x.dtype)
    x.runtime.call(op, "refms_masked_select", _dtype(x, op), flat.size, x.ptr, flat.ptr,
                   _int64p(positions), out.ptr)
    return out


def masked_scatter(x, mask, source, op="MaskedScatter"):
    """A copy of x whose masked places take source's elements in order."""
    out = contiguous(x, op)
    mask = broadcast_to(mask, x.shape, op)
    flat, positions = _mask_positions(mask, op)
    source = source if source.is_contiguous() else contiguous(source, op)
    rt = x.runtime
    rt.call(op, "refms_masked_scatter", _dtype(x, op), flat.size, flat.ptr, _int64p(positions),
            source.size, source.ptr, out.ptr, rt.launch_id(op))
    return out


def gather_offsets(x, offsets, shape, op="GetItem"):
    """out[i] = x[offsets[i]] (element offsets from x's first element), shaped ``shape``."""
    out = x.runtime.empty(tuple(shape), x.dtype)
    x.runtime.call(op, "refms_gather_offsets", _dtype(x, op), out.size, x.ptr, _int64p(offsets),
                   out.ptr)
    return out


def scatter_offsets(x, offsets, values, add=False, op="SetItem"):
    """x[offsets[i]] = values[i] (or += with ``add``), in place; values contiguous, one per offset."""
    x.runtime.call(op, "refms_scatter_offsets", _dtype(x, op), int(bool(add)), offsets.size,
                   _int64p(offsets), values.ptr, x.ptr)


__all__ = [name for name in dir() if not name.startswith("_") and name not in
           ("ctypes", "np", "codes", "cublas", "DeviceArray", "contiguous_strides", "I64")]


device._CONTIGUOUS_COPY[0] = contiguous       # DeviceArray.numpy() copies strided views with it
