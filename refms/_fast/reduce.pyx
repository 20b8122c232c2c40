# cython: language_level=3, cdivision=True, initializedcheck=False
"""Fast twins of :mod:`refms.kernels.reduce`: sum, mean, max, min and prod over axes.

Contract (the reference's)::

    reduce_<op>(x, axis, keepdims)
        x         an array; axis a tuple of non-negative ints, () meaning every axis
        returns   x's dtype; reduced axes dropped, or kept as size 1 when keepdims;
                  a numpy scalar when every axis is reduced away (as numpy returns)

Method.  The reduced axes are brought together, so that x becomes a
C-ordered array of shape (outer, n, inner) and out[o, j] reduces the n
elements x[o, :, j].  When the reduced axes are already adjacent this is a
free reshape; otherwise a transpose moves them last (inner = 1) at the cost
of one copy.  Then one of two loops runs:

* inner == 1, *rows*: each output reduces one contiguous row of n elements;
* inner > 1, *columns*: the n rows of length inner are combined one after
  the other into an accumulator row, a contiguous loop the compiler
  vectorises.

Long rows (a full reduction is one row) are cut into pieces of ``PIECE``
elements that OpenMP threads sum at once (``prange``); the pieces' sums are
then added in order.  The pieces do not depend on the thread count, so
neither does the result.

Accuracy.  A float64 row is summed pairwise (numpy's scheme: 8 accumulators
over leaves of at most 128 elements, error O(ε log n)).  A float32 row is cut
into leaves of 128 elements; a leaf is summed in float32 by 16 lanes (8 adds
each, one SIMD register of additions per step), its total converted to
float64, and the leaves added in float64.  That is numpy's float32 leaf with
the levels above it in float64, so the result is at least as accurate as
numpy's float32 sum, and about twice as fast as converting every element to
float64.  Columns accumulate in float64, in order.  max and min propagate NaN
like numpy; prod multiplies in x's dtype, like numpy.

float32 and float64 only: other dtypes, empty or 0-d arrays and invalid
axes go to the reference kernel (which also raises the reference errors).
"""
import math

import numpy as np

cimport cython
from cython cimport floating
from cython.parallel cimport prange

from refms.kernels import reference_kernel

__all__ = ["reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod"]

include "_threads.pxi"

cdef enum:
    PAIRWISE_BLOCK = 128    # longest row summed directly with 8 accumulators (numpy's PW_BLOCKSIZE)
    LEAF = 128              # float32 elements summed in float32 before the float64 total
    LANES = 16              # float32 accumulators of a leaf: one AVX-512 register
    COLUMN_BLOCK = 4096     # columns summed together: 32 KiB of float64 accumulators
    PIECE = 65536           # a long row's piece summed by one thread (a multiple of 8)


# --------------------------------------------------------------------------- sums

cdef double _float32_leaf_sum(const float* a, Py_ssize_t n) noexcept nogil:
    """Σ a[0:n]: leaves of LEAF elements summed in float32 by LANES accumulators, their
    totals added in float64 (the elements past the last whole leaf are added one by one).

    lane[k] = a[k] + a[k + 16] + ... + a[k + 112]   (float32, 8 terms)
    leaf    = the 16 lanes folded in halves          (float32: 8, 4, then 2 + 2)
    total   = Σ leaves                               (float64)
    """
    cdef float lane[LANES]
    cdef double total = 0.0
    cdef Py_ssize_t i, k, start = 0, whole = n - n % LEAF
    while start < whole:
        for k in range(LANES):
            lane[k] = a[start + k]
        i = start + LANES
        while i < start + LEAF:
            for k in range(LANES):
                lane[k] += a[i + k]
            i += LANES
        for k in range(8):
            lane[k] += lane[k + 8]
        for k in range(4):
            lane[k] += lane[k + 4]
        total += (lane[0] + lane[2]) + (lane[1] + lane[3])
        start += LEAF
    for i in range(whole, n):
        total += a[i]
    return total


cdef double _pairwise_sum(const double* a, Py_ssize_t n) noexcept nogil:
    """Σ a[0:n] in float64 by pairwise summation (Higham, *Accuracy and Stability*, §4.2)."""
    cdef double r0, r1, r2, r3, r4, r5, r6, r7, total
    cdef Py_ssize_t i, half, blocked
    if n < 8:
        total = 0.0
        for i in range(n):
            total += a[i]
        return total
    if n <= PAIRWISE_BLOCK:
        r0, r1, r2, r3 = a[0], a[1], a[2], a[3]
        r4, r5, r6, r7 = a[4], a[5], a[6], a[7]
        blocked = n - n % 8
        for i in range(8, blocked, 8):
            r0 += a[i]
            r1 += a[i + 1]
            r2 += a[i + 2]
            r3 += a[i + 3]
            r4 += a[i + 4]
            r5 += a[i + 5]
            r6 += a[i + 6]
            r7 += a[i + 7]
        total = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        for i in range(blocked, n):
            total += a[i]
        return total
    half = n // 2
    half -= half % 8
    return _pairwise_sum(a, half) + _pairwise_sum(a + half, n - half)


