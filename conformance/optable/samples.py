"""Input builders shared by the rows modules: random samples, fixed arrays, and both combined.

A row's ``inputs`` is a list of arrays or a function ``make(rng) -> list``;
these helpers build such functions (``randn((2, 3), (3,))``) and the small
fixed arrays rows pass as indices, masks and labels (``i32([0, 2])``).
"""
import numpy as np

__all__ = ["randn", "with_constants", "constants_then", "f32", "f64", "i32", "i64", "bools"]


def randn(*shapes, dtype=np.float32):
    """Standard-normal samples of the given shapes."""
    def make(rng):
        return [rng.standard_normal(shape).astype(dtype) for shape in shapes]
    return make


def with_constants(make, *constants):
    """Samples from ``make`` followed by fixed inputs (indices, masks, labels, Python values)."""
    def sample(rng):
        return make(rng) + list(constants)
    return sample


def constants_then(make, *constants):
    """Fixed inputs followed by samples from ``make``."""
    def sample(rng):
        return list(constants) + make(rng)
    return sample


def f32(values):
    return np.array(values, dtype=np.float32)


def f64(values):
    return np.array(values, dtype=np.float64)


def i32(values):
    return np.array(values, dtype=np.int32)


def i64(values):
    return np.array(values, dtype=np.int64)


def bools(values):
    return np.array(values, dtype=np.bool_)
