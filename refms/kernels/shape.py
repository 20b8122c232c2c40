"""Reference shape kernels (numpy).  Results may be views of x on the cpu (a primitive's
output never aliases an input that is written later; ``copy`` where it must)::

    reshape(x, shape)          transpose(x, perm)         expand_dims(x, axis)
    squeeze(x, axes)           broadcast_to(x, shape)     tile(x, reps)
    flip(x, axis)
"""
import numpy as np

from . import reference


@reference
def reshape(x, shape):
    return np.reshape(x, shape)


@reference
def transpose(x, perm):
    return np.transpose(x, perm)


@reference
def expand_dims(x, axis):
    return np.expand_dims(x, axis)


@reference
def squeeze(x, axes):
    return np.squeeze(x, axis=tuple(axes))


@reference
def broadcast_to(x, shape):
    """x repeated along its size-1 (or missing leading) axes to ``shape``; a new array."""
    return np.array(np.broadcast_to(x, shape))


@reference
def tile(x, reps):
    return np.tile(x, reps)


@reference
def flip(x, axis):
    return np.flip(x, axis)
