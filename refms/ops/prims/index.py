"""Choosing elements by index or mask: Gather, GatherD, TensorScatterElements, OneHot, Select,
MaskedSelect, MaskedScatter, UnsortedSegmentSum.

The gradient of a gather is a scatter-add and the gradient of a scatter is a
gather, so the bprops are written with each other and stay differentiable:
Gather <-> UnsortedSegmentSum, GatherD <-> TensorScatterElements,
MaskedSelect <-> MaskedScatter (semantics 4.8).  Index and mask inputs
get no gradient (``None``).
"""
import itertools

import numpy as np

from ... import dtype as mstype
from ... import kernels
from ..._tensor import Tensor
from .. import batching
from ..primitive import F, Primitive, Abstract, register, alias, functional, op_error
from ..promotion import promote
from ._base import broadcast_shape, grad_like, host_int, normalize_axis, shape_str


def _check_int(op, name, dtype):
    if dtype.kind not in ("int", "uint"):
        raise op_error(op, f"the '{name}' should be a Tensor of Int32 or Int64, but got {dtype}.")


def _check_bool(op, name, dtype):
    if dtype is not mstype.bool_:
        raise op_error(op, f"the '{name}' should be a Tensor of Bool, but got {dtype}.")


def _const_int(op, name, value):
    """An int argument given as a Python int or a 0-d integer tensor."""
    if hasattr(value, "shape") and hasattr(value, "dtype") and tuple(value.shape) == ():
        if value.dtype.kind in ("int", "uint"):
            return int(value)
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise op_error(op, f"the '{name}' should be an int, but got {type(value).__name__}.")
    return int(value)


def _check_range(op, name, indices, low, high):
    """Value check done at run time (the kernel's job in MindSpore): low <= indices < high."""
    bad = kernels.call("first_outside")(indices, low, high)
    if bad is not None:
        position, value = bad
        raise op_error(op, f"the '{name}' should be in the range [{low}, {high}), but got "
                           f"{value} at position {position}.", RuntimeError)


@register
class Gather(Primitive):
    """y = take(x, indices, axis): y[a…, i…, b…] = x[a…, indices[i…], b…]; indices in [−n, n).

    With ``batch_dims = d`` the first d dims of x and indices are batch dims, gathered
    pairwise (each batch entry's indices pick from that entry's slice of x; ``axis ≥ d``):
    y[β, a…, i…, b…] = x[β, a…, indices[β, i…], b…], β the d batch indices,
    y.shape = x.shape[:axis] + indices.shape[d:] + x.shape[axis + 1:].  A negative
    ``batch_dims`` counts from the rank of indices (MindSpore 2.10).
    """
    n_tensor_inputs = 2

    def __init__(self, batch_dims=0):
        if isinstance(batch_dims, bool) or not isinstance(batch_dims, int):
            raise op_error("Gather", f"the 'batch_dims' should be an int, but got "
                                     f"{type(batch_dims).__name__}.")
        self.batch_dims = batch_dims

    def _batch_dims(self, indices_rank):
        return self.batch_dims + indices_rank if self.batch_dims < 0 else self.batch_dims

    def infer(self, params, indices, axis):
        _check_int("Gather", "input_indices", indices.dtype)
        axis = normalize_axis("Gather", _const_int("Gather", "axis", axis), len(params.shape))
        d = self._batch_dims(len(indices.shape))
        if d:
            if axis < d:
                raise op_error("Gather", f"the axis must be greater than or equal to {d}, but "
                                         f"got {axis}.", ValueError)
            if tuple(params.shape[:d]) != tuple(indices.shape[:d]):
                raise op_error("Gather", f"the first {d} dims (batch_dims) of params and indices "
                                         f"should be equal, but got params.shape "
                                         f"{shape_str(params.shape)} and indices.shape "
                                         f"{shape_str(indices.shape)}.", RuntimeError)
        shape = tuple(params.shape[:axis]) + tuple(indices.shape[d:]) + \
            tuple(params.shape[axis + 1:])
        return Abstract(shape, params.dtype)

    def batch(self, batched, params, indices, axis):
        """vmap: batched params gather along the shifted axis; batched indices put the batch
        axis where the indices go, moved to the front; both batched: per example."""
        if (batched[1] and batched[0]) or self.batch_dims:
            return NotImplemented
        if batched[0]:
            return self(params, indices, batching.batch_axis(int(axis), len(params.shape) - 1))
        axis = int(axis) % max(len(params.shape), 1)
        out = self(params, indices, axis)
        return batching.move_to_front(out, axis)

    def forward(self, params, indices, axis):
        axis = host_int(axis) % max(params.ndim, 1)
        n = params.shape[axis]
        _check_range("Gather", "input_indices", indices, -n, n)
        d = self._batch_dims(indices.ndim)
        if d == 0:
            return kernels.call("take")(params, indices, axis)
        # One plain gather per batch entry β, along the axis counted inside x[β].
        getitem = kernels.call("getitem")
        batch = tuple(params.shape[:d])
        rows = [kernels.call("take")(getitem(params, beta), getitem(indices, beta), axis - d)
                for beta in itertools.product(*[range(size) for size in batch])]
        stacked = kernels.call("stack")(rows, 0)
        return kernels.call("reshape")(stacked, batch + tuple(stacked.shape[1:]))

    def bprop(self, params, indices, axis, out, dout):
        axis = int(axis) % max(len(params.shape), 1)
        n = int(params.shape[axis])
        d = self._batch_dims(len(indices.shape))
        if d:
            return _batched_gather_grad(params, indices, axis, d, dout), None, None
        k = len(indices.shape)
        # Bring the index axes of dout to the front, sum rows per index, move the axis back.
        rest = tuple(range(axis + k, len(dout.shape)))
        front = tuple(range(axis, axis + k)) + tuple(range(axis)) + rest
        summed = _SEGMENT_SUM(F.transpose(dout, front), F.floor_mod(indices, n), n)
        back = tuple(range(1, axis + 1)) + (0,) + tuple(range(axis + 1, len(params.shape)))
        return F.transpose(summed, back), None, None


