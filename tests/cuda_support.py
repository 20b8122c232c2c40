"""Test support for the CUDA library: its CPU shim build, and GPU detection.

``shim_runtime()`` compiles ``refms/_cuda/csrc/*.cu`` as C++ against ``shim.h`` (once per
source version, cached in the temp directory by ``refms._cuda.build.build_shim``), loads
it with the library's own prototype table and returns a ``Runtime`` on it: the Python
layer (DeviceArray, ops, error reporting) then runs unchanged, the "device" being host
memory.  ``gpu_reason()`` is None on a machine where the real library sees a GPU.
"""
import ctypes
import functools

import pytest

from refms._cuda import build, loader, prototypes
from refms._cuda.device import Runtime


@functools.lru_cache(maxsize=None)
def shim_library_path():
    """Path of the shim build, or the reason it cannot be built (a string starting 'no ')."""
    if build.find_cxx() is None:
        return "no C++ compiler (g++ or clang++) to build the CUDA kernels' CPU shim"
    return build.build_shim()


def shim_runtime():
    path = shim_library_path()
    if path.startswith("no "):
        pytest.skip(path)
    return Runtime(prototypes.declare(ctypes.CDLL(path)))


def gpu_reason():
    """None when the real CUDA library loads and sees a GPU; else why not."""
    if loader.library_path() != loader.os.path.join(loader.HERE, loader.LIBRARY_NAME):
        return "REFMS_CUDA_LIBRARY points at another build"
    return loader.unavailable_reason()
