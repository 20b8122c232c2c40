"""Pad: extend a tensor along each axis by constant, reflected, repeated or wrapped values.

``Pad(paddings)(x)``: ``paddings[i] = (before_i, after_i)`` for axis ``i``;
``y.shape[i] = before_i + x.shape[i] + after_i``.  Modes (``nn.Pad`` has the first three,
``ops.pad`` all but ``SYMMETRIC``):

* ``CONSTANT``: the new entries are ``value`` (0);
* ``REFLECT``: mirrored without repeating the edge, ``[a b c] -> b [a b c] b``;
* ``SYMMETRIC``: mirrored repeating the edge, ``[a b c] -> a [a b c] c``;
* ``EDGE`` (``ops.pad``'s ``'replicate'``): the edge repeated, ``[a b c] -> a a [a b c] c c``;
* ``CIRCULAR``: wrapped around, ``[a b c] -> c [a b c] a``, source index ``j mod n``.

Composition: constant padding concatenates filled blocks (``Concat``); the
other modes gather along the axis with an index vector (``Gather``), so
the gradient of a padded entry flows back to the entry it copies.
``ops.pad(x, padding, mode, value)`` takes PyTorch-style flat padding
``(left, right, top, bottom, ...)`` starting from the last axis; a negative
padding removes that many entries from that side first (MindSpore 2.10).
"""
from ..primitive import F, op_error
from ._common import CompositeOp, check_tensor, int_tensor

__all__ = ["Pad", "pad", "pad_axes"]

_MODES = ("CONSTANT", "REFLECT", "SYMMETRIC", "EDGE", "CIRCULAR")


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


def _source_index(mode, n, before, after):
    """Source index of every output position ``j`` in [−before, n + after) along one axis of
    length n."""
    index = []
    for j in range(-before, n + after):
        if mode == "EDGE":
            i = min(max(j, 0), n - 1)
        elif mode == "CIRCULAR":
            i = j % n
        else:
            i = j
            symmetric = mode == "SYMMETRIC"
            while i < 0 or i >= n:
                if i < 0:
                    i = -i - 1 if symmetric else -i
                if i >= n:
                    i = 2 * n - 1 - i if symmetric else 2 * n - 2 - i
        index.append(i)
    return index


#: The largest padding of an axis of length n each mode allows.
_LIMITS = {"REFLECT": lambda n: n - 1, "SYMMETRIC": lambda n: n, "CIRCULAR": lambda n: n}


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
            limit = _LIMITS[mode](n) if mode in _LIMITS else None
            if limit is not None and (before > limit or after > limit):
                raise op_error(op, f"in {mode} mode each padding of axis {axis} should be at "
                                   f"most {limit} for an axis of length {n}, but got "
                                   f"({before}, {after}).", ValueError)
            if n == 0:
                raise op_error(op, f"in {mode} mode axis {axis} must not be empty.", ValueError)
            index = _source_index(mode, n, before, after)
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


#: ops.pad's modes and pad_axes's names for them.
_PAD_MODES = {"constant": "CONSTANT", "reflect": "REFLECT", "replicate": "EDGE", "edge": "EDGE",
              "circular": "CIRCULAR"}


def _crop(x, pairs):
    """x with −p entries removed from each side whose padding p is negative."""
    index = []
    for (before, after), size in zip(pairs, x.shape):
        index.append(slice(-min(before, 0), size + min(after, 0)))
    return x[tuple(index)]


def pad(input_x, padding, mode="constant", value=None):
    """``ops.pad``: ``padding = (left, right, top, bottom, ...)`` from the last axis backwards.

    Modes ``'constant'`` (with ``value``, default 0), ``'reflect'``, ``'replicate'``
    and ``'circular'``.  The last three pad the last ``k = len(padding) // 2`` axes of an
    input of rank k + 1 or k + 2 (MindSpore 2.10's PadV3 rule) and take no ``value``.
    """
    check_tensor("pad", "input_x", input_x)
    ndim = len(input_x.shape)
    if not isinstance(padding, (tuple, list)) or len(padding) % 2 or len(padding) // 2 > ndim:
        raise op_error("pad", f"the 'padding' should be a tuple of an even length of at most "
                              f"2 * {ndim}, but got {padding!r}.", ValueError)
    if mode not in _PAD_MODES:
        raise op_error("pad", f"the 'mode' should be one of ['constant', 'reflect', "
                              f"'replicate', 'circular'], but got {mode!r}.", ValueError)
    k = len(padding) // 2
    if mode != "constant":
        if value is not None:
            raise op_error("pad", f"the padding mode {mode!r} can not set value, but got value "
                                  f"{value}.", ValueError)
        if ndim not in (k + 1, k + 2):
            raise op_error("pad", f"in {mode!r} mode a padding of {len(padding)} values pads "
                                  f"the last {k} dims of a {k + 1}-D or {k + 2}-D input, but "
                                  f"got a {ndim}-D input.", ValueError)
    pairs = [(0, 0)] * ndim
    for i in range(k):
        pairs[ndim - 1 - i] = (padding[2 * i], padding[2 * i + 1])
    if any(p < 0 for pair in pairs for p in pair):
        input_x = _crop(input_x, pairs)
        pairs = [(max(before, 0), max(after, 0)) for before, after in pairs]
    return pad_axes("pad", input_x, pairs, _PAD_MODES[mode], 0 if value is None else value)