def _batched_gather_grad(params, indices, axis, d, dout):
    """dx of a gather with ``d`` batch dims: each batch entry β's rows of dout are summed
    into x[β] at their indices — one segment sum whose segment of (β, j) is β·n + j.

    dout's dims are B + P + I + Q (B the batch dims, P the dims of x between them and
    ``axis``, I the index dims, Q the rest); I moves before P, B and I flatten into rows.
    """
    n = int(params.shape[axis])
    batch = tuple(params.shape[:d])
    between = tuple(params.shape[d:axis])
    k = len(indices.shape) - d
    p = len(between)
    front = tuple(range(d)) + tuple(range(d + p, d + p + k)) + tuple(range(d, d + p)) + \
        tuple(range(d + p + k, len(dout.shape)))
    tail = tuple(params.shape[d:axis]) + tuple(params.shape[axis + 1:])
    rows = F.reshape(F.transpose(dout, front), (-1,) + tail)
    count = int(np.prod(batch))
    offsets = np.arange(count, dtype=np.int64).reshape(batch + (1,) * k) * n
    segment = F.cast(F.floor_mod(indices, n), mstype.int64) + Tensor(offsets)
    summed = _SEGMENT_SUM(rows, F.reshape(segment, (-1,)), count * n)
    grad = F.reshape(summed, batch + (n,) + tail)
    back = tuple(range(d)) + tuple(range(d + 1, d + 1 + p)) + (d,) + \
        tuple(range(d + 1 + p, len(params.shape)))
    return F.transpose(grad, back)


def _check_along_axis(op, x, index, dim, index_name="index"):
    if len(index.shape) != len(x.shape):
        raise op_error(op, f"the rank of '{index_name}' {shape_str(index.shape)} should equal the "
                           f"rank of 'input' {shape_str(x.shape)}.", ValueError)
    for d, (i, s) in enumerate(zip(index.shape, x.shape)):
        if d != dim and i > s:
            raise op_error(op, f"the shape of '{index_name}' {shape_str(index.shape)} should not "
                               f"exceed the shape of 'input' {shape_str(x.shape)} except at "
                               f"dim {dim}.", ValueError)


