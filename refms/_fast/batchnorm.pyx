# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Fast twins of :mod:`refms.kernels.batchnorm`: per-channel statistics and normalisation.

Contract (the reference's; x is (N, C), (N, C, H) or (N, C, H, W), per-channel
arrays have shape (C,))::

    batch_norm_statistics(x)                            -> (mean, biased variance)
    batch_norm(x, scale, bias, mean, variance, epsilon) -> y

Statistics in one pass.  x is viewed as (N, C, S) (S = H·W); each channel
is one OpenMP task (``prange``) that reads its N·S values once and
accumulates, in float64, the *shifted* sums Σ(x − K) and Σ(x − K)² with K
the channel's first value, then

    mean = K + Σ(x − K) / n,   variance = Σ(x − K)² / n − (Σ(x − K) / n)².

The shift is what keeps one pass safe: E[x²] − E[x]² computed directly
cancels catastrophically when ``|mean| ≫ std``, but after subtracting a value
of the data itself the two terms are of the order of the variance (and the
float64 sums leave ample headroom for float32 data).  A negative result of
rounding is clamped to 0.

Normalisation: per channel a = scale / √(variance + ε), then
y = (x − mean)·a + bias, evaluated in float64 and rounded once.

float32 and float64 run here (every operand of x's dtype); anything else —
float16, mixed dtypes, empty arrays — goes to the reference kernel.
"""
import numpy as np

cimport cython
from cython.parallel cimport prange
from libc.math cimport sqrt

from refms.kernels import reference_kernel

__all__ = ["batch_norm_statistics", "batch_norm"]

include "_threads.pxi"

ctypedef fused real:
    float
    double


cdef void _statistics(const real[:, :, ::1] x, real[::1] mean, real[::1] variance) noexcept nogil:
    cdef Py_ssize_t n = x.shape[0], channels = x.shape[1], size = x.shape[2]
    cdef Py_ssize_t c, s, k
    cdef double shift, total, squares, d, count = <double>(n * size), m, v
    cdef int threads = _threads(n * channels * size)
    for c in prange(channels, schedule="static", num_threads=threads):
        shift = x[0, c, 0]
        total = 0
        squares = 0
        for s in range(n):
            for k in range(size):
                d = x[s, c, k] - shift
                total = total + d
                squares = squares + d * d
        m = total / count
        v = squares / count - m * m
        mean[c] = <real>(shift + m)
        variance[c] = <real>(v if v > 0 else 0)


cdef void _normalize(const real[:, :, ::1] x, const double[::1] mean, const double[::1] factor,
                     const double[::1] bias, real[:, :, ::1] y) noexcept nogil:
    cdef Py_ssize_t n = x.shape[0], channels = x.shape[1], size = x.shape[2]
    cdef Py_ssize_t plane, s, c, k
    cdef double m, a, b
    cdef int threads = _threads(n * channels * size)
    for plane in prange(n * channels, schedule="static", num_threads=threads):
        s = plane // channels
        c = plane % channels
        m = mean[c]
        a = factor[c]
        b = bias[c]
        for k in range(size):
            y[s, c, k] = <real>((x[s, c, k] - m) * a + b)


def _as_planes(x):
    return np.ascontiguousarray(x).reshape(x.shape[0], x.shape[1], -1)


def _float_array(x):
    return isinstance(x, np.ndarray) and (x.dtype == np.float32 or x.dtype == np.float64)


def batch_norm_statistics(x):
    """mean = E[x], variance = E[(x − mean)²] per channel, from one pass of shifted sums."""
    if not _float_array(x) or not 2 <= x.ndim <= 4 or x.size == 0:
        return reference_kernel("batch_norm_statistics")(x)
    planes = _as_planes(x)
    mean = np.empty(x.shape[1], dtype=x.dtype)
    variance = np.empty(x.shape[1], dtype=x.dtype)
    if x.dtype == np.float32:
        _statistics[float](planes, mean, variance)
    else:
        _statistics[double](planes, mean, variance)
    return mean, variance


def batch_norm(x, scale, bias, mean, variance, epsilon):
    """y = (x − mean) · scale / √(variance + ε) + bias, per channel, in float64."""
    operands = (scale, bias, mean, variance)
    if (not _float_array(x) or not 2 <= x.ndim <= 4 or x.size == 0
            or not all(_float_array(v) and v.dtype == x.dtype and v.shape == (x.shape[1],)
                       for v in operands)):
        return reference_kernel("batch_norm")(x, scale, bias, mean, variance, epsilon)
    # the per-channel factor as the reference rounds it: 1/√(variance + ε) and its product
    # with scale in the parameters' dtype
    inv_std = 1.0 / np.sqrt(variance + epsilon)
    factor = (inv_std * scale).astype(np.float64)
    planes = _as_planes(x)
    y = np.empty(planes.shape, dtype=x.dtype)
    if x.dtype == np.float32:
        _normalize[float](planes, mean.astype(np.float64), factor, bias.astype(np.float64), y)
    else:
        _normalize[double](planes, mean.astype(np.float64), factor, bias.astype(np.float64), y)
    return y.reshape(x.shape)
