"""Kernels: the numerical routines primitives call, behind one short contract.

A primitive's ``forward`` never computes with numpy itself: it calls kernels,
``kernels.call("matmul")(a, b, False, False)``.  Every kernel has a readable
*reference* definition in numpy (the modules of this package, one concept
each, registered with :func:`reference`).  Hot kernels also have a Cython
*fast* twin with the same signature in :mod:`refms._fast`, found there by
:mod:`refms._fast.twins` and registered by the dispatcher at its first use.  Other *backends* (:mod:`refms.kernels.backend`:
the protocol) bring their own arrays and kernel tables.

Implementation on the cpu backend, chosen at the first kernel call (never at import):

* ``REFMS_KERNELS=reference``: always the numpy reference;
* ``REFMS_KERNELS=fast``: the fast twin wherever one is built (else the reference;
  ``which`` tells);
* ``REFMS_KERNELS=auto`` (default): the same as ``fast``;

:func:`set_implementation` switches at run time.

The contract: every backend's kernel of a name has these inputs and outputs.
``x, y, xs, mask, ...`` are arrays of the op's backend; everything else is a
host value (ints, tuples, numpy dtypes, index tuples, a numpy Generator).
Shapes follow numpy's broadcasting and indexing rules.  Each file's
docstring says more.

===============  ================================================================================
``elementwise``  ``UNARY`` names ``(x) -> y``: neg abs square sqrt rsqrt reciprocal exp log log1p
                 expm1 sin cos asin acos atan erf erfinv floor ceil trunc round sign relu
                 sigmoid tanh gelu logical_not isnan isinf isfinite invert;  ``BINARY`` names
                 ``(x, y) -> z`` (broadcast): add
                 sub mul div floor_div floor_mod fmod pow maximum minimum equal not_equal greater
                 greater_equal less less_equal logical_and logical_or bitwise_and bitwise_or atan2;
                 ``clip(x, low, high)``, ``where(cond, x, y)``, ``scale(x, factor)``, ``add_n(xs)``,
                 ``relu_grad(dy, y)`` (dy where y > 0, else 0; one shape)
``cast``         ``cast(x, np_dtype)``, ``round_to_bfloat16(x)``, ``copy(x)``
``fill``         ``full(shape, value, np_dtype)``, ``full_like(x, value)``
``random``       ``uniform_real(rng, shape)``, ``standard_normal(rng, shape)``,
                 ``uniform_int(rng, shape, low, high)``, ``bernoulli(rng, shape, p, np_dtype)``
``shape``        ``reshape(x, shape)``, ``transpose(x, perm)``, ``expand_dims(x, axis)``,
                 ``squeeze(x, axes)``, ``broadcast_to(x, shape)``, ``tile(x, reps)``, ``flip(x, axis)``
``join``         ``concat(xs, axis)``, ``stack(xs, axis)``, ``split(x, sections, axis) -> tuple``
``index``        ``getitem(x, index)``, ``index_add(shape, index, updates)``, ``take(x, i, axis)``,
                 ``take_along_axis(x, i, axis)``, ``scatter_along_axis(x, i, u, axis, reduction)``,
                 ``one_hot(i, depth, axis, on, off)``, ``masked_select(x, mask)``,
                 ``masked_scatter(x, mask, source)``, ``segment_sum(x, ids, n)``,
                 ``first_outside(i, low, high) -> None | (position, value)``,
                 ``count_true(mask) -> int``
``reduce``       ``reduce_<sum|mean|max|min|prod|all|any>(x, axes, keepdims)`` (axes a tuple,
                 () = all), ``cumsum(x, axis, exclusive, reverse)``, ``exclusive_cumprod_both(x)``
``sort``         ``sort(x, axis, descending) -> (values, indices)``, ``topk(x, k, sorted)``,
                 ``argmax(x, axis)``, ``argmin(x, axis)``
``matmul``       ``matmul(a, b, transpose_a, transpose_b)`` (2-D), ``batch_matmul(...)`` (batched),
                 ``matrix_inverse(a)`` (each (..., n, n) matrix),
                 ``triangular_solve(a, b, upper, transpose, unitriangular)``, ``qr(a, complete)``
``im2col``       ``im2col(x, kernel, dilation, padding, stride) -> (N, C·kh·kw, L)``,
                 ``col2im(cols, output_size, kernel, dilation, padding, stride)`` (its adjoint)
``counting``     ``unique(x, dim)``, ``unique_consecutive(x, dim)`` ``-> (values, inverse,
                 counts)``, ``histc(x, bins, low, high)``
``integer``      ``gcd(x, y)`` (broadcast, ≥ 0)
``conv``         ``conv2d(x, w, stride, pad, dilation, groups)`` (NCHW, pad = (top, bottom, left,
                 right)), ``conv2d_backprop_input(dout, w, x_shape, ...)``,
                 ``conv2d_backprop_filter(dout, x, w_shape, ...)``
``pool``         ``max_pool2d(x, kernel, stride, pad) -> (out, argmax)``,
                 ``max_pool2d_grad(dout, argmax, x_shape)``, ``max_pool2d_grad_grad(ddx, argmax)``,
                 ``avg_pool2d(x, kernel, stride, pad, divisor)``,
                 ``avg_pool2d_grad(dout, x_shape, kernel, stride, pad, divisor)``
``softmax``      ``softmax(x, axis)``, ``log_softmax(x, axis)``,
                 ``softmax_cross_entropy(logits, labels) -> (loss, dlogits)``,
                 ``sparse_softmax_cross_entropy(logits, labels, is_grad)``
``nll``          ``nll_loss(x, labels, weight, reduction, ignore) -> (loss, total_weight)``,
                 ``nll_loss_grad(dloss, labels, weight, total_weight, x_shape, reduction, ignore)``
``batchnorm``    ``batch_norm_statistics(x) -> (mean, variance)``,
                 ``batch_norm(x, scale, bias, mean, variance, eps)``, ``batch_norm_unbiased(var, n)``,
                 ``batch_norm_grad(dy, x, scale, mean, var, eps, training) -> (dx, dscale, dbias)``
``boxes``        ``box_overlap(anchors, gts, mode)``, ``box_encode(anchors, gts, means, stds)``,
                 ``box_decode(anchors, deltas, max_shape, means, stds, clip)``,
                 ``box_check_valid(boxes, img_metas)`` (detection boxes, x2 − x1 + 1 widths)
``state``        in place (``INPLACE``): ``assign(variable, value)``, ``setitem(x, index, value)``,
                 ``moving_average(variable, value, momentum)``,
                 ``apply_momentum(variable, accumulation, gradient, lr, momentum, use_nesterov)``;
                 ``writable(x) -> bool``
===============  ================================================================================
"""
import importlib
import os
import pkgutil
import threading
from collections import Counter

