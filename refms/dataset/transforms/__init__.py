"""``refms.dataset.transforms``: general per-row operations (mirrors ``mindspore.dataset.transforms``).

Each is a callable taking numpy arrays, usable in ``Dataset.map`` or eagerly::

    TypeCast(dtype)                 cast (float → int truncates; out-of-range ints wrap, as C casts)
    OneHot(num_classes, smoothing)  integer labels → one-hot rows (label dtype; float64 if smoothed:
                                    1 − s + s/n on the hot entry, s/n elsewhere)
    Fill(value)                     every element := value (the input's dtype)
    Duplicate()                     x → (x, x)
    Concatenate(axis, prepend, append)
    Mask(op, constant, dtype=bool)  elementwise comparison with a constant
    Slice(*slices)                  index each axis by an int, a list, a slice, or None (all)
    PadEnd(shape, pad_value)        pad (or cut) each axis at its end to ``shape``
    Compose(ops), RandomApply(ops, prob), RandomChoice(ops)

Random choices draw from the pipeline's per-row generator
(``refms.dataset.config.random_generator``).
"""
import enum

import numpy as np

from ...dtype import Type
from .. import config

__all__ = ["TypeCast", "OneHot", "Fill", "Duplicate", "Concatenate", "Mask", "Relational", "Slice",
           "PadEnd", "Compose", "RandomApply", "RandomChoice"]


def _np_type(data_type, op):
    if isinstance(data_type, Type):
        return np.dtype(data_type.np_type)
    try:
        return np.dtype(data_type)
    except TypeError:
        raise TypeError(f"For '{op}', the 'data_type' must be a refms dtype or numpy dtype, but "
                        f"got {data_type!r}.") from None


def _array(x, op):
    if hasattr(x, "asnumpy"):
        x = x.asnumpy()
    x = np.asarray(x)
    if x.dtype == object:
        raise TypeError(f"{op}: the input must be a numpy array, but got {type(x).__name__}.")
    return x


def cast(x, dtype, op):
    """x as ``dtype``: numbers only; float → int truncates toward zero and wraps like C."""
    if x.dtype.kind in "USO":
        raise RuntimeError(f"{op}: can not cast a string array (dtype {x.dtype}) to {dtype}.")
    if dtype.kind in "iu" and x.dtype.kind == "f":
        return np.trunc(x).astype(np.int64).astype(dtype)
    return x.astype(dtype)


class TypeCast:
    def __init__(self, data_type):
        self.np_type = _np_type(data_type, "TypeCast")

    def __call__(self, x):
        return cast(_array(x, "TypeCast"), self.np_type, "TypeCast")


class OneHot:
    def __init__(self, num_classes, smoothing_rate=0.0):
        if isinstance(num_classes, bool) or not isinstance(num_classes, int) or num_classes <= 0:
            raise ValueError(f"For 'OneHot', the 'num_classes' must be a positive int, but got "
                             f"{num_classes!r}.")
        if not 0.0 <= smoothing_rate <= 1.0:
            raise ValueError(f"For 'OneHot', the 'smoothing_rate' must be in [0, 1], but got "
                             f"{smoothing_rate}.")
        self.num_classes, self.smoothing_rate = num_classes, smoothing_rate

    def __call__(self, label):
        label = _array(label, "OneHot")
        if label.dtype.kind not in "iu":
            raise RuntimeError(f"OneHot: the label must be an integer array, but got dtype "
                               f"{label.dtype}.")
        if label.ndim == 2 and label.shape[1] == 1:
            label = label.reshape(-1)       # MindSpore 2.10 takes (N, 1) labels as (N,)
        if label.ndim > 1:
            raise RuntimeError(f"OneHot: the label must be a scalar or 1-D, but got shape "
                               f"{list(label.shape)}.")
        if ((label < 0) | (label >= self.num_classes)).any():
            raise RuntimeError(f"OneHot: every label must be in [0, {self.num_classes}), but got "
                               f"{label.tolist()}.")
        hot = np.eye(self.num_classes, dtype=np.float64)[label]
        if self.smoothing_rate:
            s = self.smoothing_rate
            return hot * (1 - s) + s / self.num_classes
        return hot.astype(label.dtype)