cdef inline double _row_sum(const floating* a, Py_ssize_t n) noexcept nogil:
    """Σ a[0:n] as float64: float32 by float32 leaves, float64 pairwise."""
    if floating is float:
        return _float32_leaf_sum(a, n)
    else:
        return _pairwise_sum(a, n)


@cython.boundscheck(False)
@cython.wraparound(False)
cdef void _piece_sums(const floating* a, Py_ssize_t n, double* sums, int threads) noexcept nogil:
    """sums[p] = Σ a[p·PIECE : (p+1)·PIECE] (the last piece shorter), the pieces in parallel."""
    cdef Py_ssize_t p, start, pieces = (n + PIECE - 1) // PIECE
    for p in prange(pieces, schedule="static", num_threads=threads):
        start = p * PIECE
        sums[p] = _row_sum(a + start, min(PIECE, n - start))


@cython.boundscheck(False)
@cython.wraparound(False)
def _sum_rows(const floating[:, ::1] x, floating[::1] out, double divisor):
    """out[o] = (Σ_r x[o, r]) / divisor."""
    cdef Py_ssize_t o, p, pieces
    cdef double total
    cdef double[::1] sums
    cdef int threads = _threads(x.shape[0] * x.shape[1])
    if x.shape[1] >= 2 * PIECE:          # long rows: pieces (whatever the thread count)
        pieces = (x.shape[1] + PIECE - 1) // PIECE
        sums = np.empty(pieces, dtype=np.float64)
        for o in range(x.shape[0]):
            with nogil:
                _piece_sums(&x[o, 0], x.shape[1], &sums[0], threads)
                total = 0.0
                for p in range(pieces):
                    total += sums[p]
                out[o] = <floating>(total / divisor)
        return
    with nogil:
        for o in range(x.shape[0]):
            out[o] = <floating>(_row_sum(&x[o, 0], x.shape[1]) / divisor)


@cython.boundscheck(False)
@cython.wraparound(False)
def _sum_columns(const floating[:, :, ::1] x, floating[:, ::1] out, double divisor):
    """out[o, j] = (Σ_r x[o, r, j]) / divisor, accumulated row by row in float64.

    The accumulators are a local array (the compiler then knows they alias
    nothing and vectorises the inner loop); wider arrays go in blocks of
    COLUMN_BLOCK columns.
    """
    cdef Py_ssize_t o, r, j, start, stop
    cdef Py_ssize_t inner = x.shape[2]
    cdef double total[COLUMN_BLOCK]
    cdef const floating* row
    with nogil:
        for o in range(x.shape[0]):
            start = 0
            while start < inner:
                stop = min(start + COLUMN_BLOCK, inner)
                for j in range(stop - start):
                    total[j] = 0.0
                for r in range(x.shape[1]):
                    row = &x[o, r, start]
                    for j in range(stop - start):
                        total[j] += row[j]
                for j in range(stop - start):
                    out[o, start + j] = <floating>(total[j] / divisor)
                start = stop


# --------------------------------------------------------------------------- max / min

cdef inline bint _replaces(floating candidate, floating best, bint maximum) noexcept nogil:
    """Whether ``candidate`` becomes the running max (or min): larger (smaller), or NaN.

    Once ``best`` is NaN no comparison is true, so NaN stays: NaN propagates.
    """
    if candidate != candidate:
        return True
    return candidate > best if maximum else candidate < best


@cython.boundscheck(False)
@cython.wraparound(False)
def _extremum_rows(const floating[:, ::1] x, floating[::1] out, bint maximum):
    """out[o] = max_r x[o, r] (or min)."""
    cdef Py_ssize_t o, r
    cdef floating best
    with nogil:
        for o in range(x.shape[0]):
            best = x[o, 0]
            for r in range(1, x.shape[1]):
                if _replaces(x[o, r], best, maximum):
                    best = x[o, r]
            out[o] = best


@cython.boundscheck(False)
@cython.wraparound(False)
def _extremum_columns(const floating[:, :, ::1] x, floating[:, ::1] out, bint maximum):
    """out[o, j] = max_r x[o, r, j] (or min), combined row by row."""
    cdef Py_ssize_t o, r, j
    with nogil:
        for o in range(x.shape[0]):
            for j in range(x.shape[2]):
                out[o, j] = x[o, 0, j]
            for r in range(1, x.shape[1]):
                for j in range(x.shape[2]):
                    if _replaces(x[o, r, j], out[o, j], maximum):
                        out[o, j] = x[o, r, j]


