"""``refms.cuda``: is the GPU usable, and why not.

refms runs on a GPU through its own CUDA library (``refms/_cuda``): kernels written in
CUDA C, compiled by nvcc when refms is installed, loaded with ctypes on first use.
Importing refms never loads it; these functions do, once, and never raise or print.
On a machine without a GPU driver, ``refms.cuda.is_available()`` is False and
``refms.cuda.why_unavailable()`` reads "CUDA error 35 (CUDA driver version is
insufficient for CUDA runtime version) when counting the devices: ...".

``set_context(device_target="GPU")`` (or ``set_device("GPU")``) makes the library's
kernels the default backend of :mod:`refms.kernels`: new tensors and parameters live on
the GPU, and PyNative and GRAPH_MODE run there.
"""
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
    """``set_context(device_target="GPU")``: the gpu kernel backend becomes the default, so
    new tensors and parameters live on the device; raises, naming why, when the library
    cannot run here."""
    reason = why_unavailable()
    if reason is not None:
        raise RuntimeError(f"Unsupported device target GPU: refms's CUDA library cannot run on "
                           f"this machine: {reason}")
    from ._cuda import backend
    backend.activate(device_id)


def _activate_cpu(device_id):
    """``set_context(device_target="CPU")``: new tensors live on the host again."""
    from ._cuda import backend
    backend.deactivate()


_context.register_device_target("GPU", _activate_gpu)
_context.register_device_target("CPU", _activate_cpu)
