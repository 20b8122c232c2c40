# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Fast twin of the in-place optimizer update of :mod:`refms.kernels.state`.

Contract (the reference's)::

    apply_momentum(variable, accumulation, gradient, lr, momentum, use_nesterov) -> None

Algorithm: one pass over the elements, each read once and written once
(the reference makes two temporaries of the parameter's size)::

    v ← momentum·v + g;   p ← p − lr·v          (use_nesterov: p ← p − (lr·g + lr·momentum·v))

in the parameter's dtype, each product and sum rounded on its own (no fused
multiply-add, see below), so the result equals the reference bit for bit.
float32 and float64 C-contiguous
arrays of one dtype run here; anything else goes to the reference kernel.
"""
import numpy as np

cimport cython
from cython.parallel cimport prange

from refms.kernels import reference_kernel

__all__ = ["apply_momentum"]

# No fused multiply-add: with -march=native the compiler would turn p - a*lr into one FMA
# (one rounding instead of two), and the twin would differ from the reference (numpy) and
# from MindSpore in the last bit (0.85499996 instead of 0.855 after two Momentum steps).
cdef extern from *:
    """
    #if defined(__clang__)
    #pragma STDC FP_CONTRACT OFF
    #elif defined(__GNUC__)
    #pragma GCC optimize ("fp-contract=off")
    #endif
    """

include "_threads.pxi"

ctypedef fused real:
    float
    double


cdef void _momentum(real* p, real* v, const real* g, Py_ssize_t n, real lr, real momentum,
                    bint nesterov) noexcept nogil:
    cdef Py_ssize_t i
    cdef real a
    cdef int threads = _threads(n)
    if nesterov:
        for i in prange(n, schedule="static", num_threads=threads):
            a = v[i] * momentum + g[i]
            v[i] = a
            p[i] = p[i] - (g[i] * lr + a * momentum * lr)
    else:
        for i in prange(n, schedule="static", num_threads=threads):
            a = v[i] * momentum + g[i]
            v[i] = a
            p[i] = p[i] - a * lr


def _run(real[::1] p, real[::1] v, const real[::1] g, double lr, double momentum, bint nesterov):
    with nogil:
        _momentum(&p[0], &v[0], &g[0], p.shape[0], <real>lr, <real>momentum, nesterov)


def apply_momentum(variable, accumulation, gradient, lr, momentum, use_nesterov):
    """v ← momentum·v + g;  p ← p − lr·v (Nesterov: p ← p − (lr·g + lr·momentum·v)), in place."""
    arrays = (variable, accumulation, gradient)
    if (not all(isinstance(a, np.ndarray) for a in arrays)
            or variable.dtype not in (np.float32, np.float64)
            or any(a.dtype != variable.dtype or a.shape != variable.shape
                   or not a.flags.c_contiguous for a in arrays)
            or not variable.flags.writeable or not accumulation.flags.writeable
            or variable.size == 0 or np.ndim(lr) != 0 or np.ndim(momentum) != 0
            or np.asarray(lr).dtype != variable.dtype
            or np.asarray(momentum).dtype != variable.dtype):
        return reference_kernel("apply_momentum")(variable, accumulation, gradient, lr, momentum,
                                                  use_nesterov)
    _run(variable.reshape(-1), accumulation.reshape(-1), gradient.reshape(-1), float(lr),
         float(momentum), bool(use_nesterov))
