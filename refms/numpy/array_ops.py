"""Shape manipulation in ``mindspore.numpy``: NumPy's names and argument conventions over
refms's ``Reshape``, ``Concat``, ``Stack``, ``Split``, ``Tile``, ``Transpose``, ``Pad``,
``GatherD``…

``split(x, n)`` cuts into n equal parts; ``split(x, [i, j])`` at the indices i and j.
``repeat(a, r)`` without an axis repeats the flattened elements.  ``pad`` is the
constant mode only, its widths and value ints (MindSpore rejects a float value).
"""
from ..ops import functional as F
from .array_creations import asarray

__all__ = ["reshape", "concatenate", "stack", "vstack", "split", "tile", "repeat", "expand_dims",
           "squeeze", "broadcast_to", "flip", "transpose", "swapaxes", "ravel", "pad",
           "take_along_axis"]


def reshape(x, new_shape):
    return F.reshape(x, (new_shape,) if isinstance(new_shape, int) else tuple(new_shape))


def ravel(x):
    return F.reshape(x, (-1,))


def concatenate(arrays, axis=0):
    """Join along ``axis``; ``axis=None`` flattens first."""
    if axis is None:
        return F.concat(tuple(ravel(a) for a in arrays), 0)
    return F.concat(tuple(arrays), axis)


def stack(arrays, axis=0):
    return F.stack(tuple(arrays), axis)


def vstack(tup):
    """Rows stacked: 1-D inputs become rows of a matrix."""
    return F.concat(tuple(F.reshape(a, (1, -1)) if len(a.shape) == 1 else a for a in tup), 0)


def split(x, indices_or_sections, axis=0):
    """n equal parts (an int), or parts cut at the given indices (a list or tuple)."""
    length = x.shape[axis]
    if isinstance(indices_or_sections, int):
        if length % indices_or_sections:
            raise ValueError(f"array split does not result in an equal division: {length} by "
                             f"{indices_or_sections}.")
        sizes = [length // indices_or_sections] * indices_or_sections
    else:
        bounds = [0] + [min(max(i, 0), length) for i in indices_or_sections] + [length]
        sizes = [b - a for a, b in zip(bounds[:-1], bounds[1:])]
    return tuple(F.split(x, sizes, axis))


def tile(a, reps):
    reps = (reps,) if isinstance(reps, int) else tuple(reps)
    if len(reps) < len(a.shape):
        reps = (1,) * (len(a.shape) - len(reps)) + reps
    return F.tile(a, reps)


def repeat(a, repeats, axis=None):
    """Each element ``repeats`` times along ``axis`` (of the flattened array for None)."""
    if axis is None:
        a, axis = ravel(a), 0
    return F.repeat_elements(a, repeats, axis)


def expand_dims(a, axis):
    return F.expand_dims(a, axis)


def squeeze(a, axis=None):
    if axis is None:
        axis = tuple(i for i, d in enumerate(a.shape) if d == 1)
    return F.squeeze(a, axis)


def broadcast_to(array, shape):
    return F.broadcast_to(array, tuple(shape))


def flip(m, axis=None):
    """Reversed along ``axis`` (every axis for None)."""
    if axis is None:
        axis = tuple(range(len(m.shape)))
    return F.flip(m, axis)


def transpose(a, axes=None):
    if axes is None:
        axes = tuple(reversed(range(len(a.shape))))
    return F.transpose(a, tuple(axes))


def swapaxes(x, axis1, axis2):
    return F.swapaxes(x, axis1, axis2)


def pad(arr, pad_width, mode="constant", constant_values=0):
    """Constant padding; ``pad_width`` an int, a pair or one pair per axis."""
    for value in (constant_values,) + tuple(_flatten(pad_width)):
        if isinstance(value, float):
            raise TypeError("pad_width, stat_length, constant_values or end_values should only "
                            "be int, list, tuple or tensor")
    if mode != "constant":
        raise NotImplementedError(f"refms.numpy.pad implements mode='constant', not {mode!r}.")
    ndim = len(arr.shape)
    if isinstance(pad_width, int):
        pairs = [(pad_width, pad_width)] * ndim
    elif len(pad_width) == 2 and all(isinstance(p, int) for p in pad_width):
        pairs = [tuple(pad_width)] * ndim
    else:
        pairs = [tuple(p) for p in pad_width]
    flat = []
    for before, after in reversed(pairs):          # ops.pad: from the last axis backwards
        flat += [before, after]
    return F.pad(arr, tuple(flat), value=constant_values)


def _flatten(value):
    if isinstance(value, (list, tuple)):
        return [v for item in value for v in _flatten(item)]
    return [value]


def take_along_axis(arr, indices, axis):
    return F.gather_d(arr, axis, asarray(indices))
