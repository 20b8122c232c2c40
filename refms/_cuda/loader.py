"""Find the CUDA library, load it with ctypes, declare its prototypes, check for a device.

Nothing happens at import: ``load`` does the work on its first call and remembers
the outcome -- the library, or the reason it cannot be used -- so that
``refms.cuda.is_available()`` and ``why_unavailable()`` are cheap and never raise.

The library is ``librefms_cuda.so.1`` beside this file (``setup.py`` builds it when nvcc is
found).  ``REFMS_CUDA_LIBRARY=/path/to/lib.so`` loads another build instead -- the tests
use it to run the whole GPU backend on the CPU shim build (``build.build_shim``), whose
"device memory" is host memory.
"""
import ctypes
import os

from . import prototypes

__all__ = ["CudaUnavailableError", "load", "unavailable_reason", "library_path", "reset"]

HERE = os.path.dirname(os.path.abspath(__file__))
#: versioned like system libraries -- and so not a name ending in .so, which pkgutil and
#: the import system would take for a Python extension module of this package
LIBRARY_NAME = "librefms_cuda.so.1"
ENV_LIBRARY = "REFMS_CUDA_LIBRARY"

_STATE = {"tried": False, "library": None, "reason": None}


class CudaUnavailableError(RuntimeError):
    """The CUDA library cannot be used here; the message says why."""


def library_path():
    """The library ``load`` opens: ``$REFMS_CUDA_LIBRARY`` or the built one."""
    return os.environ.get(ENV_LIBRARY) or os.path.join(HERE, LIBRARY_NAME)


def _open(path):
    """Load and declare the library at ``path``, and check that it sees a device."""
    if not os.path.exists(path):
        raise CudaUnavailableError(
            f"the refms CUDA library was not built ({path} does not exist): reinstall refms "
            f"with nvcc on PATH or CUDA_HOME set (REFMS_CUDA=1 makes a failed build an error)")
    try:
        library = ctypes.CDLL(path)
    except OSError as exc:
        raise CudaUnavailableError(f"the refms CUDA library {path} does not load: {exc}") from exc
    try:
        prototypes.declare(library)
    except AttributeError as exc:
        raise CudaUnavailableError(f"the refms CUDA library {path} is out of date "
                                   f"(rebuild it): {exc}") from exc
    count = ctypes.c_int(0)
    status = library.refms_cuda_device_count(ctypes.byref(count))
    if status != 0:
        message = library.refms_cuda_error_string(status).decode()
        raise CudaUnavailableError(f"CUDA error {status} ({message}) when counting the devices: "
                                   f"no usable GPU driver or device on this machine")
    if count.value == 0:
        raise CudaUnavailableError("the CUDA runtime found no GPU on this machine")
    return library


def load():
    """The loaded, declared library; raises CudaUnavailableError (with the reason) otherwise."""
    if not _STATE["tried"]:
        _STATE["tried"] = True
        try:
            _STATE["library"] = _open(library_path())
        except CudaUnavailableError as exc:
            _STATE["reason"] = str(exc)
        except Exception as exc:        # noqa: BLE001 - anything else is a reason too
            _STATE["reason"] = f"{type(exc).__name__}: {exc}"
    if _STATE["library"] is None:
        raise CudaUnavailableError(_STATE["reason"])
    return _STATE["library"]


def unavailable_reason():
    """None when the library loads and sees a device, else why not (never raises)."""
    try:
        load()
    except CudaUnavailableError as exc:
        return str(exc)
    return None


def reset():
    """Forget the outcome of ``load`` (tests switch ``REFMS_CUDA_LIBRARY``)."""
    _STATE.update(tried=False, library=None, reason=None)
