"""3-D max and average pooling of (N, C, D, H, W) tensors — one axis at a time.

A pooling window is a box, so pooling is *separable*: the max over a box is the max
along W of the max along H of the max along D, and the sum likewise; the average's
divisor is the product of the per-axis counts of the cells it counts.  Along one axis
of length L, with padding (lo, hi), kernel k, stride s and dilation d, output ``o`` reads
the padded cells ``o·s + j·d`` for ``j < k``:

    max:  out[o] = max_j x_p[o·s + j·d]            (x_p padded with −inf)
    avg:  out[o] = Σ_j x_p[o·s + j·d] / count[o]    (x_p padded with 0)

``count[o]`` counts the window's cells inside [−lo, L + hi) (``count_include_pad``) or
inside [0, L) (otherwise); ``divisor_override`` replaces the product of counts.  Output
lengths: ``'valid'`` ⌊(L − d(k−1) − 1)/s⌋ + 1; ``'same'`` ⌈L/s⌉ with the odd padded cell at
the end; explicit padding ⌊(L + lo + hi − d(k−1) − 1)/s⌋ + 1, or with ``ceil_mode`` the
ceiling, dropping a last window that would start in the right padding (PyTorch's rule,
which MindSpore's kernels follow).  Each axis is strided slices (``GetItem``) combined by
``Maximum`` or ``Add``, so gradients and graph mode come from those primitives.
"""
import numpy as np

from ... import dtype as mstype
from ..._tensor import Tensor
from ..primitive import F, op_error
from ._common import CompositeOp, check_tensor

__all__ = ["MaxPool3D", "AvgPool3D", "max_pool3d", "avg_pool3d", "pool3d", "pool3d_indices",
           "triple", "pads_of"]


def triple(op, name, value, minimum=1):
    """An int or a tuple of 1 or 3 ints (each ≥ ``minimum``) as a 3-tuple."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,) * 3
    if isinstance(value, list):
        value = tuple(value)
    if not isinstance(value, tuple) or not all(isinstance(v, int) and not isinstance(v, bool)
                                               for v in value):
        raise op_error(op, f"the '{name}' must be an int or a tuple of three ints, but got "
                           f"{value!r}.")
    if len(value) == 1:
        value = value * 3
    if len(value) != 3 or any(v < minimum for v in value):
        raise op_error(op, f"the '{name}' must be an int ≥ {minimum} or a tuple of three, but "
                           f"got {value!r}.", ValueError)
    return value


def _out_length(length, kernel, stride, dilation, lo, hi, ceil_mode):
    span = dilation * (kernel - 1) + 1
    room = length + lo + hi - span
    if room < 0:
        return 0
    if ceil_mode:
        out = -(-room // stride) + 1
        if (out - 1) * stride >= length + lo:          # the last window starts in the padding
            out -= 1
        return out
    return room // stride + 1


def pads_of(pad_mode, shape, kernel, stride, dilation, pad):
    """((lo, hi) per axis) of ``pad_mode`` ('valid', 'same' or 'pad' with ``pad`` 6 ints)."""
    if pad_mode == "valid":
        return ((0, 0),) * 3
    if pad_mode == "same":
        result = []
        for length, k, s, d in zip(shape, kernel, stride, dilation):
            out = -(-length // s)
            total = max((out - 1) * s + d * (k - 1) + 1 - length, 0)
            result.append((total // 2, total - total // 2))
        return tuple(result)
    return (pad[0], pad[1]), (pad[2], pad[3]), (pad[4], pad[5])


def _pad_axis(x, axis, lo, hi, value):
    parts = []
    for width in (lo, hi):
        shape = list(x.shape)
        shape[axis] = width
        parts.append(Tensor(np.full(shape, value), x.dtype) if width > 0 else None)
    pieces = [p for p in (parts[0], x, parts[1]) if p is not None]
    return F.concat(tuple(pieces), axis) if len(pieces) > 1 else x


def _window_counts(length, out, kernel, stride, dilation, lo, hi, include_pad):
    """How many of each output's window cells are counted, along one axis."""
    low, high = (-lo, length + hi) if include_pad else (0, length)
    counts = []
    for o in range(out):
        cells = [o * stride + j * dilation - lo for j in range(kernel)]
        counts.append(sum(1 for c in cells if low <= c < high))
    return counts


