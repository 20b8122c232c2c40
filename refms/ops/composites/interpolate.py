"""``ops.interpolate``: resize the spatial axes of an (N, C, [D,] [H,] W) tensor — separable resampling.

Every mode MindSpore 2.10 offers resamples each spatial axis on its own: output
index ``i`` of an axis reads a few source indices ``j`` with weights ``w[i, j]``,

    out[..., i, ...] = Σ_j w[i, j] · x[..., j, ...]

so one ``(n_out, n_in)`` weight matrix per axis defines the mode, and the resize
is a ``MatMul`` along each axis in turn (the gradient is the transposed
matrix, from ``MatMul``'s bprop).  ``nearest`` modes copy one source index, so
they use ``Gather`` instead (a one-hot ``MatMul`` would turn an ``inf`` into
``nan``).  Source coordinates (MindSpore's kernels, ``ops.interpolate`` docs):

* ``align_corners=True``: ``src = i · (n_in − 1)/(n_out − 1)`` (0 when n_out = 1);
* otherwise half-pixel centres: ``src = (i + ½) · scale − ½`` with ``scale = n_in/n_out``,
  or ``1/scale_factor`` where MindSpore's kernel takes the scale factor itself
  (``trilinear`` and 5-D ``nearest``);
* ``linear``/``bilinear``/``trilinear``: the two neighbours ``⌊src⌋`` and ``⌊src⌋+1``
  (both clamped to the axis) weighted ``1 − t`` and ``t``, ``t = src − ⌊src⌋``;
* ``bicubic`` (TensorFlow's ResizeBicubic, which MindSpore's kernel ports): the four
  neighbours ``⌊src⌋ − 1 … ⌊src⌋ + 2`` with Keys' cubic kernel, ``a = −0.5`` for half-pixel
  centres (weights of neighbours outside the axis dropped and the rest renormalised) and
  ``a = −0.75`` with ``align_corners`` (neighbours clamped to the axis);
* ``area``: adaptive average pooling, bin ``[⌊i·n_in/n_out⌋, ⌈(i+1)·n_in/n_out⌉)`` (3-D input:
  MindSpore's ``adaptive_avg_pool1d``, which requires n_out to divide n_in);
* ``nearest``: ``src = min(⌊i · scale⌋, n_in − 1)``; ``nearest-exact``: ``⌊(i + ½) · scale⌋``.
"""
import math

import numpy as np

from ..._tensor import Tensor
from ..primitive import F, op_error
from ._common import CompositeOp, check_tensor, int_tensor

__all__ = ["interpolate", "ResizeBilinearV2", "ResizeNearestNeighborV2", "resample_axis",
           "linear_weights", "cubic_weights", "area_weights", "nearest_index"]

#: mode -> {input rank: the options MindSpore 2.10 accepts with it} (nn_func.interpolate).
SUPPORTED = {
    "nearest": {3: (), 4: (), 5: ("scale_factor",)},
    "linear": {3: ("align_corners",)},
    "bilinear": {4: ("align_corners",)},
    "bicubic": {4: ("align_corners",)},
    "area": {3: ("scale_factor",), 4: ("scale_factor",), 5: ("scale_factor",)},
    "nearest-exact": {3: (), 4: ()},
    "trilinear": {5: ("align_corners", "scale_factor")},
}


# --- the source coordinate and the weights of one axis ------------------------------------------

