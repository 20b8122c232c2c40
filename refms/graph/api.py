"""The graph-mode entry points: ``jit`` / ``ms_function``, compiled Cells, ``ir_text``.

When code is compiled (semantics 7.2):

* ``@jit`` (1.x name ``ms_function``) compiles a function or method in either
  mode, on its first call per input signature (shapes and dtypes of Tensors,
  values of everything else); later calls with the same signature reuse it;
* in GRAPH_MODE a Cell's ``construct`` is compiled the same way when the Cell is
  called — :class:`refms.nn.Cell` ``__call__`` hands the call to
  :func:`run_cell_graph` whenever :func:`in_graph_context` is true;
* plain functions called at top level in GRAPH_MODE still run op by op.

Inside a compilation the same calls are inlined into the graph being built
instead of being compiled separately.  When a PyNative gradient tape records
around a compiled call, the call is recorded as one tape entry whose backward
runs the compiled gradient graph (:mod:`refms.graph.grad_dispatch`).
"""
import functools
import inspect

from .. import compat as _compat
from ..autograd import tape as _tape
from ..context import is_graph_mode
from . import abstract as A
from .cache import CompileCache
from .compiler import compile_call, compile_for, parameter_names
from .grad_dispatch import run_recorded
from .infer import is_user_function
from .input_signature import check_declared_inputs
from .jit_function import JitTarget
from .source import check_entry_lambda
from .resolve import clear_cache
from .user_errors import for_user
from .tracer import current, is_tracing

__all__ = ["jit", "ms_function", "JitFunction", "run_cell_graph", "in_graph_context", "ir_text",
           "compile_for", "clear_caches"]


def in_graph_context():
    """True when a Cell call must go through the graph compiler: in GRAPH_MODE, or while a
    graph is being compiled (a Cell called from refms code that is being traced)."""
    return is_tracing() or is_graph_mode()


def _call_inside_compilation(fn, args, kwargs):
    """A compiled callable called while another graph is being compiled: emit its call."""
    state = current()
    spec, ctx, loc = state.specializer, state.ctx, state.loc
    pairs = [spec.from_python(ctx, a, loc) for a in args]
    kw = {k: spec.from_python(ctx, v, loc) for k, v in kwargs.items()}
    node, abstract = spec.apply(ctx, A.Const(fn), None, pairs, kw, loc)
    return spec.to_python(ctx, node, abstract, loc)


def _run(fn, cache, args, kwargs, extra_key=()):
    if _tape.recording():      # a PyNative gradient records around this call
        return run_recorded(fn, cache, args, kwargs, extra_key)
    compiled = compile_for(fn, cache, args, kwargs, extra_key)
    return compiled.run(list(args) + list(kwargs.values()))


class JitFunction(JitTarget):
    """A function (or method) compiled on first call per input signature.

    The compiled programs are kept in a ``CompileCache`` of at most
    ``cache_size`` programs (settable), which lives as long as this object — for a method,
    as long as the instance."""

    def __init__(self, fn, obj=None, cache=None, instance_caches=None):
        self.fn = fn
        self.obj = obj
        self._cache = CompileCache() if cache is None else cache
        self._instance_caches = {} if instance_caches is None else instance_caches
        functools.update_wrapper(self, fn)

    @property
    def cache_size(self):
        """How many compiled programs (input signatures) this function keeps."""
        return self._cache.maxsize

    @cache_size.setter
    def cache_size(self, size):
        self._cache.maxsize = size

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return JitFunction(self.fn, obj, self._cache, self._instance_caches)

    def __call__(self, *args, **kwargs):
        if is_tracing():
            return _call_inside_compilation(self, args, kwargs)
        if self.obj is None and is_user_function(self.fn):
            check_entry_lambda(self.fn)
        try:
            return _run(self, self._cache_for_call(), args, kwargs)
        except Exception as error:
            raise for_user(error)

    def _cache_for_call(self):
        """The compiled programs of this function — per instance for a method, kept on the
        instance so that a new object at a freed one's address never reuses its graph."""
        if self.obj is None:
            return self._cache
        try:
            instance = vars(self.obj)
        except TypeError:                       # no __dict__: keep the object alive instead
            return self._instance_caches.setdefault(
                id(self.obj), (CompileCache(self.cache_size), self.obj))[0]
        name = f"_graph_cache_{self.fn.__name__}"
        cache = instance.get(name)
        if cache is None:
            cache = instance.setdefault(name, CompileCache(self.cache_size))
        return cache

    def __repr__(self):
        return f"<jit function {getattr(self.fn, '__qualname__', self.fn)}>"


def jit(function=None, *, capture_mode="ast", jit_level="O0", dynamic=0, fullgraph=False,
        backend="", **options):
    """``@refms.jit`` / ``refms.jit(fn)``: compile ``fn`` into a graph on its first call per
    input signature (MindSpore 2.x ``mindspore.jit``; the options are accepted and ignored:
    refms has one compiler)."""
    if capture_mode not in ("ast", "bytecode", "trace"):
        raise ValueError(f"For 'jit', the argument 'capture_mode' should be 'ast', 'bytecode' or "
                         f"'trace', but got {capture_mode!r}.")
    if function is None:
        return lambda fn: JitFunction(fn)
    if isinstance(function, JitFunction):
        return function
    if not callable(function):
        raise TypeError(f"For 'jit', the argument 'function' should be a function, but got "
                        f"{type(function).__name__}.")
    return JitFunction(function)


def ms_function(fn=None, obj=None, input_signature=None):
    """The 1.x name of :func:`jit` (``from mindspore import ms_function``, r1.6 docs)."""
    if fn is None:
        return lambda f: JitFunction(f)
    return JitFunction(fn)


def run_cell_graph(cell, args, kwargs):
    """Run ``cell(*args, **kwargs)`` compiled: the entry ``refms.nn.Cell.__call__`` uses
    when :func:`in_graph_context` is true.  Compiled once per input signature, training
    flag and compat version; inside another compilation the call is inlined instead."""
    if is_tracing():
        return _call_inside_compilation(cell, args, kwargs)
    declared = cell.__dict__.get("_inputs")
    if declared:
        check_declared_inputs(declared, args)
    cache = cell.__dict__.get("_graph_cache")
    if cache is None:
        cache = cell.__dict__.setdefault("_graph_cache", CompileCache())
    try:
        return _run(cell, cache, args, kwargs, (cell.phase, cell.training))
    except Exception as error:
        raise for_user(error)


def ir_text(fn, *args, stage=None, **kwargs):
    """The IR dump text of ``fn(*args, **kwargs)`` compiled (default: the final, validated
    program; ``stage='type_inference'`` and the pass names select earlier ones)."""
    compiled = compile_call(fn, args, kwargs, names=parameter_names(fn, len(args)),
                            keep_stages=True)
    return compiled.text(stage)


def clear_caches():
    """Forget parsed graphs (tests that redefine functions at the same address use this)."""
    clear_cache()
