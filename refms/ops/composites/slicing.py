"""Slice, Unstack, swapaxes and expand_as: views of a tensor by static positions.

* ``Slice()(x, begin, size)``: ``y = x[b₀:b₀+s₀, b₁:b₁+s₁, ...]``; ``size[i] = -1``
  takes everything from ``begin[i]`` to the end.  Composition: ``GetItem``
  with a tuple of slices.
* ``Unstack(axis)(x)``: the tuple ``(x[..., 0, ...], x[..., 1, ...], ...)`` of the
  ``x.shape[axis]`` sub-tensors along ``axis`` (``Split`` then ``Squeeze``).
* ``swapaxes(x, a, b)``: ``Transpose`` with axes ``a`` and ``b`` exchanged.
* ``expand_as(x, other)``: ``BroadcastTo(other.shape)``.
"""
import builtins

from ..primitive import F, op_error
from ._common import CompositeOp, check_tensor, check_int

__all__ = ["Slice", "slice", "swapaxes", "Unstack", "unstack", "expand_as"]


def slice(input_x, begin, size):             # noqa: A001  (MindSpore's name)
    """``ops.slice(input_x, begin, size)`` (see the module docstring)."""
    check_tensor("Slice", "input_x", input_x)
    shape = tuple(input_x.shape)
    if not isinstance(begin, (tuple, list)) or not isinstance(size, (tuple, list)) or \
            len(begin) != len(shape) or len(size) != len(shape):
        raise op_error("Slice", f"the 'begin' and 'size' should be tuples of length "
                                f"{len(shape)} (the rank of 'input_x'), but got begin {begin!r} "
                                f"and size {size!r}.", ValueError)
    index = []
    for axis, (b, s, n) in enumerate(zip(begin, size, shape)):
        check_int("Slice", "begin", b)
        check_int("Slice", "size", s)
        end = n if s == -1 else b + s
        if b < 0 or s < -1 or end > n:
            raise op_error("Slice", f"the slice [{b}, {end}) of axis {axis} should lie in "
                                    f"[0, {n}], but got begin {tuple(begin)} and size "
                                    f"{tuple(size)} for shape {shape}.", ValueError)
        index.append(builtins.slice(b, end))
    return input_x[tuple(index)]


class Slice(CompositeOp):
    """``Slice()(input_x, begin, size)`` = :func:`slice`."""

    def __call__(self, input_x, begin, size):
        return slice(input_x, begin, size)


def _axis(op, axis, ndim):
    check_int(op, "axis", axis)
    if not -ndim <= axis < ndim:
        raise op_error(op, f"the 'axis' should be in range [{-ndim}, {ndim}), but got {axis}.",
                       ValueError)
    return axis % ndim


def swapaxes(input, axis0, axis1):           # noqa: A002  (MindSpore's name)
    """``ops.swapaxes(input, axis0, axis1)``: exchange two axes."""
    check_tensor("swapaxes", "input", input)
    ndim = len(input.shape)
    a, b = _axis("swapaxes", axis0, ndim), _axis("swapaxes", axis1, ndim)
    perm = list(range(ndim))
    perm[a], perm[b] = perm[b], perm[a]
    return F.transpose(input, tuple(perm))


def unstack(input_x, axis=0):
    """``ops.unstack(input_x, axis=0)``: the tuple of sub-tensors along ``axis``."""
    check_tensor("Unstack", "input_x", input_x)
    ndim = len(input_x.shape)
    axis = _axis("Unstack", axis, ndim)
    n = input_x.shape[axis]
    if n == 0:
        raise op_error("Unstack", f"the dimension {axis} of 'input_x' to unstack should be "
                                  f"positive, but got shape {tuple(input_x.shape)}.", ValueError)
    pieces = F.split(input_x, 1, axis) if n > 1 else (input_x,)
    return tuple(F.squeeze(p, axis) for p in pieces)


class Unstack(CompositeOp):
    """``Unstack(axis=0, num=None)(input_x)`` = :func:`unstack`."""

    def __init__(self, axis=0, num=None):
        check_int("Unstack", "axis", axis)
        self.axis = axis
        self.num = num

    def __call__(self, input_x):
        out = unstack(input_x, self.axis)
        if self.num is not None and self.num != len(out):
            raise op_error("Unstack", f"the 'num' should be {len(out)} (the size of axis "
                                      f"{self.axis}), but got {self.num}.", ValueError)
        return out


def expand_as(input, other):                 # noqa: A002  (MindSpore's name)
    """``ops.expand_as(input, other)``: ``input`` broadcast to ``other``'s shape."""
    check_tensor("expand_as", "input", input)
    check_tensor("expand_as", "other", other)
    return F.broadcast_to(input, tuple(other.shape))
