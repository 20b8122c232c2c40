"""``mint``'s order statistics and searches: median, kthvalue, cummax/cummin, searchsorted,
nonzero, bincount, repeat_interleave, and the cross product.

Indices are Int64, as in MindSpore's ``mint``.  ``nonzero`` and ``bincount`` have
data-dependent shapes: they need the input's values (PyNative).
"""
import numpy as np

from .. import dtype as mstype
from .._tensor import Tensor
from ..ops import functional as F


def _int64(x):
    return F.cast(x, mstype.int64)


def kthvalue(input, k, dim=-1, keepdim=False):             # noqa: A002
    """(values, indices) of the k-th smallest element along ``dim`` (k counts from 1)."""
    values, indices = F.sort(input, dim, False)
    rank = len(input.shape)
    dim = dim % rank
    begin = [0] * rank
    size = list(input.shape)
    begin[dim], size[dim] = k - 1, 1
    value = F.slice(values, tuple(begin), tuple(size))
    index = F.slice(indices, tuple(begin), tuple(size))
    if not keepdim:
        value, index = F.squeeze(value, (dim,)), F.squeeze(index, (dim,))
    return value, _int64(index)


def median(input, dim=None, keepdim=False):                 # noqa: A002
    """The lower median (the ⌈n/2⌉-th smallest); with ``dim``, ``(values, indices)``."""
    if dim is None:
        flat = F.reshape(input, (-1,))
        value, _ = kthvalue(flat, (flat.shape[0] + 1) // 2, 0)
        return value
    return kthvalue(input, (input.shape[dim] + 1) // 2, dim, keepdim)


def _cumulative_extreme(input, dim, largest):               # noqa: A002
    """(values, indices) of the running max/min along ``dim``: each position compared with every
    earlier one (an n×n mask; the index of the last extreme, as PyTorch gives)."""
    rank = len(input.shape)
    dim = dim % rank
    n = input.shape[dim]
    x = F.swapaxes(input, dim, -1) if dim != rank - 1 else input
    earlier = Tensor(np.tril(np.ones((n, n), np.bool_)))       # [i, j]: j ≤ i
    pairs = F.broadcast_to(F.unsqueeze(x, -2), tuple(x.shape[:-1]) + (n, n))
    fill = float("-inf") if largest else float("inf")
    masked = F.select(F.broadcast_to(earlier, tuple(pairs.shape)), pairs,
                      F.fill(pairs.dtype, tuple(pairs.shape), fill))
    flipped = F.flip(masked, (-1,))                              # last occurrence wins
    values = F.amax(masked, -1) if largest else F.amin(masked, -1)
    arg = F.argmax(flipped, -1) if largest else F.argmin(flipped, -1)
    indices = (n - 1) - _int64(arg)
    if dim != rank - 1:
        values, indices = F.swapaxes(values, dim, -1), F.swapaxes(indices, dim, -1)
    return values, indices


def cummax(input, dim):                                     # noqa: A002
    """(values, indices): values[i] = max(input[0..i]) along ``dim``."""
    return _cumulative_extreme(input, dim, True)


def cummin(input, dim):                                     # noqa: A002
    """(values, indices): values[i] = min(input[0..i]) along ``dim``."""
    return _cumulative_extreme(input, dim, False)


def searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None,
                 sorter=None):
    """For each value, the index where inserting it keeps the last dim of ``sorted_sequence``
    sorted: #{s < v} ("left") or #{s ≤ v} ("right")."""
    if side is not None:
        right = side == "right"
    if sorter is not None:
        sorted_sequence = F.gather_d(sorted_sequence, -1, sorter)
    compare = F.less_equal if right else F.less
    if len(sorted_sequence.shape) == 1:
        below = compare(F.unsqueeze(sorted_sequence, 0), F.unsqueeze(F.reshape(values, (-1,)), 1))
        count = F.sum(F.cast(below, mstype.int32), -1)
        count = F.reshape(count, tuple(values.shape))
    else:
        below = compare(F.unsqueeze(sorted_sequence, -2), F.unsqueeze(values, -1))
        count = F.sum(F.cast(below, mstype.int32), -1)
    return count if out_int32 else _int64(count)


def nonzero(input, *, as_tuple=False):                      # noqa: A002
    """The indices of the nonzero elements: an (n, rank) Int64 Tensor, or a tuple of rank
    1-D Tensors (``as_tuple``)."""
    mask = F.not_equal(input, 0) if input.dtype is not mstype.bool_ else input
    shape = tuple(input.shape)
    columns = []
    for d, size in enumerate(shape):
        grid = np.arange(size, dtype=np.int64).reshape([-1 if k == d else 1
                                                        for k in range(len(shape))])
        columns.append(F.masked_select(Tensor(np.broadcast_to(grid, shape).copy()), mask))
    if as_tuple:
        return tuple(columns)
    return F.stack(tuple(columns), 1)


def bincount(input, weights=None, minlength=0):             # noqa: A002
    """out[k] = Σ weights[i] over input[i] = k (counts without weights), length
    max(max(input) + 1, minlength)."""
    length = max(int(F.amax(input).asnumpy()) + 1 if input.shape[0] else 0, minlength)
    hits = F.cast(F.equal(F.unsqueeze(input, 1), Tensor(np.arange(length).reshape(1, -1))),
                  mstype.float32 if weights is None else weights.dtype)
    if weights is None:
        return _int64(F.sum(hits, 0))
    return F.sum(F.mul(hits, F.unsqueeze(weights, 1)), 0)


def repeat_interleave(input, repeats, dim=None, *, output_size=None):   # noqa: A002
    """Each element repeated ``repeats`` times along ``dim`` (the flattened input when None);
    ``repeats`` an int or a 1-D Tensor of counts."""
    x = F.reshape(input, (-1,)) if dim is None else input
    dim = 0 if dim is None else dim % len(x.shape)
    if isinstance(repeats, int):
        return F.repeat_elements(x, repeats, dim)
    counts = repeats.asnumpy().reshape(-1)
    if counts.size == 1:
        counts = np.full(x.shape[dim], counts[0])
    index = np.repeat(np.arange(x.shape[dim]), counts).astype(np.int32)
    return F.gather(x, Tensor(index), dim)


def cross(input, other, dim=None):                          # noqa: A002
    """The cross product a × b of 3-vectors along ``dim`` (the first dim of size 3 when None)."""
    if dim is None:
        dim = list(input.shape).index(3)
    dim = dim % len(input.shape)

    def component(x, k):
        begin = [0] * len(x.shape)
        size = list(x.shape)
        begin[dim], size[dim] = k, 1
        return F.slice(x, tuple(begin), tuple(size))

    a = [component(input, k) for k in range(3)]
    b = [component(other, k) for k in range(3)]
    return F.concat((a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                     a[0] * b[1] - a[1] * b[0]), dim)
