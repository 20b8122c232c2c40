"""Erasing and mixing: ``CutOut`` on one image; ``MixUpBatch`` and ``CutMixBatch`` on a batch.

``CutOut(length, num_patches)`` zeroes ``num_patches`` squares of side
``length`` at random positions (clipped at the border).  The batch operations
take (images, one-hot labels) of a whole batch (use them in ``batch``'s
``per_batch_map`` or in a ``map`` after ``batch``):

* MixUpBatch(α): λ ~ Beta(α, α); images ← λ·x + (1 − λ)·x[perm], labels likewise.
* CutMixBatch(format, α, prob): with probability ``prob`` paste a box of area
  fraction 1 − λ from x[perm] into each image; labels mix by the pasted area.
"""
import numpy as np

from .base import ImageOp, ImageBatchFormat, as_image, rng

__all__ = ["CutOut", "MixUpBatch", "CutMixBatch"]


class CutOut(ImageOp):
    """CutOut(length, num_patches=1, is_hwc=True)"""

    def __init__(self, length, num_patches=1, is_hwc=True):
        if length <= 0 or num_patches <= 0:
            raise ValueError("For 'CutOut', 'length' and 'num_patches' must be positive.")
        self.length, self.num_patches, self.is_hwc = length, num_patches, is_hwc

    def __call__(self, image):
        image = as_image(image, "CutOut").copy()
        view = image if self.is_hwc else np.moveaxis(image, 0, -1)
        h, w = view.shape[:2]
        generator = rng()
        for _ in range(self.num_patches):
            top = int(generator.integers(0, max(h - self.length, 0) + 1))
            left = int(generator.integers(0, max(w - self.length, 0) + 1))
            view[top:top + self.length, left:left + self.length] = 0
        return image


def _check_batch(images, labels, op):
    images, labels = np.asarray(images), np.asarray(labels)
    if images.ndim != 4:
        raise RuntimeError(f"{op}: the images must be a batch of shape <N, H, W, C> or "
                           f"<N, C, H, W>, but got {list(images.shape)}.")
    if labels.ndim not in (2, 3) or labels.shape[0] != images.shape[0]:
        # MindSpore 2.10 also takes several one-hot labels per image, <N, n, num_classes>
        raise RuntimeError(f"{op}: the labels must be one-hot of shape <N, num_classes> or "
                           f"<N, n, num_classes>, but got {list(labels.shape)}.")
    return images, labels


class MixUpBatch:
    """MixUpBatch(alpha=1.0)"""

    def __init__(self, alpha=1.0):
        if alpha <= 0:
            raise ValueError(f"For 'MixUpBatch', the 'alpha' must be positive, but got {alpha}.")
        self.alpha = alpha

    def __call__(self, images, labels):
        images, labels = _check_batch(images, labels, "MixUpBatch")
        generator = rng()
        lam = float(generator.beta(self.alpha, self.alpha))
        perm = generator.permutation(len(images))
        mixed = lam * images.astype(np.float32) + (1 - lam) * images[perm].astype(np.float32)
        out_labels = (lam * labels + (1 - lam) * labels[perm]).astype(np.float32)
        if images.dtype == np.uint8:
            mixed = np.clip(np.rint(mixed), 0, 255)
        return mixed.astype(images.dtype), out_labels


class CutMixBatch:
    """CutMixBatch(image_batch_format, alpha=1.0, prob=1.0)"""

    def __init__(self, image_batch_format=ImageBatchFormat.NHWC, alpha=1.0, prob=1.0):
        self.format, self.alpha, self.prob = image_batch_format, alpha, prob

    def __call__(self, images, labels):
        images, labels = _check_batch(images, labels, "CutMixBatch")
        images = images.copy()
        out_labels = labels.astype(np.float32).copy()
        nhwc = self.format == ImageBatchFormat.NHWC
        h, w = (images.shape[1], images.shape[2]) if nhwc else (images.shape[2], images.shape[3])
        generator = rng()
        perm = generator.permutation(len(images))
        source = images.copy()
        for i in range(len(images)):
            if generator.random() >= self.prob:
                continue
            lam = float(generator.beta(self.alpha, self.alpha))
            ch, cw = int(h * np.sqrt(1 - lam)), int(w * np.sqrt(1 - lam))
            cy, cx = int(generator.integers(0, h)), int(generator.integers(0, w))
            top, bottom = max(cy - ch // 2, 0), min(cy + ch // 2, h)
            left, right = max(cx - cw // 2, 0), min(cx + cw // 2, w)
            j = perm[i]
            if nhwc:
                images[i, top:bottom, left:right] = source[j, top:bottom, left:right]
            else:
                images[i, :, top:bottom, left:right] = source[j, :, top:bottom, left:right]
            kept = 1 - (bottom - top) * (right - left) / (h * w)
            out_labels[i] = kept * labels[i] + (1 - kept) * labels[j]
        return images, out_labels
