"""Geometric image operations: resize, crop, pad, flip, rotate, affine (and their random forms).

Images are (H, W, C) numpy arrays; resampling follows :mod:`.resample`, warps
:mod:`.warp`.  A random operation draws its parameters from ``base.rng()``
(the per-row generator inside a pipeline).  Crops centre with
``top = round((H − h) / 2)`` (Python's round: half to even), as MindSpore's
CenterCrop; a crop larger than the image pads it with zeros first.
"""
import math

import numpy as np

from . import resample, warp
from .base import ImageOp, Inter, Border, check_size, rng

__all__ = ["Resize", "RandomResize", "CenterCrop", "Crop", "Pad", "HorizontalFlip", "VerticalFlip",
           "RandomHorizontalFlip", "RandomVerticalFlip", "RandomCrop", "RandomResizedCrop",
           "Rotate", "RandomRotation", "RandomAffine", "resize_image"]


def _mode(interpolation):
    if isinstance(interpolation, Inter):
        return interpolation.value
    raise TypeError(f"The 'interpolation' must be a vision.Inter, but got {interpolation!r}.")


def resize_image(image, size, interpolation=Inter.LINEAR):
    """Resize to ``size``: (h, w), or an int for the shorter side (aspect ratio kept)."""
    h, w = image.shape[:2]
    if isinstance(size, int):
        if h <= w:
            out_h, out_w = size, int(w * size / h)
        else:
            out_h, out_w = int(h * size / w), size
    else:
        out_h, out_w = size
    mode = _mode(interpolation)
    if mode in ("pilcubic", "antialias"):
        mode = "cubic"
    if (out_h, out_w) == (h, w) and mode != "area":
        return image.copy()
    return resample.resize(image, out_h, out_w, mode)


class Resize(ImageOp):
    """Resize(size, interpolation=Inter.LINEAR)"""

    def __init__(self, size, interpolation=Inter.LINEAR):
        self.size = check_size(size, "Resize")
        self.interpolation = interpolation
        _mode(interpolation)

    def apply(self, image):
        return resize_image(image, self.size, self.interpolation)


class RandomResize(ImageOp):
    """RandomResize(size): Resize with an interpolation drawn on every call from LINEAR,
    NEAREST, BICUBIC and AREA (MindSpore's RandomResizeOp)."""
    MODES = (Inter.LINEAR, Inter.NEAREST, Inter.BICUBIC, Inter.AREA)

    def __init__(self, size):
        self.size = check_size(size, "RandomResize")

    def apply(self, image):
        mode = self.MODES[int(rng().integers(len(self.MODES)))]
        return resize_image(image, self.size, mode)


class CenterCrop(ImageOp):
    """CenterCrop(size): rows ⌊(H − h)/2⌋ … and columns ⌊(W − w)/2⌋ …; a negative offset
    (the crop is larger) pads with zeros there."""

    def __init__(self, size):
        self.size = check_size(size, "CenterCrop")

    def apply(self, image):
        ch, cw = (self.size, self.size) if isinstance(self.size, int) else self.size
        h, w = image.shape[:2]
        top, left = (h - ch) // 2, (w - cw) // 2
        if top < 0 or left < 0:
            pad_top, pad_left = max(-top, 0), max(-left, 0)
            image = np.pad(image, [(pad_top, max(ch - h - pad_top, 0)),
                                   (pad_left, max(cw - w - pad_left, 0)), (0, 0)])
            top, left = max(top, 0), max(left, 0)
        return image[top:top + ch, left:left + cw].copy()


class Crop(ImageOp):
    """Crop(coordinates, size): the region whose top-left corner is (top, left)."""

    def __init__(self, coordinates, size):
        self.top, self.left = coordinates
        self.size = check_size(size, "Crop")

    def apply(self, image):
        ch, cw = (self.size, self.size) if isinstance(self.size, int) else self.size
        h, w = image.shape[:2]
        if self.top + ch > h or self.left + cw > w:
            raise ValueError(f"Crop: the region {ch}x{cw} at ({self.top}, {self.left}) goes past "
                             f"the image of size {h}x{w}.")
        return image[self.top:self.top + ch, self.left:self.left + cw].copy()


