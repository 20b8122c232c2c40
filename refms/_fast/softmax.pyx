# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Fast twins of :mod:`refms.kernels.softmax`: softmax, log-softmax, the softmax cross-entropies.

Contract (the reference's)::

    softmax(x, axis) / log_softmax(x, axis)                -> y, x's shape and dtype
    softmax_cross_entropy(logits, labels)                  -> (loss (N,), dlogits (N, C))
    sparse_softmax_cross_entropy(logits, labels, is_grad)  -> 0-d mean loss, or dlogits

Algorithm.  x is viewed as (outer, L, inner) with L the softmax axis; each
of the outer·inner lines of L values is one independent problem, and the
lines are shared among OpenMP threads (``prange``).  Per line, in one
fused pass after the maximum m:

* softmax:      eᵢ = exp(xᵢ − m) is written to y while Σ e accumulates
  (in float64), then y is scaled by 1 / Σ e (float32 contiguous lines: by
  multiplying with the float32 reciprocal);
* log-softmax:  s = Σ exp(xᵢ − m) (float64), then yᵢ = (xᵢ − m) − log s;
* cross-entropies (float64 throughout, like the reference): the loss
  −Σ labels · log p and the gradient p − labels (dense) or
  (p − onehot) / N (sparse) come from the same m and log s; the mean loss
  of the sparse op is reduced in float64 over the lines.

Subtracting m first keeps exp from overflowing (the log-sum-exp trick),
as in the reference.

The float32 mean loss of the sparse cross-entropy is MindSpore's CPU value,
as the reference's (``mindspore_cpu_mean``): nnacl's exp polynomial
(``refms_nnacl_expf``: the reference's ``nnacl_exp``, whose emulated fused
multiply-adds are the FMA instruction here), each row's
loss in float32, the rows' losses summed in float32 in order.  Its gradient,
the other float32 cross-entropies and float32 softmax / log-softmax along a
contiguous axis use a vectorizable exp (``refms_expf``, Cephes'
``expf``: exp(x) = 2ⁿ·exp(r) with n = round(x·log₂e) and r = x − n·ln 2 in two
parts, exp(r) by a degree-6 polynomial; relative error about 1 float32 ulp;
x < −87.3 gives 0): the loops over a line are then SIMD loops (``omp simd``)
instead of one libm call per element; their sums run in float32 over blocks
of 128 elements and in float64 across blocks.  float32 and float64 run here; softmax over several
axes, other dtypes and empty arrays go to the reference kernel.
"""
import numpy as np

cimport cython
from cython.parallel cimport prange
from libc.math cimport exp, expf, log, logf, isnan

from refms.kernels import reference_kernel

__all__ = ["softmax", "log_softmax", "softmax_cross_entropy", "sparse_softmax_cross_entropy"]

include "_threads.pxi"

ctypedef fused real:
    float
    double


cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>

    /* exp(x) for float32 in SIMD loops (Cephes expf): 2^n * exp(r), |r| <= ln2/2.
       Branch-free (selects only), so that a loop calling it vectorizes; NaN passes through. */
    static inline float refms_expf(float x) {
        float t = x < -87.3f ? -87.3f : x;
        t = t > 88.0f ? 88.0f : t;
        float n = (t * 1.44269504088896341f + 12582912.0f) - 12582912.0f;   /* round */
        float r = (t - n * 0.693359375f) - n * -2.12194440e-4f;
        float p = 1.9875691500e-4f;
        p = p * r + 1.3981999507e-3f;
        p = p * r + 8.3334519073e-3f;
        p = p * r + 4.1665795894e-2f;
        p = p * r + 1.6666665459e-1f;
        p = p * r + 5.0000001201e-1f;
        p = p * r * r + r + 1.0f;
        int32_t bits = ((int32_t)n + 127) << 23;
        float scale;
        memcpy(&scale, &bits, sizeof scale);
        float y = p * scale;
        return x < -87.3f ? 0.0f : y;
    }

    /* Sums run in float32 over blocks of REFMS_BLOCK elements (a SIMD reduction), and the
       block sums in float64: the error stays that of a 32-term float32 sum per lane. */
    #define REFMS_BLOCK 128

    /* sum_k exp(z[k] - m). */
    static double refms_sum_exp_f(const float* z, Py_ssize_t n, float m) {
        double total = 0.0;
        for (Py_ssize_t start = 0; start < n; start += REFMS_BLOCK) {
            Py_ssize_t stop = start + REFMS_BLOCK < n ? start + REFMS_BLOCK : n;
            float part = 0.0f;
            #pragma omp simd reduction(+:part)
            for (Py_ssize_t k = start; k < stop; k++) part += refms_expf(z[k] - m);
            total += part;
        }
        return total;
    }

    /* e[k] = exp(z[k] - m); returns sum_k e[k]. */
    static double refms_exp_store_f(const float* z, float* e, Py_ssize_t n, float m) {
        double total = 0.0;
        for (Py_ssize_t start = 0; start < n; start += REFMS_BLOCK) {
            Py_ssize_t stop = start + REFMS_BLOCK < n ? start + REFMS_BLOCK : n;
            float part = 0.0f;
            #pragma omp simd reduction(+:part)
            for (Py_ssize_t k = start; k < stop; k++) {
                float v = refms_expf(z[k] - m);
                e[k] = v;
                part += v;
            }
            total += part;
        }
        return total;
    }

    /* nnacl's exp, as refms.kernels.softmax.nnacl_exp: r = x - n*ln2 and each Horner step one
       fused multiply-add (the FMA instruction where the build has it, else a double expression
       rounded once to float, which is what the reference computes: the float product is exact
       in double), and no other contraction (GCC: fp-contract=off; clang contracts only within
       one expression).  The floor by the round-to-nearest trick of refms_expf, every value
       computed before it is selected, and no-trapping-math: the loop over a row vectorizes.
       n = -126 gives 0, as MindSpore's kernel. */
    #if defined(__GNUC__) && !defined(__clang__)
    #pragma GCC push_options
    #pragma GCC optimize ("fp-contract=off", "no-trapping-math")
    #endif
    static inline float refms_fma_f(float a, float b, float c) {
    #ifdef __FMA__
        return __builtin_fmaf(a, b, c);                   /* the instruction itself */
    #else
        return (float)((double)a * (double)b + (double)c);
    #endif
    }
    static inline float refms_nnacl_expf(float x) {
        float t = x < -87.3365478515625f ? -87.3365478515625f : x;
        t = t > 88.72283935546875f ? 88.72283935546875f : t;
        float v = t * 1.44269504088896341f;               /* two statements: never one FMA */
        v = v + 0.5f;
        float n = (v + 12582912.0f) - 12582912.0f;        /* nearest integer (|v| < 2^22) */
        float below = n - 1.0f;
        n = n > v ? below : n;                            /* floor */
        float r = refms_fma_f(n, -0.693147f, t);
        float p = (float)(1.0 / 120);
        p = refms_fma_f(p, r, (float)(1.0 / 24));
        p = refms_fma_f(p, r, (float)(1.0 / 6));
        p = refms_fma_f(p, r, 0.5f);
        p = refms_fma_f(p, r, 1.0f);
        p = refms_fma_f(p, r, 1.0f);
        int32_t bits = ((int32_t)n + 127) << 23;          /* 2^n; n = 128 gives inf */
        float scale;
        memcpy(&scale, &bits, sizeof scale);
        float y = p * scale;
        return n > -126.0f ? y : 0.0f;
    }

    /* sum_k nnacl_exp(z[k] - m), in double. */
    static double refms_sum_nnacl_exp_f(const float* z, Py_ssize_t n, float m) {
        double total = 0.0;
        #pragma omp simd reduction(+:total)
        for (Py_ssize_t k = 0; k < n; k++) total += refms_nnacl_expf(z[k] - m);
        return total;
    }
    #if defined(__GNUC__) && !defined(__clang__)
    #pragma GCC pop_options
    #endif

    /* max_k z[k] of a finite float32 line (the callers check finiteness), a SIMD reduction. */
    static float refms_max_f(const float* z, Py_ssize_t n) {
        float m = z[0];
        #pragma omp simd reduction(max:m)
        for (Py_ssize_t k = 1; k < n; k++) m = z[k] > m ? z[k] : m;
        return m;
    }

    /* max_k z[k] of a float32 line, and in *finite whether every z[k] is finite: one pass, two
       SIMD reductions (z * 0 is NaN exactly for an infinite or NaN z, else ±0, so the sum of
       those products is 0 exactly when all are finite; the maximum is then exact too). */
    static float refms_max_finite_f(const float* z, Py_ssize_t n, int* finite) {
        float m = z[0], zeros = 0.0f;
        #pragma omp simd reduction(max:m) reduction(+:zeros)
        for (Py_ssize_t k = 0; k < n; k++) {
            m = z[k] > m ? z[k] : m;
            zeros += z[k] * 0.0f;
        }
        *finite = zeros == 0.0f;
        return m;
    }

    /* e[k] *= factor. */
    static void refms_scale_f(float* e, Py_ssize_t n, float factor) {
        #pragma omp simd
        for (Py_ssize_t k = 0; k < n; k++) e[k] *= factor;
    }
    """
    float refms_expf(float x) noexcept nogil
    double refms_sum_exp_f(const float* z, Py_ssize_t n, float m) noexcept nogil
    double refms_exp_store_f(const float* z, float* e, Py_ssize_t n, float m) noexcept nogil
    void refms_scale_f(float* e, Py_ssize_t n, float factor) noexcept nogil
    float refms_max_f(const float* z, Py_ssize_t n) noexcept nogil
    float refms_max_finite_f(const float* z, Py_ssize_t n, int* finite) noexcept nogil
    float refms_nnacl_expf(float x) noexcept nogil
    double refms_sum_nnacl_exp_f(const float* z, Py_ssize_t n, float m) noexcept nogil


cdef inline real _exp(real v) noexcept nogil:
    if real is float:
        return expf(v)
    else:
        return exp(v)


cdef inline real _line_max(const real* x, Py_ssize_t n, Py_ssize_t step) noexcept nogil:
    """max of x[0], x[step], … (NaN propagates, as np.max; a contiguous float32 line, finite
    as every caller checks, is one SIMD reduction)."""
    cdef real m = x[0], v
    cdef Py_ssize_t k
    if real is float and step == 1:
        return refms_max_f(x, n)
    for k in range(1, n):
        v = x[k * step]
        if v > m or isnan(v):
            m = v
            if isnan(v):
                break
    return m


cdef void _softmax_lines(const real* x, real* y, Py_ssize_t outer, Py_ssize_t length,
                         Py_ssize_t inner, bint logarithm) noexcept nogil:
    cdef Py_ssize_t line, o, t, k
    cdef const real* src
    cdef real* dst
    cdef real m, e
    cdef double total, shift
    cdef int threads = _threads(outer * inner * length)
    for line in prange(outer * inner, schedule="static", num_threads=threads):
        o = line // inner
        t = line % inner
        src = x + o * length * inner + t
        dst = y + o * length * inner + t
        m = _line_max(src, length, inner)
        total = 0
        if real is float and inner == 1:            # contiguous float32 line: SIMD loops
            if logarithm:
                shift = log(refms_sum_exp_f(src, length, m))
                for k in range(length):
                    dst[k] = <real>((src[k] - m) - shift)
            else:
                total = refms_exp_store_f(src, dst, length, m)
                refms_scale_f(dst, length, <float>(1.0 / total))
        elif logarithm:
            for k in range(length):
                total = total + _exp(src[k * inner] - m)
            shift = log(total)
            for k in range(length):
                dst[k * inner] = <real>((src[k * inner] - m) - shift)
        else:
            for k in range(length):
                e = _exp(src[k * inner] - m)
                dst[k * inner] = e
                total = total + e
            for k in range(length):
                dst[k * inner] = <real>(dst[k * inner] / total)


def _lines(x, axis):
    """(outer, L, inner) of x for a softmax along ``axis``, or None when the reference must run."""
    if not isinstance(x, np.ndarray) or (x.dtype != np.float32 and x.dtype != np.float64):
        return None
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    if len(axes) != 1 or x.ndim == 0 or x.size == 0 or not np.isfinite(x).all():
        return None           # the reference handles non-finite lines as MindSpore does
    a = int(axes[0])
    if not -x.ndim <= a < x.ndim:
        return None
    a %= x.ndim
    outer = int(np.prod(x.shape[:a], dtype=np.int64))
    inner = int(np.prod(x.shape[a + 1:], dtype=np.int64))
    return outer, x.shape[a], inner


def _run(real[::1] x, real[::1] y, Py_ssize_t outer, Py_ssize_t length, Py_ssize_t inner,
         bint logarithm):
    with nogil:
        _softmax_lines(&x[0], &y[0], outer, length, inner, logarithm)


def softmax(x, axis):
    """yᵢ = exp(xᵢ − m) / Σⱼ exp(xⱼ − m) per line, one pass after the max."""
    lines = _lines(x, axis)
    if lines is None:
        return reference_kernel("softmax")(x, axis)
    y = np.empty(x.shape, dtype=x.dtype)
    _run(np.ascontiguousarray(x).reshape(-1), y.reshape(-1), *lines, False)
    return y


def log_softmax(x, axis):
    """yᵢ = xᵢ − m − log Σⱼ exp(xⱼ − m) per line."""
    lines = _lines(x, axis)
    if lines is None:
        return reference_kernel("log_softmax")(x, axis)
    y = np.empty(x.shape, dtype=x.dtype)
    _run(np.ascontiguousarray(x).reshape(-1), y.reshape(-1), *lines, True)
    return y


# --------------------------------------------------------------------------- cross-entropies

cdef void _dense_rows(const real* logits, const real* labels, real* loss, real* grad,
                      Py_ssize_t rows, Py_ssize_t classes) noexcept nogil:
    """lossₙ = −Σ labels · log p,  gradₙ = p − labels (float64 inside)."""
    cdef Py_ssize_t r, k
    cdef const real* z
    cdef const real* t
    cdef double m, total, log_total, log_p, acc
    cdef int threads = _threads(rows * classes)
    for r in prange(rows, schedule="static", num_threads=threads):
        z = logits + r * classes
        t = labels + r * classes
        m = _line_max(z, classes, 1)
        total = 0
        for k in range(classes):
            total = total + exp(z[k] - m)
        log_total = log(total)
        acc = 0
        for k in range(classes):
            log_p = (z[k] - m) - log_total
            acc = acc - t[k] * log_p
            grad[r * classes + k] = <real>(exp(log_p) - t[k])
        loss[r] = <real>acc


cdef inline double _sparse_row(const real* z, long long label, real* g, Py_ssize_t classes,
                               double scale, bint is_grad, int* nonfinite) noexcept nogil:
    """−log p[label] of one row; with ``is_grad`` also its gradient (p − onehot)·scale in g.
    A float32 row holding inf or NaN sets ``nonfinite[0]`` (its values are then not used)."""
    cdef Py_ssize_t k
    cdef double m
    cdef double total = 0, log_total
    cdef int finite
    if real is float:                           # SIMD loops (module docstring)
        m = refms_max_finite_f(z, classes, &finite)
        if not finite:
            nonfinite[0] = 1
            return 0
        if is_grad:
            total = refms_exp_store_f(z, g, classes, <float>m)
            refms_scale_f(g, classes, <float>(scale / total))
            g[label] -= <float>scale
        else:
            total = refms_sum_exp_f(z, classes, <float>m)
        return (log(total) + m) - z[label]
    m = _line_max(z, classes, 1)
    for k in range(classes):
        total = total + exp(z[k] - m)
    log_total = log(total)
    if is_grad:
        for k in range(classes):
            g[k] = <real>((exp((z[k] - m) - log_total) - (1.0 if k == label else 0.0)) * scale)
    return (log_total + m) - z[label]


cdef double _sparse_rows(const real* logits, const long long* labels, real* grad,
                         Py_ssize_t rows, Py_ssize_t classes, bint is_grad,
                         int* nonfinite) noexcept nogil:
    """Σₙ −log p[label]; with ``is_grad`` also grad = (p − onehot) / rows (float64 inside).
    float32 logits holding inf or NaN set ``nonfinite[0]``."""
    cdef Py_ssize_t r
    cdef double scale = 1.0 / rows
    cdef double loss = 0
    cdef int threads = _threads(rows * classes)
    for r in prange(rows, schedule="static", num_threads=threads):
        loss += _sparse_row(logits + r * classes, labels[r],
                            grad + (r * classes if is_grad else 0), classes, scale, is_grad,
                            nonfinite)
    return loss


cdef float _cpu_mean(const float* logits, const long long* labels, float* losses, Py_ssize_t rows,
                     Py_ssize_t classes, int* nonfinite) noexcept nogil:
    """MindSpore's CPU float32 mean (the reference's ``mindspore_cpu_mean``): per row
    −log(e[label] / Σ e) with e = nnacl_exp(z), z = x − max x (log Σ e − z[label] where
    z[label] ≤ −80), the rows in parallel; then their float32 running sum, in order, over N.
    Logits holding inf or NaN set ``nonfinite[0]`` (the mean is then not used)."""
    cdef Py_ssize_t r
    cdef const float* x
    cdef float m, z, total, running = 0
    cdef int finite
    cdef int threads = _threads(rows * classes)
    for r in prange(rows, schedule="static", num_threads=threads):
        x = logits + r * classes
        finite = 1                              # assigned here: private to each thread
        m = refms_max_finite_f(x, classes, &finite)
        if not finite:
            nonfinite[0] = 1
            losses[r] = 0
            continue
        total = <float>refms_sum_nnacl_exp_f(x, classes, m)
        z = x[labels[r]] - m
        if z > -80:
            losses[r] = -logf(refms_nnacl_expf(z) / total)
        else:
            losses[r] = logf(total) - z
    for r in range(rows):
        running = running + losses[r]
    return running / <float>rows


def _mindspore_cpu_mean(float[:, ::1] logits, const long long[::1] labels):
    """The mean, or None when the logits hold inf or NaN."""
    cdef float[::1] losses = np.empty(logits.shape[0], dtype=np.float32)
    cdef float mean
    cdef int nonfinite = 0
    with nogil:
        mean = _cpu_mean(&logits[0, 0], &labels[0], &losses[0], logits.shape[0], logits.shape[1],
                         &nonfinite)
    return None if nonfinite else mean


def _dense(real[:, ::1] logits, real[:, ::1] labels, real[::1] loss, real[:, ::1] grad):
    with nogil:
        _dense_rows(&logits[0, 0], &labels[0, 0], &loss[0], &grad[0, 0], logits.shape[0],
                    logits.shape[1])


def _sparse(real[:, ::1] logits, const long long[::1] labels, real[:, ::1] grad, bint is_grad):
    """Σₙ −log p[label] (grad filled when ``is_grad``), or None when float32 logits hold inf
    or NaN."""
    cdef double total
    cdef int nonfinite = 0
    with nogil:
        total = _sparse_rows(&logits[0, 0], &labels[0], &grad[0, 0], logits.shape[0],
                             logits.shape[1], is_grad, &nonfinite)
    return None if nonfinite else total


def softmax_cross_entropy(logits, labels):
    """lossₙ = −Σ_c labelsₙ꜀ · log_softmax(logits)ₙ꜀;  dlogits = softmax(logits) − labels."""
    if (not isinstance(logits, np.ndarray) or not isinstance(labels, np.ndarray)
            or logits.dtype not in (np.float32, np.float64) or labels.dtype != logits.dtype
            or logits.ndim != 2 or labels.shape != logits.shape or logits.size == 0
            or not np.isfinite(logits).all()):    # non-finite lines: the reference's rule
        return reference_kernel("softmax_cross_entropy")(logits, labels)
    loss = np.empty(logits.shape[0], dtype=logits.dtype)
    grad = np.empty(logits.shape, dtype=logits.dtype)
    _dense(np.ascontiguousarray(logits), np.ascontiguousarray(labels), loss, grad)
    return loss, grad


def sparse_softmax_cross_entropy(logits, labels, is_grad):
    """Mean of −log_softmax(logits)[label], or its gradient (softmax − onehot) / N."""
    reference = reference_kernel("sparse_softmax_cross_entropy")
    if (not isinstance(logits, np.ndarray) or logits.dtype not in (np.float32, np.float64)
            or logits.ndim < 1 or labels.size == 0 or logits.size == 0
            or tuple(logits.shape[:logits.ndim - 1]) != tuple(np.shape(labels))):
        return reference(logits, labels, is_grad)
    # Non-finite lines follow the reference's rule: float64 logits are checked here, float32
    # ones by the kernels' first pass over each row (the maximum), which report them.
    if logits.dtype == np.float64 and not np.isfinite(logits).all():
        return reference(logits, labels, is_grad)
    classes = logits.shape[logits.ndim - 1]
    rows = np.ascontiguousarray(logits).reshape(-1, classes)
    index = np.ascontiguousarray(labels, dtype=np.int64).reshape(-1)
    if index.min() < 0 or index.max() >= classes:       # the reference raises numpy's error
        return reference(logits, labels, is_grad)
    if not is_grad and logits.dtype == np.float32:       # MindSpore's CPU value (docstring)
        mean = _mindspore_cpu_mean(rows, index)
        if mean is None:
            return reference(logits, labels, is_grad)
        return np.asarray(mean, dtype=np.float32)
    grad = np.empty(rows.shape if is_grad else (1, classes), dtype=logits.dtype)
    total = _sparse(rows, index, grad, bool(is_grad))
    if total is None:
        return reference(logits, labels, is_grad)
    if is_grad:
        return grad.reshape(logits.shape)
    return np.asarray(total / index.size, dtype=logits.dtype)
