"""``SlicePatches``: an (H, W[, C]) image cut into ``num_height × num_width`` equal patches.

Patch size ``⌈H / num_height⌉ × ⌈W / num_width⌉`` with the image first padded at the bottom
and right with ``fill_value`` (``SliceMode.PAD``), or ``⌊H / num_height⌋ × ⌊W / num_width⌋``
with the remaining bottom rows and right columns dropped (``SliceMode.DROP``).  The patches
come row by row: patch ``i·num_width + j`` is rows ``i·h …`` and columns ``j·w …``; one
patch is returned as the array itself, several as a tuple (MindSpore's eager call).
"""
import enum

import numpy as np

from .base import as_image

__all__ = ["SliceMode", "SlicePatches"]


class SliceMode(enum.IntEnum):
    """How SlicePatches makes the image divisible: pad it or drop the rest."""
    PAD = 0
    DROP = 1


def _positive_int(value, name):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For 'SlicePatches', the '{name}' must be int, but got "
                        f"{type(value).__name__}.")
    if value <= 0:
        raise ValueError(f"For 'SlicePatches', the '{name}' must be positive, but got {value}.")
    return value


class SlicePatches:
    """SlicePatches(num_height=1, num_width=1, slice_mode=SliceMode.PAD, fill_value=0)"""

    def __init__(self, num_height=1, num_width=1, slice_mode=SliceMode.PAD, fill_value=0):
        self.num_height = _positive_int(num_height, "num_height")
        self.num_width = _positive_int(num_width, "num_width")
        if not isinstance(slice_mode, SliceMode):
            raise TypeError(f"For 'SlicePatches', the 'slice_mode' must be a vision.SliceMode, "
                            f"but got {slice_mode!r}.")
        if isinstance(fill_value, bool) or not isinstance(fill_value, int):
            raise TypeError(f"For 'SlicePatches', the 'fill_value' must be int, but got "
                            f"{type(fill_value).__name__}.")
        if not 0 <= fill_value <= 255:
            raise ValueError(f"For 'SlicePatches', the 'fill_value' must be in [0, 255], but "
                             f"got {fill_value}.")
        self.slice_mode, self.fill_value = slice_mode, fill_value

    def __call__(self, image):
        image = as_image(image, "SlicePatches")
        h, w = image.shape[:2]
        if self.slice_mode == SliceMode.PAD:
            ph, pw = -(-h // self.num_height), -(-w // self.num_width)
            pad = [(0, ph * self.num_height - h), (0, pw * self.num_width - w)]
            pad += [(0, 0)] * (image.ndim - 2)
            image = np.pad(image, pad, constant_values=self.fill_value)
        else:
            ph, pw = h // self.num_height, w // self.num_width
        patches = tuple(image[i * ph:(i + 1) * ph, j * pw:(j + 1) * pw].copy()
                        for i in range(self.num_height) for j in range(self.num_width))
        return patches[0] if len(patches) == 1 else patches     # as MindSpore's eager call
