"""UnsortedSegmentMax: the maximum of the rows that share a segment id.

``y[s] = max{ x[i] : segment_ids[i] = s }`` for ``s`` in ``[0, num_segments)``;
an empty segment gives the lowest value of the dtype (MindSpore's result:
−3.4028235e38 for Float32).  ``segment_ids`` indexes the leading axes of ``x``.

Composition: for each segment, ``Select`` keeps its rows (the others become
the lowest value) and ``ReduceMax`` over the segment axes; the results are
stacked.  The gradient flows to the rows holding each maximum.
"""
import numpy as np

from ... import dtype as mstype
from ..._tensor import Tensor
from ..primitive import F, op_error
from ._common import CompositeOp, check_tensor, check_int

__all__ = ["UnsortedSegmentMax", "unsorted_segment_max"]


def _lowest(dtype):
    if dtype.kind == "float":
        return float(np.finfo(dtype.np_type).min)
    return int(np.iinfo(dtype.np_type).min)


def unsorted_segment_max(x, segment_ids, num_segments):
    """``ops.unsorted_segment_max(x, segment_ids, num_segments)``."""
    check_tensor("UnsortedSegmentMax", "x", x)
    check_tensor("UnsortedSegmentMax", "segment_ids", segment_ids)
    check_int("UnsortedSegmentMax", "num_segments", num_segments)
    if num_segments <= 0:
        raise op_error("UnsortedSegmentMax", f"the 'num_segments' should be positive, but got "
                                             f"{num_segments}.", ValueError)
    k = len(segment_ids.shape)
    if tuple(x.shape[:k]) != tuple(segment_ids.shape) or segment_ids.dtype not in (
            mstype.int32, mstype.int64):
        raise op_error("UnsortedSegmentMax", f"the 'segment_ids' should be Int32/Int64 with a "
                                             f"shape that starts the shape of 'x', but got x "
                                             f"shape {tuple(x.shape)} and segment_ids "
                                             f"{segment_ids.dtype} {tuple(segment_ids.shape)}.",
                       ValueError)
    rest = (1,) * (len(x.shape) - k)
    lowest = F.fill(x.dtype, tuple(x.shape), _lowest(x.dtype))
    axes = tuple(range(k))
    rows = []
    for s in range(num_segments):
        mask = F.reshape(F.equal(segment_ids, Tensor(s, segment_ids.dtype)),
                         tuple(segment_ids.shape) + rest)
        mask = F.broadcast_to(mask, tuple(x.shape))
        rows.append(F.reduce_max(F.select(mask, x, lowest), axes, False))
    return F.stack(rows, 0)


class UnsortedSegmentMax(CompositeOp):
    """``UnsortedSegmentMax()(x, segment_ids, num_segments)`` = :func:`unsorted_segment_max`."""

    def __call__(self, x, segment_ids, num_segments):
        return unsorted_segment_max(x, segment_ids, num_segments)
