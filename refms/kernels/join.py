"""Reference joining and splitting kernels (numpy).

Contract::

    concat(xs, axis)              -> one array, xs joined along an existing axis
    stack(xs, axis)               -> one array, xs joined along a new axis
    split(x, sections, axis)      -> tuple of arrays; ``sections`` an int (equal parts)
                                     or the list of split indices
"""
import numpy as np

from . import reference


@reference
def concat(xs, axis):
    return np.concatenate(xs, axis=axis)


@reference
def stack(xs, axis):
    return np.stack(xs, axis=axis)


@reference
def split(x, sections, axis):
    return tuple(np.split(x, sections, axis=axis))
