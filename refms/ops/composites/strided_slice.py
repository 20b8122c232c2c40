"""StridedSlice: ``y = x[b₀:e₀:s₀, b₁:e₁:s₁, ...]`` with MindSpore's bit masks.

Bit ``i`` of ``begin_mask`` (``end_mask``) ignores ``begin[i]`` (``end[i]``) and
slices from the start (to the end) of axis ``i``; bit ``i`` of
``shrink_axis_mask`` takes the single index ``begin[i]`` and drops the axis.
Axes past ``len(begin)`` are taken whole.  Composition: ``GetItem`` with the
equivalent tuple of Python slices and ints.  ``ellipsis_mask`` and
``new_axis_mask`` are not implemented (``ValueError`` when set).
"""
import builtins

from ..primitive import op_error
from ._common import CompositeOp, check_tensor, check_int

__all__ = ["StridedSlice", "strided_slice"]


def strided_slice(input_x, begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0):
    """``ops.strided_slice`` (see the module docstring)."""
    check_tensor("StridedSlice", "input_x", input_x)
    for name, value in (("begin", begin), ("end", end), ("strides", strides)):
        if not isinstance(value, (tuple, list)):
            raise op_error("StridedSlice", f"the '{name}' should be a tuple of ints, but got "
                                           f"{type(value).__name__}.")
    if not len(begin) == len(end) == len(strides) or len(begin) > len(input_x.shape):
        raise op_error("StridedSlice", f"the 'begin', 'end' and 'strides' should have the same "
                                       f"length, at most the rank {len(input_x.shape)}, but got "
                                       f"{begin}, {end}, {strides}.", ValueError)
    if ellipsis_mask or new_axis_mask:
        raise op_error("StridedSlice", "refms does not implement 'ellipsis_mask' and "
                                       "'new_axis_mask'.", ValueError)
    index = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        for name, v in (("begin", b), ("end", e), ("strides", s)):
            check_int("StridedSlice", name, v)
        if s == 0:
            raise op_error("StridedSlice", "the 'strides' should not contain 0.", ValueError)
        if shrink_axis_mask >> i & 1:
            n = input_x.shape[i]
            if not -n <= b < n:
                raise op_error("StridedSlice", f"the shrunk index {b} of axis {i} is out of "
                                               f"range for size {n}.", ValueError)
            index.append(b)
            continue
        index.append(builtins.slice(None if begin_mask >> i & 1 else b,
                                    None if end_mask >> i & 1 else e, s))
    return input_x[tuple(index)]


class StridedSlice(CompositeOp):
    """``StridedSlice(begin_mask, end_mask, ...)(x, begin, end, strides)`` = :func:`strided_slice`."""

    def __init__(self, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                 shrink_axis_mask=0):
        self.masks = (begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask)

    def __call__(self, input_x, begin, end, strides):
        return strided_slice(input_x, begin, end, strides, *self.masks)
