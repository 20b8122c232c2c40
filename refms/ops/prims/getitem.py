"""Tensor indexing: GetItem (``x[index]``), its gradient ScatterIndexAdd, and SetItem.

``index`` follows numpy: ints, slices, ``None``, ``...``, int tensors (gather),
Bool tensors (masked selection, 1-D dynamic result), and tuples of those.
Tensors inside the index are constants to autodiff (converted to host numpy arrays).
"""
import numpy as np

from ... import kernels
from ..._tensor import Tensor
from ..primitive import Primitive, Abstract, register, functional, op_error
from ._base import shape_str


def normalize_index(index):
    """Replace Tensors in an index by numpy ints/arrays (0-d int tensors -> int)."""
    if isinstance(index, Tensor):
        array = index._host()
        if array.ndim == 0 and array.dtype.kind in "iu":
            return int(array)
        return array
    if isinstance(index, tuple):
        return tuple(normalize_index(i) for i in index)
    if isinstance(index, list):
        return np.asarray([normalize_index(i) for i in index])
    return index


class _Probe:
    """A zero-strided stand-in array used to compute result shapes without data."""

    @staticmethod
    def shape_of(op, shape, index):
        probe = np.broadcast_to(np.zeros((), dtype=np.int8), shape)
        try:
            return probe[index].shape
        except IndexError as exc:
            raise op_error(op, f"index {index!r} is out of bounds for a tensor of shape "
                               f"{shape_str(shape)}: {exc}", IndexError) from None
        except (TypeError, ValueError) as exc:
            raise op_error(op, f"invalid index {index!r} for a tensor of shape "
                               f"{shape_str(shape)}: {exc}", TypeError) from None


@register
class GetItem(Primitive):
    """y = x[index] (numpy semantics).  The bprop scatters dout back: dx[index] += dout."""
    n_tensor_inputs = 1

    def infer(self, x, index):
        return Abstract(_Probe.shape_of("GetItem", x.shape, index), x.dtype)

    def forward(self, x, index):
        return kernels.call("getitem")(x, index)

    def bprop(self, x, index, out, dout):
        return _SCATTER(dout, tuple(x.shape), index), None


@register
class ScatterIndexAdd(Primitive):
    """y = zeros(shape); y[index] += updates (repeated indices accumulate)."""
    n_tensor_inputs = 1

    def infer(self, updates, shape, index):
        return Abstract(tuple(shape), updates.dtype)

    def forward(self, updates, shape, index):
        return kernels.call("index_add")(shape, index, updates)

    def bprop(self, updates, shape, index, out, dout):
        return _GETITEM(dout, index), None, None


_GETITEM = GetItem()
_SCATTER = ScatterIndexAdd()


def getitem(x, index):
    """``x[index]`` as a primitive call."""
    return _GETITEM(x, normalize_index(index))


def _write_items(array, index, value):
    kernels.call("setitem")(array, index, value)


def setitem(x, index, value):
    """``x[index] = value`` in place (not differentiable, as a MindSpore in-place update)."""
    if isinstance(value, Tensor):
        value = value._value()
    kernels.run(_write_items, [x._value(), normalize_index(index), value], 1)
    return x


functional("getitem", getitem)
functional("setitem", setitem)
