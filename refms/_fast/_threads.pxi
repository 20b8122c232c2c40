# How many OpenMP threads a ``prange`` loop gets (included by the kernel modules).

cdef extern from *:
    """
    #ifdef _OPENMP
    #include <omp.h>
    static int refms_max_threads(void) { return omp_get_max_threads(); }
    #else
    static int refms_max_threads(void) { return 1; }
    #endif
    """
    int refms_max_threads() noexcept nogil


cdef inline int _threads(Py_ssize_t work) noexcept nogil:
    """One thread for a loop over fewer than 2¹⁶ elements (waking the pool costs more than it
    saves, and on a busy machine a descheduled thread stalls the others); else the whole pool."""
    if work < 65536:
        return 1
    return refms_max_threads()
