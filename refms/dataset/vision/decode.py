"""Decode: encoded image bytes (JPEG, PNG, BMP, …) → RGB uint8 (H, W, 3), with Pillow.

Pillow and MindSpore both decode JPEG with libjpeg(-turbo)'s default integer
IDCT, so the pixels agree (checked against MindSpore 2.10 on the test images).
"""
import numpy as np

from ..image_folder import decode_image
from .base import ImageOp
from .base import Inter
from .geometry import RandomResizedCrop

__all__ = ["Decode", "RandomCropDecodeResize"]


class Decode:
    """Decode(to_pil=False)"""

    def __init__(self, to_pil=False):
        self.to_pil = to_pil

    def __call__(self, data):
        if isinstance(data, (bytes, bytearray)):
            data = np.frombuffer(data, np.uint8)
        data = np.asarray(data)
        if data.dtype.kind == "S":
            data = np.frombuffer(data.reshape(-1)[0], np.uint8)
        if data.dtype != np.uint8 or data.ndim != 1:
            raise TypeError(f"Decode: the input must be the encoded bytes as a 1-D uint8 array, "
                            f"but got shape {list(data.shape)} and dtype {data.dtype}.")
        image = decode_image(data, "the input")
        if self.to_pil:
            from PIL import Image
            return Image.fromarray(image)
        return image


class RandomCropDecodeResize(ImageOp):
    """RandomCropDecodeResize(size, scale=(0.08, 1.0), ratio=(3/4, 4/3),
    interpolation=Inter.BILINEAR, max_attempts=10): Decode then RandomResizedCrop."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3. / 4., 4. / 3.), interpolation=None,
                 max_attempts=10):
        self.crop = RandomResizedCrop(size, scale, ratio, interpolation or Inter.BILINEAR,
                                      max_attempts)

    def __call__(self, data):
        return self.crop(Decode()(data))
