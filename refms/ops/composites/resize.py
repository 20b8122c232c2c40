"""ResizeNearestNeighbor: resize the last two axes (H, W) by nearest-neighbour sampling.

For an output row ``i`` of ``H'`` rows from ``H``:

* default: ``src = ⌊i · H / H'⌋``;
* ``align_corners=True``: ``src = ⌊i · (H−1)/(H'−1) + ½⌋`` (corners map to corners);
* ``half_pixel_centers=True``: ``src = ⌊(i + ½) · H / H'⌋``;

clipped to ``[0, H−1]``, and the same for columns.  Composition: two
``Gather``s with these constant index vectors, so the gradient sums ``dout``
into the source pixels.
"""
import math

from ..primitive import F, op_error
from ._common import CompositeOp, check_tensor, int_tensor

__all__ = ["ResizeNearestNeighbor"]


def _source(n_in, n_out, align_corners, half_pixel_centers):
    index = []
    for i in range(n_out):
        if align_corners and n_out > 1:
            s = math.floor(i * (n_in - 1) / (n_out - 1) + 0.5)
        elif half_pixel_centers:
            s = math.floor((i + 0.5) * n_in / n_out)
        else:
            s = math.floor(i * n_in / n_out)
        index.append(min(max(s, 0), n_in - 1))
    return index


class ResizeNearestNeighbor(CompositeOp):
    """``ResizeNearestNeighbor(size, align_corners=False)(x)`` on NCHW ``x``; size = (H', W')."""

    def __init__(self, size, align_corners=False, half_pixel_centers=False):
        if not isinstance(size, (tuple, list)) or len(size) != 2 or not all(
                isinstance(s, int) and not isinstance(s, bool) and s > 0 for s in size):
            raise op_error("ResizeNearestNeighbor", f"the 'size' should be a tuple of two "
                                                    f"positive ints, but got {size!r}.")
        self.size = tuple(size)
        self.align_corners = bool(align_corners)
        self.half_pixel_centers = bool(half_pixel_centers)

    def __call__(self, input_x):
        check_tensor("ResizeNearestNeighbor", "input_x", input_x)
        if len(input_x.shape) != 4:
            raise op_error("ResizeNearestNeighbor", f"the 'input_x' should be 4-D (NCHW), but "
                                                    f"got shape {tuple(input_x.shape)}.",
                           ValueError)
        h, w = input_x.shape[2], input_x.shape[3]
        rows = _source(h, self.size[0], self.align_corners, self.half_pixel_centers)
        cols = _source(w, self.size[1], self.align_corners, self.half_pixel_centers)
        y = F.gather(input_x, int_tensor(rows), 2)
        return F.gather(y, int_tensor(cols), 3)
