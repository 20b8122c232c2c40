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
multiply-adds, e.g. LeNet's layers): one OpenMP ``prange`` over the samples
(dynamic schedule: a thread that starts late on a busy machine takes fewer);
each thread unfolds its sample into its own ``cols`` (small enough to stay in
its L2 cache) and calls BLAS, which runs such small products in the calling
thread.  Per sample and group g:

* forward: ``Y_g (O/G, P) = W_g (O/G, K/G) · cols_g``, written straight
  into y's NCHW layout;
* backprop_input: ``dcols_g = W_gᵀ · dY_g``, then *col2im*, the adjoint of
  im2col, adds every column entry back into its input cell of dx;
* backprop_filter: ``dW_gᵀ (K/G, O/G) += cols_g · dY_gᵀ``, a few samples a
  GEMM; dY is transposed first (O·P values a sample) so that BLAS reads both
  operands along rows (several times faster than ``dY · colsᵀ``).  The
  samples are cut into (at most) 16 fixed runs, each summed in order into its own
  partial sum, and the partial sums are added at the end: the result does not
  depend on the threads.

With stride 1 and no padding the columns are *wide*: column m = i·W + j
(W the input's width, not OW) reads ``x[c].flat[p·dh·W + q·dw + m]``, so
each row of ``cols`` is one contiguous run of x, copied by one ``memcpy``
and added back by one vectorized loop, instead of OH short rows.  The
columns with j ≥ OW are junk: the forward drops them when it copies the
GEMM's result into y, the backprops put zeros in dY's copy there.  The GEMMs
grow by W/OW (1.14× for LeNet's first layer, 1.4× for its second); the
unfolding, which cost more than the GEMMs, shrinks to a few long copies.

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

#: How many partial sums the filter gradient of small products adds (runs of samples).
cdef Py_ssize_t FILTER_BLOCKS = 16

#: Size of the columns the filter gradient of small products unfolds for one GEMM, in
#: elements (256 KiB of float32: a few samples, in L2 cache).
cdef Py_ssize_t SAMPLE_COLUMNS = 1 << 16


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
    # one sample a task: wide columns?, row pitch and columns (per sample) of cols, and
    # samples a GEMM of the filter gradient
    cdef public bint by_sample, wide
    cdef public Py_ssize_t pitch, L, nb_filter


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
    g.wide = g.by_sample and g.sh == 1 and g.sw == 1 and not any(pad)
    g.pitch = w if g.wide else g.ow
    g.L = (g.oh - 1) * g.pitch + g.ow
    g.nb_filter = max(1, min(n, SAMPLE_COLUMNS // max(g.K * g.L, 1)))
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

cdef void _unfold_sample(const real* x, real* cols, Py_ssize_t ld, _Geometry g) noexcept nogil:
    """The K rows of one sample's column matrix, ld elements apart, L columns each.

    Wide columns (stride 1, no padding): column m = i·W + j reads
    ``x[c].flat[p·dh·W + q·dw + m]``, so row (c, p, q) is one contiguous run of x; the
    columns with j ≥ OW are junk.
    """
    cdef Py_ssize_t ch, p, q
    if not g.wide:
        for ch in range(g.c):
            _unfold_plane(x + ch * g.h * g.w, cols + ch * g.kh * g.kw * ld, ld, g.h, g.w, g.kh,
                          g.kw, g.sh, g.sw, g.top, g.left, g.dh, g.dw, g.oh, g.ow)
        return
    for ch in range(g.c):
        for p in range(g.kh):
            for q in range(g.kw):
                memcpy(cols + ((ch * g.kh + p) * g.kw + q) * ld,
                       x + ch * g.h * g.w + p * g.dh * g.w + q * g.dw, g.L * sizeof(real))


cdef void _fold_sample(const real* cols, real* dx, Py_ssize_t ld, _Geometry g) noexcept nogil:
    """Adjoint of :func:`_unfold_sample`: dx (C, H, W) = Σ of the column entries that read
    each cell (wide columns: junk columns must hold zeros)."""
    cdef Py_ssize_t ch, p, q, m
    cdef const real* src
    cdef real* dst
    if not g.wide:
        for ch in range(g.c):
            _fold_plane(cols + ch * g.kh * g.kw * ld, dx + ch * g.h * g.w, ld, g.h, g.w, g.kh,
                        g.kw, g.sh, g.sw, g.top, g.left, g.dh, g.dw, g.oh, g.ow)
        return
    memset(dx, 0, g.c * g.h * g.w * sizeof(real))
    for ch in range(g.c):
        for p in range(g.kh):
            for q in range(g.kw):
                src = cols + ((ch * g.kh + p) * g.kw + q) * ld
                dst = dx + ch * g.h * g.w + p * g.dh * g.w + q * g.dw
                for m in range(g.L):
                    dst[m] += src[m]


cdef void _spread_rows(const real* dout, real* out, Py_ssize_t rows, _Geometry g) noexcept nogil:
    """out[r, i·pitch + j] = dout[r, i, j] for rows r of (OH, OW) planes; junk columns zero."""
    cdef Py_ssize_t r, i, j
    for r in range(rows):
        for i in range(g.oh):
            for j in range(g.ow):
                out[r * g.L + i * g.pitch + j] = dout[(r * g.oh + i) * g.ow + j]
            if i + 1 < g.oh:
                for j in range(g.ow, g.pitch):
                    out[r * g.L + i * g.pitch + j] = 0


cdef void _sample_forward(const real* x, const real* wt, real* y, real* cols,
                          _Geometry g) noexcept nogil:
    """y (O, P) = W_g · im2col(x) per group, for one sample: the GEMM writes NCHW
    (wide columns: into scratch, whose rows are then copied without their junk)."""
    cdef Py_ssize_t gi, oc, i
    cdef Py_ssize_t og = g.o // g.groups, kg = g.K // g.groups
    cdef real* out = cols + g.K * g.L if g.wide else y
    _unfold_sample(x, cols, g.L, g)
    for gi in range(g.groups):
        _gemm(False, False, og, g.L, kg, 1, wt + gi * og * kg, kg, cols + gi * kg * g.L, g.L,
              0, out + gi * og * g.L, g.L)
    if g.wide:
        for oc in range(g.o):
            for i in range(g.oh):
                memcpy(y + (oc * g.oh + i) * g.ow, out + oc * g.L + i * g.pitch,
                       g.ow * sizeof(real))


cdef void _sample_backward_input(const real* dout, const real* wt, real* dx, real* cols,
                                 _Geometry g) noexcept nogil:
    """dx (C, H, W) = col2im(W_gᵀ · dY_g) per group, for one sample."""
    cdef Py_ssize_t gi
    cdef Py_ssize_t og = g.o // g.groups, kg = g.K // g.groups
    cdef const real* grads = dout
    if g.wide:
        _spread_rows(dout, cols + g.K * g.L, g.o, g)
        grads = cols + g.K * g.L
    for gi in range(g.groups):
        _gemm(True, False, kg, g.L, og, 1, wt + gi * og * kg, kg, grads + gi * og * g.L, g.L,
              0, cols + gi * kg * g.L, g.L)
    _fold_sample(cols, dx, g.L, g)


cdef void _samples_backward_filter(const real* dout, const real* x, Py_ssize_t nb, real* dwt,
                                   real* cols, real* grads, _Geometry g) noexcept nogil:
    """dW_gᵀ (K/G, O/G) += im2col(x)_g (K/G, nb·L) · dY_gᵀ (nb·L, O/G) per group, for nb samples.

    dY is transposed first (O·P values a sample) so that both GEMM operands are read along their
    rows: BLAS runs the product as fast as the forward's, several times faster than dY · colsᵀ.
    """
    cdef Py_ssize_t s, gi, oc, i, j, row
    cdef Py_ssize_t og = g.o // g.groups, kg = g.K // g.groups, ld = nb * g.L
    for s in range(nb):
        for i in range(g.oh):
            row = s * g.L + i * g.pitch
            for j in range(g.ow):
                for oc in range(g.o):
                    grads[(row + j) * g.o + oc] = dout[((s * g.o + oc) * g.oh + i) * g.ow + j]
            if i + 1 < g.oh and g.pitch > g.ow:
                memset(grads + (row + g.ow) * g.o, 0, (g.pitch - g.ow) * g.o * sizeof(real))
        _unfold_sample(x + s * g.c * g.h * g.w, cols + s * g.L, ld, g)
    for gi in range(g.groups):
        _gemm(False, False, kg, og, ld, 1, cols + gi * kg * ld, ld, grads + gi * og, g.o,
              1, dwt + gi * kg * og, og)


cdef void _forward_by_sample(const real* x, const real* wt, real* y, real* scratch, _Geometry g,
                             int threads) noexcept nogil:
    cdef Py_ssize_t s
    for s in prange(g.n, schedule="dynamic", num_threads=threads):
        _sample_forward(x + s * g.c * g.h * g.w, wt, y + s * g.o * g.P,
                        scratch + threadid() * (g.K + g.o) * g.L, g)


cdef void _backward_input_by_sample(const real* dout, const real* wt, real* dx, real* scratch,
                                    _Geometry g, int threads) noexcept nogil:
    cdef Py_ssize_t s
    for s in prange(g.n, schedule="dynamic", num_threads=threads):
        _sample_backward_input(dout + s * g.o * g.P, wt, dx + s * g.c * g.h * g.w,
                               scratch + threadid() * (g.K + g.o) * g.L, g)


cdef void _backward_filter_by_sample(const real* dout, const real* x, real* partial,
                                     real* scratch, _Geometry g, Py_ssize_t blocks,
                                     int threads) noexcept nogil:
    """partial[b, g] = Σ over the samples of block b of dW_gᵀ (zeroed by the caller), a few
    samples (``nb_filter``, their columns in L2 cache) a GEMM.

    The samples are cut into ``blocks`` runs of consecutive samples, fixed by n alone, each
    summed in order by one thread: the result does not depend on the thread count or on
    which thread ran which block.
    """
    cdef Py_ssize_t b, s, end, nb
    cdef Py_ssize_t per_thread = (g.K + g.o) * g.nb_filter * g.L
    cdef real* cols
    for b in prange(blocks, schedule="dynamic", num_threads=threads):
        cols = scratch + threadid() * per_thread
        s = b * g.n // blocks
        end = (b + 1) * g.n // blocks
        while s < end:
            nb = min(g.nb_filter, end - s)
            _samples_backward_filter(dout + s * g.o * g.P, x + s * g.c * g.h * g.w, nb,
                                     partial + b * g.o * (g.K // g.groups), cols,
                                     cols + g.K * g.nb_filter * g.L, g)
            s = s + nb


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
        cols = np.empty(g.threads * (g.K + g.o) * g.L, dtype=dtype)
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
        cols = np.empty(g.threads * (g.K + g.o) * g.L, dtype=dtype)
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
    cdef Py_ssize_t blocks
    if _is_depthwise(g):
        with nogil:
            _dw_backward_filter(&dout[0, 0, 0, 0], &x[0, 0, 0, 0], &dw[0, 0, 0, 0], g)
        return
    dtype = np.float32 if real is float else np.float64
    if g.by_sample:
        blocks = min(g.n, FILTER_BLOCKS)
        cols = np.empty(g.threads * (g.K + g.o) * g.nb_filter * g.L, dtype=dtype)
        partial = np.zeros((blocks, g.groups, g.K // g.groups, g.o // g.groups), dtype=dtype)
        with nogil:
            _backward_filter_by_sample(&dout[0, 0, 0, 0], &x[0, 0, 0, 0], &partial[0, 0, 0, 0],
                                       &cols[0], g, blocks, g.threads)
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
