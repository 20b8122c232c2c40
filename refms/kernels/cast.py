"""Reference conversion kernels (numpy).

Contract::

    cast(x, np_dtype)       -> x converted (NaN/inf to int give what the C cast gives, silently)
    round_to_bfloat16(x)    -> float32 array holding x rounded to the nearest bfloat16
    copy(x)                 -> a new array equal to x
"""
import numpy as np

from . import reference


@reference
def cast(x, np_dtype):
    """x as ``np_dtype``."""
    with np.errstate(invalid="ignore", over="ignore"):
        return x.astype(np_dtype)


@reference
def round_to_bfloat16(x):
    """Round to the nearest bfloat16 (round half to even on the 16 dropped bits of float32)."""
    a = np.ascontiguousarray(x, dtype=np.float32).reshape(np.shape(x))
    bits = a.view(np.uint32).astype(np.uint64)
    rounding = ((bits >> 16) & 1) + 0x7FFF
    rounded = ((bits + rounding) >> 16) << 16
    out = rounded.astype(np.uint32).view(np.float32)
    return np.where(np.isnan(a), a, out).reshape(a.shape)


@reference
def copy(x):
    """A copy of x."""
    return np.array(x, copy=True)
