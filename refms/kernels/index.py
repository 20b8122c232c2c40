"""Reference indexing kernels (numpy).

Contract::

    getitem(x, index)                      -> x[index] as a new array (numpy basic/advanced
                                              indexing; index arrays are host arrays)
    index_add(shape, index, updates)       -> zeros(shape) with updates added at x[index]
                                              (repeated positions accumulate)
    take(x, indices, axis)                 -> y[a…, i…, b…] = x[a…, indices[i…], b…]
    take_along_axis(x, index, axis)        -> y[…, j, …] = x[…, index[…, j, …], …]
    scatter_along_axis(x, index, updates, axis, reduction)
                                           -> copy of x with x[…, index[…], …] = updates
                                              ("none") or += updates ("add")
    one_hot(indices, depth, axis, on, off) -> on where the class matches, else off
    masked_select(x, mask)                 -> 1-D: x's elements where mask (both broadcast)
    masked_scatter(x, mask, source)        -> copy of x, the masked places filled from source
    segment_sum(x, ids, n)                 -> y[s] = Σ x[i] over ids[i] = s; ids < 0 dropped
    first_outside(indices, low, high)      -> None, or (position, value) of the first index
                                              outside [low, high) (host values; low None:
                                              no lower bound)
    count_true(mask)                       -> int, the number of True elements
"""
import numpy as np

from . import reference


def _along_axis(index, axis):
    """numpy index tuple that reads x[…, index[…], …] with ``index`` on ``axis``."""
    grids = list(np.indices(index.shape, sparse=True))
    grids[axis] = index
    return tuple(grids)


@reference
def getitem(x, index):
    return np.array(x[index], copy=True)


@reference
def index_add(shape, index, updates):
    result = np.zeros(shape, dtype=updates.dtype)
    np.add.at(result, index, updates)
    return result


@reference
def take(x, indices, axis):
    return np.take(x, indices, axis=axis)


@reference
def take_along_axis(x, index, axis):
    return x[_along_axis(index, axis)]


@reference
def scatter_along_axis(x, index, updates, axis, reduction):
    result = np.array(x, copy=True)
    where = _along_axis(index, axis)
    if reduction == "add":
        np.add.at(result, where, updates)
    else:
        result[where] = updates
    return result


@reference
def one_hot(indices, depth, axis, on_value, off_value):
    classes = np.arange(depth).reshape([depth if d == axis else 1
                                        for d in range(indices.ndim + 1)])
    hot = np.expand_dims(indices, axis) == classes
    return np.where(hot, np.reshape(on_value, ()), np.reshape(off_value, ()))


@reference
def masked_select(x, mask):
    shape = np.broadcast_shapes(x.shape, mask.shape)
    return np.broadcast_to(x, shape)[np.broadcast_to(mask, shape)]


@reference
def masked_scatter(x, mask, source):
    mask = np.broadcast_to(mask, x.shape)
    count = int(mask.sum())
    result = np.array(x, copy=True)
    result[mask] = source.reshape(-1)[:count]
    return result


@reference
def segment_sum(x, ids, n):
    result = np.zeros((n,) + x.shape[ids.ndim:], dtype=x.dtype)
    keep = ids >= 0
    np.add.at(result, ids[keep], x[keep])
    return result


@reference
def first_outside(indices, low, high):
    if indices.size == 0 or ((low is None or indices.min() >= low) and indices.max() < high):
        return None                          # the usual case, two reductions and no mask
    bad = indices >= high if low is None else (indices < low) | (indices >= high)
    if not np.any(bad):
        return None
    position = tuple(int(i) for i in np.argwhere(bad)[0])
    return position, indices[position].item()


@reference
def count_true(mask):
    return int(np.count_nonzero(mask))
