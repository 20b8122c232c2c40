"""``nn.CentralCrop``: keep the central part of images (MindSpore 2.10 ``nn.layer.image``).

For an image of height ``h`` and ``central_fraction`` f the crop starts at row

    top = int((h − float32(h · f)) / 2)

and keeps ``h − 2·top`` rows (the same for the width), so the crop is centred and a
fraction close to 1 keeps everything.  The input is (C, H, W) or (N, C, H, W).
"""
import numpy as np

from ...ops import functional as F
from ..cell import Cell

__all__ = ["CentralCrop"]


def _start(size, fraction):
    return int((float(size) - float(np.float32(size * fraction))) / 2)


class CentralCrop(Cell):
    """CentralCrop(central_fraction): ``construct(image)`` returns its central crop."""

    def __init__(self, central_fraction):
        super().__init__()
        if not isinstance(central_fraction, float):
            raise TypeError(f"For 'CentralCrop', the type of 'central_fraction' should be "
                            f"'float', but got type '{type(central_fraction).__name__}'.")
        if not 0.0 < central_fraction <= 1.0:
            raise ValueError(f"For 'CentralCrop', the 'central_fraction' must be in range of "
                             f"(0.0, 1.0], but got {central_fraction} with type 'float'.")
        self.central_fraction = central_fraction

    def construct(self, image):
        shape = tuple(image.shape)
        if len(shape) not in (3, 4):
            raise ValueError(f"For 'CentralCrop', the image must be 3d or 4d, but got shape "
                             f"{shape}.")
        if self.central_fraction == 1.0:
            return image
        h, w = shape[-2], shape[-1]
        top, left = _start(h, self.central_fraction), _start(w, self.central_fraction)
        begin = (0,) * (len(shape) - 2) + (top, left)
        size = shape[:-2] + (h - 2 * top, w - 2 * left)
        return F.slice(image, begin, size)
