"""``refms.dataset.vision``: image operations (mirrors ``mindspore.dataset.vision``).

Images are (H, W, C) numpy arrays (PIL images are accepted and converted).
Every operation is a callable object usable in ``Dataset.map`` and eagerly on
one image (``vision.Resize((32, 32))(image)``).  Reading order:
:mod:`.base` (enums, conversion), :mod:`.resample` and :mod:`.warp` (how pixels
are interpolated — OpenCV's arithmetic, which MindSpore's kernels use),
:mod:`.geometry`, :mod:`.color` (with :mod:`.hsv`), :mod:`.enhance`, :mod:`.levels`, :mod:`.decode`,
:mod:`.erase`, :mod:`.patches`, :mod:`.policy`.  Random
operations draw from the pipeline's per-row generator (see
``refms.dataset.config.random_generator``).
"""
from .base import Inter, Border, ConvertMode, ImageBatchFormat
from .geometry import (Resize, RandomResize, CenterCrop, Crop, Pad, HorizontalFlip, VerticalFlip,
                       RandomHorizontalFlip, RandomVerticalFlip, RandomCrop, RandomResizedCrop,
                       Rotate, RandomRotation, RandomAffine)
from .color import (Rescale, Normalize, HWC2CHW, ToTensor, ToPIL, ConvertColor, Grayscale, Invert,
                    Equalize, AutoContrast, AdjustBrightness, AdjustContrast, AdjustSaturation,
                    AdjustHue, RandomColorAdjust)
from .levels import Posterize, RandomPosterize, Solarize, RandomSolarize
from .decode import Decode, RandomCropDecodeResize
from .erase import CutOut, MixUpBatch, CutMixBatch
from .enhance import RandomColor, RandomSharpness
from .patches import SliceMode, SlicePatches
from .policy import RandomSelectSubpolicy

__all__ = ["Inter", "Border", "ConvertMode", "ImageBatchFormat", "Resize", "CenterCrop", "Crop",
           "Pad", "HorizontalFlip", "VerticalFlip", "RandomHorizontalFlip", "RandomVerticalFlip",
           "RandomCrop", "RandomResizedCrop", "Rotate", "RandomRotation", "RandomAffine", "Rescale",
           "Normalize", "HWC2CHW", "ToTensor", "ToPIL", "ConvertColor", "Grayscale", "Invert",
           "Equalize", "AutoContrast", "AdjustBrightness", "AdjustContrast", "AdjustSaturation",
           "AdjustHue", "RandomColorAdjust", "Decode", "RandomCropDecodeResize",
           "CutOut", "MixUpBatch", "CutMixBatch", "Posterize", "RandomPosterize", "Solarize",
           "RandomSolarize", "RandomResize", "RandomColor", "RandomSharpness", "SliceMode",
           "SlicePatches", "RandomSelectSubpolicy"]