def pool3d(op, x, mode, kernel, stride, dilation, pads, ceil_mode=False, include_pad=True,
           divisor=0):
    """``mode`` 'max' or 'avg' pooling of an (N, C, D, H, W) ``x``; ``pads`` ((lo, hi),) * 3."""
    fill = -np.inf if mode == "max" else 0.0
    for axis in (2, 3, 4):
        k, s, d = kernel[axis - 2], stride[axis - 2], dilation[axis - 2]
        lo, hi = pads[axis - 2]
        length = x.shape[axis]
        out = _out_length(length, k, s, d, lo, hi, ceil_mode)
        if out <= 0:
            raise op_error(op, f"the pooling window {k} (dilation {d}) is larger than the padded "
                               f"input {length + lo + hi} along axis {axis}.", ValueError)
        extra = max((out - 1) * s + d * (k - 1) + 1 - (length + lo), 0)    # ceil-mode overhang
        padded = _pad_axis(x, axis, lo, extra, fill)
        result = None
        for j in range(k):
            start = j * d
            index = [slice(None)] * len(x.shape)
            index[axis] = slice(start, start + (out - 1) * s + 1, s)
            part = padded[tuple(index)]
            if result is None:
                result = part
            elif mode == "max":
                result = F.maximum(result, part)
            else:
                result = result + part
        if mode == "avg" and not divisor:
            counts = _window_counts(length, out, k, s, d, lo, hi, include_pad)
            shape = [1] * len(x.shape)
            shape[axis] = out
            result = result / Tensor(np.array(counts, dtype=np.float64).reshape(shape), x.dtype)
        x = result
    if mode == "avg" and divisor:
        x = x / float(divisor)
    return x


def pool3d_indices(x, values, kernel, stride, dilation, pads, ceil_mode=False):
    """The argmax of every max-pooling window, as a flat index into the input's D·H·W
    (``return_indices``): the first window cell, in (d, h, w) scan order, whose value equals
    the window's maximum ``values``.  Int64, the shape of ``values``.

    Each window offset (i, j, k) reads the strided slice of the −inf-padded input that pools
    compute; its cell's position is ``(o_d·s_d + i·d_d − lo_d)·H·W + (o_h·s_h + j·d_h − lo_h)·W
    + (o_w·s_w + k·d_w − lo_w)``.  Walking the offsets from last to first and selecting the
    position wherever the slice equals the maximum leaves the first one.
    """
    sizes = x.shape[2:]
    outs = values.shape[2:]
    padded = x
    for axis in (2, 3, 4):
        lo, hi = pads[axis - 2]
        k, s, d = kernel[axis - 2], stride[axis - 2], dilation[axis - 2]
        extra = max((outs[axis - 2] - 1) * s + d * (k - 1) + 1 - (sizes[axis - 2] + lo), 0)
        padded = _pad_axis(padded, axis, lo, extra, -np.inf)
    grids = np.meshgrid(*[np.arange(n) for n in outs], indexing="ij")
    indices = F.zeros(tuple(values.shape), mstype.int64)
    offsets = list(np.ndindex(*kernel))
    for offset in reversed(offsets):
        cell = [g * s + o * d - lo for g, s, o, d, (lo, _) in zip(grids, stride, offset, dilation,
                                                                    pads)]
        position = (cell[0] * sizes[1] + cell[1]) * sizes[2] + cell[2]
        index = [slice(None), slice(None)]
        for axis in range(3):
            start = offset[axis] * dilation[axis]
            index.append(slice(start, start + (outs[axis] - 1) * stride[axis] + 1, stride[axis]))
        hit = F.equal(padded[tuple(index)], values)
        indices = F.select(hit, F.broadcast_to(Tensor(position.astype(np.int64)),
                                               tuple(values.shape)), indices)
    return indices


def _check_input(op, x):
    check_tensor(op, "x", x)
    if len(x.shape) != 5:
        raise op_error(op, f"the 'x' should be 5-D (N, C, D, H, W), but got shape "
                           f"{tuple(x.shape)}.", ValueError)


def _pad6(op, pad, name):
    if isinstance(pad, int) and not isinstance(pad, bool):
        pad = (pad,) * 6
    if isinstance(pad, list):
        pad = tuple(pad)
    if isinstance(pad, tuple) and len(pad) == 3:
        pad = (pad[0], pad[0], pad[1], pad[1], pad[2], pad[2])
    if not isinstance(pad, tuple) or len(pad) != 6 or not all(
            isinstance(p, int) and not isinstance(p, bool) for p in pad):
        raise op_error(op, f"the '{name}' must be an int or a tuple of 3 or 6 ints, but got "
                           f"{pad!r}.")
    if any(p < 0 for p in pad):
        raise op_error(op, f"the '{name}' must be non-negative, but got {pad!r}.", ValueError)
    return pad