@register
class GatherD(Primitive):
    """y[i][j] = x[index[i][j]][j] for dim = 0 (x[i][index[i][j]] for dim = 1); index in [−n, n)."""

    def infer(self, x, dim, index):
        _check_int("GatherD", "index", index.dtype)
        dim = normalize_axis("GatherD", _const_int("GatherD", "dim", dim), len(x.shape), "dim")
        _check_along_axis("GatherD", x, index, dim)
        return Abstract(tuple(index.shape), x.dtype)

    def forward(self, x, dim, index):
        dim = host_int(dim) % x.ndim
        _check_range("GatherD", "index", index, -x.shape[dim], x.shape[dim])
        return kernels.call("take_along_axis")(x, index, dim)

    def bprop(self, x, dim, index, out, dout):
        dim = int(dim) % len(x.shape)
        return TensorScatterElements(dim, "add")(F.zeros_like(x), index, dout), None, None


@register
class TensorScatterElements(Primitive):
    """y = x; then y[…, indices[i…], …] = updates[i…] along ``axis`` (``reduction='add'``: +=)."""

    def __init__(self, axis=0, reduction="none"):
        if reduction not in ("none", "add"):
            raise op_error("TensorScatterElements", f"the 'reduction' should be 'none' or 'add', "
                                                    f"but got {reduction!r}.", ValueError)
        self.axis = axis
        self.reduction = reduction

    def infer(self, x, indices, updates):
        op = "TensorScatterElements"
        _check_int(op, "indices", indices.dtype)
        if updates.dtype is not x.dtype:
            raise op_error(op, f"the dtype of 'updates' ({updates.dtype}) should be the same as "
                               f"'input_x' ({x.dtype}).")
        if tuple(updates.shape) != tuple(indices.shape):
            raise op_error(op, f"the shape of 'updates' {shape_str(updates.shape)} should equal "
                               f"the shape of 'indices' {shape_str(indices.shape)}.", ValueError)
        axis = normalize_axis(op, self.axis, len(x.shape))
        _check_along_axis(op, x, indices, axis, "indices")
        return Abstract(tuple(x.shape), x.dtype)

    def forward(self, x, indices, updates):
        axis = self.axis % x.ndim
        _check_range("TensorScatterElements", "indices", indices, -x.shape[axis], x.shape[axis])
        return kernels.call("scatter_along_axis")(x, indices, updates, axis, self.reduction)

    def bprop(self, x, indices, updates, out, dout):
        axis = self.axis % len(x.shape)
        if self.reduction == "add":
            dx = dout
        else:       # overwritten positions do not reach the output
            dx = TensorScatterElements(axis, "none")(dout, indices, F.zeros_like(updates))
        return dx, None, GatherD()(dout, axis, indices)


def _scalar_dtype(value):
    """dtype of an on/off value: a tensor's own, or Int64 / Float32 for a Python number."""
    if hasattr(value, "dtype") and isinstance(value.dtype, mstype.Type):
        return value.dtype
    if isinstance(value, bool):
        return mstype.bool_
    return mstype.float32 if isinstance(value, float) else mstype.int64


