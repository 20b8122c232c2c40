"""Reference kernels that make new arrays (numpy).

Contract::

    full(shape, value, np_dtype)   -> array of ``shape`` filled with ``value``
    full_like(x, value)            -> array of x's shape and dtype filled with ``value``
"""
import numpy as np

from . import reference


@reference
def full(shape, value, np_dtype):
    return np.full(shape, value, dtype=np_dtype)


@reference
def full_like(x, value):
    return np.full_like(x, value)

