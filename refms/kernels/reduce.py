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


@reference
def reduce_max(x, axis, keepdims):
    """max over ``axis`` (NaN propagates)."""
    return np.max(x, axis=_axis(x, axis), keepdims=keepdims)


@reference
def reduce_min(x, axis, keepdims):
    """min over ``axis`` (NaN propagates)."""
    return np.min(x, axis=_axis(x, axis), keepdims=keepdims)


@reference
def reduce_prod(x, axis, keepdims):
    """Π over ``axis``."""
    return np.prod(x, axis=_axis(x, axis), keepdims=keepdims, dtype=x.dtype)
