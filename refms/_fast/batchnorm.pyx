# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Fast twins of :mod:`refms.kernels.batchnorm`: per-channel statistics, normalisation, backward.

Contract (the reference's; x is (N, C), (N, C, H) or (N, C, H, W), per-channel
arrays have shape (C,))::

    batch_norm_statistics(x)                            -> (mean, biased variance)
    batch_norm(x, scale, bias, mean, variance, epsilon) -> y
    batch_norm_grad(dy, x, scale, mean, variance, epsilon, is_training) -> (dx, dscale, dbias)

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

Backward, fused: each channel is one OpenMP task that reads its dy and x
once for the two sums (float64, ``omp simd`` over each contiguous run of H·W
values)

    dβ = Σ dy,   P = Σ dy·(x − μ),   dγ = s·P        (s = 1/√(σ² + ε))

and then, while the channel is still in cache, writes

    dx = γs·(dy − dβ/M) − γs²·(s·P/M)·(x − μ)        (training; M = N·H·W)
    dx = γs·dy                                       (inference)

which is γs·(dy − mean(dy) − x̂·mean(dy·x̂)) with x̂ = (x − μ)·s: the
centred form keeps the cancellation of x − μ exact where ``|μ| ≫ σ``.

float32 and float64 run here (every operand of x's dtype); anything else —
float16, mixed dtypes, empty arrays — goes to the reference kernel.
"""
import numpy as np

cimport cython
from cython.parallel cimport prange
from libc.math cimport sqrt

from refms.kernels import reference_kernel

__all__ = ["batch_norm_statistics", "batch_norm", "batch_norm_grad"]

include "_threads.pxi"

ctypedef fused real:
    float
    double


cdef extern from *:
    """
    /* One contiguous run of n values of a channel: *total += sum dy[k],
       *product += sum dy[k]·(x[k] − m), in double (SIMD lanes, summed in the end). */
    #define REFMS_BN_SUMS(NAME, T)                                                      \
    static void NAME(const T* dy, const T* x, Py_ssize_t n, double m,                   \
                     double* total, double* product) {                                  \
        double t = 0.0, p = 0.0;                                                        \
        _Pragma("omp simd reduction(+:t,p)")                                            \
        for (Py_ssize_t k = 0; k < n; k++) {                                            \
            double g = (double)dy[k];                                                   \
            t += g;                                                                     \
            p += g * ((double)x[k] - m);                                                \
        }                                                                               \
        *total += t;                                                                    \
        *product += p;                                                                  \
    }
    /* One contiguous run: dx[k] = a·(dy[k] − shift) − slope·(x[k] − m), rounded once. */
    #define REFMS_BN_DX(NAME, T)                                                        \
    static void NAME(const T* dy, const T* x, T* dx, Py_ssize_t n, double a,            \
                     double shift, double slope, double m) {                            \
        _Pragma("omp simd")                                                             \
        for (Py_ssize_t k = 0; k < n; k++)                                              \
            dx[k] = (T)(a * ((double)dy[k] - shift) - slope * ((double)x[k] - m));      \
    }
    REFMS_BN_SUMS(refms_bn_sums_f, float)
    REFMS_BN_SUMS(refms_bn_sums_d, double)
    REFMS_BN_DX(refms_bn_dx_f, float)
    REFMS_BN_DX(refms_bn_dx_d, double)
    """
    void refms_bn_sums_f(const float* dy, const float* x, Py_ssize_t n, double m,
                         double* total, double* product) noexcept nogil
    void refms_bn_sums_d(const double* dy, const double* x, Py_ssize_t n, double m,
                         double* total, double* product) noexcept nogil
    void refms_bn_dx_f(const float* dy, const float* x, float* dx, Py_ssize_t n, double a,
                       double shift, double slope, double m) noexcept nogil
    void refms_bn_dx_d(const double* dy, const double* x, double* dx, Py_ssize_t n, double a,
                       double shift, double slope, double m) noexcept nogil


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


cdef void _backward(const real[:, :, ::1] dy, const real[:, :, ::1] x, const double[::1] gamma,
                    const double[::1] mean, const double[::1] inv_std, bint training,
                    real[:, :, ::1] dx, double[::1] dscale, double[::1] dbias) noexcept nogil:
    cdef Py_ssize_t n = x.shape[0], channels = x.shape[1], size = x.shape[2]
    cdef Py_ssize_t c, i
    cdef double count = <double>(n * size), m, s, a, total, product, shift, slope
    cdef int threads = _threads(n * channels * size)
    for c in prange(channels, schedule="static", num_threads=threads):
        m = mean[c]
        s = inv_std[c]
        total = 0
        product = 0
        for i in range(n):
            if real is float:
                refms_bn_sums_f(&dy[i, c, 0], &x[i, c, 0], size, m, &total, &product)
            else:
                refms_bn_sums_d(&dy[i, c, 0], &x[i, c, 0], size, m, &total, &product)
        dbias[c] = total
        dscale[c] = product * s
        a = gamma[c] * s
        shift = 0
        slope = 0
        if training:
            shift = total / count
            slope = a * s * (product * s) / count
        for i in range(n):
            if real is float:
                refms_bn_dx_f(&dy[i, c, 0], &x[i, c, 0], &dx[i, c, 0], size, a, shift, slope, m)
            else:
                refms_bn_dx_d(&dy[i, c, 0], &x[i, c, 0], &dx[i, c, 0], size, a, shift, slope, m)


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


def batch_norm_grad(dy, x, scale, mean, variance, epsilon, is_training):
    """dβ = Σ dy, dγ = Σ dy·x̂, dx = γs·(dy − mean(dy) − x̂·mean(dy·x̂)) (training) or γs·dy,
    each channel's sums and dx in one task."""
    operands = (scale, mean, variance)
    if (not _float_array(x) or not 2 <= x.ndim <= 4 or x.size == 0
            or not _float_array(dy) or dy.dtype != x.dtype or dy.shape != x.shape
            or not all(_float_array(v) and v.dtype == x.dtype and v.shape == (x.shape[1],)
                       for v in operands)):
        return reference_kernel("batch_norm_grad")(dy, x, scale, mean, variance, epsilon,
                                                   is_training)
    inv_std = 1.0 / np.sqrt(variance.astype(np.float64) + epsilon)
    planes, gradients = _as_planes(x), _as_planes(dy)
    dx = np.empty(planes.shape, dtype=x.dtype)
    dscale = np.empty(x.shape[1], dtype=np.float64)
    dbias = np.empty(x.shape[1], dtype=np.float64)
    arguments = (scale.astype(np.float64), mean.astype(np.float64), inv_std, bool(is_training))
    if x.dtype == np.float32:
        _backward[float](gradients, planes, *arguments, dx, dscale, dbias)
    else:
        _backward[double](gradients, planes, *arguments, dx, dscale, dbias)
    return dx.reshape(x.shape), dscale.astype(scale.dtype), dbias.astype(scale.dtype)
