"""Ordering: Sort, TopK, Argmax, Argmin, ArgMaxWithValue, ArgMinWithValue.

Sorting is stable in both directions: equal values keep their original
order (MindSpore 2.10: ``[3, 1, 2, 3]`` descending -> ``[3, 3, 2, 1]``,
indices ``[0, 3, 2, 1]``, semantics 11).  Index outputs are Int32 for
Sort, TopK and the Argmax/Argmin primitives, Int64 for ``ops.argmax`` and
the ``*WithValue`` ops, and Int32 for ``ops.argmin`` (all as MindSpore 2.10).
The gradient of a selected value flows back to the position it came from
(TensorScatterElements with the index output).
"""
import numpy as np

from ... import dtype as mstype
from ... import kernels
from .. import batching
from ..primitive import F, Primitive, Abstract, register, functional, op_error
from ._base import normalize_axis, shape_str
from .index import TensorScatterElements


def _check_sortable(op, x, allow_bool=False):
    if len(x.shape) == 0:
        raise op_error(op, "the input should have at least 1 dimension, but got a 0-d tensor.",
                       ValueError)
    kinds = ("int", "uint", "float", "bool") if allow_bool else ("int", "uint", "float")
    if x.dtype.kind not in kinds:
        raise op_error(op, f"the dtype of 'input' should be a float or integer type, but got "
                           f"{x.dtype}.")


def _scatter_back(x, axis, indices, values):
    """dx: ``values`` put back at ``indices`` along ``axis`` of zeros shaped like x."""
    return TensorScatterElements(axis, "add")(F.zeros_like(x), indices, values)


@register
class Sort(Primitive):
    """(values, indices) = x sorted along ``axis`` (stable; ``descending`` reverses the order
    but not the order of ties); indices Int32."""
    n_tensor_inputs = 1
    n_outputs = 2

    def __init__(self, axis=-1, descending=False):
        self.axis = axis
        self.descending = descending

    def infer(self, x):
        _check_sortable("Sort", x)
        normalize_axis("Sort", self.axis, len(x.shape))
        return Abstract(tuple(x.shape), x.dtype), Abstract(tuple(x.shape), mstype.int32)

    def batch(self, batched, x):
        """vmap: the same sort along the per-example axis shifted past the batch axis."""
        return Sort(batching.batch_axis(self.axis, len(x.shape) - 1), self.descending)(x)

    def forward(self, x):
        return kernels.call("sort")(x, self.axis, self.descending)

    def bprop(self, x, out, dout):
        axis = self.axis % len(x.shape)
        return (_scatter_back(x, axis, out[1], dout[0]),)


@register
class TopK(Primitive):
    """(values, indices) = the k largest entries along the last axis, largest first
    (equal values: smaller index first, as MindSpore's documentation states); indices Int32.

    ``sorted=False`` returns the same k entries in their original index order.
    """
    n_tensor_inputs = 1
    n_outputs = 2

    def __init__(self, sorted=True):
        if not isinstance(sorted, bool):
            raise op_error("TopK", f"the 'sorted' should be bool, but got {type(sorted).__name__}.")
        self.sorted = sorted

    def infer(self, x, k):
        _check_sortable("TopK", x)
        if hasattr(k, "shape") and tuple(k.shape) == ():
            k = int(k)
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
            raise op_error("TopK", f"the 'k' should be an int, but got {type(k).__name__}.")
        n = x.shape[-1]
        if n != -1 and not 0 < k <= n:
            raise op_error("TopK", f"the k must be in (0, {n}], but got {k} (input shape "
                                   f"{shape_str(x.shape)}).", ValueError)
        shape = tuple(x.shape[:-1]) + (int(k),)
        return Abstract(shape, x.dtype), Abstract(shape, mstype.int32)

    def batch(self, batched, x, k):
        """vmap: TopK works along the last axis, which the batch axis leaves in place."""
        if len(x.shape) < 2:
            return NotImplemented
        return self(x, k)

    def forward(self, x, k):
        return kernels.call("topk")(x, int(k), self.sorted)

    def bprop(self, x, k, out, dout):
        return _scatter_back(x, len(x.shape) - 1, out[1], dout[0]), None


class _ArgExtremum(Primitive):
    """Index of the largest (smallest) value along ``axis``; the first one on ties."""
    n_tensor_inputs = 1
    kernel = None

    def __init__(self, axis=-1, output_type=mstype.int32):
        output_type = mstype.to_dtype(output_type)
        if output_type not in (mstype.int32, mstype.int64):
            raise op_error(type(self).__name__, f"the 'output_type' should be Int32 or Int64, but "
                                                f"got {output_type}.", ValueError)
        self.axis = axis
        self.output_type = output_type

    def infer(self, x):
        _check_sortable(self.name, x, allow_bool=True)
        axis = normalize_axis(self.name, self.axis, len(x.shape))
        if len(x.shape) and x.shape[axis] == 0:
            # MindSpore 2.10's CPU kernel fails to launch here (RuntimeError, recorded)
            raise op_error(self.name, f"the dimension {axis} to search is empty (input shape "
                                      f"{shape_str(x.shape)}).", RuntimeError)
        shape = tuple(d for i, d in enumerate(x.shape) if i != axis)
        return Abstract(shape, self.output_type)

    def batch(self, batched, x):
        """vmap: the per-example axis shifted past the batch axis."""
        return type(self)(batching.batch_axis(self.axis, len(x.shape) - 1), self.output_type)(x)

    def forward(self, x):
        return kernels.call(self.kernel)(x, self.axis)


