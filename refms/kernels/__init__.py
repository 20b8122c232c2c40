"""Kernels: the numerical routines primitives call, behind one short contract.

Every kernel has a readable *reference* definition in numpy (the modules of
this package, registered with :func:`reference`).  Hot kernels also have a
Cython *fast* twin with the same signature in :mod:`refms._fast`, which
registers itself with :func:`fast` when that extension was built.

The dispatcher picks one implementation per kernel at its first use:

``REFMS_KERNELS=reference``  always the numpy reference;
``REFMS_KERNELS=fast``       the fast twin wherever one is built (missing twins fall back
                             to the reference; :func:`which` tells);
``REFMS_KERNELS=auto``       (default) the same as ``fast``.

Nothing is chosen at import time: the environment variable is read on the
first kernel call, and :func:`set_implementation` switches at run time.
Call a kernel as ``kernels.call("matmul")(a, b, False, False)`` (one spelling:
the reference modules of this package are named like their kernels).

The contract (every backend provides the same signatures)::

    matmul(a, b, transpose_a, transpose_b)            2-D float arrays -> 2-D
    batch_matmul(a, b, transpose_a, transpose_b)      (..., m, k) @ (..., k, n)
    reduce_sum(x, axis, keepdims)                     axis: tuple of ints (() = all)
    reduce_max(x, axis, keepdims) / reduce_min / reduce_prod / reduce_mean
    conv2d(x, w, stride, pad, dilation, groups)       NCHW, pad = (top, bottom, left, right)
    conv2d_backprop_input(dout, w, x_shape, stride, pad, dilation, groups)
    conv2d_backprop_filter(dout, x, w_shape, stride, pad, dilation, groups)
    max_pool2d(x, kernel, stride, pad) -> (out, argmax)
    max_pool2d_grad(dout, argmax, x_shape)  /  max_pool2d_grad_grad(ddx, argmax)
    avg_pool2d(x, kernel, stride, pad, divisor=None)
    avg_pool2d_grad(dout, x_shape, kernel, stride, pad, divisor=None)
    softmax(x, axis) / log_softmax(x, axis)
    softmax_cross_entropy(logits, labels)             one-hot labels -> (loss, dlogits)
    sparse_softmax_cross_entropy(logits, labels, is_grad)
    batch_norm_statistics(x) / batch_norm(x, scale, bias, mean, variance, epsilon)
"""
import importlib
import os
import pkgutil

__all__ = ["reference", "fast", "call", "which", "set_implementation", "implementation",
           "fast_available", "why_fast_unavailable", "kernel_names", "build_info"]

_REFERENCE = {}
_FAST = {}
_CHOSEN = {}
_STATE = {"mode": None, "loaded": False, "fast_error": None}
_MODES = ("reference", "fast", "auto")


def reference(fn):
    """Decorator: register ``fn`` as the reference kernel named ``fn.__name__``."""
    _REFERENCE[fn.__name__] = fn
    return fn


def fast(name, fn):
    """Register ``fn`` as the fast twin of kernel ``name`` (called by :mod:`refms._fast`)."""
    _FAST[name] = fn
    return fn


def _load():
    """Import every reference module of this package, then try the fast extensions."""
    if _STATE["loaded"]:
        return
    _STATE["loaded"] = True
    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")
    try:
        importlib.import_module("refms._fast")
    except ImportError as exc:          # not built: remembered, explained by why_fast_unavailable
        _STATE["fast_error"] = f"refms._fast could not be imported: {exc}"


def implementation():
    """The dispatch mode in force: ``reference``, ``fast`` or ``auto``."""
    if _STATE["mode"] is None:
        mode = os.environ.get("REFMS_KERNELS", "auto").strip().lower() or "auto"
        if mode not in _MODES:
            raise ValueError(f"REFMS_KERNELS must be one of {_MODES}, got {mode!r}")
        _STATE["mode"] = mode
    return _STATE["mode"]


def set_implementation(mode):
    """Switch every kernel to ``reference``, ``fast`` or ``auto``; returns the previous mode."""
    if mode not in _MODES:
        raise ValueError(f"kernel implementation must be one of {_MODES}, got {mode!r}")
    previous = implementation()
    _STATE["mode"] = mode
    _CHOSEN.clear()
    return previous