@register
class OneHot(Primitive):
    """y[…, j, …] = on_value if indices[…] = j else off_value, for j in [0, depth) at ``axis``
    (an index outside [0, depth) gives a row of off_value)."""
    n_tensor_inputs = 1

    def __init__(self, axis=-1):
        self.axis = axis

    def infer(self, indices, depth, on_value, off_value):
        if indices.dtype not in (mstype.int32, mstype.int64):
            raise op_error("OneHot", f"the 'indices' should be a Tensor of Int32 or Int64, but got "
                                     f"{indices.dtype}.")
        depth = _const_int("OneHot", "depth", depth)
        if depth < 0:
            raise op_error("OneHot", f"the 'depth' must be greater than or equal to 0, but got "
                                     f"{depth}.", ValueError)
        ndim = len(indices.shape)
        if not -1 <= self.axis <= ndim:
            raise op_error("OneHot", f"the 'axis' must be in [-1, {ndim}], but got {self.axis}.",
                           ValueError)
        for name, value in (("on_value", on_value), ("off_value", off_value)):
            if hasattr(value, "shape") and int(np.prod(value.shape, dtype=np.int64)) != 1:
                raise op_error("OneHot", f"the '{name}' should be a scalar, but got shape "
                                         f"{shape_str(value.shape)}.", ValueError)
        on_dtype, off_dtype = _scalar_dtype(on_value), _scalar_dtype(off_value)
        on_tensor, off_tensor = hasattr(on_value, "shape"), hasattr(off_value, "shape")
        if on_tensor and off_tensor and on_dtype is not off_dtype:
            raise op_error("OneHot", f"the 'on_value' ({on_dtype}) and 'off_value' ({off_dtype}) "
                                     f"should have the same dtype.")
        if on_tensor:
            dtype = on_dtype
        elif off_tensor:
            dtype = off_dtype
        else:
            dtype = promote(Abstract((), on_dtype), Abstract((), off_dtype))
        shape = list(indices.shape)
        shape.insert(ndim if self.axis == -1 else self.axis, depth)
        return Abstract(tuple(shape), dtype)

    def batch(self, batched, indices, depth, on_value, off_value):
        """vmap over the indices: the new axis shifted past the batch axis (-1 stays last)."""
        if any(batched[1:]):
            return NotImplemented
        axis = -1 if self.axis == -1 else self.axis + 1
        return OneHot(axis)(indices, depth, on_value, off_value)

    def forward(self, indices, depth, on_value, off_value):
        axis = indices.ndim if self.axis == -1 else self.axis
        return kernels.call("one_hot")(indices, host_int(depth), axis, on_value, off_value)


@register
class Select(Primitive):
    """y = x where cond else y (cond Bool; x, y promoted as arithmetic; all three broadcast)."""
    elementwise = True
    n_tensor_inputs = 3

    def infer(self, cond, x, y):
        _check_bool("Select", "condition", cond.dtype)
        shape = broadcast_shape("Select", broadcast_shape("Select", cond.shape, x.shape), y.shape)
        return Abstract(shape, promote(x, y))

    def forward(self, cond, x, y):
        return kernels.call("where")(cond, x, y)

    def bprop(self, cond, x, y, out, dout):
        zeros = F.zeros_like(dout)
        dx = grad_like(F.select(cond, dout, zeros), x)
        dy = grad_like(F.select(cond, zeros, dout), y)
        return None, dx, dy


@register
class MaskedSelect(Primitive):
    """y = the elements of x where mask is True, in row-major order (x and mask broadcast); 1-D."""
    n_tensor_inputs = 2

    def infer(self, x, mask):
        _check_bool("MaskedSelect", "mask", mask.dtype)
        broadcast_shape("MaskedSelect", x.shape, mask.shape)
        return Abstract((-1,), x.dtype)

    def forward(self, x, mask):
        return kernels.call("masked_select")(x, mask)

    def bprop(self, x, mask, out, dout):
        shape = broadcast_shape("MaskedSelect", x.shape, mask.shape)
        full = MaskedScatter()(F.zeros(shape, dout.dtype), F.broadcast_to(mask, shape), dout)
        return grad_like(full, x), None


@register
class MaskedScatter(Primitive):
    """y = x with the positions where mask is True filled, in row-major order, by the leading
    elements of source (mask broadcast to x)."""
    n_tensor_inputs = 3

    def infer(self, x, mask, source):
        _check_bool("MaskedScatter", "mask", mask.dtype)
        if source.dtype is not x.dtype:
            raise op_error("MaskedScatter", f"the dtype of 'source' ({source.dtype}) should be the "
                                            f"same as 'input' ({x.dtype}).")
        if broadcast_shape("MaskedScatter", x.shape, mask.shape) != tuple(x.shape):
            raise op_error("MaskedScatter", f"the 'mask' {shape_str(mask.shape)} should broadcast "
                                            f"to the shape of 'input' {shape_str(x.shape)}.",
                           ValueError)
        return Abstract(tuple(x.shape), x.dtype)

    def forward(self, x, mask, source):
        count = kernels.call("count_true")(kernels.call("broadcast_to")(mask, x.shape))
        if count > source.size:
            raise op_error("MaskedScatter", f"the 'mask' selects {count} elements but 'source' has "
                                            f"only {source.size}.", RuntimeError)
        return kernels.call("masked_scatter")(x, mask, source)

    def bprop(self, x, mask, source, out, dout):
        mask = F.broadcast_to(mask, tuple(x.shape))
        dx = F.select(mask, F.zeros_like(dout), dout)
        picked = MaskedSelect()(dout, mask)
        size = int(np.prod(source.shape, dtype=np.int64))
        if picked.shape[0] < size:
            picked = F.concat((picked, F.zeros((size - picked.shape[0],), dout.dtype)))
        return dx, None, F.reshape(picked, tuple(source.shape))


