"""float32 fused multiply-add, rounded once: what OpenCV's vector code computes.

MindSpore's colour kernels run OpenCV's AVX2 code, built with FMA: ``a·b + c``
there is one instruction that rounds the exact result to float32 once, where
numpy would round the product and then the sum.  The two differ in the last
bit often enough to move a pixel by a level after rounding, so the kernels
that must match bit for bit (:mod:`.hsv`, the blends of :mod:`.color`) use
``fma32``.

How it is exact with numpy: the product of two float32 values has at most 48
significant bits, so it is exact in float64.  The float64 sum ``hi`` = p + c
has a rounding error ``lo`` that TwoSum recovers exactly (hi + lo = p + c).
Rounding ``hi`` to float32 is the correct rounding of p + c, unless ``hi`` lies
exactly half-way between two float32 values; there the sign of ``lo`` says on
which side the exact sum lies.
"""
import numpy as np

__all__ = ["fma32"]


def fma32(a, b, c):
    """float32(a·b + c) with a single rounding (half to even), elementwise."""
    p = np.asarray(a, np.float32).astype(np.float64) * np.asarray(b, np.float32)
    c = np.asarray(c, np.float32).astype(np.float64)
    hi = p + c
    back = hi - p                                      # TwoSum (Knuth): hi + lo == p + c
    lo = (p - (hi - back)) + (c - back)
    rounded = hi.astype(np.float32)
    below = np.nextafter(rounded, np.float32(-np.inf))
    above = np.nextafter(rounded, np.float32(np.inf))
    tie_below = (rounded.astype(np.float64) + below) / 2 == hi       # hi was rounded up
    tie_above = (rounded.astype(np.float64) + above) / 2 == hi       # hi was rounded down
    rounded = np.where(tie_below & (lo < 0), below, rounded)
    return np.where(tie_above & (lo > 0), above, rounded).astype(np.float32)