import numpy as np

from . import allocator
from .backend import CPU, Backend

__all__ = ["reference", "fast", "call", "which", "set_implementation", "implementation",
           "fast_available", "why_fast_unavailable", "kernel_names", "reference_kernel",
           "fast_kernel", "fast_kernel_names", "Backend", "register_backend", "unregister_backend", "backend",
           "backends", "set_default_backend", "default_backend", "backend_of", "run",
           "to_host", "from_host", "astype", "result_array", "fallback_counts",
           "reset_fallback_counts", "upload_counts", "current_primitive", "INPLACE",
           "build_info"]

_REFERENCE = {}
_FAST = {}
_STATE = {"mode": None, "loaded": False, "fast_error": None, "default": CPU}
_MODES = ("reference", "fast", "auto")
#: Kernels that write their first argument in place (a fallback copies it back).
INPLACE = frozenset(["assign", "setitem", "moving_average", "apply_momentum"])
#: The inputs an in-place kernel writes, where not only the first.
_WRITTEN = {"apply_momentum": (0, 1)}

# Lazy loading and choosing happen under one lock: two threads making their first kernel
# call at once must not see a half-filled registry.
_LOCK = threading.RLock()

_BACKENDS = {"cpu": CPU}
#: backend name -> {kernel name: the function chosen for it under the current mode}
_CHOSEN = {"cpu": {}}
_CPU_CHOSEN = _CHOSEN["cpu"]
#: True while cpu is the only backend: then ``call`` and ``run`` skip every backend question
#: (the PyNative executor reads it too, to call a forward without ``run``).
ONLY_CPU = True
_FALLBACKS = Counter()
_UPLOADS = Counter()


class _Active(threading.local):
    """The backend whose kernels ``call`` returns, per thread (``run`` sets it), and the
    primitive whose forward is running on a device backend (for error messages)."""
    backend = CPU
    chosen = _CPU_CHOSEN
    primitive = None


_ACTIVE = _Active()


# --------------------------------------------------------------------------- registration

def reference(fn, name=None):
    """Register ``fn`` as the reference kernel ``name`` (default ``fn.__name__``); a decorator."""
    _REFERENCE[name or fn.__name__] = fn
    return fn


