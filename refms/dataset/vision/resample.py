"""Image resampling as MindSpore's CPU kernels do it (they call OpenCV's ``cv::resize``).

Output pixel (y, x) of a resize from (h, w) to (H, W) samples the source at the
half-pixel-centred position::

    u = (x + 0.5) · w / W − 0.5          (in float32, as OpenCV computes it)

* **nearest**: source column ⌊x · w / W⌋ (no half-pixel shift), clamped.
* **linear**: taps ⌊u⌋, ⌊u⌋+1 with weights 1−f, f (f = u − ⌊u⌋); columns are
  clamped with f = 0 at the borders, rows are *not* re-weighted (their tap
  indices are clamped, the weights kept).
* **cubic**: taps ⌊u⌋−1 … ⌊u⌋+2 with Keys' kernel, a = −0.75; tap indices clamped.
* **area** (downscaling): each output pixel averages the source area it covers,
  weighted by overlap; upscaling falls back to linear with OpenCV's area weights.

For uint8 images the weights are fixed-point (× 2048, rounded) and the rows
are combined with the integer arithmetic of OpenCV's x86 SIMD code path:
``(((b0·(S0 ≫ 4)) ≫ 16) + ((b1·(S1 ≫ 4)) ≫ 16) + 2) ≫ 2`` for linear — the
same bytes MindSpore returns (checked against MindSpore 2.10).  Float images
are resampled in float32.
"""
import numpy as np

__all__ = ["resize"]

_SCALE = 2048          # OpenCV's INTER_RESIZE_COEF_SCALE


def _positions(n_in, n_out):
    u = ((np.arange(n_out) + 0.5) * (n_in / n_out) - 0.5).astype(np.float32)
    s = np.floor(u).astype(np.int64)
    return s, (u - s.astype(np.float32)).astype(np.float32)


def _linear_taps(n_in, n_out, clamp_weights):
    s, f = _positions(n_in, n_out)
    if clamp_weights:
        low, high = s < 0, s >= n_in - 1
        f = np.where(low | high, np.float32(0), f)
        s = np.where(low, 0, np.where(high, n_in - 1, s))
    taps = np.stack([np.clip(s, 0, n_in - 1), np.clip(s + 1, 0, n_in - 1)], axis=1)
    weights = np.stack([np.float32(1) - f, f], axis=1).astype(np.float32)
    return taps, weights


def _cubic_weights(f):
    a = np.float32(-0.75)
    x = f.astype(np.float32)
    w0 = ((a * (x + 1) - 5 * a) * (x + 1) + 8 * a) * (x + 1) - 4 * a
    w1 = ((a + 2) * x - (a + 3)) * x * x + 1
    w2 = ((a + 2) * (1 - x) - (a + 3)) * (1 - x) * (1 - x) + 1
    w3 = 1 - w0 - w1 - w2
    return np.stack([w0, w1, w2, w3], axis=1).astype(np.float32)


def _cubic_taps(n_in, n_out):
    s, f = _positions(n_in, n_out)
    taps = np.clip(s[:, None] + np.arange(-1, 3)[None, :], 0, n_in - 1)
    return taps, _cubic_weights(f)


def _area_up_taps(n_in, n_out):
    scale, inv = n_in / n_out, n_out / n_in
    s = np.floor(np.arange(n_out) * scale).astype(np.int64)
    f = ((np.arange(n_out) + 1) - (s + 1) * inv).astype(np.float32)
    f = np.where(f <= 0, np.float32(0), f - np.floor(f)).astype(np.float32)
    taps = np.stack([np.clip(s, 0, n_in - 1), np.clip(s + 1, 0, n_in - 1)], axis=1)
    edge = s >= n_in - 1
    f = np.where(edge, np.float32(0), f)
    return taps, np.stack([np.float32(1) - f, f], axis=1).astype(np.float32)


def _area_down_matrix(n_in, n_out):
    """(n_out, n_in) overlap weights of each output cell with each source pixel."""
    scale = n_in / n_out
    matrix = np.zeros((n_out, n_in), np.float64)
    for i in range(n_out):
        start, end = i * scale, min((i + 1) * scale, n_in)
        first, last = int(np.floor(start)), int(np.ceil(end))
        for j in range(first, last):
            matrix[i, j] = min(end, j + 1) - max(start, j)
        matrix[i] /= end - start
    return matrix


