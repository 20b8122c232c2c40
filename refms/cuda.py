"""``refms.cuda``: is the GPU usable, and why not.

refms runs on a GPU through its own CUDA library (``refms/_cuda``): kernels written in
CUDA C, compiled by nvcc when refms is installed, loaded with ctypes on first use.
Importing refms never loads it; these functions do, once, and never raise or print::

    >>> import refms
    >>> refms.cuda.is_available()
    False
    >>> refms.cuda.why_unavailable()         # on a machine without a GPU driver, e.g.
    'CUDA error 35 (CUDA driver version is insufficient for CUDA runtime version) when ...'
"""
import warnings

from . import context as _context
from ._cuda import loader as _loader

__all__ = ["is_available", "why_unavailable", "synchronize", "gemm_implementation"]


def is_available():
    """True when the CUDA library is built, loads, and sees a GPU (never raises)."""
    return why_unavailable() is None


def why_unavailable():
    """None when :func:`is_available`, else the reason as a sentence (never raises)."""
    try:
        return _loader.unavailable_reason()
    except Exception as exc:          # noqa: BLE001 - this function must not raise
        return f"{type(exc).__name__}: {exc}"


def synchronize():
    """Wait for every kernel launched so far; raise the first error one of them met."""
    from ._cuda import device
    device.runtime().synchronize()


def gemm_implementation():
    """Which matrix product serves MatMul/BatchMatMul/Conv2D on the GPU: cuBLAS or ours."""
    from ._cuda import cublas, device
    return cublas.which(device.runtime())


def _activate_gpu(device_id):
    """``set_context(device_target="GPU")``: raise, naming why, when the library cannot run."""
    reason = why_unavailable()
    if reason is not None:
        raise RuntimeError(f"Unsupported device target GPU: refms's CUDA library cannot run on "
                           f"this machine: {reason}")
    from ._cuda import device
    device.runtime(device_id)
    warnings.warn("refms: the CUDA library loaded, but the gpu kernel backend is not wired "
                  "into this version; the computation runs on the CPU kernels.", stacklevel=4)


_context.register_device_target("GPU", _activate_gpu)
