"""Affine warps (rotation, affine) as OpenCV's ``cv::warpAffine``, which MindSpore calls.

``warp_affine(image, M, (H, W), mode, fill)`` maps each output pixel (x, y) to
the source point ``M⁻¹ · (x, y, 1)`` (M is the forward 2×3 matrix) and samples
it.  Coordinates are fixed-point, as OpenCV computes them: the matrix terms are
scaled by 2¹⁰ and rounded per row and per column, then cut to 1/32 pixel for
bilinear sampling (nearest rounds to the closest pixel).  Bilinear weights for
each 1/32 sub-pixel step are 15-bit fixed-point, rounded so they sum to 2¹⁵.
Points outside the source take ``fill``.
"""
import numpy as np

__all__ = ["warp_affine", "rotation_matrix", "invert_affine"]

_AB_BITS, _INTER_BITS = 10, 5
_AB_SCALE, _TAB = 1 << _AB_BITS, 1 << _INTER_BITS


def rotation_matrix(center, degrees, scale=1.0):
    """OpenCV's getRotationMatrix2D: rotate by ``degrees`` counter-clockwise about ``center``."""
    angle = np.deg2rad(degrees)
    alpha, beta = np.cos(angle) * scale, np.sin(angle) * scale
    cx, cy = center
    return np.array([[alpha, beta, (1 - alpha) * cx - beta * cy],
                     [-beta, alpha, beta * cx + (1 - alpha) * cy]])


def invert_affine(m):
    d = m[0, 0] * m[1, 1] - m[0, 1] * m[1, 0]
    d = 1.0 / d if d != 0 else 0.0
    a11, a22 = m[1, 1] * d, m[0, 0] * d
    a12, a21 = -m[0, 1] * d, -m[1, 0] * d
    b1 = -a11 * m[0, 2] - a12 * m[1, 2]
    b2 = -a21 * m[0, 2] - a22 * m[1, 2]
    return np.array([[a11, a12, b1], [a21, a22, b2]])


def _round(values):
    return np.rint(values).astype(np.int64)      # OpenCV's saturate_cast<int> (half to even)


def _bilinear_table():
    """Fixed-point (×2¹⁵) weights for each of the 32×32 sub-pixel offsets (OpenCV's table).

    Rounding can leave the four weights summing to 2¹⁵ ± 1; the difference goes to
    the largest weight (sum too small) or comes off the smallest (sum too large).
    """
    steps = (np.arange(_TAB) / np.float32(_TAB)).astype(np.float32)
    one_d = np.stack([np.float32(1) - steps, steps], axis=1).astype(np.float32)   # (32, 2)
    table = np.empty((_TAB, _TAB, 4), np.int64)
    for iy in range(_TAB):
        for ix in range(_TAB):
            w = np.outer(one_d[iy], one_d[ix]).astype(np.float32).reshape(-1)
            fixed = _round(w * np.float32(1 << 15))
            diff = int(fixed.sum()) - (1 << 15)
            if diff:
                low = high = 0
                for k in range(4):
                    if fixed[k] < fixed[low]:
                        low = k
                    elif fixed[k] > fixed[high]:
                        high = k
                fixed[high if diff < 0 else low] -= diff
            table[iy, ix] = fixed
    return table


_TABLE = None


def warp_affine(image, matrix, out_size, mode="nearest", fill=0, inverse=False):
    """Warp an (H, W, C) image by the 2×3 ``matrix`` into ``out_size`` = (H', W')."""
    global _TABLE
    m = np.asarray(matrix, np.float64) if inverse else invert_affine(np.asarray(matrix,
                                                                                np.float64))
    out_h, out_w = out_size
    h, w = image.shape[:2]
    xs, ys = np.arange(out_w), np.arange(out_h)
    adelta = _round(m[0, 0] * xs * _AB_SCALE)
    bdelta = _round(m[1, 0] * xs * _AB_SCALE)
    if mode == "nearest":
        round_delta = _AB_SCALE // 2
        x0 = _round((m[0, 1] * ys + m[0, 2]) * _AB_SCALE) + round_delta
        y0 = _round((m[1, 1] * ys + m[1, 2]) * _AB_SCALE) + round_delta
        sx = (x0[:, None] + adelta[None, :]) >> _AB_BITS
        sy = (y0[:, None] + bdelta[None, :]) >> _AB_BITS
        inside = (sx >= 0) & (sx < w) & (sy >= 0) & (sy < h)
        out = image[np.clip(sy, 0, h - 1), np.clip(sx, 0, w - 1)]
        out[~inside] = fill
        return out
    round_delta = _AB_SCALE // _TAB // 2
    x0 = _round((m[0, 1] * ys + m[0, 2]) * _AB_SCALE) + round_delta
    y0 = _round((m[1, 1] * ys + m[1, 2]) * _AB_SCALE) + round_delta
    fx = (x0[:, None] + adelta[None, :]) >> (_AB_BITS - _INTER_BITS)
    fy = (y0[:, None] + bdelta[None, :]) >> (_AB_BITS - _INTER_BITS)
    sx, sy = fx >> _INTER_BITS, fy >> _INTER_BITS
    ax, ay = fx & (_TAB - 1), fy & (_TAB - 1)
    src = image.astype(np.int64) if image.dtype == np.uint8 else image.astype(np.float32)
    fill_value = np.asarray(fill, src.dtype)

    def tap(dy, dx):
        yy, xx = sy + dy, sx + dx
        inside = (xx >= 0) & (xx < w) & (yy >= 0) & (yy < h)
        values = src[np.clip(yy, 0, h - 1), np.clip(xx, 0, w - 1)]
        return np.where(inside[..., None], values, fill_value)

    taps = [tap(0, 0), tap(0, 1), tap(1, 0), tap(1, 1)]
    if image.dtype == np.uint8:
        if _TABLE is None:
            _TABLE = _bilinear_table()
        weights = _TABLE[ay, ax]
        total = sum(t * weights[..., k, None] for k, t in enumerate(taps))
        return np.clip((total + (1 << 14)) >> 15, 0, 255).astype(np.uint8)
    wx, wy = (ax / _TAB).astype(np.float32)[..., None], (ay / _TAB).astype(np.float32)[..., None]
    out = (taps[0] * (1 - wx) + taps[1] * wx) * (1 - wy) + (taps[2] * (1 - wx) + taps[3] * wx) * wy
    return out.astype(image.dtype)
