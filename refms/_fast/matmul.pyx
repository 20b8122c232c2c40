# cython: language_level=3, cdivision=True, initializedcheck=False
"""Fast twins of :mod:`refms.kernels.matmul`: C = op(A) · op(B) through BLAS ``?gemm``.

Contract (the reference's, stated as BLAS states it)::

    matmul(a, b, transpose_a, transpose_b)
        a, b    2-D arrays of one dtype; op(X) = X, or Xᵀ when its flag is set
        returns C, a new C-ordered array of that dtype, C[i, j] = Σ_k op(A)[i, k] · op(B)[k, j]
    batch_matmul(a, b, transpose_a, transpose_b)
        the same for every matrix of a stack (..., m, k) @ (..., k, n); batch dimensions broadcast

float32 runs ``sgemm`` and float64 runs ``dgemm`` of numpy's own BLAS, found in the
process at import (``_blas.pxi``, :mod:`refms._fast.numpy_blas`): one BLAS and one
thread pool for the fast and the reference kernels; scipy's
(``scipy.linalg.cython_blas``) when numpy's is not found.
Anything else — another dtype, mixed dtypes, an empty operand, shapes that do
not match — goes to the reference kernel, which returns numpy's answer or
raises numpy's error.

The row-major trick.  BLAS reads matrices column-major, numpy stores them
row-major (C order).  A C-ordered (r, c) buffer read column-major is the
(c, r) matrix Xᵀ.  So instead of C = op(A)·op(B) we ask BLAS for
Cᵀ = op(B)ᵀ · op(A)ᵀ: B is passed first, A second, m and n swap places, and
the column-major Cᵀ that BLAS writes is, read in C order, exactly C.  Each
operand keeps its own transpose flag and its leading dimension is its C row
length.
"""
import math

import numpy as np

cimport cython
from cython cimport floating

from refms.kernels import reference_kernel

__all__ = ["matmul", "batch_matmul"]

include "_blas.pxi"

#: BLAS takes int dimensions: anything larger goes to the reference.
_INT_MAX = 2 ** 31 - 1


cdef void _gemm(bint transpose_a, bint transpose_b, int m, int n, int k,
                const floating* a, int lda, const floating* b, int ldb,
                floating* c) noexcept nogil:
    """c (m×n, C order) = op(a) · op(b); a and b C-ordered with row lengths lda, ldb."""
    cdef char trans_a = b'T' if transpose_a else b'N'
    cdef char trans_b = b'T' if transpose_b else b'N'
    cdef floating one = 1
    cdef floating zero = 0
    cdef int ldc = n
    # Column-major Cᵀ (n×m) = op(B)ᵀ (n×k) · op(A)ᵀ (k×m): see the module docstring.
    blas_gemm(trans_b, trans_a, n, m, k, one, b, ldb, a, lda, zero, c, ldc)


@cython.boundscheck(False)
@cython.wraparound(False)
def _gemm_one(const floating[:, ::1] a, bint transpose_a, const floating[:, ::1] b,
              bint transpose_b, floating[:, ::1] c):
    """c = op(a) · op(b) for one pair of C-ordered matrices."""
    cdef int m = c.shape[0]
    cdef int n = c.shape[1]
    cdef int k = a.shape[0] if transpose_a else a.shape[1]
    with nogil:
        _gemm(transpose_a, transpose_b, m, n, k, &a[0, 0], a.shape[1], &b[0, 0], b.shape[1],
              &c[0, 0])


@cython.boundscheck(False)
@cython.wraparound(False)
def _gemm_batch(const floating[:, :, ::1] a, bint transpose_a, const Py_ssize_t[::1] a_index,
                const floating[:, :, ::1] b, bint transpose_b, const Py_ssize_t[::1] b_index,
                floating[:, :, ::1] c):
    """c[i] = op(a[a_index[i]]) · op(b[b_index[i]]) for every i (the indices do the broadcasting)."""
    cdef int m = c.shape[1]
    cdef int n = c.shape[2]
    cdef int k = a.shape[1] if transpose_a else a.shape[2]
    cdef Py_ssize_t i
    with nogil:
        for i in range(c.shape[0]):
            _gemm(transpose_a, transpose_b, m, n, k, &a[a_index[i], 0, 0], a.shape[2],
                  &b[b_index[i], 0, 0], b.shape[2], &c[i, 0, 0])


