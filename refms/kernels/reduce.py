"""Reference axis reductions (numpy).

Each takes ``x`` (an array), ``axis`` (a tuple of non-negative ints; ``()``
means every axis) and ``keepdims``; the result has x's dtype.
"""
import numpy as np

from . import reference


def _axis(x, axis):
    return tuple(range(x.ndim)) if axis == () else tuple(axis)


@reference
def reduce_sum(x, axis, keepdims):
    """Σ over ``axis``."""
    return np.sum(x, axis=_axis(x, axis), keepdims=keepdims, dtype=x.dtype)


@reference
def reduce_mean(x, axis, keepdims):
    """(1/n) Σ over ``axis``, n = number of reduced elements."""
    return np.mean(x, axis=_axis(x, axis), keepdims=keepdims, dtype=x.dtype)


def has_nan(x):
    """True when x is a floating array holding a NaN."""
    return x.dtype.kind == "f" and bool(np.isnan(x).any())


def scan_extremum(x, axis, keepdims, largest):
    """(values, flat indices within the reduced axes) of MindSpore's CPU max/min scan.

    The reduced elements are visited in row-major order starting from the first; an element
    replaces the current one only when strictly greater (``largest``) or smaller.  So a
    leading NaN stays and any later NaN is passed over: max([nan, 1]) = nan,
    max([1, nan, 3]) = 3 (MindSpore 2.10, recorded in tests/recorders/differential.json.gz).
    """
    axes = _axis(x, axis)
    kept = [d for d in range(x.ndim) if d not in axes]
    moved = np.transpose(x, kept + list(axes))
    flat = moved.reshape(moved.shape[:len(kept)] + (-1,))
    best = flat[..., 0].copy()
    where = np.zeros(best.shape, dtype=np.int64)
    with np.errstate(invalid="ignore"):
        for k in range(1, flat.shape[-1]):
            value = flat[..., k]
            take = value > best if largest else value < best
            best = np.where(take, value, best)
            where = np.where(take, k, where)
    if keepdims:
        shape = tuple(1 if d in axes else n for d, n in enumerate(x.shape))
        best, where = best.reshape(shape), where.reshape(shape)
    return best, where


@reference
def reduce_max(x, axis, keepdims):
    """max over ``axis``; with NaN present, MindSpore's scan (:func:`scan_extremum`)."""
    if has_nan(x):
        return scan_extremum(x, axis, keepdims, True)[0]
    return np.max(x, axis=_axis(x, axis), keepdims=keepdims)


@reference
def reduce_min(x, axis, keepdims):
    """min over ``axis``; with NaN present, MindSpore's scan (:func:`scan_extremum`)."""
    if has_nan(x):
        return scan_extremum(x, axis, keepdims, False)[0]
    return np.min(x, axis=_axis(x, axis), keepdims=keepdims)


@reference
def reduce_prod(x, axis, keepdims):
    """Π over ``axis``."""
    return np.prod(x, axis=_axis(x, axis), keepdims=keepdims, dtype=x.dtype)


@reference
def reduce_all(x, axis, keepdims):
    """∧ over ``axis`` (bool)."""
    return np.all(x, axis=_axis(x, axis), keepdims=keepdims)


@reference
def reduce_any(x, axis, keepdims):
    """∨ over ``axis`` (bool)."""
    return np.any(x, axis=_axis(x, axis), keepdims=keepdims)


@reference
def cumsum(x, axis, exclusive, reverse):
    """yᵢ = Σ_{j ≤ i} xⱼ along ``axis`` in x's dtype; ``exclusive``: j < i; ``reverse``: from the end."""
    y = np.flip(x, axis) if reverse else x
    y = np.cumsum(y, axis=axis, dtype=x.dtype)
    if exclusive:       # shift by one: y'[0] = 0, y'[i] = y[i - 1]
        shifted = np.zeros_like(y)
        head = [slice(None)] * y.ndim
        tail = [slice(None)] * y.ndim
        head[axis], tail[axis] = slice(1, None), slice(None, -1)
        shifted[tuple(head)] = y[tuple(tail)]
        y = shifted
    return np.flip(y, axis) if reverse else y


@reference
def exclusive_cumprod_both(x):
    """yᵢ = Π_{j ≠ i} xⱼ along the last axis, as (Π_{j < i} xⱼ)·(Π_{j > i} xⱼ) (no division)."""
    ones = np.ones(x.shape[:-1] + (1,), dtype=x.dtype)
    left = np.cumprod(np.concatenate([ones, x[..., :-1]], axis=-1), axis=-1)
    right = np.cumprod(np.concatenate([ones, x[..., :0:-1]], axis=-1), axis=-1)[..., ::-1]
    return left * right
