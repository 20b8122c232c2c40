"""Grey-level operations on uint8 images: fewer bits per value, and inversion above a threshold.

=================================  ==========================================================
``Posterize(bits)``                keep the ``bits`` high bits: x & ~(2^(8−bits) − 1)
``RandomPosterize(bits=(8, 8))``   ``Posterize(b)``, b drawn uniformly from [lo, hi] per image
``Solarize(threshold)``            255 − x where lo ≤ x ≤ hi (one number t: t ≤ x ≤ 255)
``RandomSolarize((lo, hi))``       ``Solarize(t)``, t drawn uniformly from [lo, hi] per image
=================================  ==========================================================

(MindSpore ``dataset.vision``; Posterize and Solarize are also PIL's ``ImageOps``.)
"""
import numbers

import numpy as np

from .base import ImageOp, rng

__all__ = ["Posterize", "RandomPosterize", "Solarize", "RandomSolarize"]


def _uint8(image, op):
    if image.dtype != np.uint8:
        raise RuntimeError(f"{op}: the image must be uint8, but got {image.dtype}.")
    return image


def _bits(bits, op, low):
    if isinstance(bits, bool) or not isinstance(bits, int):
        raise TypeError(f"For '{op}', the bits must be int, but got {type(bits).__name__}.")
    if not low <= bits <= 8:
        raise ValueError(f"For '{op}', the bits must be in [{low}, 8], but got {bits}.")
    return bits


def posterize(image, bits):
    """``image`` with only its ``bits`` most significant bits per value kept."""
    mask = np.uint8((0xFF << (8 - bits)) & 0xFF)
    return image & mask


def solarize(image, low, high):
    """``image`` with the values in [low, high] inverted (255 − x)."""
    return np.where((image >= low) & (image <= high), 255 - image, image).astype(np.uint8)


class Posterize(ImageOp):
    def __init__(self, bits):
        self.bits = _bits(bits, "Posterize", 0)

    def apply(self, image):
        return posterize(_uint8(image, "Posterize"), self.bits)


class RandomPosterize(ImageOp):
    def __init__(self, bits=(8, 8)):
        if isinstance(bits, int) and not isinstance(bits, bool):
            bits = (bits, bits)
        low, high = (_bits(b, "RandomPosterize", 1) for b in bits)
        if low > high:
            raise ValueError(f"For 'RandomPosterize', the bits must be in order (min, max), "
                             f"but got {tuple(bits)}.")
        self.bits = (low, high)

    def apply(self, image):
        bits = int(rng().integers(self.bits[0], self.bits[1] + 1))
        return posterize(_uint8(image, "RandomPosterize"), bits)


def _threshold(threshold, op):
    values = (threshold, 255) if isinstance(threshold, numbers.Number) else tuple(threshold)
    if len(values) != 2 or not all(isinstance(v, numbers.Number) and not isinstance(v, bool)
                                   for v in values):
        raise TypeError(f"For '{op}', the threshold must be a number or a (min, max) pair, but "
                        f"got {threshold!r}.")
    for v in values:
        if not 0 <= v <= 255:
            raise ValueError(f"For '{op}', the threshold must be in [0, 255], but got "
                             f"{threshold!r}.")
    if values[0] > values[1]:
        raise ValueError(f"For '{op}', the threshold must be in order (min, max), but got "
                         f"{threshold!r}.")
    return values


class Solarize(ImageOp):
    def __init__(self, threshold):
        self.low, self.high = _threshold(threshold, "Solarize")

    def apply(self, image):
        return solarize(_uint8(image, "Solarize"), self.low, self.high)


class RandomSolarize(ImageOp):
    def __init__(self, threshold=(0, 255)):
        self.low, self.high = _threshold(threshold, "RandomSolarize")

    def apply(self, image):
        t = int(rng().integers(int(self.low), int(self.high) + 1))
        return solarize(_uint8(image, "RandomSolarize"), t, 255)