def _padding(padding, op):
    if isinstance(padding, int):
        return (padding,) * 4
    padding = tuple(padding)
    if len(padding) == 2:
        return (padding[0], padding[1], padding[0], padding[1])
    if len(padding) == 4:
        return padding
    raise ValueError(f"For '{op}', the 'padding' must be an int or a sequence of 2 or 4 ints, but "
                     f"got {padding!r}.")


def pad_image(image, padding, fill_value=0, padding_mode=Border.CONSTANT):
    left, top, right, bottom = padding
    widths = [(top, bottom), (left, right), (0, 0)]
    mode = padding_mode.value if isinstance(padding_mode, Border) else padding_mode
    if mode == "constant":
        fill = np.asarray(fill_value, image.dtype)
        if fill.ndim == 0:
            return np.pad(image, widths, constant_values=fill)
        out = np.empty((image.shape[0] + top + bottom, image.shape[1] + left + right,
                        image.shape[2]), image.dtype)
        out[...] = fill
        out[top:top + image.shape[0], left:left + image.shape[1]] = image
        return out
    # OpenCV's REFLECT_101 is numpy's 'reflect'; OpenCV's REFLECT is numpy's 'symmetric'
    return np.pad(image, widths, mode={"edge": "edge", "reflect": "reflect",
                                       "symmetric": "symmetric"}[mode])


class Pad(ImageOp):
    """Pad(padding, fill_value=0, padding_mode=Border.CONSTANT); padding: (left, top, right, bottom)."""

    def __init__(self, padding, fill_value=0, padding_mode=Border.CONSTANT):
        self.padding = _padding(padding, "Pad")
        self.fill_value, self.padding_mode = fill_value, padding_mode

    def apply(self, image):
        return pad_image(image, self.padding, self.fill_value, self.padding_mode)


class HorizontalFlip(ImageOp):
    def apply(self, image):
        return image[:, ::-1].copy()


class VerticalFlip(ImageOp):
    def apply(self, image):
        return image[::-1].copy()


def _check_prob(prob, op):
    if isinstance(prob, bool) or not isinstance(prob, (int, float)) or not 0 <= prob <= 1:
        raise ValueError(f"For '{op}', the 'prob' must be a number in [0, 1], but got {prob!r}.")
    return float(prob)


class RandomHorizontalFlip(ImageOp):
    """RandomHorizontalFlip(prob=0.5)"""

    def __init__(self, prob=0.5):
        self.prob = _check_prob(prob, "RandomHorizontalFlip")

    def apply(self, image):
        return image[:, ::-1].copy() if rng().random() < self.prob else image


class RandomVerticalFlip(ImageOp):
    """RandomVerticalFlip(prob=0.5)"""

    def __init__(self, prob=0.5):
        self.prob = _check_prob(prob, "RandomVerticalFlip")

    def apply(self, image):
        return image[::-1].copy() if rng().random() < self.prob else image


class RandomCrop(ImageOp):
    """RandomCrop(size, padding=None, pad_if_needed=False, fill_value=0, padding_mode=Border.CONSTANT)"""

    def __init__(self, size, padding=None, pad_if_needed=False, fill_value=0,
                 padding_mode=Border.CONSTANT):
        self.size = check_size(size, "RandomCrop")
        self.padding = None if padding is None else _padding(padding, "RandomCrop")
        self.pad_if_needed, self.fill_value, self.padding_mode = pad_if_needed, fill_value, \
            padding_mode

    def apply(self, image):
        ch, cw = (self.size, self.size) if isinstance(self.size, int) else self.size
        if self.padding is not None:
            image = pad_image(image, self.padding, self.fill_value, self.padding_mode)
        h, w = image.shape[:2]
        if self.pad_if_needed and (h < ch or w < cw):
            dh, dw = max(ch - h, 0), max(cw - w, 0)
            image = pad_image(image, (dw, dh, dw, dh), self.fill_value, self.padding_mode)
            h, w = image.shape[:2]
        if h < ch or w < cw:
            raise RuntimeError(f"RandomCrop: the crop size {ch}x{cw} is larger than the (padded) "
                               f"image {h}x{w}; set pad_if_needed=True or padding.")
        top = int(rng().integers(0, h - ch + 1))
        left = int(rng().integers(0, w - cw + 1))
        return image[top:top + ch, left:left + cw].copy()