def call(name):
    """The implementation of kernel ``name`` chosen under the current mode."""
    fn = _CHOSEN.get(name)
    if fn is None:
        _load()
        if name not in _REFERENCE:
            raise KeyError(f"no kernel named {name!r}; known: {sorted(_REFERENCE)}")
        fn = _REFERENCE[name]
        if implementation() != "reference" and name in _FAST:
            fn = _FAST[name]
        _CHOSEN[name] = fn
    return fn


def which(name):
    """``'fast'`` or ``'reference'``: which implementation of ``name`` runs now."""
    fn = call(name)
    return "fast" if fn is _FAST.get(name) and fn is not _REFERENCE[name] else "reference"


def kernel_names():
    _load()
    return sorted(_REFERENCE)


def fast_available():
    """True when the Cython extensions are built and importable (never raises)."""
    try:
        _load()
    except Exception:   # noqa: BLE001 - is_available must not raise
        return False
    return bool(_FAST)


def why_fast_unavailable():
    """None when fast kernels are available, else the reason."""
    if fast_available():
        return None
    return _STATE["fast_error"] or "refms._fast registered no kernels"


def reference_kernel(name):
    """The reference implementation of ``name`` whatever the mode (for twin tests)."""
    _load()
    return _REFERENCE[name]


def fast_kernel(name):
    """The fast twin of ``name``, or None when it is not built."""
    _load()
    return _FAST.get(name)



def build_info():
    """How the fast kernels were built, and which BLAS libraries and thread pools they use.

    A dict:

    ``fast_available`` / ``why_fast_unavailable``  as the functions of those names;
    ``compile_flags``   the optional flags the compiler accepted (``-O3``, ``-fopenmp``);
    ``openmp``          True when the kernels' ``prange`` loops run on OpenMP threads;
    ``openmp_threads``  the size of that pool (``OMP_NUM_THREADS``, default: the cores);
    ``openmp_wait_policy``  ``OMP_WAIT_POLICY`` (:mod:`refms._fast` makes it ``PASSIVE``,
                        waiting threads sleep, unless it was set);
    ``kernel_blas``     the BLAS the fast kernels' GEMMs call (scipy's, through
                        ``scipy.linalg.cython_blas``);
    ``numpy_blas``      the BLAS numpy's own ``matmul`` calls (the reference kernels);
    ``one_blas``        whether those two are one library (one BLAS thread pool in the process).

    With the numpy and scipy wheels from PyPI they are two copies of OpenBLAS
    (numpy's 64-bit-integer build and scipy's), each with its own thread pool;
    under ``REFMS_KERNELS=fast`` every GEMM of a kernel runs in scipy's, so
    numpy's pool stays idle unless a reference kernel runs.  Nothing is
    loaded or started by asking.
    """
    info = {"fast_available": fast_available(), "why_fast_unavailable": why_fast_unavailable(),
            "compile_flags": [], "openmp": False, "openmp_threads": 0, "openmp_wait_policy": None}
    if info["fast_available"]:
        try:
            build = importlib.import_module("refms._fast.build")
            info["compile_flags"] = build.compile_flags()
            info["openmp"] = build.openmp_version() > 0
            info["openmp_threads"] = build.openmp_threads()
            info["openmp_wait_policy"] = os.environ.get("OMP_WAIT_POLICY")
        except ImportError:
            pass
    info["kernel_blas"] = _blas_of("scipy")
    info["numpy_blas"] = _blas_of("numpy")
    info["one_blas"] = (info["kernel_blas"] is not None
                        and info["kernel_blas"] == info["numpy_blas"])
    return info


def _blas_of(package):
    """'name version (lib directory)' of the BLAS ``package`` was built against, or None."""
    try:
        config = importlib.import_module(f"{package}.__config__").CONFIG
        blas = config["Build Dependencies"]["blas"]
    except Exception:       # noqa: BLE001 - an older or unusual build: unknown
        return None
    return f"{blas.get('name')} {blas.get('version')} ({blas.get('lib directory')})"
