"""Find numpy's BLAS in this process, so that the fast kernels' GEMMs run in it: one BLAS.

numpy's ``matmul`` (and so every reference kernel) calls the BLAS numpy was
built with; ``scipy.linalg.cython_blas`` is scipy's.  With the wheels from
PyPI these are two copies of OpenBLAS (numpy's ``scipy_openblas64_``, 64-bit
integers, and scipy's ``scipy_openblas``, 32-bit), each with its own thread
pool and its own idea of how many threads to use.  The Cython GEMMs
(``_blas.pxi``) call numpy's copy instead when this module finds it:

1. the shared libraries mapped into the process (``/proc/self/maps``, Linux)
   that live in numpy's folder or in its wheel's ``numpy.libs`` and have
   ``blas`` in their name;
2. in each, the Fortran ``sgemm``/``dgemm`` under the names OpenBLAS builds
   export (``scipy_sgemm_64_``, ``sgemm_64_``: 64-bit integers;
   ``scipy_sgemm_``, ``sgemm_``: the integer width numpy's build
   configuration states, ``USE64BITINT`` or not).

Nothing found (another OS, a BLAS under another name, ``REFMS_BLAS=scipy``):
the kernels keep scipy's BLAS and ``why_not`` says why.  Only the
standard library and numpy are imported; nothing is loaded that numpy did not
load already.
"""
import ctypes
import os

import numpy as np

__all__ = ["gemm_symbols", "why_not"]

#: (sgemm name, dgemm name, integer bits or None: numpy's configuration decides), in order.
_NAMES = (("scipy_sgemm_64_", "scipy_dgemm_64_", 64), ("sgemm_64_", "dgemm_64_", 64),
          ("scipy_sgemm_", "scipy_dgemm_", None), ("sgemm_", "dgemm_", None))

_WHY = ["not looked for yet"]


def why_not():
    """Why the fast kernels do not use numpy's BLAS (None when they do)."""
    return _WHY[0]


def _numpy_int_bits():
    """64 when numpy's BLAS was configured with 64-bit integers, else 32."""
    try:
        blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
    except Exception:       # noqa: BLE001 - an older numpy: assume the LP64 interface
        return 32
    text = " ".join(str(v) for v in blas.values()).upper()
    return 64 if "USE64BITINT" in text or "ILP64" in text else 32


def _numpy_libraries():
    """Paths of the BLAS shared libraries numpy brought into this process."""
    folder = os.path.dirname(os.path.abspath(np.__file__))
    homes = (folder + os.sep, folder + ".libs" + os.sep)
    found = []
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            for line in maps:
                path = line.split(None, 5)[-1].strip()
                if (path.startswith(homes) and "blas" in os.path.basename(path).lower()
                        and path not in found):
                    found.append(path)
    except OSError as exc:
        _WHY[0] = f"cannot list the loaded libraries ({exc.strerror}: no /proc/self/maps)"
    return found


def gemm_symbols():
    """``(sgemm address, dgemm address, integer bits, library path)`` of numpy's BLAS, or None."""
    if os.environ.get("REFMS_BLAS", "").lower() == "scipy":
        _WHY[0] = "REFMS_BLAS=scipy asks for scipy's BLAS"
        return None
    libraries = _numpy_libraries()
    if not libraries:
        if _WHY[0] == "not looked for yet":
            _WHY[0] = "numpy's BLAS library is not among the loaded libraries of its folder"
        return None
    for path in libraries:
        try:
            library = ctypes.CDLL(path)          # already loaded by numpy: the same handle
        except OSError:
            continue
        for s_name, d_name, bits in _NAMES:
            try:
                sgemm, dgemm = getattr(library, s_name), getattr(library, d_name)
            except AttributeError:
                continue
            _WHY[0] = None
            return (ctypes.cast(sgemm, ctypes.c_void_p).value,
                    ctypes.cast(dgemm, ctypes.c_void_p).value,
                    bits or _numpy_int_bits(), path)
    _WHY[0] = f"no sgemm/dgemm under a known name in {', '.join(libraries)}"
    return None
