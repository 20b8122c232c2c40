"""In-place Tensor methods that write chosen positions (``index_add_``, ``scatter_``, ``put_``,
``fill_diagonal_``...) or fill with random draws (``bernoulli_``, ``exponential_``, ``random_``).

Each computes the new value with functional ops and hands it to
:func:`refms._tensor_inplace.update` (the same PyNative/graph-mode rules as ``add_``; see
that module).  Positions along a dimension become a ``TensorScatterElements`` index:
``x.index_add_(d, index, src)`` writes ``src[..., k, ...]`` to ``x[..., index[k], ...]``, the
index broadcast across the other dimensions of ``src``.  Gradients flow through the
scatter (to ``self``'s untouched positions and to the written source).  Definitions
follow MindSpore 2.10's ``Tensor`` documentation; its CPU backend has no kernel for these
("The kernel InplaceIndexAddExt unregistered"), so the tests check them against numpy.
"""
import numpy as np

from . import dtype as mstype
from ._tensor import Tensor
from ._tensor_inplace import inplace_method, update, _functional

__all__ = []


def _dim(dim, rank, op):
    if isinstance(dim, bool) or not isinstance(dim, int) or not -max(rank, 1) <= dim < max(rank, 1):
        raise ValueError(f"For '{op}', 'dim' must be an int in [{-max(rank, 1)}, {max(rank, 1)}), "
                         f"but got {dim!r}.")
    return dim % max(rank, 1)


def _along(index, dim, shape):
    """A 1-D ``index`` laid along ``dim`` and broadcast to ``shape`` (a scatter index)."""
    F = _functional()
    if len(index.shape) > 1:
        raise ValueError(f"'index' must be a 1-D (or 0-d) Tensor, but got shape "
                         f"{list(index.shape)}.")
    lined = [1] * len(shape)
    lined[dim] = -1
    return F.broadcast_to(F.reshape(index, tuple(lined)), tuple(shape))


def _value_like(self, value, shape):
    """A number or 0-d Tensor ``value`` as a Tensor of ``self``'s dtype and ``shape``."""
    F = _functional()
    if hasattr(value, "shape"):
        return F.broadcast_to(F.cast(F.reshape(value, ()), self.dtype), tuple(shape))
    return F.fill(self.dtype, tuple(shape), value)


# -- writing along a dimension ----------------------------------------------------------------

@inplace_method
def index_add_(self, dim, index, source, *, alpha=1):
    """self[..., index[k], ...] += alpha·source[..., k, ...] along ``dim`` (repeats add up)."""
    dim = _dim(dim, len(self.shape), "index_add_")
    updates = source if alpha == 1 else source * alpha
    new = _functional().tensor_scatter_elements(self, _along(index, dim, source.shape),
                                                updates, dim, "add")
    return update(self, new, "InplaceIndexAddExt")


@inplace_method
def index_copy_(self, dim, index, tensor):
    """self[..., index[k], ...] ← tensor[..., k, ...] along ``dim``."""
    dim = _dim(dim, len(self.shape), "index_copy_")
    new = _functional().tensor_scatter_elements(self, _along(index, dim, tensor.shape), tensor,
                                                dim, "none")
    return update(self, new, "InplaceIndexCopy")


@inplace_method
def index_fill_(self, dim, index, value):
    """self[..., i, ...] ← value for every i in ``index`` along ``dim``."""
    F = _functional()
    dim = _dim(dim, len(self.shape), "index_fill_")
    size = self.shape[dim] if self.shape else 1
    positions = Tensor(np.arange(size).reshape(-1, 1), mstype.int64)
    hit = F.reduce_any(F.equal(positions, F.reshape(F.cast(index, mstype.int64), (1, -1))),
                       (1,), False)
    lined = [1] * len(self.shape)
    if lined:
        lined[dim] = size
    mask = F.broadcast_to(F.reshape(hit, tuple(lined)), tuple(self.shape))
    return update(self, F.select(mask, _value_like(self, value, self.shape), self),
                  "InplaceIndexFillScalar")


@inplace_method
def scatter_(self, dim, index, src=None, *, value=None, reduce="none"):
    """self[..., index[i…], ...] ← src[i…] along ``dim`` (``value``: a number everywhere;
    ``reduce="add"``: added instead)."""
    F = _functional()
    dim = _dim(dim, len(self.shape), "scatter_")
    if reduce not in ("none", "add"):
        raise ValueError(f"For 'scatter_', 'reduce' must be 'none' or 'add', but got {reduce!r}.")
    if src is None or not hasattr(src, "shape"):
        updates = _value_like(self, value if src is None else src, index.shape)
    else:
        updates = src
        if tuple(src.shape) != tuple(index.shape):     # the leading part of src, as torch
            updates = src[tuple(slice(0, n) for n in index.shape)]
    new = F.tensor_scatter_elements(self, index, updates, dim, reduce)
    return update(self, new, "InplaceScatterSrc")


