"""``mint``'s reductions and scans, PyTorch-style (``dim``, ``keepdim``).

``dim=None`` reduces over every axis.  ``mint.max(x, dim)`` and ``mint.min`` return
``(values, indices)``, like ``torch.max``; ``var``/``std`` take Bessel's
``correction`` (default 1: the sample variance).
"""
from .. import dtype as mstype
from ..ops import functional as F
from ._pointwise import _float


def _axes(dim):
    if dim is None:
        return ()
    return tuple(dim) if isinstance(dim, (list, tuple)) else dim


def _cast(x, dtype):
    return x if dtype is None else F.cast(x, dtype)


def sum(input, dim=None, keepdim=False, *, dtype=None):            # noqa: A002,A001
    """Σ over ``dim``."""
    return F.sum(input, dim, keepdim, dtype=dtype)


def mean(input, dim=None, keepdim=False, *, dtype=None):           # noqa: A002
    """Σ / n over ``dim``."""
    return F.mean(_float(_cast(input, dtype)), _axes(dim), keepdim)


def prod(input, dim=None, keepdim=False, *, dtype=None):           # noqa: A002
    """Π over ``dim``."""
    return F.prod(_cast(input, dtype), _axes(dim), keepdim)


def nansum(input, dim=None, keepdim=False, *, dtype=None):         # noqa: A002
    """Σ over ``dim`` with NaN counted as 0."""
    clean = F.select(F.isnan(input), F.zeros_like(input), input)
    return F.sum(clean, dim, keepdim, dtype=dtype)


def _values_indices(input, dim, keepdim, largest):
    reduce = F.amax if largest else F.amin
    arg = F.argmax if largest else F.argmin
    values = reduce(input, dim, keepdim)
    indices = F.cast(arg(input, dim, keepdim), mstype.int64)
    return values, indices


def max(input, dim=None, keepdim=False):                            # noqa: A002,A001
    """The largest element; with ``dim``, ``(values, indices)`` along it."""
    if dim is None:
        return F.amax(input)
    return _values_indices(input, dim, keepdim, True)


def min(input, dim=None, keepdim=False):                            # noqa: A002,A001
    """The smallest element; with ``dim``, ``(values, indices)`` along it."""
    if dim is None:
        return F.amin(input)
    return _values_indices(input, dim, keepdim, False)


def amax(input, dim=(), keepdim=False):                             # noqa: A002
    """max over ``dim`` (every axis when empty)."""
    return F.amax(input, _axes(dim) if dim != () else None, keepdim)


def amin(input, dim=(), keepdim=False):                             # noqa: A002
    """min over ``dim`` (every axis when empty)."""
    return F.amin(input, _axes(dim) if dim != () else None, keepdim)


def argmax(input, dim=None, keepdim=False):                         # noqa: A002
    """The index of the largest element (of the flattened input when ``dim`` is None), Int64."""
    return F.cast(F.argmax(input, dim, keepdim), mstype.int64)


def argmin(input, dim=None, keepdim=False):                         # noqa: A002
    """The index of the smallest element, Int64."""
    if dim is None:
        return F.cast(F.argmin(F.reshape(input, (-1,)), 0, False), mstype.int64)
    return F.cast(F.argmin(input, dim, keepdim), mstype.int64)


def all(input, dim=None, keepdim=False):                            # noqa: A002,A001
    """Whether every element over ``dim`` is true."""
    return F.cast(input, mstype.bool_).all(_axes(dim), keepdim)


def any(input, dim=None, keepdim=False):                            # noqa: A002,A001
    """Whether some element over ``dim`` is true."""
    return F.cast(input, mstype.bool_).any(_axes(dim), keepdim)


def count_nonzero(input, dim=None):                                 # noqa: A002
    """The number of nonzero elements over ``dim`` (Int64)."""
    return F.sum(F.cast(F.not_equal(input, 0), mstype.int64), dim)


def var(input, dim=None, *, correction=1, keepdim=False):           # noqa: A002
    """Σ(x − mean)² / (n − correction) over ``dim``."""
    x = _float(input)
    axes = _axes(dim)
    centered = F.sub(x, F.mean(x, axes, True))
    n = _count(x, axes)
    return F.sum(F.mul(centered, centered), dim, keepdim) / (n - correction)


def _count(x, axes):
    shape = tuple(x.shape)
    if axes == ():
        axes = tuple(range(len(shape)))
    if isinstance(axes, int):
        axes = (axes,)
    n = 1
    for axis in axes:
        n *= shape[axis]
    return n


def std(input, dim=None, *, correction=1, keepdim=False):           # noqa: A002
    """√var."""
    return F.sqrt(var(input, dim, correction=correction, keepdim=keepdim))


def var_mean(input, dim=None, *, correction=1, keepdim=False):      # noqa: A002
    """(var, mean)."""
    return (var(input, dim, correction=correction, keepdim=keepdim),
            mean(input, dim, keepdim))


def std_mean(input, dim=None, *, correction=1, keepdim=False):      # noqa: A002
    """(std, mean)."""
    return (std(input, dim, correction=correction, keepdim=keepdim),
            mean(input, dim, keepdim))


def logsumexp(input, dim, keepdim=False):                           # noqa: A002
    """ln Σ eˣ = m + ln Σ e^(x − m) with m = max x (no overflow)."""
    x = _float(input)
    m = F.stop_gradient(F.amax(x, _axes(dim), True))
    total = F.log(F.sum(F.exp(F.sub(x, m)), dim, True))
    out = F.add(total, m)
    return out if keepdim else F.squeeze(out, _axes(dim))


def cumsum(input, dim, *, dtype=None):                              # noqa: A002
    """Running sums along ``dim``."""
    return F.cumsum(_cast(input, dtype), dim)


def norm(input, p="fro", dim=None, keepdim=False, *, dtype=None):   # noqa: A002
    """The p-norm (``"fro"``: the 2-norm of the flattened input) over ``dim``."""
    ord_ = None if p in ("fro", 2) and dim is None else (None if p == "fro" else p)
    if dim is None:
        flat = F.reshape(_float(input), (-1,))
        return F.norm(flat, ord_, 0, keepdim) if not keepdim else \
            F.reshape(F.norm(flat, ord_, 0), (1,) * len(input.shape))
    return F.norm(_float(input), ord_, dim, keepdim)


def trace(input):                                                   # noqa: A002
    """Σᵢ input[i, i]."""
    from ._tensor_ops import diagonal
    return F.sum(diagonal(input))
