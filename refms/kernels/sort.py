"""Reference ordering kernels (numpy).  Index outputs are int64 (the executor casts).

Contract::

    sort(x, axis, descending)    -> (values, indices); stable: ties keep their order
    topk(x, k, sorted)           -> (values, indices) of the k largest along the last axis
    argmax(x, axis) / argmin(x, axis)   -> indices of the first extremum
"""
import numpy as np

from . import reference
from .reduce import has_nan, scan_extremum


def stable_argsort(x, axis, descending):
    """Indices that sort ``x`` along ``axis``; equal values keep their original order."""
    if not descending:
        return np.argsort(x, axis=axis, kind="stable")
    # Sort the reversed array ascending, read the result backwards and map positions back:
    # among equal values the earliest one comes first, as in the ascending case.
    n = x.shape[axis]
    reversed_order = np.argsort(np.flip(x, axis), axis=axis, kind="stable")
    return n - 1 - np.flip(reversed_order, axis)


@reference
def sort(x, axis, descending):
    order = stable_argsort(x, axis, descending)
    return np.take_along_axis(x, order, axis), order


@reference
def topk(x, k, sorted):
    order = stable_argsort(x, -1, True)[..., :k]
    if not sorted:
        order = np.sort(order, axis=-1)
    return np.take_along_axis(x, order, -1), order


@reference
def argmax(x, axis):
    """Index of the first maximum; with NaN present, MindSpore's scan (a leading NaN wins,
    later ones are passed over: :func:`refms.kernels.reduce.scan_extremum`)."""
    if has_nan(x):
        return scan_extremum(x, (axis % x.ndim,), False, True)[1]
    return np.argmax(x, axis=axis)


@reference
def argmin(x, axis):
    """Index of the first minimum; NaN as in :func:`argmax`."""
    if has_nan(x):
        return scan_extremum(x, (axis % x.ndim,), False, False)[1]
    return np.argmin(x, axis=axis)
