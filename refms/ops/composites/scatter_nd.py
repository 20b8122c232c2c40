"""ScatterNd: a zero tensor of ``shape`` with ``updates`` added at the addressed positions.

``y[indices[j]] += updates[j]`` (duplicates add up); the last axis of
``indices`` (length ``k``) addresses the first ``k`` axes of ``y``.
Composition: each index tuple becomes a flat row number and
``UnsortedSegmentSum`` adds the update rows into ``prod(shape[:k])`` rows.
"""
from ... import dtype as mstype
from ..primitive import F, op_error
from ._common import CompositeOp, check_tensor, int_tensor

__all__ = ["ScatterNd", "scatter_nd"]


def scatter_nd(indices, updates, shape):
    """``ops.scatter_nd(indices, updates, shape)``."""
    check_tensor("ScatterNd", "indices", indices)
    check_tensor("ScatterNd", "updates", updates)
    shape = tuple(shape)
    k = indices.shape[-1] if len(indices.shape) else 0
    if not 0 < k <= len(shape) or tuple(updates.shape) != tuple(indices.shape[:-1]) + shape[k:]:
        raise op_error("ScatterNd", f"the shape of 'updates' should be indices.shape[:-1] + "
                                    f"shape[indices.shape[-1]:], but got indices "
                                    f"{tuple(indices.shape)}, updates {tuple(updates.shape)} and "
                                    f"shape {shape}.", ValueError)
    strides, rows = [], 1
    for d in reversed(shape[:k]):
        strides.append(rows)
        rows *= d
    strides = list(reversed(strides))
    flat = F.reduce_sum(F.cast(indices, mstype.int32) * int_tensor(strides), (-1,), False)
    flat = F.reshape(flat, (-1,))
    values = F.reshape(updates, (-1,) + shape[k:])
    return F.reshape(F.unsorted_segment_sum(values, flat, rows), shape)


class ScatterNd(CompositeOp):
    """``ScatterNd()(indices, updates, shape)`` = :func:`scatter_nd`."""

    def __call__(self, indices, updates, shape):
        return scatter_nd(indices, updates, shape)