def _fixed(weights):
    return np.rint(weights * np.float32(_SCALE)).astype(np.int64)


def _linear_uint8(image, rows, cols):
    """int32 is wide enough: a row value is at most 255·2048·2, a product 2048·2¹⁶.

    Only the source rows the output uses are read; columns are gathered from the
    uint8 image before widening, and the sums are formed in place.
    """
    (ry, wy), (cx, wx) = rows, cols
    ax, by = _fixed(wx).astype(np.int32), _fixed(wy).astype(np.int32)
    needed = np.unique(ry)                      # only the source rows the output uses
    band = image[needed]
    where = np.searchsorted(needed, ry)
    horizontal = np.take(band, cx[:, 0], axis=1).astype(np.int32)
    horizontal *= ax[None, :, 0, None]
    right = np.take(band, cx[:, 1], axis=1).astype(np.int32)
    right *= ax[None, :, 1, None]
    horizontal += right
    horizontal >>= 4
    out = np.take(horizontal, where[:, 0], axis=0)
    out *= by[:, 0, None, None]
    out >>= 16
    below = np.take(horizontal, where[:, 1], axis=0)
    below *= by[:, 1, None, None]
    below >>= 16
    out += below
    out += 2
    out >>= 2
    return np.clip(out, 0, 255).astype(np.uint8)


def _separable_float(image, rows, cols):
    (ry, wy), (cx, wx) = rows, cols
    src = image.astype(np.float32)
    horizontal = sum(src[:, cx[:, k]] * wx[None, :, k, None] for k in range(cx.shape[1]))
    out = sum(horizontal[ry[:, k]] * wy[:, k, None, None] for k in range(ry.shape[1]))
    return out.astype(np.float32)


def _cubic_uint8(image, rows, cols):
    (ry, wy), (cx, wx) = rows, cols
    src = image.astype(np.int64)
    ax, by = _fixed(wx), _fixed(wy)
    horizontal = sum(src[:, cx[:, k]] * ax[None, :, k, None] for k in range(4))
    scale = np.float32(1.0 / (_SCALE * _SCALE))
    out = np.zeros(horizontal[ry[:, 0]].shape, np.float32)
    for k in range(4):
        out = out + horizontal[ry[:, k]].astype(np.float32) * (by[:, k, None, None]
                                                               .astype(np.float32) * scale)
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


def resize(image, out_h, out_w, mode):
    """Resize an (H, W, C) array to (out_h, out_w, C); ``mode`` is nearest/linear/cubic/area."""
    h, w = image.shape[:2]
    if mode == "nearest":
        ys = np.minimum(np.floor(np.arange(out_h) * (1.0 / (out_h / h))).astype(np.int64), h - 1)
        xs = np.minimum(np.floor(np.arange(out_w) * (1.0 / (out_w / w))).astype(np.int64), w - 1)
        return image[ys][:, xs]
    is_uint8 = image.dtype == np.uint8
    if mode == "area" and (out_h < h or out_w < w) and (out_h <= h and out_w <= w):
        rows, cols = _area_down_matrix(h, out_h), _area_down_matrix(w, out_w)
        out = np.einsum("yi,ijc,xj->yxc", rows, image.astype(np.float64), cols)
        if is_uint8:
            return np.clip(np.rint(out), 0, 255).astype(np.uint8)
        return out.astype(np.float32)
    if mode == "area":
        rows, cols = _area_up_taps(h, out_h), _area_up_taps(w, out_w)
        return _linear_uint8(image, rows, cols) if is_uint8 else \
            _separable_float(image, rows, cols)
    if mode == "cubic":
        rows, cols = _cubic_taps(h, out_h), _cubic_taps(w, out_w)
        return _cubic_uint8(image, rows, cols) if is_uint8 else \
            _separable_float(image, rows, cols)
    rows, cols = _linear_taps(h, out_h, False), _linear_taps(w, out_w, True)
    return _linear_uint8(image, rows, cols) if is_uint8 else _separable_float(image, rows, cols)
