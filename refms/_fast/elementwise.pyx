# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Fast twins of ReLU's two elementwise kernels of :mod:`refms.kernels.elementwise`.

Contract (the reference's)::

    relu(x)            -> y  = x if x > 0 else 0
    relu_grad(dy, y)   -> dx = dy if y > 0 else 0        (dy, y of one shape)

Algorithm: one pass, each element read once and written once, as a select
(``x > 0 ? x : 0``) that the compiler turns into a SIMD compare and blend; a
NaN fails ``> 0`` and gives 0, as MindSpore 2.10's CPU kernels do.  The
result is a new C-contiguous array in the input's dtype (``dy``'s for
``relu_grad``).  The reference's ``np.fmax`` / ``np.where`` make the same
single pass but build a bool mask first (``where``) and run on one thread;
these loops split the elements over the OpenMP threads for large arrays.

float32 and float64 run here (``relu_grad`` when dy and y have one dtype and
one shape); any other dtype, 0-d and empty arrays go to the reference kernel.
Non-contiguous inputs are copied to C order first.
"""
import numpy as np

from cython.parallel cimport prange

from refms.kernels import reference_kernel

__all__ = ["relu", "relu_grad"]

include "_threads.pxi"

ctypedef fused real:
    float
    double


cdef void _relu(const real* x, real* y, Py_ssize_t n) noexcept nogil:
    """y[i] = x[i] if x[i] > 0 else 0."""
    cdef Py_ssize_t i
    for i in prange(n, schedule="static", num_threads=_threads(n)):
        y[i] = x[i] if x[i] > 0 else 0


cdef void _relu_grad(const real* dy, const real* y, real* dx, Py_ssize_t n) noexcept nogil:
    """dx[i] = dy[i] if y[i] > 0 else 0."""
    cdef Py_ssize_t i
    for i in prange(n, schedule="static", num_threads=_threads(n)):
        dx[i] = dy[i] if y[i] > 0 else 0


def _runs_here(*arrays):
    """Every input a float32/float64 ndarray of one dtype and shape, with at least one element."""
    first = arrays[0]
    return (all(isinstance(a, np.ndarray) for a in arrays)
            and (first.dtype == np.float32 or first.dtype == np.float64)
            and first.ndim > 0 and first.size > 0
            and all(a.dtype == first.dtype and a.shape == first.shape for a in arrays))


def _relu_flat(const real[::1] x, real[::1] y):
    with nogil:
        _relu(&x[0], &y[0], x.shape[0])


def _relu_grad_flat(const real[::1] dy, const real[::1] y, real[::1] dx):
    with nogil:
        _relu_grad(&dy[0], &y[0], &dx[0], dy.shape[0])


def relu(x):
    """y = x if x > 0 else 0, in x's dtype (NaN gives 0)."""
    if not _runs_here(x):
        return reference_kernel("relu")(x)
    source = np.ascontiguousarray(x)
    out = np.empty(source.shape, dtype=source.dtype)
    _relu_flat(source.reshape(-1), out.reshape(-1))
    return out


def relu_grad(dy, y):
    """dx = dy if y > 0 else 0, in dy's dtype (a NaN in y gives 0)."""
    if not _runs_here(dy, y):
        return reference_kernel("relu_grad")(dy, y)
    grads = np.ascontiguousarray(dy)
    mask = np.ascontiguousarray(y)
    out = np.empty(grads.shape, dtype=grads.dtype)
    _relu_grad_flat(grads.reshape(-1), mask.reshape(-1), out.reshape(-1))
    return out
