"""Image-quality metrics as Cells: ``nn.PSNR`` and ``nn.SSIM`` (MindSpore 2.10 ``nn.layer.image``).

Both take two (N, C, H, W) batches of one dtype and shape and return one value per image.
Integer images are first scaled to [0, 1] by their dtype's maximum (and ``max_val`` with
them); float images are cast to Float32.

    PSNR = 10 · log10(max_val² / MSE),   MSE over (C, H, W);
    SSIM = mean over (C, H, W) of  (2μ₁μ₂ + c₁)(2σ₁₂ + c₂) / ((μ₁² + μ₂² + c₁)(σ₁² + σ₂² + c₂)),

c₁ = (k₁·max_val)², c₂ = (k₂·max_val)², the local means μ, variances σ² = E[x²] − μ² and
covariance σ₁₂ taken with a ``filter_size`` Gaussian window of ``filter_sigma`` without
padding, channel by channel (Wang et al., "Image quality assessment: from error visibility
to structural similarity", IEEE TIP 2004).
"""
import math

import numpy as np

from ... import dtype as mstype
from ..._tensor import Tensor
from ...ops import functional as F
from ...ops.prims.conv import Conv2D
from ..cell import Cell

__all__ = ["PSNR", "SSIM", "gaussian_window"]


def _check_max_val(name, max_val):
    if isinstance(max_val, bool) or not isinstance(max_val, (int, float)):
        raise TypeError(f"For '{name}', the 'max_val' must be int or float, but got "
                        f"{type(max_val).__name__}.")
    if max_val <= 0:
        raise ValueError(f"For '{name}', the 'max_val' must be greater than 0, but got "
                         f"{max_val}.")


def _check_pair(name, img1, img2, float_only=False):
    for arg, img in (("img1", img1), ("img2", img2)):
        if not isinstance(img, Tensor):
            raise TypeError(f"For '{name}', the '{arg}' must be a Tensor, but got "
                            f"{type(img).__name__}.")
        if len(img.shape) != 4:
            raise ValueError(f"For '{name}', the dimension of '{arg}' must be 4d, but got "
                             f"{len(img.shape)}.")
    if float_only and img1.dtype not in (mstype.float16, mstype.float32):
        raise TypeError(f"For '{name}', the 'img1' must be Float16 or Float32, but got "
                        f"{img1.dtype}.")
    if img1.dtype != img2.dtype:
        raise TypeError(f"For '{name}', the 'img1' and 'img2' must have one dtype, but got "
                        f"{img1.dtype} and {img2.dtype}.")
    if tuple(img1.shape) != tuple(img2.shape):
        raise ValueError(f"For '{name}', the 'img1' and 'img2' must have one shape, but got "
                         f"{tuple(img1.shape)} and {tuple(img2.shape)}.")


def _to_unit_float32(img, max_val):
    """Images (and max_val) in Float32, integer images scaled by their dtype's maximum."""
    dtype_max = 1.0
    if mstype.is_int(img.dtype):
        dtype_max = float(np.iinfo(mstype.dtype_to_nptype(img.dtype)).max)
    img = F.cast(img, mstype.float32)
    if dtype_max > 1.0:
        return img * (1.0 / dtype_max), max_val / dtype_max
    return img, max_val


class PSNR(Cell):
    """Peak signal-to-noise ratio in dB of each image pair: ``PSNR(max_val=1.0)(img1, img2)`` gives shape (N,)."""

    def __init__(self, max_val=1.0):
        super().__init__()
        _check_max_val("PSNR", max_val)
        self.max_val = max_val

    def construct(self, img1, img2):
        _check_pair("PSNR", img1, img2)
        img1, max_val = _to_unit_float32(img1, self.max_val)
        img2, _ = _to_unit_float32(img2, self.max_val)
        mse = F.reduce_mean(F.square(img1 - img2), (-3, -2, -1))
        peak = float(np.float32(max_val) * np.float32(max_val))
        return 10.0 * F.log(peak / mse) / math.log(10.0)


def gaussian_window(size, sigma):
    """The (1, 1, size, size) normalised Gaussian, in Float32 as MindSpore builds it."""
    y, x = np.mgrid[-size // 2 + 1:size // 2 + 1, -size // 2 + 1:size // 2 + 1]
    squared = x.astype(np.float32) ** 2 + y.astype(np.float32) ** 2
    g = np.exp(-squared / np.float32(2 * sigma ** 2))
    return (g / np.sum(g))[None, None].astype(np.float32)


class SSIM(Cell):
    """Structural similarity of each image pair:
    ``SSIM(max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03)(img1, img2)`` gives
    shape (N,)."""

    def __init__(self, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03):
        super().__init__()
        _check_max_val("SSIM", max_val)
        if isinstance(filter_size, bool) or not isinstance(filter_size, int):
            raise TypeError(f"For 'SSIM', the 'filter_size' must be int, but got "
                            f"{type(filter_size).__name__}.")
        if filter_size < 1:
            raise ValueError(f"For 'SSIM', the 'filter_size' must be >= 1, but got "
                             f"{filter_size}.")
        if isinstance(filter_sigma, bool) or not isinstance(filter_sigma, float):
            raise TypeError(f"For 'SSIM', the 'filter_sigma' must be float, but got "
                            f"{type(filter_sigma).__name__}.")
        if filter_sigma <= 0:
            raise ValueError(f"For 'SSIM', the 'filter_sigma' must be positive, but got "
                             f"{filter_sigma}.")
        for name, value in (("k1", k1), ("k2", k2)):
            if not isinstance(value, float):
                raise TypeError(f"For 'SSIM', the '{name}' must be float, but got "
                                f"{type(value).__name__}.")
        self.max_val, self.filter_size, self.filter_sigma = max_val, filter_size, filter_sigma
        self.k1, self.k2 = k1, k2
        self.window = Tensor(gaussian_window(filter_size, filter_sigma))
        self.conv = Conv2D(out_channel=1, kernel_size=filter_size, pad_mode="valid")

    def construct(self, img1, img2):
        _check_pair("SSIM", img1, img2, float_only=True)
        n, c, h, w = img1.shape
        if h < self.filter_size or w < self.filter_size:
            raise ValueError(f"For 'SSIM', the 'img1' height and width must be >= filter_size "
                             f"{self.filter_size}, but got shape {tuple(img1.shape)}.")
        img1, max_val = _to_unit_float32(img1, self.max_val)
        img2, _ = _to_unit_float32(img2, self.max_val)
        c1 = (self.k1 * max_val) ** 2
        c2 = (self.k2 * max_val) ** 2
        x = F.reshape(img1, (n * c, 1, h, w))            # channel by channel
        y = F.reshape(img2, (n * c, 1, h, w))
        mu1, mu2 = self.conv(x, self.window), self.conv(y, self.window)
        sigma1 = self.conv(x * x, self.window) - mu1 * mu1
        sigma2 = self.conv(y * y, self.window) - mu2 * mu2
        sigma12 = self.conv(x * y, self.window) - mu1 * mu2
        ssim = ((2 * mu1 * mu2 + c1) * (2 * sigma12 + c2)) / (
            (mu1 * mu1 + mu2 * mu2 + c1) * (sigma1 + sigma2 + c2))
        per_channel = F.reduce_mean(F.reshape(ssim, (n, c, -1)), 2)
        return F.reduce_mean(per_channel, -1)
