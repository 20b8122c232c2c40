"""GatherNd: pick slices of ``x`` addressed by index tuples.

``y[i₁..iₘ] = x[indices[i₁..iₘ, 0], ..., indices[i₁..iₘ, k−1]]`` — the last
axis of ``indices`` (length ``k ≤ x.ndim``) addresses the first ``k`` axes
of ``x``; ``y.shape = indices.shape[:-1] + x.shape[k:]``.

Composition: the ``k`` leading axes of ``x`` are flattened into one, each
index tuple becomes one flat row number ``Σⱼ indices[..., j] · strideⱼ``,
and ``Gather`` picks those rows (its gradient scatters ``dout`` back).
"""
from ... import dtype as mstype
from ..primitive import F, op_error
from ._common import CompositeOp, check_tensor, int_tensor

__all__ = ["GatherNd", "gather_nd"]


def gather_nd(input_x, indices):
    """``ops.gather_nd(input_x, indices)`` (see the module docstring)."""
    check_tensor("GatherNd", "input_x", input_x)
    check_tensor("GatherNd", "indices", indices)
    if indices.dtype not in (mstype.int32, mstype.int64):
        raise op_error("GatherNd", f"the dtype of 'indices' should be Int32 or Int64, but got "
                                   f"{indices.dtype}.")
    k = indices.shape[-1] if len(indices.shape) else 0
    if len(indices.shape) == 0 or k > len(input_x.shape):
        raise op_error("GatherNd", f"the last dimension of 'indices' should be at most the rank "
                                   f"of 'input_x' ({len(input_x.shape)}), but got indices shape "
                                   f"{tuple(indices.shape)}.", ValueError)
    lead, rest = tuple(input_x.shape[:k]), tuple(input_x.shape[k:])
    strides, s = [], 1
    for d in reversed(lead):
        strides.append(s)
        s *= d
    strides = list(reversed(strides))
    flat_x = F.reshape(input_x, (s,) + rest)
    flat_index = F.reduce_sum(F.cast(indices, mstype.int32) * int_tensor(strides), (-1,), False)
    return F.gather(flat_x, flat_index, 0)


class GatherNd(CompositeOp):
    """``GatherNd()(input_x, indices)`` = :func:`gather_nd`."""

    def __call__(self, input_x, indices):
        return gather_nd(input_x, indices)