def fast(name, fn):
    """Register ``fn`` as the fast twin of kernel ``name`` (the dispatcher does it for the
    twins in :mod:`refms._fast`)."""
    _FAST[name] = fn
    return fn


def _load():
    """Import every reference module of this package, then try the fast extensions."""
    if _STATE["loaded"]:
        return
    with _LOCK:
        if _STATE["loaded"]:
            return
        for info in pkgutil.iter_modules(__path__):
            importlib.import_module(f"{__name__}.{info.name}")
        allocator.tune()                # large temporaries stay mapped between steps
        try:
            twins = _import_twins()
        except ImportError as exc:      # not built: remembered, explained by why_fast_unavailable
            _STATE["fast_error"] = f"refms._fast could not be imported: {exc}"
        else:
            for name, fn in twins.items():
                fast(name, fn)
        _STATE["loaded"] = True         # only now may other threads skip the lock


def _import_twins():
    """{kernel: fast twin} from every compiled module that refms/_fast/twins.py finds.

    All or nothing: a module that is not built (or does not load) raises ImportError.
    """
    # OpenMP threads that wait for work sleep instead of spinning, unless the user chose
    # otherwise.  GNU OpenMP spins by default; on a machine shared with other processes a
    # spinning thread holds a core that the thread it waits for needs, and a 2-thread loop
    # then ran 4-10x slower than on one thread.  libgomp reads the variable when it is loaded,
    # i.e. with the first twin below (if another library loaded it earlier, its setting stands).
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    twin_modules = importlib.import_module("refms._fast.twins").twin_modules
    twins = {}
    for module in twin_modules():
        try:
            compiled = importlib.import_module(f"refms._fast.{module}")
        except Exception as exc:        # not built, or built against something no longer there
            raise ImportError(f"the Cython kernels are not built or do not load ({exc}); build "
                              f"them with 'python setup.py build_ext --inplace' or reinstall "
                              f"refms with a C compiler available") from exc
        twins.update((name, getattr(compiled, name)) for name in compiled.__all__)
    return twins


# --------------------------------------------------------------------------- implementation

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
    with _LOCK:
        previous = implementation()
        _STATE["mode"] = mode
        for chosen in _CHOSEN.values():
            chosen.clear()
    return previous


def _host_kernel(name):
    """The cpu kernel of ``name`` under the current mode."""
    _load()
    if name not in _REFERENCE:
        raise KeyError(f"no kernel named {name!r}; known: {sorted(_REFERENCE)}")
    if implementation() != "reference" and name in _FAST:
        return _FAST[name]
    return _REFERENCE[name]


def _choose(name, on):
    """Pick (and remember) the kernel ``name`` of backend ``on``."""
    with _LOCK:
        host = _host_kernel(name)
        fn = host if on is CPU else on.kernels.get(name) or _fallback(on, name, host)
        _CHOSEN[on.name][name] = fn
        return fn


def call(name):
    """The kernel ``name`` of the active backend, under the current mode."""
    fn = _CPU_CHOSEN.get(name) if ONLY_CPU else _ACTIVE.chosen.get(name)
    if fn is None:
        fn = _choose(name, _ACTIVE.backend)
    return fn


def which(name, on="cpu"):
    """Which implementation of ``name`` runs on backend ``on``: ``'reference'``, ``'fast'``,
    the backend's own (``'cuda'``), or ``'fallback'`` (through the host)."""
    target = backend(on)
    if target is not CPU:
        _host_kernel(name)
        return target.implementation if name in target.kernels else "fallback"
    fn = _host_kernel(name)
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


def fast_kernel_names():
    """The kernels that have a fast twin built and registered."""
    _load()
    return sorted(_FAST)


# --------------------------------------------------------------------------- backends

def register_backend(new):
    """Make backend ``new`` (a :class:`Backend`) available; returns it."""
    global ONLY_CPU
    with _LOCK:
        if new.name in _BACKENDS:
            raise ValueError(f"backend {new.name!r} is already registered")
        _BACKENDS[new.name] = new
        _CHOSEN[new.name] = {}
        ONLY_CPU = False
    return new


def unregister_backend(name):
    """Remove backend ``name`` (not cpu); the default goes back to cpu if it was ``name``."""
    global ONLY_CPU
    with _LOCK:
        if name == "cpu":
            raise ValueError("the cpu backend cannot be unregistered")
        gone = _BACKENDS.pop(name)
        del _CHOSEN[name]
        if _STATE["default"] is gone:
            _STATE["default"] = CPU
        ONLY_CPU = len(_BACKENDS) == 1


