"""``refms.dataset.transforms``: general per-row operations for ``Dataset.map``.

Each is a callable class taking numpy arrays (MindSpore ``dataset/transforms``):
``TypeCast(dtype)`` casts, ``Compose(ops)`` chains, ``OneHot(num_classes)``
encodes an integer label.
"""
import numpy as np

from ...dtype import Type

__all__ = ["TypeCast", "Compose", "OneHot"]


class TypeCast:
    """x cast to ``data_type`` (a refms dtype or numpy type)."""

    def __init__(self, data_type):
        self.np_type = data_type.np_type if isinstance(data_type, Type) else np.dtype(data_type)

    def __call__(self, x):
        return np.asarray(x).astype(self.np_type)


class Compose:
    """Apply ``transforms`` one after the other."""

    def __init__(self, transforms):
        self.transforms = list(transforms)

    def __call__(self, *values):
        for transform in self.transforms:
            values = transform(*values)
            if not isinstance(values, tuple):
                values = (values,)
        return values[0] if len(values) == 1 else values


class OneHot:
    """An integer label as a one-hot vector of length ``num_classes``."""

    def __init__(self, num_classes, smoothing_rate=0.0):
        self.num_classes = num_classes
        self.smoothing_rate = smoothing_rate

    def __call__(self, label):
        label = np.asarray(label)
        out = np.eye(self.num_classes, dtype=np.float32)[label]
        if self.smoothing_rate:
            out = out * (1 - self.smoothing_rate) + self.smoothing_rate / self.num_classes
        return out.astype(label.dtype if not self.smoothing_rate else np.float32)
