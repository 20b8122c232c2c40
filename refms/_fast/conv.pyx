# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Fast twins of :mod:`refms.kernels.conv`: 2-D convolution and its two adjoints.

Contract (the reference's; NCHW, ``pad = (top, bottom, left, right)``)::

    conv2d(x, w, stride, pad, dilation, groups)                              -> y
    conv2d_backprop_input(dout, w, x_shape, stride, pad, dilation, groups)   -> dx
    conv2d_backprop_filter(dout, x, w_shape, stride, pad, dilation, groups)  -> dw

Two algorithms, both *im2col + GEMM*: the convolution becomes a matrix product
of the weights with a column matrix ``cols`` of shape (K, P), K = C·kh·kw,
P = OH·OW, whose row (c, p, q), column (i, j) holds
``x_pad[c, i·sh + p·dh, j·sw + q·dw]`` (the zero padding written as zeros).
The GEMMs are BLAS ``sgemm``/``dgemm`` (numpy's BLAS, ``_blas.pxi``).

*Small products, one sample a task* (per-sample GEMM of at most 2¹⁸
multiply-adds, e.g. LeNet's layers): one OpenMP ``prange`` over the samples;
each thread unfolds its sample into its own ``cols`` (small enough to stay in
its L2 cache) and calls BLAS, which runs such small products in the calling
thread.  Per sample and group g:

* forward: ``Y_g (O/G, P) = W_g (O/G, K/G) · cols_g``, written straight
  into y's NCHW layout;
* backprop_input: ``dcols_g = W_gᵀ · dY_g``, then *col2im*, the adjoint of
  im2col, adds every column entry back into its input cell of dx;
* backprop_filter: ``dW_gᵀ (K/G, O/G) += cols_g · dY_gᵀ``, into the
  thread's own sum; dY is transposed first (O·P values) so that BLAS reads
  both operands along rows (several times faster than ``dY · colsᵀ``), and
  the threads' sums are added at the end.

*Large products, a chunk of samples at a time*: a chunk of ``nb`` samples is
unfolded into ``cols`` of shape (K, nb·P), columns (s, i, j), by a ``prange``
over (sample, channel) planes, and each product is one multithreaded GEMM:

* forward: ``Y_g (O/G, nb·P) = W_g · cols_g``, then the (O, nb, P) result is
  copied to y's (nb, O, P) layout (with one sample a chunk the GEMM writes
  straight into y);
* backprop_filter: ``dW_g += dY_g (O/G, nb·P) · cols_gᵀ``, summed over the
  chunks by the GEMM itself (β = 1);
* backprop_input: ``dcols_g = W_gᵀ · dY_g``, then col2im; each
  (sample, channel) plane is written by one thread only.

The chunk holds as many samples as keep ``cols`` near 4 MiB (at least
one): big enough for an efficient GEMM on small images, small enough to stay
in cache on large ones.

Depthwise convolution (groups = C, one input channel per group) is a
direct loop instead: per (sample, output channel) plane, each kernel tap
adds ``w[o, 0, p, q] · x`` shifted, a contiguous inner loop.  Its filter
gradient accumulates in float64.

float32 and float64 run here (all operands of one dtype); anything else,
empty shapes and non-positive output sizes go to the reference kernel.
"""
import numpy as np

cimport cython
from cython.parallel cimport prange, threadid
from libc.string cimport memset, memcpy
from cython cimport floating

from refms.kernels import reference_kernel

__all__ = ["conv2d", "conv2d_backprop_input", "conv2d_backprop_filter"]

include "_threads.pxi"
include "_blas.pxi"

ctypedef fused real:
    float
    double

#: Target size of one chunk's column matrix, in elements (4 MiB of float32).
cdef Py_ssize_t CHUNK_ELEMENTS = 1 << 20

#: Largest per-sample product (multiply-adds, O/G · K/G · P) run one sample a task: below
#: OpenBLAS's threshold for threading a GEMM (65536 · 4), so each GEMM runs in its caller.
cdef Py_ssize_t SMALL_GEMM = 1 << 18


cdef void _gemm(bint trans_a, bint trans_b, int m, int n, int k, real alpha,
                const real* a, int lda, const real* b, int ldb, real beta,
                real* c, int ldc) noexcept nogil:
    """Row-major C (m×n) = α·op(A)·op(B) + β·C through column-major BLAS.

    A row-major matrix read column-major is its transpose, so BLAS is asked
    for Cᵀ = op(B)ᵀ · op(A)ᵀ: B first, A second, m and n swapped.
    """
    cdef char ta = b'T' if trans_a else b'N'
    cdef char tb = b'T' if trans_b else b'N'
    blas_gemm(tb, ta, n, m, k, alpha, b, ldb, a, lda, beta, c, ldc)


cdef inline Py_ssize_t _first(Py_ssize_t stride, Py_ssize_t offset) noexcept nogil:
    """The first output j whose input index j·stride + offset is ≥ 0."""
    return (-offset + stride - 1) // stride if offset < 0 else 0


cdef inline Py_ssize_t _end(Py_ssize_t out_len, Py_ssize_t in_len, Py_ssize_t stride,
                            Py_ssize_t offset, Py_ssize_t first) noexcept nogil:
    """One past the last output j whose input index j·stride + offset is < in_len (≥ first).

    [_first, _end) is the range of outputs that read real (unpadded) cells; the
    values are returned, not written through pointers, so that inside a
    ``prange`` they stay private to each thread.
    """
    cdef Py_ssize_t last = 0
    if in_len - 1 - offset >= 0:
        last = (in_len - 1 - offset) // stride + 1
    if last > out_len:
        last = out_len
    return first if last < first else last


cdef void _unfold_plane(const real* src, real* dst, Py_ssize_t ld, Py_ssize_t h, Py_ssize_t w,
                       int kh, int kw, int sh, int sw, int top, int left, int dh, int dw,
                       Py_ssize_t oh, Py_ssize_t ow) noexcept nogil:
    """dst[(p, q) · ld + (i, j)] = src_pad[i·sh + p·dh, j·sw + q·dw]: one input plane's kh·kw
    rows of the column matrix (row (p, q) starts ld elements after row (p, q) − 1)."""
    cdef Py_ssize_t p, q, i, j, row, lo, hi, offset
    cdef real* out
    for p in range(kh):
        for q in range(kw):
            offset = q * dw - left
            lo = _first(sw, offset)
            hi = _end(ow, w, sw, offset, lo)
            out = dst + (p * kw + q) * ld
            for i in range(oh):
                row = i * sh + p * dh - top
                if row < 0 or row >= h:
                    memset(out + i * ow, 0, ow * sizeof(real))
                    continue
                for j in range(lo):
                    out[i * ow + j] = 0
                if sw == 1:             # contiguous (vectorized); no memcpy call: rows are short
                    for j in range(lo, hi):
                        out[i * ow + j] = src[row * w + j + offset]
                else:
                    for j in range(lo, hi):
                        out[i * ow + j] = src[row * w + j * sw + offset]
                for j in range(hi, ow):
                    out[i * ow + j] = 0


cdef void _fold_plane(const real* src, real* dst, Py_ssize_t ld, Py_ssize_t h, Py_ssize_t w,
                      int kh, int kw, int sh, int sw, int top, int left, int dh, int dw,
                      Py_ssize_t oh, Py_ssize_t ow) noexcept nogil:
    """Adjoint of :func:`_unfold_plane`: dst (h, w) = Σ over the taps of the column entries
    that read each cell."""
    cdef Py_ssize_t p, q, i, j, row, lo, hi, offset
    cdef const real* col
    memset(dst, 0, h * w * sizeof(real))
    for p in range(kh):
        for q in range(kw):
            offset = q * dw - left
            lo = _first(sw, offset)
            hi = _end(ow, w, sw, offset, lo)
            col = src + (p * kw + q) * ld
            for i in range(oh):
                row = i * sh + p * dh - top
                if row < 0 or row >= h:
                    continue
                for j in range(lo, hi):
                    dst[row * w + j * sw + offset] += col[i * ow + j]


cdef void _im2col(const real* x, real* cols, Py_ssize_t nb, Py_ssize_t c, Py_ssize_t h,
                  Py_ssize_t w, int kh, int kw, int sh, int sw, int top, int left, int dh, int dw,
                  Py_ssize_t oh, Py_ssize_t ow) noexcept nogil:
    """cols[(ch, p, q), (s, i, j)] = x_pad[s, ch, i·sh + p·dh, j·sw + q·dw] for nb samples."""
    cdef Py_ssize_t plane, s, ch
    cdef Py_ssize_t P = oh * ow, ld = nb * P
    cdef int threads = _threads(nb * c * kh * kw * oh * ow)
    for plane in prange(nb * c, schedule="static", num_threads=threads):
        s = plane // c
        ch = plane % c
        _unfold_plane(x + plane * h * w, cols + ch * kh * kw * ld + s * P, ld, h, w, kh, kw,
                      sh, sw, top, left, dh, dw, oh, ow)


cdef void _col2im(const real* cols, real* x, Py_ssize_t nb, Py_ssize_t c, Py_ssize_t h,
                  Py_ssize_t w, int kh, int kw, int sh, int sw, int top, int left, int dh, int dw,
                  Py_ssize_t oh, Py_ssize_t ow) noexcept nogil:
    """x[s, ch] = Σ over the taps of the column entries that read each cell (adjoint of im2col);
    each (sample, channel) plane is written by one thread."""
    cdef Py_ssize_t plane, s, ch
    cdef Py_ssize_t P = oh * ow, ld = nb * P
    cdef int threads = _threads(nb * c * kh * kw * oh * ow)
    for plane in prange(nb * c, schedule="static", num_threads=threads):
        s = plane // c
        ch = plane % c
        _fold_plane(cols + ch * kh * kw * ld + s * P, x + plane * h * w, ld, h, w, kh, kw,
                    sh, sw, top, left, dh, dw, oh, ow)


cdef void _rows_to_samples(const real* buf, real* y, Py_ssize_t nb, Py_ssize_t o,
                           Py_ssize_t P) noexcept nogil:
    """y (nb, o, P) = buf (o, nb, P) transposed."""
    cdef Py_ssize_t k, s, ch
    cdef int threads = _threads(nb * o * P)
    for k in prange(nb * o, schedule="static", num_threads=threads):
        s = k // o
        ch = k % o
        memcpy(y + (s * o + ch) * P, buf + (ch * nb + s) * P, P * sizeof(real))


cdef void _samples_to_rows(const real* y, real* buf, Py_ssize_t nb, Py_ssize_t o,
                           Py_ssize_t P) noexcept nogil:
    """buf (o, nb, P) = y (nb, o, P) transposed."""
    cdef Py_ssize_t k, s, ch
    cdef int threads = _threads(nb * o * P)
    for k in prange(nb * o, schedule="static", num_threads=threads):
        s = k // o
        ch = k % o
        memcpy(buf + (ch * nb + s) * P, y + (s * o + ch) * P, P * sizeof(real))


cdef class _Geometry:
    """Sizes of one convolution, checked once."""
    cdef public Py_ssize_t n, c, h, w, o, oh, ow, K, P, nb, groups
    cdef public int kh, kw, sh, sw, top, left, dh, dw, threads
    cdef public bint by_sample


def _geometry(x_shape, w_shape, stride, pad, dilation, groups):
    """A _Geometry, or None when the reference must run (empty or degenerate shapes)."""
    n, c, h, w = (int(v) for v in x_shape)
    o, cg, kh, kw = (int(v) for v in w_shape)
    g = _Geometry()
    g.n, g.c, g.h, g.w, g.o, g.kh, g.kw = n, c, h, w, o, kh, kw
    g.sh, g.sw = int(stride[0]), int(stride[1])
    g.dh, g.dw = int(dilation[0]), int(dilation[1])
    g.top, g.left = int(pad[0]), int(pad[2])
    g.groups = int(groups)
    g.oh = (h + pad[0] + pad[1] - g.dh * (kh - 1) - 1) // g.sh + 1
    g.ow = (w + pad[2] + pad[3] - g.dw * (kw - 1) - 1) // g.sw + 1
    if min(n, c, h, w, o, kh, kw, g.oh, g.ow) <= 0 or g.groups <= 0:
        return None
    if c % g.groups or o % g.groups or cg != c // g.groups:
        return None
    g.K = c * kh * kw
    g.P = g.oh * g.ow
    g.nb = max(1, min(n, CHUNK_ELEMENTS // max(g.K * g.P, 1)))
    g.by_sample = n > 1 and (o // g.groups) * (g.K // g.groups) * g.P <= SMALL_GEMM
    g.threads = min(n, _threads(n * g.K * g.P))
    return g


def _same_float(*arrays):
    dtype = arrays[0].dtype
    if dtype != np.float32 and dtype != np.float64:
        return False
    return all(isinstance(a, np.ndarray) and a.dtype == dtype for a in arrays)


def _is_depthwise(_Geometry g):
    return g.groups == g.c and g.groups > 1


# --------------------------------------------------------------------------- general: im2col + GEMM

cdef void _forward(const real* x, const real* wt, real* y, real* cols, real* buf,
                   _Geometry g) noexcept nogil:
    cdef Py_ssize_t n0, nb, gi
    cdef Py_ssize_t og = g.o // g.groups, kg = g.K // g.groups
    cdef int cols_ld, out_ld
    n0 = 0
    while n0 < g.n:
        nb = min(g.nb, g.n - n0)
        _im2col(x + n0 * g.c * g.h * g.w, cols, nb, g.c, g.h, g.w, g.kh, g.kw, g.sh, g.sw,
                g.top, g.left, g.dh, g.dw, g.oh, g.ow)
        cols_ld = nb * g.P
        out_ld = nb * g.P
        for gi in range(g.groups):
            if nb == 1:
                _gemm(False, False, og, cols_ld, kg, 1, wt + gi * og * kg, kg,
                      cols + gi * kg * cols_ld, cols_ld, 0, y + (n0 * g.o + gi * og) * g.P, out_ld)
            else:
                _gemm(False, False, og, cols_ld, kg, 1, wt + gi * og * kg, kg,
                      cols + gi * kg * cols_ld, cols_ld, 0, buf + gi * og * out_ld, out_ld)
        if nb > 1:
            _rows_to_samples(buf, y + n0 * g.o * g.P, nb, g.o, g.P)
        n0 += nb


cdef void _backward_input(const real* dout, const real* wt, real* dx, real* cols, real* buf,
                          _Geometry g) noexcept nogil:
    cdef Py_ssize_t n0, nb, gi
    cdef Py_ssize_t og = g.o // g.groups, kg = g.K // g.groups
    cdef int ld
    cdef const real* grads
    n0 = 0
    while n0 < g.n:
        nb = min(g.nb, g.n - n0)
        ld = nb * g.P
        if nb == 1:
            grads = dout + n0 * g.o * g.P
        else:
            _samples_to_rows(dout + n0 * g.o * g.P, buf, nb, g.o, g.P)
            grads = buf
        for gi in range(g.groups):
            _gemm(True, False, kg, ld, og, 1, wt + gi * og * kg, kg, grads + gi * og * ld, ld,
                  0, cols + gi * kg * ld, ld)
        _col2im(cols, dx + n0 * g.c * g.h * g.w, nb, g.c, g.h, g.w, g.kh, g.kw, g.sh, g.sw,
                g.top, g.left, g.dh, g.dw, g.oh, g.ow)
        n0 += nb


cdef void _backward_filter(const real* dout, const real* x, real* dw, real* cols, real* buf,
                           _Geometry g) noexcept nogil:
    cdef Py_ssize_t n0, nb, gi
    cdef Py_ssize_t og = g.o // g.groups, kg = g.K // g.groups
    cdef int ld
    cdef real beta = 0
    cdef const real* grads
    n0 = 0
    while n0 < g.n:
        nb = min(g.nb, g.n - n0)
        ld = nb * g.P
        _im2col(x + n0 * g.c * g.h * g.w, cols, nb, g.c, g.h, g.w, g.kh, g.kw, g.sh, g.sw,
                g.top, g.left, g.dh, g.dw, g.oh, g.ow)
        if nb == 1:
            grads = dout + n0 * g.o * g.P
        else:
            _samples_to_rows(dout + n0 * g.o * g.P, buf, nb, g.o, g.P)
            grads = buf
        for gi in range(g.groups):
            _gemm(False, True, og, kg, ld, 1, grads + gi * og * ld, ld, cols + gi * kg * ld, ld,
                  beta, dw + gi * og * kg, kg)
        beta = 1
        n0 += nb


# --------------------------------------------------------------------------- small: one sample a task

cdef void _sample_forward(const real* x, const real* wt, real* y, real* cols,
                          _Geometry g) noexcept nogil:
    """y (O, P) = W_g · im2col(x) per group, for one sample: the GEMM writes NCHW."""
    cdef Py_ssize_t ch, gi
    cdef Py_ssize_t og = g.o // g.groups, kg = g.K // g.groups
    for ch in range(g.c):
        _unfold_plane(x + ch * g.h * g.w, cols + ch * g.kh * g.kw * g.P, g.P, g.h, g.w, g.kh,
                      g.kw, g.sh, g.sw, g.top, g.left, g.dh, g.dw, g.oh, g.ow)
    for gi in range(g.groups):
        _gemm(False, False, og, g.P, kg, 1, wt + gi * og * kg, kg, cols + gi * kg * g.P, g.P,
              0, y + gi * og * g.P, g.P)


cdef void _sample_backward_input(const real* dout, const real* wt, real* dx, real* cols,
                                 _Geometry g) noexcept nogil:
    """dx (C, H, W) = col2im(W_gᵀ · dY_g) per group, for one sample."""
    cdef Py_ssize_t ch, gi
    cdef Py_ssize_t og = g.o // g.groups, kg = g.K // g.groups
    for gi in range(g.groups):
        _gemm(True, False, kg, g.P, og, 1, wt + gi * og * kg, kg, dout + gi * og * g.P, g.P,
              0, cols + gi * kg * g.P, g.P)
    for ch in range(g.c):
        _fold_plane(cols + ch * g.kh * g.kw * g.P, dx + ch * g.h * g.w, g.P, g.h, g.w, g.kh,
                    g.kw, g.sh, g.sw, g.top, g.left, g.dh, g.dw, g.oh, g.ow)


cdef void _sample_backward_filter(const real* dout, const real* x, real* dwt, real* cols,
                                  real* grads, _Geometry g) noexcept nogil:
    """dW_gᵀ (K/G, O/G) += im2col(x)_g (K/G, P) · dY_gᵀ (P, O/G) per group, for one sample.

    dY is transposed first (O·P values) so that both GEMM operands are read along their rows:
    BLAS runs the product as fast as the forward's, several times faster than dY · colsᵀ.
    """
    cdef Py_ssize_t ch, gi, oc, k
    cdef Py_ssize_t og = g.o // g.groups, kg = g.K // g.groups
    for oc in range(g.o):
        for k in range(g.P):
            grads[k * g.o + oc] = dout[oc * g.P + k]
    for ch in range(g.c):
        _unfold_plane(x + ch * g.h * g.w, cols + ch * g.kh * g.kw * g.P, g.P, g.h, g.w, g.kh,
                      g.kw, g.sh, g.sw, g.top, g.left, g.dh, g.dw, g.oh, g.ow)
    for gi in range(g.groups):
        _gemm(False, False, kg, og, g.P, 1, cols + gi * kg * g.P, g.P, grads + gi * og, g.o,
              1, dwt + gi * kg * og, og)


cdef void _forward_by_sample(const real* x, const real* wt, real* y, real* scratch, _Geometry g,
                             int threads) noexcept nogil:
    cdef Py_ssize_t s
    for s in prange(g.n, schedule="static", num_threads=threads):
        _sample_forward(x + s * g.c * g.h * g.w, wt, y + s * g.o * g.P,
                        scratch + threadid() * g.K * g.P, g)


cdef void _backward_input_by_sample(const real* dout, const real* wt, real* dx, real* scratch,
                                    _Geometry g, int threads) noexcept nogil:
    cdef Py_ssize_t s
    for s in prange(g.n, schedule="static", num_threads=threads):
        _sample_backward_input(dout + s * g.o * g.P, wt, dx + s * g.c * g.h * g.w,
                               scratch + threadid() * g.K * g.P, g)


cdef void _backward_filter_by_sample(const real* dout, const real* x, real* partial,
                                     real* scratch, _Geometry g, int threads) noexcept nogil:
    """partial[t, g] = Σ over thread t's samples of dW_gᵀ (zeroed by the caller)."""
    cdef Py_ssize_t s
    cdef Py_ssize_t per_thread = (g.K + g.o) * g.P
    for s in prange(g.n, schedule="static", num_threads=threads):
        _sample_backward_filter(dout + s * g.o * g.P, x + s * g.c * g.h * g.w,
                                partial + threadid() * g.o * (g.K // g.groups),
                                scratch + threadid() * per_thread,
                                scratch + threadid() * per_thread + g.K * g.P, g)


# --------------------------------------------------------------------------- depthwise: direct loops

cdef void _dw_forward(const real* x, const real* wt, real* y, _Geometry g) noexcept nogil:
    """y[s, o] = Σ_{p,q} w[o, 0, p, q] · x_pad[s, o // m] shifted by tap (p, q)."""
    cdef Py_ssize_t plane, s, oc, ch, p, q, i, j, row, lo, hi, offset
    cdef Py_ssize_t m = g.o // g.c
    cdef const real* src
    cdef real* dst
    cdef real tap
    cdef int threads = _threads(g.n * g.o * g.P * g.kh * g.kw)
    for plane in prange(g.n * g.o, schedule="static", num_threads=threads):
        s = plane // g.o
        oc = plane % g.o
        ch = oc // m
        src = x + (s * g.c + ch) * g.h * g.w
        dst = y + plane * g.P
        memset(dst, 0, g.P * sizeof(real))
        for p in range(g.kh):
            for q in range(g.kw):
                tap = wt[(oc * g.kh + p) * g.kw + q]
                offset = q * g.dw - g.left
                lo = _first(g.sw, offset)
                hi = _end(g.ow, g.w, g.sw, offset, lo)
                for i in range(g.oh):
                    row = i * g.sh + p * g.dh - g.top
                    if row < 0 or row >= g.h:
                        continue
                    for j in range(lo, hi):
                        dst[i * g.ow + j] += tap * src[row * g.w + j * g.sw + offset]


cdef void _dw_backward_input(const real* dout, const real* wt, real* dx, _Geometry g) noexcept nogil:
    """dx[s, c] = Σ over c's m output channels and the taps of w · dout, scattered back."""
    cdef Py_ssize_t plane, s, ch, k, oc, p, q, i, j, row, lo, hi, offset
    cdef Py_ssize_t m = g.o // g.c
    cdef const real* src
    cdef real* dst
    cdef real tap
    cdef int threads = _threads(g.n * g.o * g.P * g.kh * g.kw)
    for plane in prange(g.n * g.c, schedule="static", num_threads=threads):
        s = plane // g.c
        ch = plane % g.c
        dst = dx + plane * g.h * g.w
        memset(dst, 0, g.h * g.w * sizeof(real))
        for k in range(m):
            oc = ch * m + k
            src = dout + (s * g.o + oc) * g.P
            for p in range(g.kh):
                for q in range(g.kw):
                    tap = wt[(oc * g.kh + p) * g.kw + q]
                    offset = q * g.dw - g.left
                    lo = _first(g.sw, offset)
                    hi = _end(g.ow, g.w, g.sw, offset, lo)
                    for i in range(g.oh):
                        row = i * g.sh + p * g.dh - g.top
                        if row < 0 or row >= g.h:
                            continue
                        for j in range(lo, hi):
                            dst[row * g.w + j * g.sw + offset] += tap * src[i * g.ow + j]


cdef void _dw_backward_filter(const real* dout, const real* x, real* dw, _Geometry g) noexcept nogil:
    """dw[o, 0, p, q] = Σ_s Σ_{i,j} dout[s, o, i, j] · x_pad[s, o // m, i·sh + p·dh, j·sw + q·dw]."""
    cdef Py_ssize_t oc, ch, s, p, q, i, j, row, lo, hi, offset
    cdef Py_ssize_t m = g.o // g.c
    cdef const real* src
    cdef const real* grad
    cdef double total
    cdef int threads = _threads(g.n * g.o * g.P * g.kh * g.kw)
    for oc in prange(g.o, schedule="static", num_threads=threads):
        ch = oc // m
        for p in range(g.kh):
            for q in range(g.kw):
                offset = q * g.dw - g.left
                lo = _first(g.sw, offset)
                hi = _end(g.ow, g.w, g.sw, offset, lo)
                total = 0
                for s in range(g.n):
                    src = x + (s * g.c + ch) * g.h * g.w
                    grad = dout + (s * g.o + oc) * g.P
                    for i in range(g.oh):
                        row = i * g.sh + p * g.dh - g.top
                        if row < 0 or row >= g.h:
                            continue
                        for j in range(lo, hi):
                            total = total + <double>grad[i * g.ow + j] * src[row * g.w + j * g.sw + offset]
                dw[(oc * g.kh + p) * g.kw + q] = <real>total


# --------------------------------------------------------------------------- entry points

def _run_forward(real[:, :, :, ::1] x, real[:, :, :, ::1] w, real[:, :, :, ::1] y, _Geometry g):
    cdef real[::1] cols, buf
    if _is_depthwise(g):
        with nogil:
            _dw_forward(&x[0, 0, 0, 0], &w[0, 0, 0, 0], &y[0, 0, 0, 0], g)
        return
    dtype = np.float32 if real is float else np.float64
    if g.by_sample:
        cols = np.empty(g.threads * g.K * g.P, dtype=dtype)
        with nogil:
            _forward_by_sample(&x[0, 0, 0, 0], &w[0, 0, 0, 0], &y[0, 0, 0, 0], &cols[0], g,
                               g.threads)
        return
    cols = np.empty(g.K * g.nb * g.P, dtype=dtype)
    buf = np.empty(g.o * g.nb * g.P, dtype=dtype)
    with nogil:
        _forward(&x[0, 0, 0, 0], &w[0, 0, 0, 0], &y[0, 0, 0, 0], &cols[0], &buf[0], g)


def _run_backward_input(real[:, :, :, ::1] dout, real[:, :, :, ::1] w, real[:, :, :, ::1] dx,
                        _Geometry g):
    cdef real[::1] cols, buf
    if _is_depthwise(g):
        with nogil:
            _dw_backward_input(&dout[0, 0, 0, 0], &w[0, 0, 0, 0], &dx[0, 0, 0, 0], g)
        return
    dtype = np.float32 if real is float else np.float64
    if g.by_sample:
        cols = np.empty(g.threads * g.K * g.P, dtype=dtype)
        with nogil:
            _backward_input_by_sample(&dout[0, 0, 0, 0], &w[0, 0, 0, 0], &dx[0, 0, 0, 0],
                                      &cols[0], g, g.threads)
        return
    cols = np.empty(g.K * g.nb * g.P, dtype=dtype)
    buf = np.empty(g.o * g.nb * g.P, dtype=dtype)
    with nogil:
        _backward_input(&dout[0, 0, 0, 0], &w[0, 0, 0, 0], &dx[0, 0, 0, 0], &cols[0], &buf[0], g)


def _run_backward_filter(real[:, :, :, ::1] dout, real[:, :, :, ::1] x, real[:, :, :, ::1] dw,
                         _Geometry g):
    cdef real[::1] cols, buf
    cdef real[:, :, :, ::1] partial
    if _is_depthwise(g):
        with nogil:
            _dw_backward_filter(&dout[0, 0, 0, 0], &x[0, 0, 0, 0], &dw[0, 0, 0, 0], g)
        return
    dtype = np.float32 if real is float else np.float64
    if g.by_sample:
        cols = np.empty(g.threads * (g.K + g.o) * g.P, dtype=dtype)
        partial = np.zeros((g.threads, g.groups, g.K // g.groups, g.o // g.groups), dtype=dtype)
        with nogil:
            _backward_filter_by_sample(&dout[0, 0, 0, 0], &x[0, 0, 0, 0], &partial[0, 0, 0, 0],
                                       &cols[0], g, g.threads)
        total = np.asarray(partial).sum(axis=0)                       # (G, K/G, O/G)
        np.asarray(dw)[...] = total.transpose(0, 2, 1).reshape(np.asarray(dw).shape)
        return
    cols = np.empty(g.K * g.nb * g.P, dtype=dtype)
    buf = np.empty(g.o * g.nb * g.P, dtype=dtype)
    with nogil:
        _backward_filter(&dout[0, 0, 0, 0], &x[0, 0, 0, 0], &dw[0, 0, 0, 0], &cols[0], &buf[0], g)


def conv2d(x, w, stride, pad, dilation, groups):
    """y = W ⋆ x (cross-correlation): im2col + GEMM per chunk of samples; depthwise: direct loop."""
    g = _geometry(x.shape, w.shape, stride, pad, dilation, groups) if x.ndim == 4 and w.ndim == 4 else None
    if g is None or not _same_float(x, w):
        return reference_kernel("conv2d")(x, w, stride, pad, dilation, groups)
    y = np.empty((g.n, g.o, g.oh, g.ow), dtype=x.dtype)
    _run_forward(np.ascontiguousarray(x), np.ascontiguousarray(w), y, g)
    return y


def conv2d_backprop_input(dout, w, x_shape, stride, pad, dilation, groups):
    """dx = col2im(Wᵀ · dY) per chunk of samples; depthwise: direct scatter loop."""
    g = _geometry(x_shape, w.shape, stride, pad, dilation, groups) \
        if len(x_shape) == 4 and w.ndim == 4 and dout.ndim == 4 else None
    if (g is None or not _same_float(dout, w)
            or tuple(dout.shape) != (g.n, g.o, g.oh, g.ow)):
        return reference_kernel("conv2d_backprop_input")(dout, w, x_shape, stride, pad, dilation,
                                                         groups)
    dx = np.empty(tuple(int(v) for v in x_shape), dtype=dout.dtype)
    _run_backward_input(np.ascontiguousarray(dout), np.ascontiguousarray(w), dx, g)
    return dx


def conv2d_backprop_filter(dout, x, w_shape, stride, pad, dilation, groups):
    """dW = Σ_chunks dY · im2col(x)ᵀ (GEMM with β = 1); depthwise: direct loop in float64."""
    g = _geometry(x.shape, w_shape, stride, pad, dilation, groups) \
        if x.ndim == 4 and len(w_shape) == 4 and dout.ndim == 4 else None
    if (g is None or not _same_float(dout, x)
            or tuple(dout.shape) != (g.n, g.o, g.oh, g.ow)):
        return reference_kernel("conv2d_backprop_filter")(dout, x, w_shape, stride, pad, dilation,
                                                          groups)
    dw = np.empty(tuple(int(v) for v in w_shape), dtype=x.dtype)
    _run_backward_filter(np.ascontiguousarray(dout), np.ascontiguousarray(x), dw, g)
    return dw