@register
class UnsortedSegmentSum(Primitive):
    """y[s, …] = Σ_{i : ids[i] = s} x[i, …] for s in [0, num_segments); negative ids are dropped.

    ``segment_ids`` has the shape of x's leading axes; y has shape
    ``(num_segments,) + x.shape[ids.ndim:]``.  The bprop gathers: dx[i] = dout[ids[i]].
    """
    n_tensor_inputs = 2

    def infer(self, x, segment_ids, num_segments):
        op = "UnsortedSegmentSum"
        _check_int(op, "segment_ids", segment_ids.dtype)
        k = len(segment_ids.shape)
        if tuple(segment_ids.shape) != tuple(x.shape[:k]):
            raise op_error(op, f"the shape of 'segment_ids' {shape_str(segment_ids.shape)} must "
                               f"equal the leading axes of the shape of 'input_x' "
                               f"{shape_str(x.shape)}.", ValueError)
        num_segments = _const_int(op, "num_segments", num_segments)
        if num_segments <= 0:
            raise op_error(op, f"the 'num_segments' must be greater than 0, but got "
                               f"{num_segments}.", ValueError)
        return Abstract((num_segments,) + tuple(x.shape[k:]), x.dtype)

    def forward(self, x, segment_ids, num_segments):
        num_segments = host_int(num_segments)
        too_big = kernels.call("first_outside")(segment_ids, None, num_segments)
        if too_big is not None:
            position, value = too_big
            raise op_error("UnsortedSegmentSum", f"every 'segment_ids' value must be less than "
                                                 f"'num_segments' = {num_segments}, but got "
                                                 f"{value} at position {position}.", RuntimeError)
        return kernels.call("segment_sum")(x, segment_ids, num_segments)

    def bprop(self, x, segment_ids, num_segments, out, dout):
        picked = Gather()(dout, F.maximum(segment_ids, 0), 0)
        rest = (1,) * (len(x.shape) - len(segment_ids.shape))
        keep = F.reshape(F.cast(F.greater_equal(segment_ids, 0), dout.dtype),
                         tuple(segment_ids.shape) + rest)
        return picked * keep, None, None


_SEGMENT_SUM = UnsortedSegmentSum()


def gather(input_params, input_indices, axis, batch_dims=0):
    """ops.gather(input_params, input_indices, axis, batch_dims=0)."""
    return Gather(batch_dims)(input_params, input_indices, axis)


def gather_elements(input, dim, index):
    """ops.gather_elements(input, dim, index): GatherD."""
    return GatherD()(input, dim, index)


def tensor_scatter_elements(input_x, indices, updates, axis=0, reduction="none"):
    """ops.tensor_scatter_elements(input_x, indices, updates, axis=0, reduction='none')."""
    return TensorScatterElements(axis, reduction)(input_x, indices, updates)


def one_hot(indices, depth, on_value=1, off_value=0, axis=-1):
    """ops.one_hot(indices, depth, on_value=1, off_value=0, axis=-1): Int64 with the defaults."""
    return OneHot(axis)(indices, depth, on_value, off_value)


functional("gather", gather)
functional("gather_elements", gather_elements)
alias("gather_d", GatherD())
functional("tensor_scatter_elements", tensor_scatter_elements)
functional("one_hot", one_hot)
select = alias("select", Select())
alias("where", Select())
masked_select = alias("masked_select", MaskedSelect())
unsorted_segment_sum = alias("unsorted_segment_sum", UnsortedSegmentSum())