def _pad_mode(op, pad_mode, pad):
    if not isinstance(pad_mode, str) or pad_mode.lower() not in ("valid", "same", "pad"):
        raise op_error(op, f"the 'pad_mode' must be one of ['VALID', 'SAME', 'PAD'], but got "
                           f"{pad_mode!r}.", ValueError)
    pad_mode = pad_mode.lower()
    if pad_mode != "pad" and any(pad):
        raise op_error(op, f"the 'pad' must be zero when 'pad_mode' is not 'pad', but got "
                           f"{pad!r}.", ValueError)
    return pad_mode


class MaxPool3D(CompositeOp):
    """``MaxPool3D(kernel_size=1, strides=1, pad_mode='VALID', pad_list=0, ceil_mode=None,
    data_format='NCDHW')(x)``."""

    def __init__(self, kernel_size=1, strides=1, pad_mode="VALID", pad_list=0, ceil_mode=None,
                 data_format="NCDHW"):
        op = "MaxPool3D"
        self.kernel_size = triple(op, "kernel_size", kernel_size)
        self.strides = triple(op, "strides", strides)
        self.pad_list = _pad6(op, pad_list, "pad_list")
        self.pad_mode = _pad_mode(op, pad_mode, self.pad_list)
        self.ceil_mode = bool(ceil_mode)
        if data_format != "NCDHW":
            raise op_error(op, f"the 'data_format' must be 'NCDHW', but got {data_format!r}.",
                           ValueError)

    def __call__(self, x):
        _check_input("MaxPool3D", x)
        pads = pads_of(self.pad_mode, x.shape[2:], self.kernel_size, self.strides, (1, 1, 1),
                       self.pad_list)
        return pool3d("MaxPool3D", x, "max", self.kernel_size, self.strides, (1, 1, 1), pads,
                      self.ceil_mode)


class AvgPool3D(CompositeOp):
    """``AvgPool3D(kernel_size=1, strides=1, pad_mode='valid', pad=0, ceil_mode=False,
    count_include_pad=True, divisor_override=0, data_format='NCDHW')(x)``."""

    def __init__(self, kernel_size=1, strides=1, pad_mode="valid", pad=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=0, data_format="NCDHW"):
        op = "AvgPool3D"
        self.kernel_size = triple(op, "kernel_size", kernel_size)
        self.strides = triple(op, "strides", strides)
        self.pad = _pad6(op, pad, "pad")
        self.pad_mode = _pad_mode(op, pad_mode, self.pad)
        self.ceil_mode = bool(ceil_mode)
        self.count_include_pad = bool(count_include_pad)
        if isinstance(divisor_override, bool) or not isinstance(divisor_override, int) or \
                divisor_override < 0:
            raise op_error(op, f"the 'divisor_override' must be a non-negative int, but got "
                               f"{divisor_override!r}.", ValueError)
        self.divisor_override = divisor_override
        if data_format != "NCDHW":
            raise op_error(op, f"the 'data_format' must be 'NCDHW', but got {data_format!r}.",
                           ValueError)

    def __call__(self, x):
        _check_input("AvgPool3D", x)
        pads = pads_of(self.pad_mode, x.shape[2:], self.kernel_size, self.strides, (1, 1, 1),
                       self.pad)
        return pool3d("AvgPool3D", x, "avg", self.kernel_size, self.strides, (1, 1, 1), pads,
                      self.ceil_mode, self.count_include_pad, self.divisor_override)


def max_pool3d(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """``ops.max_pool3d``: explicit symmetric ``padding`` (int or 3), ``dilation``."""
    op = "max_pool3d"
    _check_input(op, x)
    kernel = triple(op, "kernel_size", kernel_size)
    stride = kernel if stride is None else triple(op, "stride", stride)
    pad = triple(op, "padding", padding, minimum=0)
    dilation = triple(op, "dilation", dilation)
    pads = tuple((p, p) for p in pad)
    values = pool3d(op, x, "max", kernel, stride, dilation, pads, bool(ceil_mode))
    if return_indices:
        return values, pool3d_indices(x, values, kernel, stride, dilation, pads, bool(ceil_mode))
    return values


def avg_pool3d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=0):
    """``ops.avg_pool3d``: explicit ``padding`` (int, or 6 ints: head, tail, top, bottom, left,
    right)."""
    op = "avg_pool3d"
    _check_input(op, input_x)
    pad = _pad6(op, padding, "padding")
    pads = ((pad[0], pad[1]), (pad[2], pad[3]), (pad[4], pad[5]))
    return pool3d(op, input_x, "avg", triple(op, "kernel_size", kernel_size),
                  triple(op, "stride", stride), (1, 1, 1), pads, bool(ceil_mode),
                  bool(count_include_pad), divisor_override or 0)
