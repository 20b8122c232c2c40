# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Cython twins of :mod:`refms.kernels.pool` (same signatures and results).

* ``max_pool2d``: one pass over each output cell's window: the first
  maximum in row-major window order wins, padded cells never do, and NaN
  beats any number (as ``np.max``).
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


cdef void _max_pool_planes(const real[:, :, ::1] x, real[:, :, ::1] out, long long[:, :, ::1] arg,
                           int kh, int kw, int sh, int sw, int top, int left) noexcept nogil:
    cdef Py_ssize_t planes = x.shape[0], h = x.shape[1], w = x.shape[2]
    cdef Py_ssize_t oh = out.shape[1], ow = out.shape[2]
    cdef Py_ssize_t plane, i, j, p, q, row, col, best_index
    cdef real value, best
    cdef bint found
    cdef int threads = _threads(planes * out.shape[1] * out.shape[2] * kh * kw)
    for plane in prange(planes, schedule="static", num_threads=threads):
        for i in range(oh):
            for j in range(ow):
                found = False
                best = 0
                best_index = -1
                for p in range(kh):
                    row = i * sh + p - top
                    if row < 0 or row >= h:
                        continue
                    for q in range(kw):
                        col = j * sw + q - left
                        if col < 0 or col >= w:
                            continue
                        value = x[plane, row, col]
                        if not found or value > best:
                            best = value
                            best_index = row * w + col
                            found = True
                out[plane, i, j] = best
                arg[plane, i, j] = best_index


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
    out = np.zeros((n * c, oh, ow), dtype=x.dtype)
    arg = np.full((n * c, oh, ow), -1, dtype=np.int64)
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
    """out[plane, i, j] = (Σ of the window's real cells) / divisor[i, j], summed in float64."""
    cdef Py_ssize_t plane, i, j, p, q, row, col
    cdef Py_ssize_t h = x.shape[1], w = x.shape[2], oh = out.shape[1], ow = out.shape[2]
    cdef double total
    cdef int threads = _threads(x.shape[0] * oh * ow * kh * kw)
    for plane in prange(x.shape[0], schedule="static", num_threads=threads):
        for i in range(oh):
            for j in range(ow):
                total = 0
                for p in range(kh):
                    row = i * sh + p - top
                    if row < 0 or row >= h:
                        continue
                    for q in range(kw):
                        col = j * sw + q - left
                        if 0 <= col < w:
                            total = total + x[plane, row, col]
                out[plane, i, j] = <real>(total / divisor[i, j])


cdef void _avg_grad_planes(const real[:, :, ::1] dout, const double[:, ::1] divisor,
                           real[:, :, ::1] dx, int kh, int kw, int sh, int sw, int top,
                           int left) noexcept nogil:
    """dx[plane] = Σ over windows of (dout / divisor) spread on the window's real cells."""
    cdef Py_ssize_t plane, i, j, p, q, row, col
    cdef Py_ssize_t h = dx.shape[1], w = dx.shape[2], oh = dout.shape[1], ow = dout.shape[2]
    cdef real share
    cdef int threads = _threads(dx.shape[0] * oh * ow * kh * kw)
    for plane in prange(dx.shape[0], schedule="static", num_threads=threads):
        memset(&dx[plane, 0, 0], 0, h * w * sizeof(real))
        for i in range(oh):
            for j in range(ow):
                share = <real>(dout[plane, i, j] / divisor[i, j])
                for p in range(kh):
                    row = i * sh + p - top
                    if row < 0 or row >= h:
                        continue
                    for q in range(kw):
                        col = j * sw + q - left
                        if 0 <= col < w:
                            dx[plane, row, col] += share


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
