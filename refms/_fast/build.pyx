# cython: language_level=3
"""How the Cython kernels were compiled: the optional flags, and OpenMP.

Not a twin (it registers no kernel); :func:`refms.kernels.build_info`
reads it.  ``setup.py`` tries ``-O3`` and ``-fopenmp`` on the compiler and
passes the accepted ones as the macro ``REFMS_CFLAGS``; ``_OPENMP`` is
defined by the compiler itself when OpenMP is on.
"""
cdef extern from *:
    """
    #ifndef REFMS_CFLAGS
    #define REFMS_CFLAGS ""
    #endif
    #ifdef _OPENMP
    #include <omp.h>
    static int refms_openmp_threads(void) { return omp_get_max_threads(); }
    #define REFMS_OPENMP _OPENMP
    #else
    static int refms_openmp_threads(void) { return 0; }
    #define REFMS_OPENMP 0
    #endif
    """
    const char* REFMS_CFLAGS
    int REFMS_OPENMP
    int refms_openmp_threads() nogil

__all__ = []


def compile_flags():
    """The optional flags the compiler accepted, e.g. ``['-O3', '-fopenmp']``."""
    return REFMS_CFLAGS.decode().split()


def openmp_version():
    """The ``_OPENMP`` date (e.g. 201511) the kernels were compiled with, or 0 without OpenMP."""
    return REFMS_OPENMP


def openmp_threads():
    """The size of OpenMP's thread pool (``OMP_NUM_THREADS`` or the core count), 0 without OpenMP."""
    return refms_openmp_threads()
