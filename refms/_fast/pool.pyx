# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Cython twins of :mod:`refms.kernels.pool` (same signatures and results).

* ``max_pool2d``: one pass over each output cell's window, scanned from its
  first real cell in row-major order, a later cell taken only when strictly
  greater (so the first maximum wins, a NaN in the first cell stays and a
  later NaN is passed over, as the reference); padded cells never win.
  Windows wholly inside the input skip the bounds checks, and 2×2 / 3×3
  windows of stride 2 run as SIMD code (see ``_max_row_inside``).
* ``max_pool2d_grad``: dx starts at zero and each dout cell is added at its
  argmax, one (n, c) plane per thread (OpenMP ``prange``), in the input's
  dtype — no float64 detour, no bincount.
* ``max_pool2d_grad_grad``: ddy gathers ddx at the argmax.
* ``avg_pool2d``: each window's sum over the real (unpadded) cells — the
  padding is zero — accumulated in float64, divided by the divisor.
* ``avg_pool2d_grad``: its adjoint, each window cell receives
  ``dout / divisor``.

The divisor (an array broadcastable to (OH, OW), by default the count of
real cells of each window) is computed once per call, as the reference
does.  float32 and float64 run here; other dtypes and empty shapes fall
back to the reference kernel.
"""
import numpy as np
cimport numpy as cnp
from libc.string cimport memset
from cython.parallel cimport prange

from ..kernels import pool as _reference

__all__ = ["max_pool2d", "max_pool2d_grad", "max_pool2d_grad_grad", "avg_pool2d",
           "avg_pool2d_grad"]

include "_threads.pxi"

ctypedef fused real:
    float
    double


cdef inline void _keep_first_max(real value, Py_ssize_t index, real* best,
                                 Py_ssize_t* best_index) noexcept nogil:
    """One tap of the window scan: the cell replaces the maximum so far only when strictly
    greater.  Written as two selects, which the compiler turns into max/blend instructions
    instead of a branch the processor would mispredict on random data."""
    cdef bint greater = value > best[0]
    best[0] = value if greater else best[0]
    best_index[0] = index if greater else best_index[0]


cdef inline void _max_window(const real* x, Py_ssize_t w, Py_ssize_t row_lo, Py_ssize_t row_hi,
                             Py_ssize_t col_lo, Py_ssize_t col_hi, real* out,
                             long long* arg) noexcept nogil:
    """The scan of one window clipped to the real cells [row_lo, row_hi) × [col_lo, col_hi):
    started at its first real cell, row-major; an empty window gives 0 and argmax −1."""
    cdef Py_ssize_t row, col
    cdef real best = 0
    cdef Py_ssize_t best_index = -1
    if row_lo < row_hi and col_lo < col_hi:
        best = x[row_lo * w + col_lo]
        best_index = row_lo * w + col_lo
        for row in range(row_lo, row_hi):
            for col in range(col_lo, col_hi):
                _keep_first_max(x[row * w + col], row * w + col, &best, &best_index)
    out[0] = best
    arg[0] = best_index


cdef inline void _max_2x2_stride2(const real* x, Py_ssize_t w, Py_ssize_t row, Py_ssize_t col0,
                                  Py_ssize_t j0, int count, real* out,
                                  long long* arg) noexcept nogil:
    """Windows j0 ≤ j < j0 + count of one output row: 2×2, column stride 2, top-left cell
    (row, col0 + 2j), each wholly inside the input."""
    cdef const real* top = x + row * w
    cdef const real* mid = top + w
    cdef Py_ssize_t j, col, at
    cdef real best
    cdef Py_ssize_t best_index
    for j in range(j0, j0 + count):
        col = col0 + 2 * j
        at = row * w + col
        best = top[col]
        best_index = at
        _keep_first_max(top[col + 1], at + 1, &best, &best_index)
        _keep_first_max(mid[col], at + w, &best, &best_index)
        _keep_first_max(mid[col + 1], at + w + 1, &best, &best_index)
        out[j] = best
        arg[j] = best_index


cdef inline void _max_3x3_stride2(const real* x, Py_ssize_t w, Py_ssize_t row, Py_ssize_t col0,
                                  Py_ssize_t j0, int count, real* out,
                                  long long* arg) noexcept nogil:
    """Windows j0 ≤ j < j0 + count of one output row: 3×3, column stride 2, top-left cell
    (row, col0 + 2j), each wholly inside the input."""
    cdef const real* top = x + row * w
    cdef const real* mid = top + w
    cdef const real* low = mid + w
    cdef Py_ssize_t j, col, at
    cdef real best
    cdef Py_ssize_t best_index
    for j in range(j0, j0 + count):
        col = col0 + 2 * j
        at = row * w + col
        best = top[col]
        best_index = at
        _keep_first_max(top[col + 1], at + 1, &best, &best_index)
        _keep_first_max(top[col + 2], at + 2, &best, &best_index)
        _keep_first_max(mid[col], at + w, &best, &best_index)
        _keep_first_max(mid[col + 1], at + w + 1, &best, &best_index)
        _keep_first_max(mid[col + 2], at + w + 2, &best, &best_index)
        _keep_first_max(low[col], at + 2 * w, &best, &best_index)
        _keep_first_max(low[col + 1], at + 2 * w + 1, &best, &best_index)
        _keep_first_max(low[col + 2], at + 2 * w + 2, &best, &best_index)
        out[j] = best
        arg[j] = best_index


cdef void _max_row_inside(const real* x, Py_ssize_t w, Py_ssize_t row, int kh, int kw, int sw,
                          Py_ssize_t col0, Py_ssize_t j_lo, Py_ssize_t j_hi, real* out,
                          long long* arg) noexcept nogil:
    """Windows j_lo ≤ j < j_hi of one output row, each wholly inside the input: its top-left
    cell is (row, col0 + j·sw).  No bounds checks.

    2×2 and 3×3 windows of stride 2 (LeNet's, ResNet's) are unrolled and compiled to SIMD
    code where that paid off when measured (float32, AVX-512, 1 thread):

    * 2×2, 8 to 63 windows (LeNet's rows have 14): the compiler's vector loop would run most
      of so short a row one window at a time, so the row goes in chunks of a fixed 8
      windows, the last chunk moved back to end at j_hi (windows computed twice get the same
      result) — 1.4 ns a window instead of 6.6;
    * 2×2 from 64 windows, 3×3 from 16: the row's own vector loop;
    * anything shorter (LeNet's second pool has rows of 5), and other windows: the plain
      scan.  Short vector loops ran 2-3x slower than it once the data outgrew the L2 cache.
    """
    cdef Py_ssize_t j, start, p, q, col, at
    cdef real best
    cdef Py_ssize_t best_index
    cdef Py_ssize_t n = j_hi - j_lo
    if kh == 2 and kw == 2 and sw == 2 and n >= 8:
        if n >= 64:
            _max_2x2_stride2(x, w, row, col0, j_lo, <int>n, out, arg)
            return
        j = j_lo
        while j < j_hi:
            start = min(j, j_hi - 8)
            _max_2x2_stride2(x, w, row, col0, start, 8, out, arg)
            j = start + 8
    elif kh == 3 and kw == 3 and sw == 2 and n >= 16:
        _max_3x3_stride2(x, w, row, col0, j_lo, <int>n, out, arg)
    else:
        for j in range(j_lo, j_hi):
            col = col0 + j * sw
            best = x[row * w + col]
            best_index = row * w + col
            for p in range(kh):
                for q in range(kw):
                    at = (row + p) * w + col + q
                    _keep_first_max(x[at], at, &best, &best_index)
            out[j] = best
            arg[j] = best_index


cdef void _max_pool_planes(const real[:, :, ::1] x, real[:, :, ::1] out, long long[:, :, ::1] arg,
                           int kh, int kw, int sh, int sw, int top, int left) noexcept nogil:
    """Each output row: the windows that lie wholly inside the input (all of them without
    padding) run the unchecked scan of ``_max_row_inside``; the others are clipped."""
    cdef Py_ssize_t planes = x.shape[0], h = x.shape[1], w = x.shape[2]
    cdef Py_ssize_t oh = out.shape[1], ow = out.shape[2]
    cdef Py_ssize_t plane, i, j, row0, col0, j_lo, j_hi
    cdef const real* source
    cdef real* result
    cdef long long* where
    cdef int threads = _threads(planes * oh * ow * kh * kw)
    # the columns j_lo ≤ j < j_hi whose window lies inside: 0 ≤ j·sw − left and j·sw − left + kw ≤ w
    j_lo = min((left + sw - 1) // sw, ow)
    j_hi = max(min((w + left - kw) // sw + 1, ow), j_lo) if w + left >= kw else j_lo
    for plane in prange(planes, schedule="static", num_threads=threads):
        source = &x[plane, 0, 0]
        for i in range(oh):
            result = &out[plane, i, 0]
            where = &arg[plane, i, 0]
            row0 = i * sh - top
            if row0 >= 0 and row0 + kh <= h:
                for j in range(j_lo):
                    col0 = j * sw - left
                    _max_window(source, w, row0, row0 + kh, max(col0, 0), min(col0 + kw, w),
                                result + j, where + j)
                _max_row_inside(source, w, row0, kh, kw, sw, -left, j_lo, j_hi, result, where)
                for j in range(j_hi, ow):
                    col0 = j * sw - left
                    _max_window(source, w, row0, row0 + kh, max(col0, 0), min(col0 + kw, w),
                                result + j, where + j)
            else:
                for j in range(ow):
                    col0 = j * sw - left
                    _max_window(source, w, max(row0, 0), min(row0 + kh, h), max(col0, 0),
                                min(col0 + kw, w), result + j, where + j)


def max_pool2d(x, kernel, stride, pad):
    """y = max over each window (padding excluded); argmax = flat index of its first maximum."""
    if x.dtype != np.float32 and x.dtype != np.float64:
        return _reference.max_pool2d(x, kernel, stride, pad)
    n, c, h, w = x.shape
    oh = (h + pad[0] + pad[1] - kernel[0]) // stride[0] + 1
    ow = (w + pad[2] + pad[3] - kernel[1]) // stride[1] + 1
    if n * c == 0 or oh <= 0 or ow <= 0:
        return _reference.max_pool2d(x, kernel, stride, pad)
    planes = np.ascontiguousarray(x).reshape(n * c, h, w)
    out = np.empty((n * c, oh, ow), dtype=x.dtype)
    arg = np.empty((n * c, oh, ow), dtype=np.int64)
    if x.dtype == np.float32:
        _max_pool_planes[float](planes, out, arg, kernel[0], kernel[1], stride[0], stride[1],
                                pad[0], pad[2])
    else:
        _max_pool_planes[double](planes, out, arg, kernel[0], kernel[1], stride[0], stride[1],
                                 pad[0], pad[2])
    return out.reshape(n, c, oh, ow), arg.reshape(n, c, oh, ow)


# --------------------------------------------------------------------------- max-pool gradients

cdef void _scatter_planes(const real[:, ::1] dout, const long long[:, ::1] arg,
                          real[:, ::1] dx) noexcept nogil:
    """dx[plane, arg[plane, k]] += dout[plane, k]; one plane per thread."""
    cdef Py_ssize_t plane, k, target
    cdef Py_ssize_t cells = dout.shape[1], size = dx.shape[1]
    cdef int threads = _threads(dout.shape[0] * size)
    for plane in prange(dout.shape[0], schedule="static", num_threads=threads):
        memset(&dx[plane, 0], 0, size * sizeof(real))
        for k in range(cells):
            target = arg[plane, k]
            if target >= 0:
                dx[plane, target] += dout[plane, k]


cdef void _gather_planes(const real[:, ::1] ddx, const long long[:, ::1] arg,
                         real[:, ::1] ddy) noexcept nogil:
    """ddy[plane, k] = ddx[plane, arg[plane, k]] (0 where the window had no real cell)."""
    cdef Py_ssize_t plane, k, target
    cdef Py_ssize_t cells = ddy.shape[1]
    cdef int threads = _threads(ddy.shape[0] * cells)
    for plane in prange(ddy.shape[0], schedule="static", num_threads=threads):
        for k in range(cells):
            target = arg[plane, k]
            ddy[plane, k] = ddx[plane, target] if target >= 0 else 0


def _float(x):
    return isinstance(x, np.ndarray) and (x.dtype == np.float32 or x.dtype == np.float64)


def max_pool2d_grad(dout, argmax, x_shape):
    """dx[n, c, argmax[n, c, i, j]] += dout[n, c, i, j], in dout's dtype."""
    n, c, h, w = (int(v) for v in x_shape)
    if not _float(dout) or dout.ndim != 4 or argmax.shape != dout.shape or n * c * h * w == 0 \
            or dout.size == 0 or tuple(dout.shape[:2]) != (n, c):
        return _reference.max_pool2d_grad(dout, argmax, x_shape)
    grads = np.ascontiguousarray(dout).reshape(n * c, -1)
    arg = np.ascontiguousarray(argmax, dtype=np.int64).reshape(n * c, -1)
    dx = np.empty((n * c, h * w), dtype=dout.dtype)
    if dout.dtype == np.float32:
        _scatter_planes[float](grads, arg, dx)
    else:
        _scatter_planes[double](grads, arg, dx)
    return dx.reshape(n, c, h, w)


def max_pool2d_grad_grad(ddx, argmax):
    """ddy[n, c, i, j] = ddx[n, c, argmax[n, c, i, j]]."""
    if not _float(ddx) or ddx.ndim != 4 or argmax.ndim != 4 or ddx.size == 0 or argmax.size == 0 \
            or tuple(argmax.shape[:2]) != tuple(ddx.shape[:2]):
        return _reference.max_pool2d_grad_grad(ddx, argmax)
    n, c = ddx.shape[:2]
    values = np.ascontiguousarray(ddx).reshape(n * c, -1)
    arg = np.ascontiguousarray(argmax, dtype=np.int64).reshape(n * c, -1)
    ddy = np.empty(arg.shape, dtype=ddx.dtype)
    if ddx.dtype == np.float32:
        _gather_planes[float](values, arg, ddy)
    else:
        _gather_planes[double](values, arg, ddy)
    return ddy.reshape(argmax.shape)


# --------------------------------------------------------------------------- average pooling

cdef void _avg_planes(const real[:, :, ::1] x, const double[:, ::1] divisor, real[:, :, ::1] out,
                      int kh, int kw, int sh, int sw, int top, int left) noexcept nogil:
    """out[plane, i, j] = (Σ of the window's real cells) / divisor[i, j], summed in float64.

    Each window is clipped to the input once ([row_lo, row_hi) × [col_lo, col_hi)), so the
    taps run without bounds checks."""
    cdef Py_ssize_t plane, i, j, row, col, row_lo, row_hi, col_lo, col_hi
    cdef Py_ssize_t h = x.shape[1], w = x.shape[2], oh = out.shape[1], ow = out.shape[2]
    cdef const real* source
    cdef double total
    cdef int threads = _threads(x.shape[0] * oh * ow * kh * kw)
    for plane in prange(x.shape[0], schedule="static", num_threads=threads):
        source = &x[plane, 0, 0]
        for i in range(oh):
            row_lo = max(i * sh - top, 0)
            row_hi = min(i * sh - top + kh, h)
            for j in range(ow):
                col_lo = max(j * sw - left, 0)
                col_hi = min(j * sw - left + kw, w)
                total = 0
                for row in range(row_lo, row_hi):
                    for col in range(col_lo, col_hi):
                        total = total + source[row * w + col]
                out[plane, i, j] = <real>(total / divisor[i, j])


cdef void _avg_grad_planes(const real[:, :, ::1] dout, const double[:, ::1] divisor,
                           real[:, :, ::1] dx, int kh, int kw, int sh, int sw, int top,
                           int left) noexcept nogil:
    """dx[plane] = Σ over windows of (dout / divisor) spread on the window's real cells
    (each window clipped to the input once, as in :func:`_avg_planes`)."""
    cdef Py_ssize_t plane, i, j, row, col, row_lo, row_hi, col_lo, col_hi
    cdef Py_ssize_t h = dx.shape[1], w = dx.shape[2], oh = dout.shape[1], ow = dout.shape[2]
    cdef real* target
    cdef real share
    cdef int threads = _threads(dx.shape[0] * oh * ow * kh * kw)
    for plane in prange(dx.shape[0], schedule="static", num_threads=threads):
        target = &dx[plane, 0, 0]
        memset(target, 0, h * w * sizeof(real))
        for i in range(oh):
            row_lo = max(i * sh - top, 0)
            row_hi = min(i * sh - top + kh, h)
            for j in range(ow):
                col_lo = max(j * sw - left, 0)
                col_hi = min(j * sw - left + kw, w)
                share = <real>(dout[plane, i, j] / divisor[i, j])
                for row in range(row_lo, row_hi):
                    for col in range(col_lo, col_hi):
                        target[row * w + col] += share


def _divisor(x_shape, kernel, stride, pad, divisor, out_hw):
    if divisor is None:
        divisor = _reference.real_cell_counts(x_shape, kernel, stride, pad)
    return np.ascontiguousarray(np.broadcast_to(np.asarray(divisor, dtype=np.float64), out_hw))


def avg_pool2d(x, kernel, stride, pad, divisor=None):
    """y = (Σ window of the zero-padded x) / divisor (default: real cells per window)."""
    if not _float(x) or x.ndim != 4:
        return _reference.avg_pool2d(x, kernel, stride, pad, divisor)
    n, c, h, w = x.shape
    oh = (h + pad[0] + pad[1] - kernel[0]) // stride[0] + 1
    ow = (w + pad[2] + pad[3] - kernel[1]) // stride[1] + 1
    if n * c * h * w == 0 or oh <= 0 or ow <= 0:
        return _reference.avg_pool2d(x, kernel, stride, pad, divisor)
    div = _divisor(x.shape, kernel, stride, pad, divisor, (oh, ow))
    planes = np.ascontiguousarray(x).reshape(n * c, h, w)
    out = np.empty((n * c, oh, ow), dtype=x.dtype)
    if x.dtype == np.float32:
        _avg_planes[float](planes, div, out, kernel[0], kernel[1], stride[0], stride[1], pad[0],
                           pad[2])
    else:
        _avg_planes[double](planes, div, out, kernel[0], kernel[1], stride[0], stride[1], pad[0],
                            pad[2])
    return out.reshape(n, c, oh, ow)


def avg_pool2d_grad(dout, x_shape, kernel, stride, pad, divisor=None):
    """dx = adjoint of :func:`avg_pool2d`: each window cell receives dout / divisor."""
    n, c, h, w = (int(v) for v in x_shape)
    if not _float(dout) or dout.ndim != 4 or n * c * h * w == 0 or dout.size == 0 \
            or tuple(dout.shape[:2]) != (n, c):
        return _reference.avg_pool2d_grad(dout, x_shape, kernel, stride, pad, divisor)
    oh, ow = dout.shape[2:]
    div = _divisor(x_shape, kernel, stride, pad, divisor, (oh, ow))
    grads = np.ascontiguousarray(dout).reshape(n * c, oh, ow)
    dx = np.empty((n * c, h, w), dtype=dout.dtype)
    if dout.dtype == np.float32:
        _avg_grad_planes[float](grads, div, dx, kernel[0], kernel[1], stride[0], stride[1], pad[0],
                                pad[2])
    else:
        _avg_grad_planes[double](grads, div, dx, kernel[0], kernel[1], stride[0], stride[1],
                                 pad[0], pad[2])
    return dx.reshape(n, c, h, w)