def _source(i, n_in, n_out, align_corners, half_pixel, scale):
    if align_corners:
        return i * (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
    if half_pixel:
        return (i + 0.5) * scale - 0.5
    return i * scale


def linear_weights(n_in, n_out, align_corners, half_pixel=True, scale=None):
    """(n_out, n_in) weights of linear interpolation (source clamped at 0 below, as the kernels do)."""
    scale = n_in / n_out if scale is None else scale
    w = np.zeros((n_out, n_in))
    for i in range(n_out):
        src = max(_source(i, n_in, n_out, align_corners, half_pixel, scale), 0.0)
        low = min(int(math.floor(src)), n_in - 1)
        high = min(low + 1, n_in - 1)
        t = src - low if low < n_in - 1 else 0.0
        w[i, low] += 1.0 - t
        w[i, high] += t
    return w


def _keys(t, a):
    """Keys' cubic convolution kernel at distance ``t`` (parameter ``a``)."""
    t = abs(t)
    if t <= 1:
        return ((a + 2) * t - (a + 3)) * t * t + 1
    if t < 2:
        return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a
    return 0.0


#: TensorFlow's ResizeBicubic samples the kernel on a table of 1024 steps per unit distance.
CUBIC_TABLE_SIZE = 1024


def cubic_weights(n_in, n_out, align_corners, half_pixel):
    """(n_out, n_in) weights of TensorFlow's bicubic resize along one axis.

    The fractional offset ``src − ⌊src⌋`` is rounded to a multiple of 1/1024 before the kernel
    is evaluated, as TensorFlow's (and MindSpore's) kernel reads it from a table.
    """
    scale = (n_in - 1) / (n_out - 1) if align_corners and n_out > 1 else n_in / n_out
    a = -0.5 if half_pixel else -0.75
    w = np.zeros((n_out, n_in))
    for i in range(n_out):
        src = float(np.float32((i + 0.5) * scale - 0.5) if half_pixel else np.float32(i * scale))
        base = math.floor(src)
        delta = round((src - base) * CUBIC_TABLE_SIZE) / CUBIC_TABLE_SIZE
        taps = [(base + k, float(np.float32(_keys(delta - k, a)))) for k in (-1, 0, 1, 2)]
        if half_pixel:                      # drop neighbours outside the axis, renormalise
            taps = [(j, v) for j, v in taps if 0 <= j < n_in]
            total = sum(v for _, v in taps)
            taps = [(j, v / total) for j, v in taps]
        for j, v in taps:
            w[i, min(max(j, 0), n_in - 1)] += v
    return w


def area_weights(n_in, n_out):
    """(n_out, n_in) weights of adaptive average pooling along one axis."""
    w = np.zeros((n_out, n_in))
    for i in range(n_out):
        start, end = (i * n_in) // n_out, -((-(i + 1) * n_in) // n_out)
        w[i, start:end] = 1.0 / (end - start)
    return w


def nearest_index(n_in, n_out, align_corners=False, half_pixel=False, scale=None):
    """The source index of each output index for the nearest-neighbour modes."""
    scale = n_in / n_out if scale is None else scale
    index = []
    for i in range(n_out):
        if align_corners:
            s = math.floor(i * (n_in - 1) / (n_out - 1) + 0.5) if n_out > 1 else 0
        elif half_pixel:
            s = math.floor((i + 0.5) * scale)
        else:
            s = math.floor(i * scale)
        index.append(min(max(s, 0), n_in - 1))
    return index


# --- applying one axis --------------------------------------------------------------------------

def resample_axis(x, axis, weights):
    """``Σ_j weights[i, j] · x[..., j, ...]`` along ``axis``: one ``MatMul`` with the axis moved last."""
    rank = len(x.shape)
    perm = tuple(k for k in range(rank) if k != axis) + (axis,)
    moved = F.transpose(x, perm)
    lead = moved.shape[:-1]
    flat = F.reshape(moved, (-1, x.shape[axis]))
    matrix = Tensor(np.ascontiguousarray(weights.T), x.dtype)
    out = F.reshape(F.matmul(flat, matrix), tuple(lead) + (weights.shape[0],))
    inverse = tuple(int(k) for k in np.argsort(perm))
    return F.transpose(out, inverse)


def _nearest(x, sizes, half_pixel=False, scales=None, align_corners=False):
    for k, n_out in enumerate(sizes):
        axis = 2 + k
        scale = None if scales is None else 1.0 / scales[k]
        index = nearest_index(x.shape[axis], n_out, align_corners, half_pixel, scale)
        x = F.gather(x, int_tensor(index), axis)
    return x


def _separable(x, sizes, weights_of):
    for k, n_out in enumerate(sizes):
        x = resample_axis(x, 2 + k, weights_of(k, x.shape[2 + k], n_out))
    return x


# --- ops.interpolate ----------------------------------------------------------------------------

def _positive_ints(value, rank):
    items = value if isinstance(value, tuple) else (value,) * (rank - 2)
    for item in items:
        if isinstance(item, bool) or not isinstance(item, int):
            raise TypeError(f"For 'interpolate', the 'size' must be int or a tuple of ints, but "
                            f"got {value!r}.")
        if item <= 0:
            raise ValueError(f"For 'interpolate', the 'size' must be positive, but got {value!r}.")
    if len(items) != rank - 2:
        raise ValueError(f"For 'interpolate', 'input' and 'size' must have the same spatial "
                         f"dimensions, but got 'input' is {rank - 2}D, 'size' is {len(items)}D")
    return tuple(items)


def _positive_floats(value, rank):
    items = value if isinstance(value, tuple) else (value,) * (rank - 2)
    for item in items:
        if isinstance(item, bool) or not isinstance(item, (int, float)):
            raise TypeError(f"For 'interpolate', the 'scale_factor' must be float or a tuple of "
                            f"floats, but got {value!r}.")
        if item <= 0:
            raise ValueError(f"For 'interpolate', the 'scale_factor' must be positive, but got "
                             f"{value!r}.")
    if len(items) != rank - 2:
        raise ValueError(f"For 'interpolate', 'input' and 'scale_factor' must have the same "
                         f"spatial dimensions, but got 'input' is {rank - 2}D, 'scale_factor' "
                         f"is {len(items)}D")
    return tuple(float(item) for item in items)


def interpolate(input, size=None, scale_factor=None, mode="nearest",  # noqa: A002 (MindSpore's name)
                align_corners=None, recompute_scale_factor=None):
    """``ops.interpolate``: exactly one of ``size`` / ``scale_factor``; see the module docstring."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'interpolate', 'input' must be a tensor, but got {type(input)}")
    size = tuple(size) if isinstance(size, list) else size
    scale_factor = tuple(scale_factor) if isinstance(scale_factor, list) else scale_factor
    rank = len(input.shape)
    if size is not None and scale_factor is not None:
        raise ValueError("For 'interpolate', 'size' and 'scale_factor' cannot be set simultaneously")
    if size is None and scale_factor is None:
        raise ValueError("For 'interpolate', 'size' and 'scale_factor' cannot be both empty")
    if size is not None:
        size = _positive_ints(size, rank)
    else:
        scale_factor = _positive_floats(scale_factor, rank)
    if isinstance(mode, list) or mode not in SUPPORTED:
        raise ValueError(f"For 'interpolate', 'mode' must be in '{list(SUPPORTED)}', but got {mode}")
    if rank not in SUPPORTED[mode]:
        raise ValueError(f"For 'interpolate', {mode} only support '{list(SUPPORTED[mode])}'D, "
                         f"but got {rank}D")
    if mode == "area" and size is None:
        recompute_scale_factor = True
    if recompute_scale_factor:
        if size is not None:
            raise ValueError("For 'interpolate', it is incorrect to set 'recompute_scale_factor' "
                             "to True after specifying an explicit 'size'.")
        size = tuple(math.floor(input.shape[2 + k] * s) for k, s in enumerate(scale_factor))
        scale_factor = None
    elif scale_factor is not None and "scale_factor" not in SUPPORTED[mode][rank]:
        raise ValueError(f"For 'interpolate', 'scale_factor' option cannot currently be set with "
                         f"the mode = {mode} and dim = {rank}D.")
    if align_corners is not None:
        if not isinstance(align_corners, bool):
            raise TypeError(f"For 'interpolate', the 'align_corners' must be bool, but got "
                            f"{type(align_corners).__name__}.")
        if "align_corners" not in SUPPORTED[mode][rank]:
            raise ValueError(f"For 'interpolate', 'align_corners' option cannot currently be set "
                             f"with the mode = {mode}, and dim = {rank}D")
    align_corners = bool(align_corners)
    if size is None:                    # only 5-D nearest and trilinear keep the factor itself
        size = tuple(math.floor(input.shape[2 + k] * s) for k, s in enumerate(scale_factor))
    return _RESIZE[mode](input, size, align_corners, scale_factor)


def _run_nearest(x, size, align_corners, scale_factor):
    return _nearest(x, size, scales=scale_factor if len(x.shape) == 5 else None)


def _run_nearest_exact(x, size, align_corners, scale_factor):
    return _nearest(x, size, half_pixel=True)


def _run_linear(x, size, align_corners, scale_factor):
    return _separable(x, size, lambda k, n_in, n_out: linear_weights(n_in, n_out, align_corners))


def _run_trilinear(x, size, align_corners, scale_factor):
    def weights(k, n_in, n_out):
        scale = None if scale_factor is None else 1.0 / scale_factor[k]
        return linear_weights(n_in, n_out, align_corners, scale=scale)
    return _separable(x, size, weights)


def _run_bicubic(x, size, align_corners, scale_factor):
    return _separable(x, size, lambda k, n_in, n_out: cubic_weights(n_in, n_out, align_corners,
                                                                    not align_corners))


def _run_area(x, size, align_corners, scale_factor):
    if len(x.shape) == 3 and x.shape[2] % size[0]:      # MindSpore's adaptive_avg_pool1d rule
        raise ValueError(f"For adaptive_avg_pool1d input's last dimension must be divisible by "
                         f"output size {size[0]}, but got {x.shape[2]}.")
    return _separable(x, size, lambda k, n_in, n_out: area_weights(n_in, n_out))


_RESIZE = {"nearest": _run_nearest, "nearest-exact": _run_nearest_exact, "linear": _run_linear,
           "bilinear": _run_linear, "trilinear": _run_trilinear, "bicubic": _run_bicubic,
           "area": _run_area}


# --- the V2 resize primitives --------------------------------------------------------------------

def _size_pair(op, size):
    if isinstance(size, Tensor):
        size = tuple(int(v) for v in size.asnumpy().reshape(-1))
    if not isinstance(size, (tuple, list)) or len(size) != 2:
        raise op_error(op, f"the 'size' should be a tuple or a 1-D Tensor of two ints, but got "
                           f"{size!r}.", ValueError)
    for s in size:
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)) or s <= 0:
            raise op_error(op, f"the 'size' should be two positive ints, but got {size!r}.",
                           ValueError)
    return tuple(int(s) for s in size)


def _check_flags(op, align_corners, half_pixel_centers):
    for name, value in (("align_corners", align_corners),
                        ("half_pixel_centers", half_pixel_centers)):
        if not isinstance(value, bool):
            raise op_error(op, f"the '{name}' should be bool, but got "
                               f"{type(value).__name__}.")
    if align_corners and half_pixel_centers:
        raise op_error(op, "if 'half_pixel_centers' is True, 'align_corners' must be False, but "
                           "got 'align_corners': True.", ValueError)


def _check_nchw(op, x):
    check_tensor(op, "x", x)
    if len(x.shape) != 4:
        raise op_error(op, f"the 'x' should be 4-D (NCHW), but got shape {tuple(x.shape)}.",
                       ValueError)


class ResizeBilinearV2(CompositeOp):
    """``ResizeBilinearV2(align_corners=False, half_pixel_centers=False)(x, size)``: bilinear resize
    of the (H, W) axes of an NCHW ``x`` (TensorFlow's coordinate rules, module docstring)."""

    def __init__(self, align_corners=False, half_pixel_centers=False):
        _check_flags("ResizeBilinearV2", align_corners, half_pixel_centers)
        self.align_corners, self.half_pixel_centers = align_corners, half_pixel_centers

    def __call__(self, x, size):
        _check_nchw("ResizeBilinearV2", x)
        size = _size_pair("ResizeBilinearV2", size)
        return _separable(x, size, lambda k, n_in, n_out: linear_weights(
            n_in, n_out, self.align_corners, self.half_pixel_centers))


class ResizeNearestNeighborV2(CompositeOp):
    """``ResizeNearestNeighborV2(align_corners=False, half_pixel_centers=False)(x, size)``: nearest
    resize of the (H, W) axes of an NCHW ``x``; ``size`` a 1-D Int32 Tensor (or tuple) of two."""

    def __init__(self, align_corners=False, half_pixel_centers=False):
        _check_flags("ResizeNearestNeighborV2", align_corners, half_pixel_centers)
        self.align_corners, self.half_pixel_centers = align_corners, half_pixel_centers

    def __call__(self, x, size):
        _check_nchw("ResizeNearestNeighborV2", x)
        size = _size_pair("ResizeNearestNeighborV2", size)
        return _nearest(x, size, self.half_pixel_centers, align_corners=self.align_corners)
