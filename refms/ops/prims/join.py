"""Joining and splitting tensors: Concat, Stack, Split, SplitV.

Concat and Stack take one input, a tuple (or list) of tensors; their bprop
returns one tuple holding a gradient per tensor.  Each op's bprop is its
inverse: Concat <-> SplitV, Split/SplitV -> Concat, Stack -> one slice per input.
None of them promote dtypes: the tensors must share one dtype
(``ops.stack([Int32, Float32])`` -> ``TypeError: All input must have the same
data type!``, semantics 1.7).
"""
import numpy as np

from ... import kernels
from .. import batching
from ..primitive import F, Primitive, Abstract, register, functional, op_error
from ._base import normalize_axis, shape_str


def tensor_sequence(op, value, name="tensors"):
    """Check that ``value`` is a non-empty tuple or list of tensors; return it as a tuple."""
    if not isinstance(value, (tuple, list)):
        raise op_error(op, f"the '{name}' should be a tuple or list of Tensors, but got "
                           f"{type(value).__name__}.")
    for i, item in enumerate(value):
        if not (hasattr(item, "shape") and hasattr(item, "dtype")):
            raise op_error(op, f"the element {i} of '{name}' should be a Tensor, but got "
                               f"{type(item).__name__}.")
    if not value:
        raise op_error(op, f"the '{name}' should contain at least 1 Tensor, but got 0.",
                       ValueError)
    return tuple(value)


def _shapes_str(tensors):
    return "[" + ", ".join(shape_str(t.shape) for t in tensors) + "]"


@register
class Concat(Primitive):
    """y = [x₀; x₁; …] joined along ``axis``; every other axis must match."""
    n_tensor_inputs = 1

    def __init__(self, axis=0):
        self.axis = axis

    def infer(self, tensors):
        tensors = tensor_sequence("Concat", tensors)
        first = tensors[0]
        for i, t in enumerate(tensors):
            if len(t.shape) == 0:
                raise op_error("Concat", f"all elements should not be zero rank, but got zero "
                                         f"rank in position {i}.", ValueError)
            if len(t.shape) != len(first.shape):
                raise op_error("Concat", f"element rank must be same, but got shapes "
                                         f"{_shapes_str(tensors)}.", ValueError)
            if t.dtype is not first.dtype:
                raise op_error("Concat", f"all elements must have the same data type, but got "
                                         f"{t.dtype} in position {i} and {first.dtype} in "
                                         f"position 0.")
        axis = normalize_axis("Concat", self.axis, len(first.shape))
        for t in tensors:
            for d, (a, b) in enumerate(zip(t.shape, first.shape)):
                if d != axis and a != b and -1 not in (a, b):
                    raise op_error("Concat", f"shapes of tensors must match except in the concat "
                                             f"axis {axis}, but got mismatch in axis {d} (shapes "
                                             f"{_shapes_str(tensors)}).", ValueError)
        sizes = [t.shape[axis] for t in tensors]
        shape = list(first.shape)
        shape[axis] = -1 if -1 in sizes else sum(sizes)
        return Abstract(tuple(shape), first.dtype)

    def batch(self, batched, tensors):
        """vmap: the same join along the per-example axis shifted past the batch axis."""
        rank = len(tensors[0].shape) - 1
        return Concat(batching.batch_axis(self.axis, rank))(tensors)

    def forward(self, tensors):
        return kernels.call("concat")(tensors, self.axis)

    def bprop(self, tensors, out, dout):
        axis = self.axis % len(out.shape)
        sizes = tuple(int(t.shape[axis]) for t in tensors)
        return (SplitV(sizes, axis, len(sizes))(dout),)


@register
class Stack(Primitive):
    """y[…, i, …] = xᵢ: tensors of one shape stacked along a new ``axis`` (in [−ndim−1, ndim])."""
    n_tensor_inputs = 1

    def __init__(self, axis=0):
        self.axis = axis

    def infer(self, tensors):
        tensors = tensor_sequence("Stack", tensors)
        first = tensors[0]
        for i, t in enumerate(tensors):
            if t.dtype is not first.dtype:
                raise TypeError(f"All input must have the same data type! input[{i}] data type = "
                                f"{t.dtype}, input[0] data type = {first.dtype}.")
            if tuple(t.shape) != tuple(first.shape):
                raise op_error("Stack", f"all input shape must be the same, but got "
                                        f"{shape_str(t.shape)} in position {i} and "
                                        f"{shape_str(first.shape)} in position 0.", ValueError)
        ndim = len(first.shape) + 1
        if isinstance(self.axis, bool) or not isinstance(self.axis, (int, np.integer)):
            raise op_error("Stack", f"the 'axis' should be int, but got "
                                    f"{type(self.axis).__name__}.")
        if not -ndim <= self.axis < ndim:
            raise op_error("Stack", f"the axis must be in [{-ndim}, {ndim - 1}], but got "
                                    f"{self.axis}.", ValueError)
        shape = list(first.shape)
        shape.insert(self.axis % ndim, len(tensors))
        return Abstract(tuple(shape), first.dtype)

    def batch(self, batched, tensors):
        """vmap: the new axis shifted past the batch axis."""
        rank = len(tensors[0].shape)          # the per-example result has one more axis
        return Stack(batching.batch_axis(self.axis, rank))(tensors)

    def forward(self, tensors):
        return kernels.call("stack")(tensors, self.axis)

    def bprop(self, tensors, out, dout):
        axis = self.axis % len(out.shape)
        lead = (slice(None),) * axis
        return (tuple(F.getitem(dout, lead + (i,)) for i in range(len(tensors))),)