@register
class Argmax(_ArgExtremum):
    """y = argmax x along ``axis`` (first maximum on ties; no gradient)."""
    kernel = "argmax"


@register
class Argmin(_ArgExtremum):
    """y = argmin x along ``axis`` (first minimum on ties; no gradient)."""
    kernel = "argmin"


class _ArgExtremumWithValue(Primitive):
    """(index Int64, value) of the extremum along ``axis``; the value's gradient flows to
    the chosen position."""
    n_tensor_inputs = 1
    n_outputs = 2
    kernel = None

    def __init__(self, axis=0, keep_dims=False):
        self.axis = axis
        self.keep_dims = keep_dims

    def infer(self, x):
        _check_sortable(self.name, x, allow_bool=True)
        axis = normalize_axis(self.name, self.axis, len(x.shape))
        if self.keep_dims:
            shape = tuple(1 if i == axis else d for i, d in enumerate(x.shape))
        else:
            shape = tuple(d for i, d in enumerate(x.shape) if i != axis)
        return Abstract(shape, mstype.int64), Abstract(shape, x.dtype)

    def batch(self, batched, x):
        """vmap: the per-example axis shifted past the batch axis."""
        axis = batching.batch_axis(self.axis, len(x.shape) - 1)
        return type(self)(axis, self.keep_dims)(x)

    def forward(self, x):
        index = kernels.call("expand_dims")(kernels.call(self.kernel)(x, self.axis), self.axis)
        value = kernels.call("take_along_axis")(x, index, self.axis)
        if not self.keep_dims:
            squeeze = kernels.call("squeeze")
            index, value = squeeze(index, (self.axis,)), squeeze(value, (self.axis,))
        return index, value

    def bprop(self, x, out, dout):
        axis = self.axis % len(x.shape)
        index, dvalue = out[0], dout[1]
        if not self.keep_dims:
            index, dvalue = F.expand_dims(index, axis), F.expand_dims(dvalue, axis)
        return (_scatter_back(x, axis, index, dvalue),)


@register
class ArgMaxWithValue(_ArgExtremumWithValue):
    """(i, v) with v = max x along ``axis`` and i its first position."""
    kernel = "argmax"


@register
class ArgMinWithValue(_ArgExtremumWithValue):
    """(i, v) with v = min x along ``axis`` and i its first position."""
    kernel = "argmin"


def sort(input_x, axis=-1, descending=False):
    """ops.sort(input_x, axis=-1, descending=False) -> (values, Int32 indices)."""
    return Sort(axis, descending)(input_x)


def argsort(input, axis=-1, descending=False):
    """ops.argsort(input, axis=-1, descending=False) -> Int32 indices."""
    return Sort(axis, descending)(input)[1]


def topk(input, k, dim=None, largest=True, sorted=True):
    """ops.topk(input, k, dim=None, largest=True, sorted=True) -> (values, Int32 indices).

    The last axis and ``largest=True`` is the TopK primitive; any other axis or
    ``largest=False`` sorts along ``dim`` and keeps the first k (the same ties rule).
    """
    if (dim is None or dim == -1 or dim == len(input.shape) - 1) and largest:
        return TopK(sorted)(input, k)
    axis = normalize_axis("topk", -1 if dim is None else dim, len(input.shape), "dim")
    n = input.shape[axis]
    if isinstance(k, bool) or not isinstance(k, int) or not 0 < k <= n:
        raise op_error("topk", f"the k must be an int in (0, {n}], but got {k!r}.", ValueError)
    values, indices = Sort(axis, largest)(input)
    first_k = (slice(None),) * axis + (slice(0, k),)
    return F.getitem(values, first_k), F.getitem(indices, first_k)


def _arg_reduce(prim_class, output_type, input, axis, keepdims):
    """``ops.argmax``/``ops.argmin``: axis None flattens (keepdims is then ignored, as in 2.10)."""
    if axis is None:
        return prim_class(0, output_type)(F.reshape(input, (-1,)))
    index = prim_class(axis, output_type)(input)
    if keepdims:
        index = F.expand_dims(index, normalize_axis(prim_class.__name__, axis, len(input.shape)))
    return index


def argmax(input, dim=None, keepdim=False):
    """ops.argmax(input, dim=None, keepdim=False) -> Int64 (also ``Tensor.argmax``)."""
    return _arg_reduce(Argmax, mstype.int64, input, dim, keepdim)


def argmin(input, axis=None, keepdims=False):
    """ops.argmin(input, axis=None, keepdims=False) -> Int32 (MindSpore 2.10 differs from argmax here)."""
    return _arg_reduce(Argmin, mstype.int32, input, axis, keepdims)


functional("sort", sort)
functional("argsort", argsort)
functional("topk", topk)
functional("argmax", argmax)
functional("argmin", argmin)