def random_resized_box(h, w, scale, ratio, attempts=10):
    """A crop box (top, left, height, width) as torchvision/MindSpore choose it.

    Up to ``attempts`` times: area ∈ U(scale)·h·w, log-ratio ∈ U(log ratio); the
    first box that fits wins; otherwise the central crop with the ratio clamped.
    """
    area = h * w
    log_ratio = (math.log(ratio[0]), math.log(ratio[1]))
    generator = rng()
    for _ in range(attempts):
        target = area * generator.uniform(scale[0], scale[1])
        aspect = math.exp(generator.uniform(*log_ratio))
        cw = int(round(math.sqrt(target * aspect)))
        ch = int(round(math.sqrt(target / aspect)))
        if 0 < cw <= w and 0 < ch <= h:
            top = int(generator.integers(0, h - ch + 1))
            left = int(generator.integers(0, w - cw + 1))
            return top, left, ch, cw
    in_ratio = w / h
    if in_ratio < min(ratio):
        cw, ch = w, int(round(w / min(ratio)))
    elif in_ratio > max(ratio):
        ch, cw = h, int(round(h * max(ratio)))
    else:
        cw, ch = w, h
    return (h - ch) // 2, (w - cw) // 2, ch, cw


class RandomResizedCrop(ImageOp):
    """RandomResizedCrop(size, scale=(0.08, 1.0), ratio=(3/4, 4/3), interpolation=Inter.BILINEAR,
    max_attempts=10)"""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3. / 4., 4. / 3.),
                 interpolation=Inter.BILINEAR, max_attempts=10):
        size = check_size(size, "RandomResizedCrop")
        self.size = (size, size) if isinstance(size, int) else size
        if scale[0] > scale[1] or scale[0] < 0:
            raise ValueError(f"For 'RandomResizedCrop', the 'scale' must be an increasing pair of "
                             f"non-negative numbers, but got {scale!r}.")
        if ratio[0] > ratio[1] or ratio[0] <= 0:
            raise ValueError(f"For 'RandomResizedCrop', the 'ratio' must be an increasing pair of "
                             f"positive numbers, but got {ratio!r}.")
        self.scale, self.ratio = scale, ratio
        self.interpolation, self.max_attempts = interpolation, max_attempts

    def apply(self, image):
        top, left, ch, cw = random_resized_box(image.shape[0], image.shape[1], self.scale,
                                               self.ratio, self.max_attempts)
        return resize_image(image[top:top + ch, left:left + cw], self.size, self.interpolation)


def _rotate(image, degrees, mode, expand, center, fill):
    h, w = image.shape[:2]
    cx, cy = ((w - 1) / 2.0, (h - 1) / 2.0) if center is None else center
    matrix = warp.rotation_matrix((cx, cy), degrees)
    out_h, out_w = h, w
    if expand:
        # the bounding box of the rotated w×h rectangle (OpenCV's RotatedRect.boundingRect2f)
        angle = np.deg2rad(degrees)
        box_w = abs(w * np.cos(angle)) + abs(h * np.sin(angle))
        box_h = abs(w * np.sin(angle)) + abs(h * np.cos(angle))
        matrix[0, 2] += box_w / 2.0 - w / 2.0
        matrix[1, 2] += box_h / 2.0 - h / 2.0
        out_h, out_w = int(np.rint(box_h)), int(np.rint(box_w))
    fill = np.asarray(fill if not isinstance(fill, tuple) else fill, image.dtype)
    return warp.warp_affine(image, matrix, (out_h, out_w), mode, fill)


def _warp_mode(resample_mode):
    mode = _mode(resample_mode)
    return "nearest" if mode == "nearest" else "linear"


