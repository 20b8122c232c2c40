"""Pixel-value operations: scaling, normalisation, layout, colour and histogram adjustments.

=========================  ==================================================================
``Rescale(a, b)``          x·a + b in float32
``Normalize(mean, std)``   (x − mean) / std per channel, float32 (``is_hwc=False``: CHW input)
``HWC2CHW()``              (H, W, C) → (C, H, W)
``ToTensor()``             HWC uint8 → CHW float32 in [0, 1] (x / 255)
``ConvertColor(mode)``     RGB↔BGR, RGB→GRAY (OpenCV's 0.299 R + 0.587 G + 0.114 B, 15-bit fixed point)
``Invert()``               255 − x
``Equalize()``             per channel: OpenCV's equalizeHist lookup table
``AutoContrast(cutoff)``   per channel: stretch [lo, hi] (after cutting ``cutoff`` % of each
                           tail of the histogram) to [0, 255]
``AdjustBrightness(a)``    saturate(round(x·a))
``AdjustContrast(a)``      blend with the mean grey level: saturate(round(x·a + m·(1 − a)))
``AdjustSaturation(a)``    blend with the pixel's grey value: saturate(round(x·a + gray·(1 − a)))
``AdjustHue(h)``           rotate the 8-bit hue by ⌊h·255⌋ (:mod:`.hsv`)
``RandomColorAdjust``      the four adjustments in a random order, each factor drawn from its range
=========================  ==================================================================
"""
import numpy as np

from ...dtype import Type
from .base import ImageOp, ConvertMode, as_image, rng
from .fma import fma32
from .hsv import adjust_hue

__all__ = ["Rescale", "Normalize", "HWC2CHW", "ToTensor", "ToPIL", "ConvertColor", "Grayscale",
           "Invert", "Equalize", "AutoContrast", "AdjustBrightness", "AdjustContrast",
           "AdjustSaturation", "AdjustHue", "RandomColorAdjust", "rgb_to_gray"]


class Rescale(ImageOp):
    def __init__(self, rescale, shift):
        self.rescale, self.shift = float(rescale), float(shift)

    def apply(self, image):
        # one rounding of x·a + b (a fused multiply-add), as MindSpore's kernel
        return (image.astype(np.float64) * np.float64(np.float32(self.rescale)) +
                np.float64(np.float32(self.shift))).astype(np.float32)


class Normalize(ImageOp):
    def __init__(self, mean, std, is_hwc=True):
        self.mean = np.asarray(mean, np.float32)
        self.std = np.asarray(std, np.float32)
        if self.mean.shape != self.std.shape or self.mean.ndim != 1:
            raise ValueError("For 'Normalize', 'mean' and 'std' must be lists of the same length.")
        if (self.std <= 0).any():
            raise ValueError(f"For 'Normalize', every 'std' must be positive, but got "
                             f"{self.std.tolist()}.")
        self.is_hwc = is_hwc
        self._rows = {}                 # row length W·C -> (mean, std) repeated along a row

    def __call__(self, image):
        image = as_image(image, "Normalize").astype(np.float32)
        if image.ndim == 2:
            image = image[..., None] if self.is_hwc else image[None]
        channels = image.shape[-1] if self.is_hwc else image.shape[0]
        if channels != self.mean.size and self.mean.size != 1:
            raise RuntimeError(f"Normalize: the image has {channels} channels but 'mean' and 'std' "
                               f"have {self.mean.size} values.")
        if self.is_hwc:
            # in place (``image`` is a fresh copy), on rows of W·C values: the mean and std
            # repeated along a row, so numpy's inner loop is long, not C values long
            h, w, c = image.shape
            if w * c not in self._rows:
                self._rows[w * c] = (np.resize(self.mean, w * c), np.resize(self.std, w * c))
            mean, std = self._rows[w * c]
            rows = image.reshape(h, w * c)
            rows -= mean
            rows /= std
            return image
        image -= self.mean.reshape(-1, 1, 1)
        image /= self.std.reshape(-1, 1, 1)
        return image