def backend(name):
    """The registered backend called ``name``."""
    try:
        return _BACKENDS[name]
    except KeyError:
        raise ValueError(f"no backend named {name!r}; registered: {sorted(_BACKENDS)}") from None


def backends():
    return sorted(_BACKENDS)


def set_default_backend(name):
    """Put new tensors (and ops without tensor inputs) on backend ``name``; returns the previous."""
    previous = _STATE["default"].name
    _STATE["default"] = backend(name)
    return previous


def default_backend():
    return _STATE["default"]


def backend_of(value):
    """The backend whose array ``value`` is (cpu for numpy arrays and scalars), or None."""
    if isinstance(value, np.ndarray):
        return CPU
    for candidate in _BACKENDS.values():
        if candidate.owns(value):
            return candidate
    return None


def to_host(array):
    """``array`` (of any backend) as a numpy array."""
    if isinstance(array, np.ndarray):
        return array
    owner = backend_of(array)
    return np.asarray(array) if owner is None else owner.to_host(array)


def from_host(array, on=None):
    """numpy ``array`` on backend ``on`` (default: the default backend)."""
    target = _STATE["default"] if on is None else backend(on) if isinstance(on, str) else on
    return array if target is CPU else target.from_host(np.asarray(array))


def astype(array, np_type):
    """``array`` converted to numpy dtype ``np_type`` on its own backend (executors' casts)."""
    if isinstance(array, np.ndarray):
        return array.astype(np_type)
    return _run_on(backend_of(array), _cast_here, (array, np_type))


def _cast_here(array, np_type):
    return call("cast")(array, np_type)


def result_array(result, np_type):
    """A forward's result as an array of ``np_type`` (numpy scalars become 0-d arrays)."""
    if result.__class__ is np.ndarray:              # the common case, checked first
        return result if result.dtype.type is np_type else result.astype(np_type)
    if isinstance(result, np.generic) or not hasattr(result, "dtype"):
        result = np.asarray(result)
    if result.dtype != np_type:
        result = astype(result, np_type)
    return result


# --------------------------------------------------------------------------- running a forward

def run(forward, arrays, n_tensor_inputs=None):
    """``forward(*arrays)`` with ``call`` returning the kernels of the op's backend.

    The backend is that of the op's device (non-cpu) tensor inputs, else the
    default backend; host arrays in tensor slots are uploaded to it (counted by
    :func:`upload_counts`).  With only the cpu backend registered this is a plain call.
    """
    if ONLY_CPU:
        return forward(*arrays)
    return _run_on_inputs_backend(forward, arrays, n_tensor_inputs)


def _run_on_inputs_backend(forward, arrays, n_tensor_inputs):
    n = len(arrays) if n_tensor_inputs is None else min(n_tensor_inputs, len(arrays))
    on = None
    for value in _arrays_in(arrays[:n]):
        owner = backend_of(value)
        if owner is not None and owner is not CPU:
            if on is not None and owner is not on:
                raise RuntimeError(f"an op got tensors on two backends, {on.name!r} and "
                                   f"{owner.name!r}; move them to one first")
            on = owner
    on = on or _STATE["default"]
    if on is CPU:
        return _run_on(on, forward, arrays)
    arrays = [_upload(on, value) if i < n else value for i, value in enumerate(arrays)]
    previous = _ACTIVE.primitive
    _ACTIVE.primitive = getattr(getattr(forward, "__self__", None), "name", None) or previous
    try:
        return _run_on(on, forward, arrays)
    finally:
        _ACTIVE.primitive = previous


def current_primitive():
    """The name of the primitive whose forward runs now on a device backend, or None.

    Set by :func:`run` for ``forward`` a primitive's bound method; a device backend
    records it with each kernel launch, so that an error found later, at a synchronizing
    point, names the primitive that launched the failing kernel.
    """
    return _ACTIVE.primitive


def _run_on(on, fn, args):
    previous = _ACTIVE.backend, _ACTIVE.chosen
    _ACTIVE.backend, _ACTIVE.chosen = on, _CHOSEN[on.name]
    try:
        return fn(*args)
    finally:
        _ACTIVE.backend, _ACTIVE.chosen = previous


def _arrays_in(values):
    for value in values:
        if isinstance(value, (tuple, list)):
            yield from value
        else:
            yield value


def _upload(on, value):
    if isinstance(value, (tuple, list)):
        return type(value)(_upload(on, v) for v in value)
    if isinstance(value, (np.ndarray, np.generic)):
        _UPLOADS[on.name] += 1
        return on.from_host(np.asarray(value))
    return value