@inplace_method
def scatter_add_(self, dim, index, src):
    """self[..., index[i…], ...] += src[i…] along ``dim``."""
    return update(self, scatter_(self * 1, dim, index, src, reduce="add"), "InplaceScatterAdd")


@inplace_method
def masked_scatter_(self, mask, source):
    """The positions where ``mask`` is True ← the leading elements of ``source``, in order:
    the k-th True position (row-major) takes ``source.flatten()[k]``."""
    F = _functional()
    if mask.dtype is not mstype.bool_:
        raise TypeError(f"For 'masked_scatter_', 'mask' must be Bool, but got {mask.dtype}.")
    mask = F.broadcast_to(mask, tuple(self.shape))
    flat_mask = F.reshape(mask, (-1,))
    taken = F.cumsum(F.cast(flat_mask, mstype.int64), 0) - 1      # k for the k-th True
    available = int(np.prod(source.shape))
    if getattr(mask, "_data", None) is not None:                 # PyNative: count it now
        wanted = int(F.cast(flat_mask, mstype.int64).sum().asnumpy())
        if wanted > available:
            raise ValueError(f"For 'masked_scatter_', 'mask' selects {wanted} elements but "
                             f"'source' has only {available}.")
    picked = F.gather(F.reshape(source, (-1,)), F.clamp(taken, 0, max(available - 1, 0)), 0)
    new = F.select(flat_mask, F.cast(picked, self.dtype), F.reshape(self, (-1,)))
    return update(self, F.reshape(new, tuple(self.shape)), "InplaceMaskedScatter")


# -- writing at flat or multi-dimensional positions --------------------------------------------

@inplace_method
def put_(self, index, source, accumulate=False):
    """self.flatten()[index[k]] ← source.flatten()[k] (``accumulate``: +=); negative indices
    count from the end."""
    F = _functional()
    if index.dtype is not mstype.int64:
        raise TypeError(f"For 'put_', the dtype of 'index' must be Int64, but got {index.dtype}.")
    if source.dtype is not self.dtype:
        raise TypeError(f"For 'put_', 'source' ({source.dtype}) must have the dtype of the "
                        f"Tensor ({self.dtype}).")
    numel = int(np.prod(self.shape))
    flat_index = F.floor_mod(F.reshape(index, (-1,)), numel)
    flat = F.tensor_scatter_elements(F.reshape(self, (-1,)), flat_index,
                                     F.reshape(source, (-1,)), 0,
                                     "add" if accumulate else "none")
    return update(self, F.reshape(flat, tuple(self.shape)), "InplacePut")


@inplace_method
def index_put_(self, indices, values, accumulate=False):
    """self[indices] ← values (``accumulate``: +=): ``indices`` a tuple of integer Tensors, one
    per leading dimension, broadcast together; the remaining dimensions are taken whole."""
    F = _functional()
    if not isinstance(indices, (tuple, list)) or not indices:
        raise TypeError(f"For 'index_put_', 'indices' must be a non-empty tuple or list of "
                        f"Tensors, but got {type(indices).__name__}.")
    if not isinstance(accumulate, bool):
        raise TypeError(f"For 'index_put_', 'accumulate' must be bool, but got "
                        f"{type(accumulate).__name__}.")
    if values.dtype is not self.dtype:
        raise TypeError(f"For 'index_put_', 'values' ({values.dtype}) must have the dtype of "
                        f"the Tensor ({self.dtype}).")
    k = len(indices)
    if k > len(self.shape) or any(i.dtype.kind not in ("int", "uint") for i in indices):
        raise TypeError(f"For 'index_put_', expected at most {len(self.shape)} integer index "
                        f"Tensors, but got {[str(i.dtype) for i in indices]} (Bool masks are "
                        f"not implemented in refms).")
    lead, rest = tuple(self.shape[:k]), tuple(self.shape[k:])
    shape = np.broadcast_shapes(*[tuple(i.shape) for i in indices])
    flat_index = None
    for axis, index in enumerate(indices):       # row-major position in the leading dims
        wrapped = F.floor_mod(F.broadcast_to(F.cast(index, mstype.int64), shape), lead[axis])
        flat_index = wrapped if flat_index is None else flat_index * lead[axis] + wrapped
    count = int(np.prod(shape))
    rows = F.reshape(F.broadcast_to(values, shape + rest), (count,) + rest)
    table = F.reshape(self, (int(np.prod(lead)),) + rest)
    new = F.tensor_scatter_elements(table, _along(F.reshape(flat_index, (-1,)), 0, rows.shape),
                                    rows, 0, "add" if accumulate else "none")
    return update(self, F.reshape(new, tuple(self.shape)), "InplaceIndexPut")