class HWC2CHW(ImageOp):
    def __call__(self, image):
        image = as_image(image, "HWC2CHW")
        if image.ndim == 2:
            image = image[..., None]
        return np.ascontiguousarray(image.transpose(2, 0, 1))


class ToTensor(ImageOp):
    """HWC → CHW float32; uint8 values divided by 255 (``output_type`` may change the dtype)."""

    def __init__(self, output_type=np.float32):
        self.output_type = output_type.np_type if isinstance(output_type, Type) else \
            np.dtype(output_type)

    def __call__(self, image):
        image = as_image(image, "ToTensor")
        if image.ndim == 2:
            image = image[..., None]
        out = image.astype(np.float32)
        if image.dtype == np.uint8:
            out = out * np.float32(1.0 / 255)
        return np.ascontiguousarray(out.transpose(2, 0, 1)).astype(self.output_type)


class ToPIL:
    """A numpy HWC image as a PIL Image."""

    def __call__(self, image):
        from PIL import Image
        if isinstance(image, Image.Image):
            return image
        image = as_image(image, "ToPIL")
        if image.ndim == 3 and image.shape[2] == 1:
            image = image[..., 0]
        return Image.fromarray(image)


def rgb_to_gray(image):
    """OpenCV's RGB2GRAY for uint8: (R·9798 + G·19235 + B·3735 + 2¹⁴) ≫ 15."""
    if image.dtype == np.uint8:
        x = image.astype(np.int64)
        return ((x[..., 0] * 9798 + x[..., 1] * 19235 + x[..., 2] * 3735 + (1 << 14)) >> 15) \
            .astype(np.uint8)
    x = image.astype(np.float32)
    return (x[..., 0] * np.float32(0.299) + x[..., 1] * np.float32(0.587) +
            x[..., 2] * np.float32(0.114)).astype(image.dtype)


class ConvertColor(ImageOp):
    def __init__(self, convert_mode):
        if not isinstance(convert_mode, ConvertMode):
            raise TypeError(f"For 'ConvertColor', the 'convert_mode' must be a ConvertMode, but "
                            f"got {convert_mode!r}.")
        self.mode = convert_mode

    def apply(self, image):
        mode = self.mode
        if mode in (ConvertMode.COLOR_RGB2BGR, ConvertMode.COLOR_BGR2RGB):
            return image[..., ::-1].copy()
        if mode is ConvertMode.COLOR_RGB2GRAY:
            return rgb_to_gray(image)
        if mode is ConvertMode.COLOR_GRAY2RGB:
            return np.repeat(image[..., :1], 3, axis=2)
        if mode is ConvertMode.COLOR_RGB2RGBA:
            alpha = np.full(image.shape[:2] + (1,), 255 if image.dtype == np.uint8 else 1,
                            image.dtype)
            return np.concatenate([image, alpha], axis=2)
        return image[..., :3].copy()


class Grayscale:
    """Grayscale(num_output_channels=1): a PIL image in, a PIL image out (as MindSpore)."""

    def __init__(self, num_output_channels=1):
        self.num_output_channels = num_output_channels

    def __call__(self, image):
        if not type(image).__module__.startswith("PIL"):
            raise TypeError(f"img should be PIL image. Got {type(image)}. Use Decode() for encoded "
                            f"data or ToPIL() for decoded data.")
        gray = image.convert("L")
        return gray if self.num_output_channels == 1 else gray.convert("RGB")


def _uint8(image, op):
    if image.dtype != np.uint8:
        raise RuntimeError(f"{op}: the image must be uint8, but got {image.dtype}.")
    return image


class Invert(ImageOp):
    def apply(self, image):
        return (255 - _uint8(image, "Invert").astype(np.int64)).astype(np.uint8)


def _equalize_channel(channel):
    hist = np.bincount(channel.reshape(-1), minlength=256)
    total = channel.size
    first = int(np.nonzero(hist)[0][0])
    if hist[first] == total:
        return np.full_like(channel, first)
    scale = np.float32(255.0) / np.float32(total - hist[first])
    lut = np.zeros(256, np.int64)
    running = 0
    for i in range(first + 1, 256):
        running += int(hist[i])
        lut[i] = int(np.rint(np.float32(running) * scale))
    return np.clip(lut, 0, 255).astype(np.uint8)[channel]


