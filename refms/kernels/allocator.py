"""Keep freed memory for the next step: the C allocator's settings for large temporaries.

A training step allocates the same large arrays every time (a batch of
feature maps, im2col columns, their gradients) and frees them before the
next step.  glibc's ``malloc`` serves a block above its *mmap threshold*
(128 KiB, raised on its own up to the largest block freed so far) with a
fresh ``mmap`` and gives it back with ``munmap``, and gives free memory at
the top of the heap back to the system beyond its *trim threshold*; every
step then touches its temporaries' pages for the first time again, one page
fault per 4 KiB (at LeNet-5, batch 128: ~100,000 faults in 20 steps, a third
of the step).  Fixing both thresholds (``mallopt``, glibc's documented
interface; the ``MALLOC_MMAP_THRESHOLD_`` and ``MALLOC_TRIM_THRESHOLD_``
environment variables set the same) keeps blocks up to 32 MiB (glibc's
largest mmap threshold on 64-bit systems) in the heap and up to 512 MiB of
free heap memory in the process, so the next step reuses memory whose pages
are already mapped — what PyTorch's caching allocator does for its tensors.

Applied once, by :func:`refms.kernels` at its first kernel call (never at
import), on glibc only, and not when the user set either variable or
``REFMS_MALLOC_TUNING=0``.  ``state`` says what was done.
"""
import ctypes
import os

__all__ = ["tune", "state", "MMAP_THRESHOLD", "TRIM_THRESHOLD"]

#: ``mallopt`` parameter numbers (glibc's malloc.h).
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
#: Blocks up to this size come from the heap (glibc's maximum: 4 Mi · sizeof(long)).
MMAP_THRESHOLD = 32 * 1024 * 1024
#: Free memory at the top of the heap kept by the process.
TRIM_THRESHOLD = 512 * 1024 * 1024

_STATE = ["not tuned yet"]


def state():
    """What :func:`tune` did: ``'tuned: ...'``, or why it left the allocator alone."""
    return _STATE[0]


def tune():
    """Set glibc's mmap and trim thresholds once (see the module docstring); never raises."""
    if _STATE[0] != "not tuned yet":
        return
    if os.environ.get("REFMS_MALLOC_TUNING", "1") == "0":
        _STATE[0] = "left alone: REFMS_MALLOC_TUNING=0"
        return
    if "MALLOC_MMAP_THRESHOLD_" in os.environ or "MALLOC_TRIM_THRESHOLD_" in os.environ:
        _STATE[0] = "left alone: MALLOC_*_THRESHOLD_ set in the environment"
        return
    try:
        libc = ctypes.CDLL(None)
        libc.gnu_get_libc_version                    # glibc only (musl, macOS: no mallopt)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        _STATE[0] = "left alone: the C library is not glibc"
        return
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    done = (mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1
            and mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD) == 1)
    _STATE[0] = (f"tuned: mmap threshold {MMAP_THRESHOLD >> 20} MiB, trim threshold "
                 f"{TRIM_THRESHOLD >> 20} MiB" if done else "left alone: mallopt refused")