@inplace_method
def fill_diagonal_(self, fill_value, wrap=False):
    """self[i, i, …, i] ← fill_value; a tall 2-D matrix with ``wrap`` restarts the diagonal
    every cols + 1 rows (``torch.Tensor.fill_diagonal_``'s layout)."""
    shape = tuple(self.shape)
    if len(shape) < 2:
        raise ValueError(f"For 'fill_diagonal_', the Tensor must have at least 2 dimensions, but "
                         f"got {len(shape)}.")
    if len(shape) > 2 and len(set(shape)) != 1:
        raise ValueError(f"For 'fill_diagonal_', all dimensions must be equal when there are "
                         f"more than 2, but got shape {list(shape)}.")
    numel = int(np.prod(shape))
    strides = np.cumprod((1,) + shape[:0:-1])[::-1]
    step = int(strides.sum())                      # one step along every axis at once
    end = numel if (len(shape) == 2 and wrap) else min(shape) * step
    mask = np.zeros(numel, bool)
    mask[np.arange(0, min(end, numel), step)] = True
    F = _functional()
    mask_tensor = Tensor(mask.reshape(shape))
    return update(self, F.select(mask_tensor, _value_like(self, fill_value, shape), self),
                  "InplaceFillDiagonal")


# -- random fills (values from refms's seeded stream) -------------------------------------------

def _uniform01(self):
    F = _functional()
    return F.uniform(tuple(self.shape), F.scalar_to_tensor(0.0), F.scalar_to_tensor(1.0))


@inplace_method
def bernoulli_(self, p=0.5, *, generator=None):
    """self ← 1 with probability p (a number or a float Tensor broadcast to self), else 0."""
    F = _functional()
    if hasattr(p, "dtype") and p.dtype.kind != "float":
        raise TypeError(f"For 'bernoulli_', a Tensor 'p' must be floating point, but got "
                        f"{p.dtype}.")
    return update(self, F.cast(F.less(_uniform01(self), p), self.dtype), "InplaceBernoulli")


@inplace_method
def exponential_(self, lambd=1, *, generator=None):
    """self ← samples of the exponential distribution λ·e^(−λx): −ln(1 − U)/λ, U ~ U[0, 1)."""
    F = _functional()
    return update(self, F.neg(F.log1p(F.neg(_uniform01(self)))) / lambd, "InplaceExponential")


def _largest(dtype):
    """``to``'s default: 2^(significand bits) for floats (every integer below is exact), the
    largest value for integers (as torch.Tensor.random_)."""
    np_type = np.dtype(mstype.dtype_to_nptype(dtype))
    if np_type.kind == "f":
        return 2 ** (np.finfo(np_type).nmant + 1)
    if np_type.kind == "b":
        return 2
    return int(np.iinfo(np_type).max)


@inplace_method
def random_(self, from_=0, to=None, *, generator=None):
    """self ← integers drawn uniformly from [``from_``, ``to`` − 1] (``to`` None: see
    ``_largest``).  Drawn as ``⌊U·(to − from_)⌋ + from_`` with U ~ U[0, 1) in Float32, so a
    range wider than 2²⁴ reaches only every few integers."""
    low = from_.item() if hasattr(from_, "item") else from_
    high = to.item() if hasattr(to, "item") else to
    high = _largest(self.dtype) if high is None else high
    for name, bound in (("from_", low), ("to", high)):
        if isinstance(bound, bool) or not isinstance(bound, (int, np.integer)):
            raise TypeError(f"For 'random_', '{name}' must be an integer, but got {bound!r}.")
    if low >= high:
        raise RuntimeError(f"For 'random_', expected from_ < to, but got from_ = {low} and "
                           f"to = {high}.")
    F = _functional()
    draw = F.floor(_uniform01(self) * float(high - low)) + float(low)
    return update(self, draw, "InplaceRandom")
