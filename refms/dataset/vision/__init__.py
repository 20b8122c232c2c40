"""``refms.dataset.vision``: image operations for ``Dataset.map`` (images are HWC numpy arrays).

========================  =====================================================
``Rescale(a, b)``         x·a + b, as float32
``Normalize(mean, std)``  (x − mean) / std per channel (last axis), float32
``HWC2CHW()``             transpose (H, W, C) → (C, H, W)
``Resize(size)``          bilinear resize of (H, W[, C]) to ``size`` (int: the shorter side)
``Pad(padding, value)``   constant padding of H and W
========================  =====================================================

Resize uses half-pixel centres (OpenCV's ``INTER_LINEAR`` convention, which
MindSpore's CPU kernel follows); values may differ from MindSpore's by rounding.
"""
import numpy as np

__all__ = ["Rescale", "Normalize", "HWC2CHW", "Resize", "Pad", "Inter"]


class Inter:
    NEAREST = "nearest"
    LINEAR = "linear"
    BILINEAR = "linear"


class Rescale:
    def __init__(self, rescale, shift):
        self.rescale = float(rescale)
        self.shift = float(shift)

    def __call__(self, image):
        return (np.asarray(image, np.float32) * np.float32(self.rescale)
                + np.float32(self.shift)).astype(np.float32)


class Normalize:
    def __init__(self, mean, std, is_hwc=True):
        self.mean = np.asarray(mean, np.float32)
        self.std = np.asarray(std, np.float32)
        self.is_hwc = is_hwc

    def __call__(self, image):
        image = np.asarray(image, np.float32)
        if self.is_hwc:
            return (image - self.mean) / self.std
        shape = (-1,) + (1,) * (image.ndim - 1)
        return (image - self.mean.reshape(shape)) / self.std.reshape(shape)


class HWC2CHW:
    def __call__(self, image):
        image = np.asarray(image)
        if image.ndim == 2:
            image = image[..., None]
        return np.ascontiguousarray(image.transpose(2, 0, 1))


def _linear_weights(n_in, n_out):
    """Source indices and weights of a 1-D half-pixel-centre linear resize."""
    centres = (np.arange(n_out) + 0.5) * (n_in / n_out) - 0.5
    centres = np.clip(centres, 0, n_in - 1)
    low = np.floor(centres).astype(np.int64)
    high = np.minimum(low + 1, n_in - 1)
    return low, high, (centres - low).astype(np.float32)


class Resize:
    def __init__(self, size, interpolation=Inter.LINEAR):
        self.size = size
        self.interpolation = interpolation

    def _target(self, h, w):
        if isinstance(self.size, int):
            if h <= w:
                return self.size, int(w * self.size / h)
            return int(h * self.size / w), self.size
        return tuple(self.size)

    def __call__(self, image):
        image = np.asarray(image)
        h, w = image.shape[:2]
        out_h, out_w = self._target(h, w)
        if self.interpolation == Inter.NEAREST:
            rows = np.minimum((np.arange(out_h) * h / out_h).astype(np.int64), h - 1)
            cols = np.minimum((np.arange(out_w) * w / out_w).astype(np.int64), w - 1)
            return image[rows][:, cols]
        data = image.astype(np.float32)
        r0, r1, rw = _linear_weights(h, out_h)
        c0, c1, cw = _linear_weights(w, out_w)
        extra = (1,) * (data.ndim - 2)
        rw = rw.reshape((-1, 1) + extra)
        cw = cw.reshape((1, -1) + extra)
        top = data[r0][:, c0] * (1 - cw) + data[r0][:, c1] * cw
        bottom = data[r1][:, c0] * (1 - cw) + data[r1][:, c1] * cw
        out = top * (1 - rw) + bottom * rw
        if image.dtype == np.uint8:
            return np.clip(np.rint(out), 0, 255).astype(np.uint8)
        return out.astype(image.dtype)


class Pad:
    def __init__(self, padding, fill_value=0):
        if isinstance(padding, int):
            padding = (padding,) * 4
        elif len(padding) == 2:
            padding = (padding[0], padding[1], padding[0], padding[1])
        self.left, self.top, self.right, self.bottom = padding
        self.fill_value = fill_value

    def __call__(self, image):
        image = np.asarray(image)
        widths = [(self.top, self.bottom), (self.left, self.right)] + [(0, 0)] * (image.ndim - 2)
        return np.pad(image, widths, constant_values=self.fill_value)
