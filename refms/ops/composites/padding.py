"""Pad: extend a tensor along each axis by constant, reflected or symmetric values.

``Pad(paddings)(x)``: ``paddings[i] = (before_i, after_i)`` for axis ``i``;
``y.shape[i] = before_i + x.shape[i] + after_i``.  Modes (``nn.Pad``):

* ``CONSTANT``: the new entries are ``value`` (0);
* ``REFLECT``: mirrored without repeating the edge, ``[a b c] -> b [a b c] b``;
* ``SYMMETRIC``: mirrored repeating the edge, ``[a b c] -> a [a b c] c``.

Composition: constant padding concatenates filled blocks (``Concat``); the
mirrored modes gather along the axis with an index vector (``Gather``), so
the gradient of a padded entry flows back to the entry it copies.
``ops.pad(x, padding, mode, value)`` takes PyTorch-style flat padding
``(left, right, top, bottom, ...)`` starting from the last axis.
"""
from ..primitive import F, op_error
from ._common import CompositeOp, check_tensor, int_tensor

__all__ = ["Pad", "pad", "pad_axes"]

_MODES = ("CONSTANT", "REFLECT", "SYMMETRIC")


def _check_paddings(op, paddings, ndim):
    if not isinstance(paddings, (tuple, list)) or len(paddings) != ndim or not all(
            isinstance(p, (tuple, list)) and len(p) == 2 for p in paddings):
        raise op_error(op, f"the 'paddings' should be a tuple of {ndim} pairs (one per axis of "
                           f"the input), but got {paddings!r}.", ValueError)
    for pair in paddings:
        for p in pair:
            if isinstance(p, bool) or not isinstance(p, int):
                raise op_error(op, f"the elements of 'paddings' should be int, but got "
                                   f"{type(p).__name__}.")
            if p < 0:
                raise op_error(op, f"the elements of 'paddings' should be >= 0, but got "
                                   f"{paddings!r}.", ValueError)


def _mirror_index(n, before, after, symmetric):
    """Source index of every output position along one axis of length n."""
    index = []
    for j in range(-before, n + after):
        i = j
        while i < 0 or i >= n:
            if i < 0:
                i = -i - 1 if symmetric else -i
            if i >= n:
                i = 2 * n - 1 - i if symmetric else 2 * n - 2 - i
        index.append(i)
    return index


def pad_axes(op, x, paddings, mode="CONSTANT", value=0):
    """``x`` padded per axis by ``paddings`` in ``mode`` (see the module docstring)."""
    check_tensor(op, "input_x", x)
    mode = str(mode).upper()
    if mode not in _MODES:
        raise op_error(op, f"the 'mode' should be one of {list(_MODES)}, but got {mode!r}.",
                       ValueError)
    _check_paddings(op, paddings, len(x.shape))
    y = x
    for axis, (before, after) in enumerate(paddings):
        if before == 0 and after == 0:
            continue
        n = y.shape[axis]
        if mode == "CONSTANT":
            parts = []
            for count in (before, after):
                shape = list(y.shape)
                shape[axis] = count
                parts.append(F.fill(y.dtype, tuple(shape), value) if count else None)
            y = F.concat([p for p in (parts[0], y, parts[1]) if p is not None], axis)
        else:
            limit = n - 1 if mode == "REFLECT" else n
            if before > limit or after > limit:
                raise op_error(op, f"in {mode} mode each padding of axis {axis} should be at "
                                   f"most {limit} for an axis of length {n}, but got "
                                   f"({before}, {after}).", ValueError)
            index = _mirror_index(n, before, after, mode == "SYMMETRIC")
            y = F.gather(y, int_tensor(index), axis)
    return y


class Pad(CompositeOp):
    """``Pad(paddings)(x)``: constant (zero) padding, ``paddings`` one (before, after) pair per axis."""

    def __init__(self, paddings):
        if not isinstance(paddings, (tuple, list)):
            raise op_error("Pad", f"the 'paddings' should be a tuple, but got "
                                  f"{type(paddings).__name__}.")
        self.paddings = tuple(tuple(p) if isinstance(p, (tuple, list)) else p for p in paddings)

    def __call__(self, input_x):
        return pad_axes("Pad", input_x, self.paddings)


def pad(input_x, padding, mode="constant", value=None):
    """``ops.pad``: ``padding = (left, right, top, bottom, ...)`` from the last axis backwards."""
    check_tensor("pad", "input_x", input_x)
    if not isinstance(padding, (tuple, list)) or len(padding) % 2 or \
            len(padding) // 2 > len(input_x.shape):
        raise op_error("pad", f"the 'padding' should be a tuple of an even length of at most "
                              f"2 * {len(input_x.shape)}, but got {padding!r}.", ValueError)
    pairs = [(0, 0)] * len(input_x.shape)
    for k in range(len(padding) // 2):
        pairs[len(input_x.shape) - 1 - k] = (padding[2 * k], padding[2 * k + 1])
    modes = {"constant": "CONSTANT", "reflect": "REFLECT", "symmetric": "SYMMETRIC"}
    if mode not in modes:
        raise op_error("pad", f"the 'mode' should be one of {list(modes)}, but got {mode!r}.",
                       ValueError)
    return pad_axes("pad", input_x, pairs, modes[mode], 0 if value is None else value)
