"""What every vision operation shares: image conversion, enums, the random generator."""
import enum

import numpy as np

from .. import config

__all__ = ["Inter", "Border", "ConvertMode", "ImageBatchFormat", "as_image", "rng",
           "check_size", "ImageOp"]


class Inter(enum.Enum):
    NEAREST = "nearest"
    LINEAR = "linear"
    BILINEAR = "linear"
    CUBIC = "cubic"
    BICUBIC = "cubic"
    AREA = "area"
    PILCUBIC = "pilcubic"
    ANTIALIAS = "antialias"


class Border(enum.Enum):
    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


class ConvertMode(enum.Enum):
    COLOR_RGB2GRAY = "rgb2gray"
    COLOR_RGB2BGR = "rgb2bgr"
    COLOR_BGR2RGB = "bgr2rgb"
    COLOR_GRAY2RGB = "gray2rgb"
    COLOR_RGB2RGBA = "rgb2rgba"
    COLOR_RGBA2RGB = "rgba2rgb"


class ImageBatchFormat(enum.Enum):
    NHWC = 0
    NCHW = 1


def rng():
    """The generator random operations draw from (see ``refms.dataset.config.random_generator``)."""
    return config.random_generator()


def as_image(image, op, min_dims=2):
    """An image as a numpy array (PIL images and Tensors accepted); 2-D images get a channel axis."""
    if hasattr(image, "asnumpy"):
        image = image.asnumpy()
    elif type(image).__module__.startswith("PIL"):
        image = np.asarray(image)
    image = np.asarray(image)
    if image.dtype == object or image.ndim < min_dims or image.ndim > 3:
        raise RuntimeError(f"{op}: the input image must be a numpy array of shape <H, W> or "
                           f"<H, W, C>, but got shape {list(image.shape)} and dtype {image.dtype}.")
    return image


def check_size(size, op, name="size"):
    """``size`` as (height, width) or a single int (kept as int)."""
    if isinstance(size, (int, np.integer)) and not isinstance(size, bool):
        if size <= 0:
            raise ValueError(f"For '{op}', the '{name}' must be positive, but got {size}.")
        return int(size)
    if isinstance(size, (list, tuple)) and len(size) == 2 and \
            all(isinstance(s, (int, np.integer)) and not isinstance(s, bool) and s > 0
                for s in size):
        return (int(size[0]), int(size[1]))
    raise TypeError(f"For '{op}', the '{name}' must be a positive int or a (height, width) pair, "
                    f"but got {size!r}.")


class ImageOp:
    """Base of the vision operations: ``op(image)`` runs ``apply`` on one HWC image."""

    def __call__(self, *images):
        if len(images) != 1:
            raise TypeError(f"{type(self).__name__}: expected one image, got {len(images)} inputs.")
        image = as_image(images[0], type(self).__name__)
        squeeze = image.ndim == 2
        out = self.apply(image[..., None] if squeeze else image)
        return out[..., 0] if squeeze and out.ndim == 3 and out.shape[-1] == 1 else out

    def apply(self, image):
        raise NotImplementedError