class Equalize(ImageOp):
    def apply(self, image):
        image = _uint8(image, "Equalize")
        return np.stack([_equalize_channel(image[..., c]) for c in range(image.shape[2])], axis=2)


def _autocontrast_channel(channel, cutoff, ignore):
    hist = np.bincount(channel.reshape(-1), minlength=256).astype(np.int64)
    for value in ignore:
        hist[value] = 0
    if cutoff:
        cut = int(hist.sum() * cutoff / 100)
        for order in (range(256), range(255, -1, -1)):
            remaining = cut
            for i in order:
                if remaining <= 0:
                    break
                take = min(remaining, hist[i])
                hist[i] -= take
                remaining -= take
    nonzero = np.nonzero(hist)[0]
    if nonzero.size == 0:
        return channel.copy()
    lo, hi = int(nonzero[0]), int(nonzero[-1])
    if hi <= lo:
        return channel.copy()
    scale = np.float32(255.0) / np.float32(hi - lo)          # float32, as MindSpore's kernel
    offset = np.float32(-lo) * scale
    lut = np.clip(np.trunc(np.arange(256, dtype=np.float32) * scale + offset), 0, 255)
    lut = lut.astype(np.uint8)
    return lut[channel]


class AutoContrast(ImageOp):
    """AutoContrast(cutoff=0.0, ignore=None)"""

    def __init__(self, cutoff=0.0, ignore=None):
        if not 0 <= cutoff < 50:
            raise ValueError(f"For 'AutoContrast', the 'cutoff' must be in [0, 50), but got "
                             f"{cutoff}.")
        self.cutoff = cutoff
        self.ignore = [] if ignore is None else ([ignore] if isinstance(ignore, int) else ignore)

    def apply(self, image):
        image = _uint8(image, "AutoContrast")
        return np.stack([_autocontrast_channel(image[..., c], self.cutoff, self.ignore)
                         for c in range(image.shape[2])], axis=2)


def _blend(image, other, alpha):
    """saturate(round(image·α + other·(1 − α))), as OpenCV's convertTo / addWeighted.

    For uint8 images the arithmetic is float32, α and 1 − α rounded to float32,
    and other·(1 − α) + (image·α) one fused multiply-add (``fma32``).
    """
    if image.dtype == np.uint8:
        alpha32 = np.float32(alpha)
        beta32 = np.float32(1.0 - float(alpha32))
        scaled = image.astype(np.float32) * alpha32
        out = fma32(np.asarray(other, np.float32), beta32, scaled)
        return np.clip(np.rint(out), 0, 255).astype(np.uint8)
    out = image.astype(np.float64) * alpha + np.asarray(other, np.float64) * (1 - alpha)
    return out.astype(image.dtype)


def adjust_brightness(image, factor):
    return _blend(image, 0.0, factor)


def adjust_contrast(image, factor):
    mean = float(np.rint(rgb_to_gray(image).mean())) if image.dtype == np.uint8 else \
        float(rgb_to_gray(image).mean())
    return _blend(image, mean, factor)


def adjust_saturation(image, factor):
    gray = rgb_to_gray(image)[..., None]
    return _blend(image, gray, factor)


def _check_factor(value, name, low, high):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"Argument {name} with value {value!r} is not of type [<class 'float'>, "
                        f"<class 'int'>], but got {type(value)}.")
    if not low <= value <= high:
        raise ValueError(f"Input {name} is not within the required interval of [{low}, {high}].")
    return float(value)


def _rgb_uint8(image, op):
    if image.ndim != 3 or image.shape[2] != 3:
        raise RuntimeError(f"{op}: the image must be <H, W, 3>, but got shape "
                           f"{list(image.shape)}.")
    return _uint8(image, op)


