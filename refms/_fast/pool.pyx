# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Cython twin of ``refms.kernels.pool.max_pool2d`` (same signature and results).

One pass over each output cell's window: the first maximum in row-major
window order wins, padded cells never do, and NaN beats any number (as
``np.max``).  float32 and float64 run here; other dtypes fall back to the
reference kernel.
"""
import numpy as np
cimport numpy as cnp
from libc.math cimport isnan

from ..kernels import pool as _reference

__all__ = ["max_pool2d"]

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
    for plane in range(planes):
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
                        if not found or value > best or (isnan(value) and not isnan(best)):
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
