"""Hue adjustment through 8-bit HSV, bit for bit as MindSpore's CPU kernel computes it.

MindSpore's ``AdjustHue`` (and the hue step of ``RandomColorAdjust``) converts
the uint8 RGB image with OpenCV's ``RGB2HSV_FULL``, adds ``⌊hue · 255⌋`` to the
hue byte (wrapping mod 256) and converts back with ``HSV2RGB_FULL``.  Three
details of OpenCV's 8-bit code decide the output bytes:

1. **RGB → HSV** is integer arithmetic.  With v = max(R, G, B), d = v − min::

       s = (d · ⌊255·2¹² / v⌉ + 2¹¹) ≫ 12
       h = (h₀ · ⌊256·2¹² / (6d)⌉ + 2¹¹) ≫ 12   (+256 when negative)

   where h₀ is G − B (v = R), B − R + 2d (v = G) or R − G + 4d, so the hue
   covers [0, 256).
2. **HSV → RGB reads the hue with a range of 255, not 256** (OpenCV passes
   hrange = 255 to the 8-bit "FULL" inverse): the sector position is
   h · 6/255 in float32, so a round trip with no shift already moves some
   pixels by a level or more.
3. **1 − S·f is one fused multiply-add** (OpenCV's AVX2 code is built with
   FMA and the compiler contracts the multiply and the subtraction): a single
   rounding to float32, not two (:mod:`.fma`).
4. **The float result is truncated on the SIMD path and rounded on the scalar
   tail.**  Each image row is converted in blocks of 32 pixels (8 float32
   lanes × 4, OpenCV's AVX2 code, which x86-64 machines dispatch to) whose
   channels are ``trunc(x · 255)``; the last ``W mod 32`` pixels of the row go
   through the scalar loop, ``round(x · 255)`` (half to even).

Checked against MindSpore 2.10 on an x86-64 (AVX2) machine; an ARM build of
OpenCV (4 float lanes) would truncate blocks of 16 instead.
"""
import numpy as np

from .fma import fma32

__all__ = ["rgb_to_hsv_full", "hsv_full_to_rgb", "adjust_hue"]

_HSV_SHIFT = 12          # OpenCV's fixed-point scale for the divisions, 2¹²
_SIMD_BLOCK = 32         # pixels per vector iteration of OpenCV's HSV → RGB (AVX2)
# the tab index (v, p, q, t below) giving B, G, R in each of the six hue sectors
_SECTOR_TABS = np.array([[1, 3, 0], [1, 0, 2], [3, 0, 1], [0, 2, 1], [0, 1, 3], [2, 1, 0]])


def rgb_to_hsv_full(image):
    """uint8 RGB (…, 3) → (h, s, v) int64 arrays, hue in [0, 256), OpenCV's fixed point."""
    x = image.astype(np.int64)
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    v = x.max(-1)
    diff = v - x.min(-1)
    steps = np.arange(1, 256, dtype=np.float64)
    sdiv = np.concatenate([[0], np.rint((255 << _HSV_SHIFT) / steps)]).astype(np.int64)
    hdiv = np.concatenate([[0], np.rint((256 << _HSV_SHIFT) / (6.0 * steps))]).astype(np.int64)
    half = 1 << (_HSV_SHIFT - 1)
    s = (diff * sdiv[v] + half) >> _HSV_SHIFT
    h = np.where(v == r, g - b, np.where(v == g, b - r + 2 * diff, r - g + 4 * diff))
    h = (h * hdiv[diff] + half) >> _HSV_SHIFT
    return np.clip(np.where(h < 0, h + 256, h), 0, 255), s, v


def hsv_full_to_rgb(h, s, v):
    """(h, s, v) bytes of an (H, W) image → uint8 RGB (H, W, 3), as OpenCV's HSV2RGB_FULL.

    In float32: H' = h · 6/255, sector k = ⌊H'⌋ mod 6, f = H' − ⌊H'⌋, S = s/255,
    V = v/255; the tabs are V, p = V(1 − S), q = V(1 − S·f), t = V(1 − S(1 − f))
    (the brackets of q and t rounded once, ``fma32``),
    and sector k picks (B, G, R) from them (``_SECTOR_TABS``).
    """
    hue = h.astype(np.float32) * np.float32(6.0 / 255)
    sat = s.astype(np.float32) * np.float32(1.0 / 255)
    val = v.astype(np.float32) * np.float32(1.0 / 255)
    whole = np.floor(hue)
    f = hue - whole
    one = np.float32(1)
    tabs = np.stack([val, val * (one - sat), val * fma32(-sat, f, one),
                     val * fma32(-sat, one - f, one)], axis=-1)
    picks = _SECTOR_TABS[whole.astype(np.int64) % 6]
    bgr = np.take_along_axis(tabs, picks, axis=-1) * np.float32(255)
    rgb = bgr[..., ::-1]
    width = rgb.shape[1]
    vector = (width // _SIMD_BLOCK) * _SIMD_BLOCK
    out = np.rint(rgb)
    out[:, :vector] = np.trunc(rgb[:, :vector])
    return np.clip(out, 0, 255).astype(np.uint8)


def adjust_hue(image, factor):
    """Shift the hue of a uint8 RGB (H, W, 3) image by ``factor`` ∈ [−0.5, 0.5] of a turn.

    The shift is the float32 product factor · 255 truncated toward zero, added to
    the hue byte mod 256 (MindSpore casts it to uint8).
    """
    shift = int(np.float32(factor) * np.float32(255))
    h, s, v = rgb_to_hsv_full(image)
    return hsv_full_to_rgb((h + shift) % 256, s, v)