# --------------------------------------------------------------------------- host fallback

def _fallback(on, name, host_kernel):
    """Kernel ``name`` for backend ``on``, run on the host: copy in, compute, copy back."""
    def run_on_host(*args):
        _FALLBACKS[(on.name, name)] += 1
        host_args = [_copy_to_host(on, value) for value in args]
        result = _run_on(CPU, host_kernel, host_args)
        if name in INPLACE:
            for k in _WRITTEN.get(name, (0,)):
                on.write_host(args[k], host_args[k])
        return _copy_from_host(on, result)
    run_on_host.__name__ = f"{name}_via_host"
    return run_on_host


def _copy_to_host(on, value):
    if isinstance(value, (tuple, list)):
        return type(value)(_copy_to_host(on, v) for v in value)
    return on.to_host(value) if on.owns(value) else value


def _copy_from_host(on, value):
    if isinstance(value, tuple):
        return tuple(_copy_from_host(on, v) for v in value)
    if isinstance(value, (np.ndarray, np.generic)):
        return on.from_host(np.asarray(value))
    return value


def fallback_counts():
    """{(backend, kernel): how many calls ran through the host} since the last reset."""
    return dict(_FALLBACKS)


def upload_counts():
    """{backend: how many host arrays were uploaded as op inputs} since the last reset."""
    return dict(_UPLOADS)


def reset_fallback_counts():
    """Zero the fallback and upload counts."""
    _FALLBACKS.clear()
    _UPLOADS.clear()


def build_info():
    """How the fast kernels were built, and which BLAS libraries and thread pools they use.

    A dict:

    * ``fast_available`` / ``why_fast_unavailable``: as the functions of those names;
    * ``compile_flags``: the optional flags the compiler accepted (``-O3``, ``-fopenmp``);
    * ``openmp``: True when the kernels' ``prange`` loops run on OpenMP threads;
    * ``openmp_threads``: the size of that pool (``OMP_NUM_THREADS``, default: the cores);
    * ``openmp_wait_policy``: ``OMP_WAIT_POLICY`` (loading the twins makes it ``PASSIVE``,
      waiting threads sleep, unless it was set);
    * ``kernel_blas``: the BLAS the fast kernels' GEMMs call: numpy's own, found in the
      process (:mod:`refms._fast.numpy_blas`), else scipy's (``scipy.linalg.cython_blas``);
    * ``numpy_blas``: the BLAS numpy's own ``matmul`` calls (the reference kernels);
    * ``one_blas``: whether those two are one library (one BLAS thread pool in the process);
    * ``why_not_one_blas``: why not, or None;
    * ``allocator``: what :mod:`refms.kernels.allocator` did to the C allocator.

    With the numpy and scipy wheels from PyPI, numpy's and scipy's BLAS are two
    copies of OpenBLAS (numpy's 64-bit-integer build and scipy's), each with its
    own thread pool; the fast kernels call numpy's, so scipy's pool stays idle
    unless scipy itself computes.  ``REFMS_BLAS=scipy`` (read at import) makes
    them call scipy's.  Nothing is loaded or started by asking.
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
    info["numpy_blas"] = _blas_of("numpy")
    info["kernel_blas"], info["why_not_one_blas"] = _kernel_blas(info["numpy_blas"])
    info["one_blas"] = info["why_not_one_blas"] is None
    info["allocator"] = allocator.state()
    return info


def _kernel_blas(numpy_blas):
    """(the BLAS the fast GEMMs call, why it is not numpy's or None)."""
    if not fast_available():
        return None, "the fast kernels are not built"
    matmul = importlib.import_module("refms._fast.matmul")
    path = matmul.blas_library()
    if os.path.isabs(path):                   # bound to numpy's library (refms._fast.numpy_blas)
        return f"{numpy_blas or 'numpy BLAS'}, loaded from {path}", None
    why = importlib.import_module("refms._fast.numpy_blas").why_not()
    return _blas_of("scipy"), why or "numpy's BLAS was not bound"


def _blas_of(package):
    """'name version (lib directory)' of the BLAS ``package`` was built against, or None."""
    try:
        config = importlib.import_module(f"{package}.__config__").CONFIG
        blas = config["Build Dependencies"]["blas"]
    except Exception:       # noqa: BLE001 - an older or unusual build: unknown
        return None
    return f"{blas.get('name')} {blas.get('version')} ({blas.get('lib directory')})"