def _rgb_uint8_or_float32(image, op):
    """An <H, W, 3> image of uint8 (saturated arithmetic) or float32 (plain arithmetic, no
    clipping: MindSpore 2.10 gives ``AdjustBrightness(2.666)`` of 0.9 as 2.3994)."""
    if image.dtype == np.float32:
        if image.ndim != 3 or image.shape[2] != 3:
            raise RuntimeError(f"{op}: the image must be <H, W, 3>, but got shape "
                               f"{list(image.shape)}.")
        return image
    return _rgb_uint8(image, op)


class AdjustBrightness(ImageOp):
    """AdjustBrightness(brightness_factor): 0 gives black, 1 the image itself."""

    def __init__(self, brightness_factor):
        self.factor = _check_factor(brightness_factor, "brightness_factor", 0, 16777216)

    def apply(self, image):
        return adjust_brightness(_rgb_uint8_or_float32(image, "AdjustBrightness"), self.factor)


class AdjustContrast(ImageOp):
    """AdjustContrast(contrast_factor): 0 gives the mean grey, 1 the image itself."""

    def __init__(self, contrast_factor):
        self.factor = _check_factor(contrast_factor, "contrast_factor", 0, 16777216)

    def apply(self, image):
        return adjust_contrast(_rgb_uint8_or_float32(image, "AdjustContrast"), self.factor)


class AdjustSaturation(ImageOp):
    """AdjustSaturation(saturation_factor): 0 gives the grey image, 1 the image itself."""

    def __init__(self, saturation_factor):
        self.factor = _check_factor(saturation_factor, "saturation_factor", 0, 16777216)

    def apply(self, image):
        return adjust_saturation(_rgb_uint8_or_float32(image, "AdjustSaturation"), self.factor)


class AdjustHue(ImageOp):
    """AdjustHue(hue_factor): rotate the hue by ``hue_factor`` ∈ [−0.5, 0.5] of a turn
    (uint8 RGB images; see :mod:`refms.dataset.vision.hsv` for the exact arithmetic)."""

    def __init__(self, hue_factor):
        self.factor = _check_factor(hue_factor, "hue_factor", -0.5, 0.5)

    def apply(self, image):
        return adjust_hue(_rgb_uint8(image, "AdjustHue"), self.factor)


def _factor_range(value, name, center=1.0, bound=None):
    if value is None:
        return None
    if isinstance(value, (int, float)):
        if value < 0:
            raise ValueError(f"For 'RandomColorAdjust', the '{name}' must be non-negative.")
        value = (max(center - value, 0.0), center + value) if bound is None else (-value, value)
    low, high = float(value[0]), float(value[1])
    if low > high:
        raise ValueError(f"For 'RandomColorAdjust', the '{name}' range must be increasing, but "
                         f"got {value!r}.")
    return None if (bound is None and (low, high) == (1.0, 1.0)) or \
        (bound is not None and (low, high) == (0.0, 0.0)) else (low, high)


class RandomColorAdjust(ImageOp):
    """RandomColorAdjust(brightness=(1, 1), contrast=(1, 1), saturation=(1, 1), hue=(0, 0)):
    the four adjustments in a random order (shuffled on every call, as MindSpore does),
    each factor drawn uniformly from its range; a range that is the identity is skipped."""

    def __init__(self, brightness=(1, 1), contrast=(1, 1), saturation=(1, 1), hue=(0, 0)):
        self.brightness = _factor_range(brightness, "brightness")
        self.contrast = _factor_range(contrast, "contrast")
        self.saturation = _factor_range(saturation, "saturation")
        self.hue = _factor_range(hue, "hue", 0.0, 0.5)

    def apply(self, image):
        image = _uint8(image, "RandomColorAdjust")
        generator = rng()
        steps = [(adjust_brightness, self.brightness), (adjust_contrast, self.contrast),
                 (adjust_saturation, self.saturation), (adjust_hue, self.hue)]
        for index in generator.permutation(len(steps)):
            adjust, bounds = steps[index]
            if bounds is not None:
                factor = bounds[0] if bounds[0] == bounds[1] else \
                    float(generator.uniform(*bounds))
                image = adjust(image, factor)
        return image
