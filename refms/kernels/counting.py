"""Reference kernels that count values: distinct values, runs of equal values, histograms.

Contract (x an array; inverse and counts int64)::

    unique(x, dim)               -> (values, inverse, counts): the distinct values in
                                    ascending order (dim None: of the flattened x; else
                                    the distinct slices along ``dim``), where each element
                                    (slice) of x went, and how often each value occurs
    unique_consecutive(x, dim)   -> (values, inverse, counts): each run of equal
                                    neighbouring elements (slices along ``dim``) kept once
    histc(x, bins, low, high)    -> (bins,) counts of x in ``bins`` equal-width bins of
                                    [low, high]; values outside are not counted, ``high``
                                    falls in the last bin
"""
import numpy as np

from . import reference


@reference
def unique(x, dim):
    if dim is None:
        values, inverse, counts = np.unique(x.reshape(-1), return_inverse=True,
                                            return_counts=True)
        return values, inverse.reshape(x.shape).astype(np.int64), counts.astype(np.int64)
    values, inverse, counts = np.unique(x, return_inverse=True, return_counts=True, axis=dim)
    return values, inverse.reshape(-1).astype(np.int64), counts.astype(np.int64)


@reference
def unique_consecutive(x, dim):
    moved = x.reshape(-1, 1) if dim is None else np.moveaxis(x, dim, 0).reshape(x.shape[dim], -1)
    if moved.shape[0] == 0:
        starts = np.zeros(0, bool)
    else:
        starts = np.ones(moved.shape[0], bool)
        starts[1:] = (moved[1:] != moved[:-1]).any(axis=1)
    inverse = np.cumsum(starts) - 1
    first = np.flatnonzero(starts)
    counts = np.diff(np.append(first, moved.shape[0]))
    if dim is None:
        values = x.reshape(-1)[first]
        inverse = inverse.reshape(x.shape)
    else:
        values = np.take(x, first, axis=dim)
    return values, inverse.astype(np.int64), counts.astype(np.int64)


@reference
def histc(x, bins, low, high):
    values = x.reshape(-1).astype(np.float64)
    inside = values[(values >= low) & (values <= high)]
    index = np.floor((inside - low) * bins / (high - low)).astype(np.int64)
    index = np.minimum(index, bins - 1)           # high itself belongs to the last bin
    return np.bincount(index, minlength=bins)[:bins].astype(x.dtype)