def _blas_dtype(a, b):
    """True when a and b are ndarrays of the same native float32 or float64 dtype."""
    if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)):
        return False
    return (a.dtype == b.dtype and a.dtype.isnative
            and a.dtype.type in (np.float32, np.float64))


def _op_shape(shape, transposed):
    """(rows, columns) of op(X) for a matrix of the given shape."""
    rows, columns = shape[-2], shape[-1]
    return (columns, rows) if transposed else (rows, columns)


def _fits_blas(m, n, k):
    """BLAS wants non-empty matrices whose dimensions fit in an int."""
    return 0 < m <= _INT_MAX and 0 < n <= _INT_MAX and 0 < k <= _INT_MAX


def _c_operand(x, transposed):
    """(buffer, flag): a C-ordered buffer with op(buffer, flag) == op(x, transposed).

    An F-ordered matrix (a transposed view) is the C-ordered Xᵀ, so it is
    used as it is with the flag flipped instead of being copied.
    """
    if x.flags.c_contiguous:
        return x, transposed
    if x.flags.f_contiguous:
        return x.T, not transposed
    return np.ascontiguousarray(x), transposed


def matmul(a, b, transpose_a=False, transpose_b=False):
    """C[i, j] = Σ_k op(A)[i, k] · op(B)[k, j] by ``sgemm``/``dgemm``."""
    if not (_blas_dtype(a, b) and a.ndim == 2 and b.ndim == 2):
        return reference_kernel("matmul")(a, b, transpose_a, transpose_b)
    m, k = _op_shape(a.shape, transpose_a)
    k_b, n = _op_shape(b.shape, transpose_b)
    if k != k_b or not _fits_blas(m, n, k):
        return reference_kernel("matmul")(a, b, transpose_a, transpose_b)
    a, transpose_a = _c_operand(a, bool(transpose_a))
    b, transpose_b = _c_operand(b, bool(transpose_b))
    c = np.empty((m, n), dtype=a.dtype)
    _gemm_one(a, transpose_a, b, transpose_b, c)
    return c


def _batch_shape(a_batch, b_batch):
    """The broadcast batch shape, or None when the batch shapes do not broadcast."""
    if a_batch == b_batch or not b_batch:
        return a_batch
    if not a_batch:
        return b_batch
    try:
        return np.broadcast_shapes(a_batch, b_batch)
    except ValueError:
        return None


def _broadcast_index(batch_shape, batch):
    """For each matrix of the broadcast batch (C order), the index of its source matrix."""
    if not batch_shape:                                   # one matrix serves the whole batch
        return np.zeros(math.prod(batch), dtype=np.intp)
    sources = np.arange(math.prod(batch_shape), dtype=np.intp)
    if batch_shape == batch:
        return sources
    return np.ascontiguousarray(np.broadcast_to(sources.reshape(batch_shape), batch).reshape(-1))


def batch_matmul(a, b, transpose_a=False, transpose_b=False):
    """C[..., i, j] = Σ_k op(A)[..., i, k] · op(B)[..., k, j], one ``?gemm`` per matrix."""
    if not (_blas_dtype(a, b) and a.ndim >= 2 and b.ndim >= 2):
        return reference_kernel("batch_matmul")(a, b, transpose_a, transpose_b)
    m, k = _op_shape(a.shape, transpose_a)
    k_b, n = _op_shape(b.shape, transpose_b)
    batch = _batch_shape(a.shape[:-2], b.shape[:-2])
    if batch is None:
        return reference_kernel("batch_matmul")(a, b, transpose_a, transpose_b)
    if k != k_b or not _fits_blas(m, n, k) or 0 in batch:
        return reference_kernel("batch_matmul")(a, b, transpose_a, transpose_b)
    a_stack = np.ascontiguousarray(a).reshape((-1,) + a.shape[-2:])
    b_stack = np.ascontiguousarray(b).reshape((-1,) + b.shape[-2:])
    c = np.empty(batch + (m, n), dtype=a.dtype)
    _gemm_batch(a_stack, bool(transpose_a), _broadcast_index(a.shape[:-2], batch),
                b_stack, bool(transpose_b), _broadcast_index(b.shape[:-2], batch),
                c.reshape((-1, m, n)))
    return c