@register
class Split(Primitive):
    """(y₀, …, yₙ₋₁) = x cut into ``output_num`` equal parts along ``axis``."""
    n_tensor_inputs = 1

    def __init__(self, axis=0, output_num=1):
        if isinstance(output_num, bool) or not isinstance(output_num, int) or output_num <= 0:
            raise op_error("Split", f"the 'output_num' must be a positive int, but got "
                                    f"{output_num!r}.", ValueError)
        self.axis = axis
        self.output_num = output_num

    @property
    def n_outputs(self):
        return self.output_num

    def infer(self, x):
        axis = normalize_axis("Split", self.axis, len(x.shape))
        size = x.shape[axis]
        if size != -1 and size % self.output_num:
            raise op_error("Split", f"x_shape[{axis}] must be divisible by output_num = "
                                    f"{self.output_num}, but got {size} (shape "
                                    f"{shape_str(x.shape)}).", ValueError)
        shape = list(x.shape)
        shape[axis] = -1 if size == -1 else size // self.output_num
        return tuple(Abstract(tuple(shape), x.dtype) for _ in range(self.output_num))

    def batch(self, batched, x):
        """vmap: the same split along the per-example axis shifted past the batch axis."""
        return Split(batching.batch_axis(self.axis, len(x.shape) - 1), self.output_num)(x)

    def forward(self, x):
        return kernels.call("split")(x, self.output_num, self.axis)

    def bprop(self, x, out, dout):
        return (Concat(self.axis)(dout),)


@register
class SplitV(Primitive):
    """(y₀, …, yₙ₋₁) = x cut along ``split_dim`` into parts of sizes ``size_splits``
    (one size may be −1: the rest)."""
    n_tensor_inputs = 1

    def __init__(self, size_splits, split_dim, num_split):
        self.size_splits = tuple(size_splits)
        self.split_dim = split_dim
        self.num_split = num_split

    @property
    def n_outputs(self):
        return self.num_split

    def sizes(self, x_shape):
        """The part sizes along ``split_dim`` for an input of ``x_shape`` (−1 resolved)."""
        axis = normalize_axis("SplitV", self.split_dim, len(x_shape), "split_dim")
        total = x_shape[axis]
        sizes = list(self.size_splits)
        if len(sizes) != self.num_split:
            raise op_error("SplitV", f"the length of 'size_splits' ({len(sizes)}) must equal "
                                     f"'num_split' ({self.num_split}).", ValueError)
        if sizes.count(-1) > 1 or any(s < -1 for s in sizes):
            raise op_error("SplitV", f"'size_splits' must be non-negative with at most one -1, "
                                     f"but got {list(self.size_splits)}.", ValueError)
        if -1 in sizes:
            sizes[sizes.index(-1)] = total - (sum(sizes) + 1)
        if sum(sizes) != total or min(sizes) < 0:
            raise op_error("SplitV", f"the sum of 'size_splits' should be equal to {total} (axis "
                                     f"{axis} of shape {shape_str(x_shape)}), but got "
                                     f"{list(self.size_splits)}.", ValueError)
        return axis, sizes

    def infer(self, x):
        axis, sizes = self.sizes(tuple(x.shape))
        shapes = []
        for size in sizes:
            shape = list(x.shape)
            shape[axis] = size
            shapes.append(Abstract(tuple(shape), x.dtype))
        return tuple(shapes)

    def forward(self, x):
        axis, sizes = self.sizes(x.shape)
        ends = [sum(sizes[:i + 1]) for i in range(len(sizes) - 1)]     # where each part ends
        return kernels.call("split")(x, ends, axis)

    def bprop(self, x, out, dout):
        axis, _ = self.sizes(tuple(x.shape))
        return (Concat(axis)(dout),)


def concat(tensors, axis=0):
    """ops.concat(tensors, axis=0) (also ops.cat)."""
    return Concat(axis)(tensors)


def stack(tensors, axis=0):
    """ops.stack(tensors, axis=0)."""
    return Stack(axis)(tensors)


def split(tensor, split_size_or_sections, axis=0):
    """ops.split(tensor, split_size_or_sections, axis=0).

    An int is the size of each part (the last one may be smaller); a tuple or
    list gives every part's size, which must add up to the axis length.
    """
    if isinstance(split_size_or_sections, bool) or not isinstance(
            split_size_or_sections, (int, tuple, list)):
        raise TypeError(f"For 'split', the type of 'split_size_or_sections' should be int, "
                        f"tuple(int) or list(int), but got "
                        f"{type(split_size_or_sections).__name__}.")
    axis = normalize_axis("split", axis, len(tensor.shape))
    length = tensor.shape[axis]
    if isinstance(split_size_or_sections, int):
        size = split_size_or_sections
        if size <= 0:
            raise ValueError(f"For 'split', the value of 'split_size_or_sections' must be more "
                             f"than zero, but got {size}.")
        if length % size == 0:
            return Split(axis, length // size)(tensor)
        sizes = [size] * (length // size) + [length % size]
    else:
        sizes = list(split_size_or_sections)
        if any(isinstance(s, bool) or not isinstance(s, int) or s < 0 for s in sizes):
            raise TypeError(f"For 'split', each element in 'split_size_or_sections' should be a "
                            f"non-negative int, but got {sizes}.")
        if sum(sizes) != length:
            raise ValueError(f"For 'split', the sum of 'split_size_or_sections' should be equal "
                             f"to {length}, but got {sum(sizes)}.")
    return SplitV(tuple(sizes), axis, len(sizes))(tensor)


functional("concat", concat)
functional("cat", concat)
functional("stack", stack)
functional("split", split)