class Fill:
    def __init__(self, fill_value):
        self.fill_value = fill_value

    def __call__(self, x):
        x = _array(x, "Fill")
        return np.full(x.shape, self.fill_value, dtype=x.dtype)


class Duplicate:
    def __call__(self, x):
        x = _array(x, "Duplicate")
        return x, x.copy()


class Concatenate:
    def __init__(self, axis=0, prepend=None, append=None):
        self.axis, self.prepend, self.append = axis, prepend, append

    def __call__(self, x):
        x = _array(x, "Concatenate")
        parts = [np.asarray(p) for p in (self.prepend, x, self.append) if p is not None]
        if any(p.ndim != x.ndim for p in parts):
            raise RuntimeError(f"Concatenate: 'prepend' and 'append' must have the input's rank "
                               f"{x.ndim}.")
        return np.concatenate(parts, axis=self.axis).astype(x.dtype)


class Relational(enum.Enum):
    EQ = "eq"
    NE = "ne"
    GT = "gt"
    GE = "ge"
    LT = "lt"
    LE = "le"


_COMPARE = {Relational.EQ: np.equal, Relational.NE: np.not_equal, Relational.GT: np.greater,
            Relational.GE: np.greater_equal, Relational.LT: np.less, Relational.LE: np.less_equal}


class Mask:
    def __init__(self, operator, constant, dtype=bool):
        if not isinstance(operator, Relational):
            raise TypeError(f"For 'Mask', the 'operator' must be a Relational, but got "
                            f"{operator!r}.")
        self.operator, self.constant = operator, constant
        self.dtype = np.dtype(bool) if dtype is bool else _np_type(dtype, "Mask")

    def __call__(self, x):
        x = _array(x, "Mask")
        return _COMPARE[self.operator](x, np.asarray(self.constant)).astype(self.dtype)


class Slice:
    def __init__(self, *slices):
        self.slices = slices

    def __call__(self, x):
        x = _array(x, "Slice")
        if len(self.slices) > x.ndim:
            raise RuntimeError(f"Slice: {len(self.slices)} slices for an input of rank {x.ndim}.")
        out = x
        for axis, index in enumerate(self.slices):
            if index is None or index is Ellipsis:
                continue
            if isinstance(index, (int, np.integer)):
                index = [int(index)]
            out = out[(slice(None),) * axis + (index,)]
        return np.ascontiguousarray(out)


class PadEnd:
    def __init__(self, pad_shape, pad_value=None):
        self.pad_shape, self.pad_value = list(pad_shape), pad_value

    def __call__(self, x):
        x = _array(x, "PadEnd")
        if len(self.pad_shape) != x.ndim:
            raise RuntimeError(f"PadEnd: the pad shape {self.pad_shape} must have the input's "
                               f"rank {x.ndim}.")
        value = self.pad_value if self.pad_value is not None else ("" if x.dtype.kind == "U"
                                                                   else 0)
        dtype = x.dtype if x.dtype.kind != "U" else np.result_type(x.dtype, np.asarray(value))
        out = np.full([s if s is not None else n for s, n in zip(self.pad_shape, x.shape)], value,
                      dtype)
        region = tuple(slice(0, min(a, b)) for a, b in zip(out.shape, x.shape))
        out[region] = x[region]
        return out


def _as_tuple(values):
    return values if isinstance(values, tuple) else (values,)


def _run(ops, values):
    for op in ops:
        values = _as_tuple(op(*values))
    return values[0] if len(values) == 1 else values


class Compose:
    def __init__(self, transforms):
        self.transforms = list(transforms)
        if not self.transforms:
            raise ValueError("For 'Compose', the 'transforms' can not be empty.")

    def __call__(self, *values):
        return _run(self.transforms, values)


class RandomApply:
    def __init__(self, transforms, prob=0.5):
        self.transforms, self.prob = list(transforms), prob

    def __call__(self, *values):
        if config.random_generator().random() < self.prob:
            return _run(self.transforms, values)
        return values[0] if len(values) == 1 else values


class RandomChoice:
    def __init__(self, transforms):
        self.transforms = list(transforms)

    def __call__(self, *values):
        op = self.transforms[int(config.random_generator().integers(len(self.transforms)))]
        return _run([op], values)
