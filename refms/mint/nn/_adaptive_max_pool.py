"""``mint.nn.functional.adaptive_max_pool1d/2d`` and ``mint.nn.AdaptiveMaxPool1d/2d``: the maximum
over each adaptive bin, with the position it came from.

Output cell (i, j) covers rows ⌊i·H/oh⌋ … ⌈(i+1)·H/oh⌉ − 1 and the columns likewise (the bin
rule of :mod:`refms.ops.composites.adaptive_pool`).  Every bin's pixels are gathered into a row
of the widest bin's length (a narrower bin repeats its first pixel, which leaves its maximum
unchanged), then one ``max`` along that row gives the value and its pixel.  Indices are
positions in the flattened (H·W) plane, Int64 (MindSpore 2.10).  The gradient reaches the
chosen pixel through ``GatherD``.
"""
import numpy as np

from ... import dtype as mstype
from ..._tensor import Tensor
from ...ops import functional as F
from ...ops.composites.adaptive_pool import bins, output_size_of

__all__ = ["adaptive_max_pool1d", "adaptive_max_pool2d"]


def _bin_pixels(height, width, out_h, out_w):
    """(oh·ow, K) flat pixel positions of each bin, padded with the bin's first pixel."""
    cells = []
    for top, bottom in bins(height, out_h):
        for left, right in bins(width, out_w):
            rows, cols = np.meshgrid(np.arange(top, bottom), np.arange(left, right),
                                     indexing="ij")
            cells.append((rows * width + cols).reshape(-1))
    longest = max(len(c) for c in cells)
    return np.stack([np.concatenate([c, np.full(longest - len(c), c[0])]) for c in cells])


def adaptive_max_pool2d(input, output_size, return_indices=False):   # noqa: A002
    """The maximum over each of the (oh, ow) adaptive bins of ``input`` (N, C, H, W) or (C, H, W);
    ``return_indices`` adds each maximum's position in the H·W plane."""
    if len(input.shape) not in (3, 4):
        raise ValueError(f"For 'AdaptiveMaxPool2D', the input must be 3-D or 4-D, but got shape "
                         f"{tuple(input.shape)}.")
    x = input if len(input.shape) == 4 else F.expand_dims(input, 0)
    n, c, height, width = x.shape
    out_h, out_w = output_size_of(output_size, height, width, "AdaptiveMaxPool2D")
    pixels = _bin_pixels(height, width, out_h, out_w)
    index = F.broadcast_to(Tensor(pixels.reshape(1, 1, -1), mstype.int64),
                           (n, c, pixels.size))
    gathered = F.gather_d(F.reshape(x, (n, c, height * width)), 2, index)
    rows = F.reshape(gathered, (n, c, out_h * out_w, pixels.shape[1]))
    values, which = F.max(rows, 3)
    positions = F.gather_d(F.reshape(index, rows.shape), 3,
                           F.expand_dims(F.cast(which, mstype.int64), 3))
    values = F.reshape(values, (n, c, out_h, out_w))
    positions = F.reshape(positions, (n, c, out_h, out_w))
    if len(input.shape) == 3:
        values, positions = F.squeeze(values, 0), F.squeeze(positions, 0)
    return (values, positions) if return_indices else values


def adaptive_max_pool1d(input, output_size, return_indices=False):   # noqa: A002
    """The maximum over each of ``output_size`` adaptive bins of the last dim of ``input``
    (N, C, L) or (C, L); ``return_indices`` adds each maximum's position along L."""
    if len(input.shape) not in (2, 3):
        raise ValueError(f"For 'AdaptiveMaxPool1D', the input must be 2-D or 3-D, but got shape "
                         f"{tuple(input.shape)}.")
    if isinstance(output_size, (tuple, list)):
        output_size = output_size[0]
    values, positions = adaptive_max_pool2d(F.expand_dims(input, -2), (1, output_size), True)
    values, positions = F.squeeze(values, (-2,)), F.squeeze(positions, (-2,))
    return (values, positions) if return_indices else values