class Rotate(ImageOp):
    """Rotate(degrees, resample=Inter.NEAREST, expand=False, center=None, fill_value=0):
    counter-clockwise about the centre ((W−1)/2, (H−1)/2)."""

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None, fill_value=0):
        self.degrees, self.resample, self.expand = float(degrees), resample, expand
        self.center, self.fill_value = center, fill_value

    def apply(self, image):
        return _rotate(image, self.degrees, _warp_mode(self.resample), self.expand, self.center,
                       self.fill_value)


class RandomRotation(ImageOp):
    """RandomRotation(degrees, resample=Inter.NEAREST, expand=False, center=None, fill_value=0):
    an angle drawn from U(degrees) (a number d means (−d, d))."""

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None, fill_value=0):
        if isinstance(degrees, (int, float)):
            degrees = (-abs(degrees), abs(degrees))
        self.degrees = (float(degrees[0]), float(degrees[1]))
        self.resample, self.expand, self.center, self.fill_value = resample, expand, center, \
            fill_value

    def apply(self, image):
        angle = float(rng().uniform(*self.degrees)) if self.degrees[0] != self.degrees[1] \
            else self.degrees[0]
        return _rotate(image, angle, _warp_mode(self.resample), self.expand, self.center,
                       self.fill_value)


def affine_matrix(center, angle, translate, scale, shear):
    """The forward affine matrix: T(center + translate) · R(angle) · Shear · Scale · T(−center).

    Angles in degrees, counter-clockwise rotation as MindSpore's RandomAffine
    (torchvision's convention with the angle negated for image coordinates).
    """
    cx, cy = center
    tx, ty = translate
    rot = math.radians(angle)
    sx, sy = math.radians(shear[0]), math.radians(shear[1])
    # torchvision's inverse-affine building blocks, forward form
    a = math.cos(rot - sy) / math.cos(sy)
    b = -math.cos(rot - sy) * math.tan(sx) / math.cos(sy) - math.sin(rot)
    c = math.sin(rot - sy) / math.cos(sy)
    d = -math.sin(rot - sy) * math.tan(sx) / math.cos(sy) + math.cos(rot)
    m = np.array([[a * scale, b * scale, 0.0], [c * scale, d * scale, 0.0]])
    m[0, 2] = cx + tx - (m[0, 0] * cx + m[0, 1] * cy)
    m[1, 2] = cy + ty - (m[1, 0] * cx + m[1, 1] * cy)
    return m


class RandomAffine(ImageOp):
    """RandomAffine(degrees, translate=None, scale=None, shear=None, resample=Inter.NEAREST,
    fill_value=0)"""

    def __init__(self, degrees, translate=None, scale=None, shear=None, resample=Inter.NEAREST,
                 fill_value=0):
        if isinstance(degrees, (int, float)):
            degrees = (-abs(degrees), abs(degrees))
        self.degrees = tuple(float(d) for d in degrees)
        self.translate = translate
        self.scale = scale
        if shear is not None and isinstance(shear, (int, float)):
            shear = (-abs(shear), abs(shear), 0.0, 0.0)
        elif shear is not None and len(shear) == 2:
            shear = (shear[0], shear[1], 0.0, 0.0)
        self.shear = shear
        self.resample, self.fill_value = resample, fill_value

    def apply(self, image):
        h, w = image.shape[:2]
        generator = rng()
        angle = float(generator.uniform(*self.degrees))
        tx = ty = 0.0
        if self.translate is not None:
            tx = float(np.round(generator.uniform(self.translate[0], self.translate[1]) * w))
            ty = float(np.round(generator.uniform(self.translate[2], self.translate[3]) * h)) \
                if len(self.translate) == 4 else 0.0
        scale = float(generator.uniform(*self.scale)) if self.scale is not None else 1.0
        shear = (0.0, 0.0)
        if self.shear is not None:
            shear = (float(generator.uniform(self.shear[0], self.shear[1])),
                     float(generator.uniform(self.shear[2], self.shear[3])))
        matrix = affine_matrix(((w - 1) / 2.0, (h - 1) / 2.0), angle, (tx, ty), scale, shear)
        return warp.warp_affine(image, matrix, (h, w), _warp_mode(self.resample),
                                np.asarray(self.fill_value, image.dtype))
