# One BLAS in the process: the ?gemm every fast kernel calls (included by conv.pyx, matmul.pyx).
#
# numpy's matmul runs in the BLAS numpy was built with; scipy.linalg.cython_blas is scipy's,
# and with the PyPI wheels that is a second copy of OpenBLAS with a second thread pool.
# When the module is imported, _bind_numpy_blas() asks refms._fast.numpy_blas for the
# addresses of numpy's own sgemm/dgemm (64- or 32-bit integers) and blas_gemm calls them;
# if they are not found (or REFMS_BLAS=scipy), scipy's, as before.  Same Fortran contract:
# column-major C = alpha · op(A) · op(B) + beta · C.

from libc.stdint cimport int64_t, uintptr_t
from scipy.linalg.cython_blas cimport sgemm as _scipy_sgemm, dgemm as _scipy_dgemm

ctypedef void (*_sgemm64_t)(char*, char*, int64_t*, int64_t*, int64_t*, float*, const float*,
                            int64_t*, const float*, int64_t*, float*, float*,
                            int64_t*) noexcept nogil
ctypedef void (*_dgemm64_t)(char*, char*, int64_t*, int64_t*, int64_t*, double*, const double*,
                            int64_t*, const double*, int64_t*, double*, double*,
                            int64_t*) noexcept nogil
ctypedef void (*_sgemm32_t)(char*, char*, int*, int*, int*, float*, const float*, int*,
                            const float*, int*, float*, float*, int*) noexcept nogil
ctypedef void (*_dgemm32_t)(char*, char*, int*, int*, int*, double*, const double*, int*,
                            const double*, int*, double*, double*, int*) noexcept nogil

cdef _sgemm64_t _numpy_sgemm64 = NULL
cdef _dgemm64_t _numpy_dgemm64 = NULL
cdef _sgemm32_t _numpy_sgemm32 = NULL
cdef _dgemm32_t _numpy_dgemm32 = NULL
_BLAS_LIBRARY = ["scipy.linalg.cython_blas"]


cdef inline void blas_gemm(char trans_a, char trans_b, int m, int n, int k, floating alpha,
                           const floating* a, int lda, const floating* b, int ldb,
                           floating beta, floating* c, int ldc) noexcept nogil:
    """Fortran ?gemm: column-major c (m×n) = alpha · op(a) · op(b) + beta · c."""
    cdef int64_t m64 = m, n64 = n, k64 = k, lda64 = lda, ldb64 = ldb, ldc64 = ldc
    if floating is float:
        if _numpy_sgemm64 != NULL:
            _numpy_sgemm64(&trans_a, &trans_b, &m64, &n64, &k64, &alpha, a, &lda64, b, &ldb64,
                           &beta, c, &ldc64)
        elif _numpy_sgemm32 != NULL:
            _numpy_sgemm32(&trans_a, &trans_b, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c,
                           &ldc)
        else:
            _scipy_sgemm(&trans_a, &trans_b, &m, &n, &k, &alpha, <float*>a, &lda, <float*>b,
                         &ldb, &beta, c, &ldc)
    else:
        if _numpy_dgemm64 != NULL:
            _numpy_dgemm64(&trans_a, &trans_b, &m64, &n64, &k64, &alpha, a, &lda64, b, &ldb64,
                           &beta, c, &ldc64)
        elif _numpy_dgemm32 != NULL:
            _numpy_dgemm32(&trans_a, &trans_b, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c,
                           &ldc)
        else:
            _scipy_dgemm(&trans_a, &trans_b, &m, &n, &k, &alpha, <double*>a, &lda, <double*>b,
                         &ldb, &beta, c, &ldc)


def _bind_numpy_blas():
    """Point blas_gemm at numpy's BLAS when refms._fast.numpy_blas finds it."""
    global _numpy_sgemm64, _numpy_dgemm64, _numpy_sgemm32, _numpy_dgemm32
    from refms._fast.numpy_blas import gemm_symbols
    found = gemm_symbols()
    if found is None:
        return
    sgemm, dgemm, bits, path = found
    if bits == 64:
        _numpy_sgemm64 = <_sgemm64_t><uintptr_t>sgemm
        _numpy_dgemm64 = <_dgemm64_t><uintptr_t>dgemm
    else:
        _numpy_sgemm32 = <_sgemm32_t><uintptr_t>sgemm
        _numpy_dgemm32 = <_dgemm32_t><uintptr_t>dgemm
    _BLAS_LIBRARY[0] = path


def blas_library():
    """The library whose sgemm/dgemm this module calls: numpy's (a path) or scipy's."""
    return _BLAS_LIBRARY[0]


_bind_numpy_blas()
