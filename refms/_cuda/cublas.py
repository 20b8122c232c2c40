"""cuBLAS through ctypes, when ``libcublas.so.13`` is present (it is optional).

The CUDA library never links cuBLAS; this module opens it by its versioned name (cuBLAS
ships no unversioned ``libcublas.so``) -- from the loader's path, then from the
``nvidia-cublas`` wheel's directory -- and calls ``cublas?gemmStridedBatched`` on the
library's stream.  The GEMM dispatcher ``chosen`` picks cuBLAS when it loads, unless
``REFMS_CUDA_GEMM=refms`` asks for our tiled kernel (``REFMS_CUDA_GEMM=cublas`` makes a
missing cuBLAS an error); ``which`` reports the choice.

Row-major trick: cuBLAS is column-major, and a row-major matrix read column-major is its
transpose, so row-major C = op(A) op(B) is computed as column-major
C^T = op(B)^T op(A)^T -- the same call with A and B (and m and n) swapped.
"""
import ctypes
import glob
import os
import sys

__all__ = ["chosen", "which", "gemm", "unavailable_reason"]

ENV = "REFMS_CUDA_GEMM"
NAMES = ("libcublas.so.13",)
_STATE = {"tried": False, "lib": None, "handle": None, "reason": None}
_OP_N, _OP_T = 0, 1


def _candidates():
    yield from NAMES
    for root in sys.path:
        for pattern in ("nvidia/cu13/lib/libcublas.so.13", "nvidia/cublas/lib/libcublas.so.13"):
            yield from glob.glob(os.path.join(root, pattern))


def _load(rt):
    if _STATE["tried"]:
        return _STATE["lib"]
    _STATE["tried"] = True
    if rt.is_shim:
        _STATE["reason"] = "the CPU shim build has no cuBLAS"
        return None
    errors = []
    for name in _candidates():
        try:
            lib = ctypes.CDLL(name)
            break
        except OSError as exc:
            errors.append(str(exc))
    else:
        _STATE["reason"] = f"libcublas.so.13 not found ({'; '.join(errors[:2])})"
        return None
    handle = ctypes.c_void_p()
    status = lib.cublasCreate_v2(ctypes.byref(handle))
    if status != 0:
        _STATE["reason"] = f"cublasCreate failed with status {status}"
        return None
    lib.cublasSetStream_v2(handle, ctypes.c_void_p(rt.lib.refms_cuda_stream()))
    for name, real in (("cublasSgemmStridedBatched", ctypes.c_float),
                       ("cublasDgemmStridedBatched", ctypes.c_double)):
        fn = getattr(lib, name)
        fn.restype = ctypes.c_int
        fn.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                       ctypes.c_int, ctypes.POINTER(real), ctypes.c_void_p, ctypes.c_int,
                       ctypes.c_longlong, ctypes.c_void_p, ctypes.c_int, ctypes.c_longlong,
                       ctypes.POINTER(real), ctypes.c_void_p, ctypes.c_int, ctypes.c_longlong,
                       ctypes.c_int]
    _STATE["lib"], _STATE["handle"] = lib, handle
    return lib


def chosen(rt):
    """``'cublas'`` or ``'refms'``: which GEMM serves matmul, batch matmul and conv now."""
    setting = os.environ.get(ENV, "auto").strip().lower() or "auto"
    if setting == "refms":
        return "refms"
    if _load(rt) is not None:
        return "cublas"
    if setting == "cublas":
        raise RuntimeError(f"{ENV}=cublas but cuBLAS is unavailable: {_STATE['reason']}")
    return "refms"


def which(rt):
    """The GEMM in use, with the reason when cuBLAS is not it."""
    name = chosen(rt)
    return name if name == "cublas" else f"refms tiled GEMM ({_STATE['reason'] or ENV + '=refms'})"


def unavailable_reason():
    return _STATE["reason"]


def gemm(rt, a, b, c, trans_a, trans_b, m, n, k, lda, ldb, batch, stride_a, stride_b, op):
    """c[batch] = op(a) op(b) (row-major) with one cublas?gemmStridedBatched call."""
    lib = _STATE["lib"]
    double = a.dtype.itemsize == 8
    real = ctypes.c_double if double else ctypes.c_float
    fn = lib.cublasDgemmStridedBatched if double else lib.cublasSgemmStridedBatched
    one, zero = real(1), real(0)
    status = fn(_STATE["handle"], _OP_T if trans_b else _OP_N, _OP_T if trans_a else _OP_N,
                n, m, k, ctypes.byref(one), b.ptr, ldb, stride_b, a.ptr, lda, stride_a,
                ctypes.byref(zero), c.ptr, n, m * n, batch)
    if status != 0:
        raise RuntimeError(f"For '{op}', cuBLAS gemm failed with status {status}.")
    rt.call_done(op)
