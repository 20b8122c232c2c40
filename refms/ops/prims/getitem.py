"""Tensor indexing: GetItem (``x[index]``), its gradient ScatterIndexAdd, and SetItem.

``index`` follows numpy: ints, slices, ``None``, ``...``, int tensors (gather),
Bool tensors (masked selection, 1-D dynamic result), and tuples of those.
Tensors inside the index are constants to autodiff (converted to host numpy arrays).
"""
import numpy as np

from ... import kernels
from ..._tensor import Tensor, tensor_versions
from .. import batching
from ..primitive import Primitive, Abstract, register, functional, op_error
from ..primitive import F
from ._base import shape_str, sum_to


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

    def batch(self, batched, x, index):
        """vmap: ``x[(:,) + index]``; per example when numpy would move array indices in
        front of the batch axis."""
        index = batching.prefix_index(index)
        return NotImplemented if index is None else self(x, index)

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

    def batch(self, batched, updates, shape, index):
        """vmap: scatter into (B,) + shape at ``(:,) + index``."""
        index = batching.prefix_index(index)
        if index is None:
            return NotImplemented
        return self(updates, tuple(updates.shape)[:1] + tuple(shape), index)

    def forward(self, updates, shape, index):
        return kernels.call("index_add")(shape, index, updates)

    def bprop(self, updates, shape, index, out, dout):
        return _GETITEM(dout, index), None, None


_GETITEM = GetItem()
_SCATTER = ScatterIndexAdd()


def getitem(x, index):
    """``x[index]`` as a primitive call."""
    return _GETITEM(x, normalize_index(index))


@register
class SetItem(Primitive):
    """y = x with y[index] = value: a copy of ``x`` whose indexed region holds ``value``
    (broadcast to the region, cast to x's dtype; numpy assignment, so with a repeated
    index the last write wins).

    ``x[index] = value`` on a Tensor runs this op and the Tensor takes over the result
    (:func:`setitem`); graph mode rebinds ``x`` to it.  Gradients (MindSpore 2.10,
    recorded in tests/recorders/transforms.json):

    * dx = dout with the written slots zeroed (the old values there no longer reach the output);
    * dvalue = dout[index] summed back to value's shape — every written slot counts, a
      repeated index included (as MindSpore's scatter-update gradient does).
    """
    n_tensor_inputs = 2

    def infer(self, x, value, index):
        region = _Probe.shape_of("SetItem", x.shape, index)
        value_shape = tuple(value.shape)
        fits = len(value_shape) <= len(region) and all(
            a in (1, b) or -1 in (a, b) for a, b in zip(reversed(value_shape), reversed(region)))
        if not fits:         # MindSpore 2.10 broadcasts value to the region: no extra leading axes
            raise op_error("SetItem", f"cannot assign a value of shape {shape_str(value_shape)} to "
                                      f"the region of shape {shape_str(region)} selected by "
                                      f"{index!r}.", ValueError)
        return Abstract(x.shape, x.dtype)

    def batch(self, batched, x, value, index):
        """vmap: write ``(:,) + index`` of the batch; an unbatched ``x`` is broadcast first,
        a batched value lifted to the region's rank."""
        prefixed = batching.prefix_index(index)
        if prefixed is None:
            return NotImplemented
        size = (x if batched[0] else value).shape[0]
        if not batched[0]:
            x = F.broadcast_to(x, (size,) + tuple(x.shape))
        if batched[1]:
            region = _Probe.shape_of("SetItem", tuple(x.shape)[1:], index)
            value = batching.lift_rank(value, len(region))
        return self(x, value, prefixed)

    def forward(self, x, value, index):
        y = kernels.call("copy")(x)
        kernels.call("setitem")(y, index, kernels.astype(value, y.dtype.type)
                                if hasattr(value, "dtype") else value)
        return y

    def bprop(self, x, value, index, out, dout):
        dx = _SETITEM(dout, 0, index)
        dvalue = _GETITEM(dout, index)
        if isinstance(value, Tensor):
            dvalue = sum_to(dvalue, tuple(value.shape))
            if dvalue.dtype is not value.dtype:
                dvalue = F.cast(dvalue, value.dtype)
        return dx, dvalue, None


_SETITEM = SetItem()


def tensor_setitem(x, index, value):
    """``x`` with ``x[index] = value`` as a new Tensor (the functional form: ``x`` is unchanged)."""
    return _SETITEM(x, value, normalize_index(index))


def setitem(x, index, value):
    """``x[index] = value``: ``x`` takes over the value of :class:`SetItem`'s result.

    The op is an ordinary primitive call, recorded when a tape watches ``x`` or
    ``value``; the Tensor then takes the new value (``Tensor._replace_value``), and the
    tape makes the old value a separate tensor, so ops recorded earlier keep the
    values they saw and ``x``'s gradient stops at the written slots.  With no tape
    recording, the region is written in place (a Parameter keeps its storage).
    """
    index = normalize_index(index)
    stand_in = x._data is None or (isinstance(value, Tensor) and value._data is None)
    if tensor_versions.tracking() or stand_in:          # a tape records, or vmap's stand-ins
        x._replace_value(_SETITEM(x, value, index))
        return x
    _SETITEM.infer(x, value if isinstance(value, Tensor) else _A_NUMBER, index)   # shape check
    if isinstance(value, Tensor):
        value = value._value()
    kernels.run(_write_items, [x._value(), index, value], 1)
    return x


#: The abstract value of a Python number on the right of ``x[i] = 3.0``.
_A_NUMBER = Abstract((), None)


def _write_items(array, index, value):
    kernels.call("setitem")(array, index, value)


functional("getitem", getitem)
functional("setitem", setitem)
functional("tensor_setitem", tensor_setitem)
