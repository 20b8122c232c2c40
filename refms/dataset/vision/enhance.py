"""Image enhancement by blending with a degenerate image (PIL's ``ImageEnhance`` idea):
``out = saturate(round(image·t + degenerate·(1 − t)))``.

* ``RandomColor(degrees)``: the degenerate image is the grey image (OpenCV's RGB → GRAY,
  repeated on the three channels): t = 0 grey, 1 the image, 2 more colourful;
  ``|t − 1| < 0.00195`` returns the image and ``|t| < 0.00195`` the grey image
  (MindSpore's RandomColorOp).
* ``RandomSharpness(degrees)``: the degenerate image is the image smoothed by the 3 × 3
  kernel [[1, 1, 1], [1, 5, 1], [1, 1, 1]] / 13, its border rows and columns kept: t = 0
  blurred, 1 the image, 2 sharpened (MindSpore's SharpnessOp); t is the middle of the range
  plus r·(half its width), r ~ U[−1, 1).

Both draw t uniformly from ``degrees`` (float32) on every call; ``(t, t)`` pins it.  The
blend is OpenCV's ``addWeighted(src1, a, src2, b, 0)`` for uint8 images: float32
arithmetic with ``src2·b`` rounded first and ``src1·a`` added in one fused multiply-add
(``fma32``), then rounded half to even and saturated to [0, 255].
"""
import numpy as np

from .base import ImageOp, rng
from .color import rgb_to_gray
from .fma import fma32

__all__ = ["RandomColor", "RandomSharpness", "add_weighted", "smooth_3x3"]


def add_weighted(src1, a, src2, b):
    """OpenCV's addWeighted(src1, a, src2, b, 0) of two images of src1's dtype."""
    if src1.dtype == np.uint8:
        partial = np.asarray(src2, np.float32) * np.float32(b)
        out = fma32(src1.astype(np.float32), np.float32(a), partial)
        return np.clip(np.rint(out), 0, 255).astype(np.uint8)
    out = src1.astype(np.float64) * float(np.float32(a)) + \
        np.asarray(src2, np.float64) * float(np.float32(b))
    return out.astype(src1.dtype)


def smooth_3x3(image):
    """The image filtered by [[1, 1, 1], [1, 5, 1], [1, 1, 1]] / 13 (float32 weights,
    accumulated in float32 in row-major order), interior pixels only: the border rows and
    columns keep the image's values."""
    weights = np.full((3, 3), np.float32(1.0 / 13.0), np.float32)
    weights[1, 1] = np.float32(5.0 / 13.0)
    x = image.astype(np.float32)
    h, w = image.shape[:2]
    total = None
    for i in range(3):
        for j in range(3):
            term = x[i:h - 2 + i, j:w - 2 + j] * weights[i, j]
            total = term if total is None else total + term
    out = image.copy()
    if image.dtype == np.uint8:
        total = np.clip(np.rint(total), 0, 255)
    out[1:h - 1, 1:w - 1] = total.astype(image.dtype)
    return out


def _degrees(degrees, op):
    if not isinstance(degrees, (list, tuple)) or len(degrees) != 2 or not all(
            isinstance(d, (int, float)) and not isinstance(d, bool) for d in degrees):
        raise TypeError(f"For '{op}', the 'degrees' must be a sequence of two numbers, but got "
                        f"{degrees!r}.")
    low, high = float(degrees[0]), float(degrees[1])
    if low < 0 or high < 0:
        raise ValueError(f"For '{op}', the 'degrees' must be non-negative, but got {degrees!r}.")
    if low > high:
        raise ValueError(f"For '{op}', the 'degrees' must be (min, max) with min <= max, but "
                         f"got {degrees!r}.")
    return np.float32(low), np.float32(high)


class RandomColor(ImageOp):
    """RandomColor(degrees=(0.1, 1.9)): blend a (H, W, 3) image with its grey image."""

    def __init__(self, degrees=(0.1, 1.9)):
        self.low, self.high = _degrees(degrees, "RandomColor")

    def apply(self, image):
        if image.ndim != 3 or image.shape[2] != 3:
            raise RuntimeError(f"RandomColor: image shape is not <H,W,C> or channel is not 3, "
                               f"but got shape {list(image.shape)}.")
        t = self.low if self.low == self.high else np.float32(rng().uniform(self.low, self.high))
        if abs(float(t) - 1.0) < 0.00195:
            return image
        gray = np.repeat(rgb_to_gray(image)[..., None], 3, axis=2).astype(image.dtype)
        if abs(float(t)) < 0.00195:
            return gray
        return add_weighted(image, t, gray, np.float32(1.0) - t)


class RandomSharpness(ImageOp):
    """RandomSharpness(degrees=(0.1, 1.9)): blend an image with its 3 × 3 smoothed image."""

    def __init__(self, degrees=(0.1, 1.9)):
        self.low, self.high = _degrees(degrees, "RandomSharpness")

    def apply(self, image):
        r = np.float32(0.0) if self.low == self.high else np.float32(rng().uniform(-1.0, 1.0))
        half = (self.high - self.low) / np.float32(2.0)
        mid = (self.high + self.low) / np.float32(2.0)
        t = np.float32(mid + r * half)
        return add_weighted(image, t, smooth_3x3(image), 1.0 - float(t))
