"""Padding Cells (MindSpore 2.10 ``nn.layer.padding``).

* ``nn.Pad(paddings, mode)``: one (before, after) pair per axis, 'CONSTANT', 'REFLECT' or
  'SYMMETRIC';
* ``ConstantPad1d/2d/3d(padding, value)``, ``ZeroPad2d(padding)``: ``ops.pad`` in
  'constant' mode (negative paddings crop);
* ``ReflectionPad1d/2d/3d(padding)``: mirror without repeating the edge, any input rank
  of at least the number of padded dims;
* ``ReplicationPad1d/2d/3d(padding)``: the edge repeated (``ops.pad(mode='replicate')``),
  batched or unbatched input.

``padding`` is an int (every side) or PyTorch-style ``(left, right, top, bottom, front,
back)`` from the last axis; the arithmetic is
``refms.ops.composites.padding`` (see its docstring for the modes).
"""
from ...ops.composites.padding import pad_axes, pad
from ..cell import Cell

__all__ = ["Pad", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ZeroPad2d",
           "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d",
           "ReplicationPad2d", "ReplicationPad3d"]


class Pad(Cell):
    """Pad(paddings, mode='CONSTANT')"""

    def __init__(self, paddings, mode="CONSTANT"):
        super().__init__()
        if not isinstance(paddings, (tuple, list)):
            raise TypeError(f"For 'Pad', the 'paddings' should be a tuple, but got "
                            f"{type(paddings).__name__}.")
        if mode not in ("CONSTANT", "REFLECT", "SYMMETRIC"):
            raise ValueError(f"For 'Pad', the 'mode' should be one of ['CONSTANT', 'REFLECT', "
                             f"'SYMMETRIC'], but got {mode!r}.")
        self.paddings = tuple(tuple(p) for p in paddings)
        self.mode = mode

    def construct(self, x):
        return pad_axes("Pad", x, self.paddings, self.mode)


def _padding(name, padding, dims, nonnegative):
    """An int (every side of ``dims`` axes) or a tuple of an even number of ints."""
    if isinstance(padding, int) and not isinstance(padding, bool):
        padding = (padding,) * (2 * dims)
    if not isinstance(padding, tuple):
        raise TypeError(f"For '{name}' the input 'padding' must be an integer or tuple, but got "
                        f"{type(padding).__name__}")
    if len(padding) % 2 != 0:
        raise ValueError(f"For '{name}' the length of input 'padding' must be divisible by 2, "
                         f"but got padding of length {len(padding)}.")
    if not all(isinstance(p, int) and not isinstance(p, bool) for p in padding):
        raise TypeError(f"For '{name}' every element in 'padding' must be integer, but got "
                        f"{padding}.")
    if nonnegative and any(p < 0 for p in padding):
        raise ValueError(f"For '{name}' every element in 'padding' must be >= 0, but got "
                         f"{padding}.")
    return padding


class _ConstantPadNd(Cell):
    dims = 1

    def __init__(self, padding, value):
        super().__init__()
        name = type(self).__name__
        padding = _padding(name, padding, self.dims, nonnegative=False)
        if len(padding) > 2 * self.dims or (self.dims == 1 and len(padding) != 2):
            raise ValueError(f"For '{name}', the length of parameter 'padding' with tuple type "
                             f"must be at most {2 * self.dims}, but got {len(padding)}")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"For '{name}', the type of parameter 'value' must be in [int, "
                            f"float], but got {type(value)}")
        self.padding, self.value = padding, value

    def construct(self, x):
        return pad(x, self.padding, "constant", self.value)


class ConstantPad1d(_ConstantPadNd):
    """ConstantPad1d(padding, value): the last dim padded with ``value``."""


class ConstantPad2d(_ConstantPadNd):
    """ConstantPad2d(padding, value): the last two dims padded with ``value``."""
    dims = 2


class ConstantPad3d(_ConstantPadNd):
    """ConstantPad3d(padding, value): the last three dims padded with ``value``."""
    dims = 3


class ZeroPad2d(ConstantPad2d):
    """ZeroPad2d(padding): the last two dims padded with zeros."""

    def __init__(self, padding):
        super().__init__(padding, 0)


class _ReflectionPadNd(Cell):
    dims = 1

    def __init__(self, padding):
        super().__init__()
        self.padding = _padding(type(self).__name__, padding, self.dims, nonnegative=True)

    def construct(self, x):
        k = len(self.padding) // 2
        if len(x.shape) < k:
            raise ValueError(f"For padding with length {2 * k}, the dimension of the tensor "
                             f"should be at least {k}, but got {len(x.shape)}")
        pairs = [(0, 0)] * len(x.shape)
        for i in range(k):
            pairs[len(x.shape) - 1 - i] = (self.padding[2 * i], self.padding[2 * i + 1])
        return pad_axes(type(self).__name__, x, pairs, "REFLECT")


class ReflectionPad1d(_ReflectionPadNd):
    """ReflectionPad1d(padding): the last dim mirrored, ``[a b c] -> b [a b c] b``."""


class ReflectionPad2d(_ReflectionPadNd):
    """ReflectionPad2d(padding): the last two dims mirrored."""
    dims = 2


class ReflectionPad3d(_ReflectionPadNd):
    """ReflectionPad3d(padding): the last three dims mirrored."""
    dims = 3


class _ReplicationPadNd(Cell):
    dims = 1

    def __init__(self, padding):
        super().__init__()
        self.padding = _padding(type(self).__name__, padding, self.dims, nonnegative=False)

    def construct(self, x):
        return pad(x, self.padding, "replicate")


class ReplicationPad1d(_ReplicationPadNd):
    """ReplicationPad1d(padding): the last dim's edges repeated, (C, W) or (N, C, W) input."""


class ReplicationPad2d(_ReplicationPadNd):
    """ReplicationPad2d(padding): the last two dims' edges repeated, (C, H, W) or (N, C, H, W)."""
    dims = 2


class ReplicationPad3d(_ReplicationPadNd):
    """ReplicationPad3d(padding): the last three dims' edges repeated, 4-D or 5-D input."""
    dims = 3
