"""ScatterNdUpdate and ScatterAdd: in-place updates of a Parameter at indexed positions.

* ``ScatterNdUpdate()(x, indices, updates)``: x[indices[j]] ← updates[j] (the last axis of
  ``indices`` addresses the first k axes of x); with repeated indices the last update wins,
  as MindSpore 2.10's CPU kernel applies them in order (recorded).
* ``ScatterAdd()(x, indices, updates)``: x[indices[...]] += updates along axis 0; repeated
  indices add up.

Both write x through ``Assign`` and return it.  Compositions: each index tuple becomes a
flat row number; ``UnsortedSegmentMax`` of the update positions finds each row's last
update (ScatterNdUpdate), ``UnsortedSegmentSum`` adds the rows (ScatterAdd).
"""
from ... import dtype as mstype
from ..._tensor import Tensor
from ..primitive import F, op_error
from ._common import CompositeOp, check_tensor, int_tensor
from .segment import unsorted_segment_max

__all__ = ["ScatterNdUpdate", "ScatterAdd"]


def _check(op, x, indices, updates):
    check_tensor(op, "input_x", x)
    check_tensor(op, "indices", indices)
    check_tensor(op, "updates", updates)
    if indices.dtype not in (mstype.int32, mstype.int64):
        raise op_error(op, f"the 'indices' must be a Tensor of Int32 or Int64, but got "
                           f"{indices.dtype}.")


def _flat_rows(indices, shape):
    """Row numbers of the index tuples in the last axis of ``indices`` over ``shape``."""
    strides, rows = [], 1
    for d in reversed(shape):
        strides.append(rows)
        rows *= d
    strides = list(reversed(strides))
    flat = F.reduce_sum(F.cast(indices, mstype.int32) * int_tensor(strides), (-1,), False)
    return F.reshape(flat, (-1,)), rows


class ScatterNdUpdate(CompositeOp):
    """``ScatterNdUpdate(use_locking=True)(input_x, indices, updates)``."""

    def __init__(self, use_locking=True):
        if not isinstance(use_locking, bool):
            raise op_error("ScatterNdUpdate", f"the 'use_locking' must be bool, but got "
                                              f"{type(use_locking).__name__}.")
        self.use_locking = use_locking

    def __call__(self, input_x, indices, updates):
        _check("ScatterNdUpdate", input_x, indices, updates)
        shape = tuple(input_x.shape)
        k = indices.shape[-1]
        if not 0 < k <= len(shape) or \
                tuple(updates.shape) != tuple(indices.shape[:-1]) + shape[k:]:
            raise op_error("ScatterNdUpdate", f"the shape of 'updates' must be "
                                              f"indices.shape[:-1] + input_x.shape["
                                              f"indices.shape[-1]:], but got indices "
                                              f"{tuple(indices.shape)}, updates "
                                              f"{tuple(updates.shape)}, input_x {shape}.",
                           ValueError)
        flat, rows = _flat_rows(indices, shape[:k])
        count = flat.shape[0]
        positions = Tensor(list(range(count)), mstype.int32)
        last = unsorted_segment_max(positions, flat, rows)        # −2³¹ where no update
        written = F.greater_equal(last, 0)
        values = F.gather(F.reshape(updates, (count,) + shape[k:]), F.maximum(last, 0), 0)
        old = F.reshape(input_x, (rows,) + shape[k:])
        mask = F.reshape(written, (rows,) + (1,) * (len(shape) - k))
        new = F.select(F.broadcast_to(mask, old.shape), F.cast(values, input_x.dtype), old)
        return F.assign(input_x, F.reshape(new, shape))


class ScatterAdd(CompositeOp):
    """``ScatterAdd(use_locking=False)(input_x, indices, updates)``."""

    def __init__(self, use_locking=False):
        if not isinstance(use_locking, bool):
            raise op_error("ScatterAdd", f"the 'use_locking' must be bool, but got "
                                         f"{type(use_locking).__name__}.")
        self.use_locking = use_locking

    def __call__(self, input_x, indices, updates):
        _check("ScatterAdd", input_x, indices, updates)
        shape = tuple(input_x.shape)
        if tuple(updates.shape) != tuple(indices.shape) + shape[1:]:
            raise op_error("ScatterAdd", f"the shape of 'updates' must be indices.shape + "
                                         f"input_x.shape[1:], but got indices "
                                         f"{tuple(indices.shape)}, updates "
                                         f"{tuple(updates.shape)}, input_x {shape}.", ValueError)
        flat = F.reshape(F.cast(indices, mstype.int32), (-1,))
        rows = F.reshape(updates, (flat.shape[0],) + shape[1:])
        added = F.unsorted_segment_sum(F.cast(rows, input_x.dtype), flat, shape[0])
        return F.assign(input_x, input_x + added)