# --------------------------------------------------------------------------- products

@cython.boundscheck(False)
@cython.wraparound(False)
def _prod_rows(const floating[:, ::1] x, floating[::1] out):
    """out[o] = Π_r x[o, r], multiplied in order in x's dtype."""
    cdef Py_ssize_t o, r
    cdef floating product
    with nogil:
        for o in range(x.shape[0]):
            product = 1
            for r in range(x.shape[1]):
                product *= x[o, r]
            out[o] = product


@cython.boundscheck(False)
@cython.wraparound(False)
def _prod_columns(const floating[:, :, ::1] x, floating[:, ::1] out):
    """out[o, j] = Π_r x[o, r, j], combined row by row in x's dtype."""
    cdef Py_ssize_t o, r, j
    with nogil:
        for o in range(x.shape[0]):
            for j in range(x.shape[2]):
                out[o, j] = 1
            for r in range(x.shape[1]):
                for j in range(x.shape[2]):
                    out[o, j] *= x[o, r, j]


# --------------------------------------------------------------------------- layout

def _valid_axes(x, axis):
    """The sorted axes to reduce, or None when the fast path does not apply."""
    if not isinstance(x, np.ndarray) or x.size == 0 or x.ndim == 0:
        return None
    if not (x.dtype.isnative and x.dtype.type in (np.float32, np.float64)):
        return None
    if len(axis) == 0:
        return tuple(range(x.ndim))
    if not all(isinstance(a, (int, np.integer)) and not isinstance(a, bool) for a in axis):
        return None
    axes = tuple(sorted(int(a) for a in axis))
    if any(not 0 <= a < x.ndim for a in axes) or len(set(axes)) != len(axes):
        return None
    return axes


def _outer_n_inner(x, axes):
    """x as a C-ordered (outer, n, inner) array whose axis 1 holds the reduced elements."""
    shape = x.shape
    first, last = axes[0], axes[-1]
    if axes == tuple(range(first, last + 1)):                 # adjacent: a free reshape
        outer = math.prod(shape[:first])
        n = math.prod(shape[first:last + 1])
        return np.ascontiguousarray(x).reshape(outer, n, -1)
    kept = tuple(i for i in range(x.ndim) if i not in axes)
    moved = np.ascontiguousarray(np.transpose(x, kept + axes))   # reduced axes last
    n = math.prod([shape[i] for i in axes])
    return moved.reshape(-1, n, 1)


def _result_shape(shape, axes, keepdims):
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def _reduce(name, x, axis, keepdims, rows, columns, *extra):
    """Lay x out as (outer, n, inner), run ``rows`` or ``columns``, shape the result."""
    axes = _valid_axes(x, axis)
    if axes is None:
        return reference_kernel(name)(x, axis, keepdims)
    x3 = _outer_n_inner(x, axes)
    outer, n, inner = x3.shape
    out = np.empty((outer, inner), dtype=x.dtype)
    if inner == 1:
        rows(x3.reshape(outer, n), out.reshape(outer), *extra)
    else:
        columns(x3, out, *extra)
    result = out.reshape(_result_shape(x.shape, axes, keepdims))
    return result[()] if result.ndim == 0 else result       # numpy returns a scalar here


# --------------------------------------------------------------------------- the twins

def reduce_sum(x, axis, keepdims):
    """Σ over ``axis`` (float64 accumulation, pairwise along rows)."""
    return _reduce("reduce_sum", x, axis, keepdims, _sum_rows, _sum_columns, 1.0)


def reduce_mean(x, axis, keepdims):
    """(1/n) Σ over ``axis``, n = number of reduced elements (the sum divided in float64)."""
    axes = _valid_axes(x, axis)
    n = float(math.prod(x.shape[i] for i in axes)) if axes else 1.0
    return _reduce("reduce_mean", x, axis, keepdims, _sum_rows, _sum_columns, n)


def reduce_max(x, axis, keepdims):
    """max over ``axis``; an input holding NaN takes the reference (MindSpore's NaN scan)."""
    if x.dtype.kind == "f" and np.isnan(x).any():
        return reference_kernel("reduce_max")(x, axis, keepdims)
    return _reduce("reduce_max", x, axis, keepdims, _extremum_rows, _extremum_columns, True)


def reduce_min(x, axis, keepdims):
    """min over ``axis``; an input holding NaN takes the reference (MindSpore's NaN scan)."""
    if x.dtype.kind == "f" and np.isnan(x).any():
        return reference_kernel("reduce_min")(x, axis, keepdims)
    return _reduce("reduce_min", x, axis, keepdims, _extremum_rows, _extremum_columns, False)


def reduce_prod(x, axis, keepdims):
    """Π over ``axis``."""
    return _reduce("reduce_prod", x, axis, keepdims, _prod_rows, _prod_columns)
