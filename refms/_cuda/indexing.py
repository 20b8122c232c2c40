"""numpy indexing of device arrays: ``x[index]``, ``x[index] = value``, ``x[index] += u``.

The index is a host value (ints, slices, None, Ellipsis, integer or bool numpy arrays; the
kernel contract of :mod:`refms.kernels.index`), the data lives on the device.  Two cases:

* **basic indexing** (ints, slices, None, Ellipsis): ``x[index]`` is a strided view of x --
  an offset, a shape and strides, worked out here exactly as numpy does -- and reading it
  is a strided copy on the device (``copy_strided``; writing is the same copy into the view);
* **advanced indexing** (any array in the index): numpy itself computes *where* the
  selected elements are.  Each axis d of x contributes ``coordinate_d * stride_d`` to an
  element's offset; indexing the zero-memory broadcast of those contributions with the
  index gives, for every selected element, its offset in x::

      offsets = sum_d broadcast_to(arange(n_d) * stride_d, x.shape)[index]

  That list (the size of the result, not of x) goes to the device, and the kernels of
  ``scatter.cu`` move the data: ``out[i] = x[offsets[i]]``, ``x[offsets[i]] = v[i]`` or
  ``x[offsets[i]] += v[i]`` (atomic, so repeated positions accumulate as ``np.add.at``).

numpy does the index arithmetic and its checks (an index out of bounds raises numpy's
IndexError here, before anything is launched), the GPU moves the data.
"""
import math
import numbers

import numpy as np

from . import ops
from .device import contiguous_strides

__all__ = ["getitem", "setitem", "index_add", "is_basic", "basic_view", "element_offsets"]


def _parts(index):
    return index if isinstance(index, tuple) else (index,)


def is_basic(index):
    """True when ``index`` holds only ints, slices, None and Ellipsis (no arrays, no bools)."""
    return all(part is None or part is Ellipsis or isinstance(part, slice)
               or (isinstance(part, numbers.Integral) and not isinstance(part, (bool, np.bool_)))
               for part in _parts(index))


def basic_view(x, index):
    """The view ``x[index]`` of a basic index: (shape, strides, offset) in elements, as numpy."""
    parts = list(_parts(index))
    used = sum(part is not None and part is not Ellipsis for part in parts)
    if Ellipsis in parts:
        at = parts.index(Ellipsis)
        parts[at:at + 1] = [slice(None)] * (x.ndim - used)
    parts += [slice(None)] * (x.ndim - sum(part is not None for part in parts))
    shape, strides, offset, axis = [], [], 0, 0
    for part in parts:
        if part is None:                                    # a new axis of length 1
            shape.append(1)
            strides.append(0)
            continue
        size, stride = x.shape[axis], x.strides[axis]
        if isinstance(part, slice):
            start, stop, step = part.indices(size)
            shape.append(len(range(start, stop, step)))
            strides.append(stride * step)
            offset += start * stride
        else:                                               # an int: the axis goes away
            position = int(part)
            if not -size <= position < size:
                raise IndexError(f"index {position} is out of bounds for axis {axis} with size {size}")
            offset += (position % size) * stride
        axis += 1
    return tuple(shape), tuple(strides), offset


def element_offsets(x, index):
    """int64 host array of shape ``x[index].shape``: each selected element's offset in x."""
    offsets = np.broadcast_to(np.int64(0), x.shape)[index]
    for axis, (size, stride) in enumerate(zip(x.shape, x.strides)):
        along = np.arange(size, dtype=np.int64) * stride
        along = along.reshape([size if d == axis else 1 for d in range(x.ndim)])
        offsets = offsets + np.broadcast_to(along, x.shape)[index]
    return np.ascontiguousarray(offsets, dtype=np.int64)


def getitem(x, index, op="GetItem"):
    """A new device array equal to ``x[index]``."""
    if is_basic(index):
        shape, strides, offset = basic_view(x, index)
        return ops.contiguous(x.view(shape, strides, offset), op)
    offsets = element_offsets(x, index)
    return ops.gather_offsets(x, x.runtime.to_device(offsets), offsets.shape, op)


def setitem(x, index, value, op="SetItem"):
    """``x[index] = value`` in place (value a device array, broadcast to x[index]'s shape)."""
    if is_basic(index):
        shape, strides, offset = basic_view(x, index)
        if x.size and int(math.prod(shape)):
            ops.copy_into(x.view(shape, strides, offset), value, op)
        return
    offsets = element_offsets(x, index)
    if offsets.size:
        values = ops.broadcast_to(value, offsets.shape, op)
        ops.scatter_offsets(x, x.runtime.to_device(offsets), values, add=False, op=op)


def index_add(rt, shape, index, updates, op="ScatterIndexAdd"):
    """zeros(shape) with ``updates`` added at ``[index]`` (repeated positions accumulate)."""
    out = ops.fill(rt, tuple(shape), updates.dtype, 0, op)
    probe = out.view(out.shape, contiguous_strides(out.shape))
    offsets = element_offsets(probe, index)
    if offsets.size:
        values = ops.broadcast_to(updates, offsets.shape, op)
        ops.scatter_offsets(out, rt.to_device(offsets), values, add=True, op=op)
    return out
