"""Adaptive 2-D pooling: a fixed output size (oh, ow) whatever the input's (H, W).

Output cell (i, j) pools rows ⌊i·H/oh⌋ … ⌈(i+1)·H/oh⌉ − 1 and the columns likewise
(the PyTorch/MindSpore bin rule).  When oh divides H and ow divides W the bins are an
ordinary pooling window (kernel = stride = H/oh), so that case runs as one
``MaxPool``/``AvgPool``; otherwise each bin is reduced on its own and the cells stacked.
``ops.AdaptiveAvgPool2D(output_size)`` is this with the mean; ``nn.AdaptiveAvgPool2d`` and
``nn.AdaptiveMaxPool2d`` call it too.  An entry None of ``output_size`` keeps that size.

``adaptive_avg_pool3d`` (``mint.nn.functional.adaptive_avg_pool3d``) uses that a bin is
a box, and the mean over a box is separable: it averages each bin along D, then along H,
then along W (``ReduceMean`` of slices, concatenated).
"""
from ..prims.pool import AvgPool, MaxPool
from ..primitive import F, op_error
from ._common import CompositeOp, check_tensor

__all__ = ["AdaptiveAvgPool2D", "adaptive_pool2d", "adaptive_avg_pool3d", "output_size_of",
           "bins"]


def output_size_of(output_size, height, width, name):
    """(oh, ow) from an int, a pair, or a pair with None (= keep the input's size)."""
    if isinstance(output_size, int) and not isinstance(output_size, bool):
        output_size = (output_size, output_size)
    if not (isinstance(output_size, (tuple, list)) and len(output_size) == 2):
        raise TypeError(f"For '{name}', the 'output_size' must be an int or a tuple of two "
                        f"ints (or None), but got {output_size!r}.")
    oh = height if output_size[0] is None else output_size[0]
    ow = width if output_size[1] is None else output_size[1]
    for value in (oh, ow):
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise ValueError(f"For '{name}', the 'output_size' must be positive, but got "
                             f"{output_size!r}.")
    return oh, ow


def bins(size, out):
    """The [start, end) of each of ``out`` adaptive bins over ``size`` cells."""
    return [((i * size) // out, -((-(i + 1) * size) // out)) for i in range(out)]


def adaptive_pool2d(x, output_size, mode, name):
    """``mode`` ('max' or 'avg') adaptive pooling of an (N, C, H, W) ``x``."""
    height, width = x.shape[2], x.shape[3]
    oh, ow = output_size_of(output_size, height, width, name)
    if height % oh == 0 and width % ow == 0:
        window = (height // oh, width // ow)
        prim = MaxPool if mode == "max" else AvgPool
        return prim(kernel_size=window, strides=window, pad_mode="valid")(x)
    reduce = F.reduce_max if mode == "max" else F.reduce_mean
    rows = []
    for top, bottom in bins(height, oh):
        cells = [reduce(x[:, :, top:bottom, left:right], (2, 3), False)
                 for left, right in bins(width, ow)]
        rows.append(F.stack(cells, -1))
    return F.stack(rows, -2)


class AdaptiveAvgPool2D(CompositeOp):
    """``AdaptiveAvgPool2D(output_size)(x)`` for a 3-D (C, H, W) or 4-D (N, C, H, W) ``x``."""

    def __init__(self, output_size):
        self.output_size = output_size

    def __call__(self, x):
        check_tensor("AdaptiveAvgPool2D", "x", x)
        if len(x.shape) not in (3, 4):
            raise op_error("AdaptiveAvgPool2D", f"the input must be 3-D or 4-D, but got shape "
                                                f"{tuple(x.shape)}.", ValueError)
        if len(x.shape) == 3:
            return F.squeeze(adaptive_pool2d(F.expand_dims(x, 0), self.output_size, "avg",
                                             "AdaptiveAvgPool2D"), 0)
        return adaptive_pool2d(x, self.output_size, "avg", "AdaptiveAvgPool2D")


def adaptive_avg_pool3d(x, output_size, name="adaptive_avg_pool3d"):
    """The mean over adaptive (D, H, W) bins of a 4-D (C, D, H, W) or 5-D (N, C, D, H, W)
    ``x``; ``output_size`` an int or three ints, None keeping that size."""
    check_tensor(name, "input", x)
    if len(x.shape) not in (4, 5):
        raise op_error(name, f"the input must be 4-D or 5-D, but got shape {tuple(x.shape)}.",
                       ValueError)
    if isinstance(output_size, int) and not isinstance(output_size, bool):
        output_size = (output_size,) * 3
    if not (isinstance(output_size, (tuple, list)) and len(output_size) == 3):
        raise op_error(name, f"the 'output_size' must be an int or a tuple of three ints (or "
                             f"None), but got {output_size!r}.")
    for axis, out in zip((-3, -2, -1), output_size):
        size = x.shape[axis]
        out = size if out is None else out
        if isinstance(out, bool) or not isinstance(out, int) or out <= 0:
            raise op_error(name, f"the 'output_size' must be positive, but got "
                                 f"{output_size!r}.", ValueError)
        if out == size:
            continue
        cells = []
        for start, end in bins(size, out):
            index = [slice(None)] * len(x.shape)
            index[axis] = slice(start, end)
            cells.append(F.reduce_mean(x[tuple(index)], (len(x.shape) + axis,), True))
        x = F.concat(cells, axis)
    return x
