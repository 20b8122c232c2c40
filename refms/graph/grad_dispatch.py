"""When gradients are compiled, and how compiled calls take part in PyNative gradients.

This module is graph mode's ``refms.autograd.interpreters.Interpreter``,
registered at import: while a graph is traced, ``grad`` emits the gradient
graph (``refms.graph.autodiff.run_and_differentiate``); outside, a gradient
of compiled code is compiled as a whole (``call_compiled``).

* ``compiles`` — ``grad(fn)``/``GradOperation()(fn)`` is compiled as one graph
  (forward, backpropagator and the result structure) when ``fn`` is a ``jit``
  function, a Cell in GRAPH_MODE, or the gradient function of one (higher
  order); ``call_compiled`` compiles and caches it per input signature, on the
  differentiated function itself (``GradCaches``: bounded, gone with the function).
* ``run_recorded`` — a compiled call (``jit`` function, Cell in
  GRAPH_MODE) made while a PyNative tape records: the program compiled is
  ``J(fn)``, returning the output and the backpropagator; one tape entry is
  recorded whose bprop calls that backpropagator (MindSpore's jit graphs inside
  PyNative gradients behave the same way).
"""
import collections
import threading

from ..autograd import interpreters
from ..autograd import tape as _tape
from ..context import is_graph_mode
from .._tensor import Tensor
from . import autodiff
from . import batch_walk
from .cache import CompileCache
from .cells import call_rule_for
from .compiler import compile_for
from .executor import call_value
from .infer import is_user_function
from .jit_function import JitTarget
from .source import check_entry_lambda
from .tracer import is_tracing

__all__ = ["compiles", "call_compiled", "grad_caches", "GradCaches", "run_recorded",
           "GraphInterpreter"]


def compiles(fn):
    """Whether ``grad(fn)`` is computed by a compiled gradient graph: ``fn`` is a ``jit``
    function, or a Cell in GRAPH_MODE, or the gradient function of one (higher order)."""
    seen = 0
    while fn is not None and seen < 16:
        if isinstance(fn, JitTarget):
            return True
        if is_graph_mode() and is_user_function(fn):    # MindSpore compiles it: its rules
            check_entry_lambda(fn)
        rule = call_rule_for(fn)
        if rule is not None:
            return is_graph_mode() and rule.compiled_in_graph_mode(fn)
        fn = getattr(fn, "__wrapped__", None) if getattr(fn, "_refms_grad", False) else None
        seen += 1
    return False


#: How many gradient variants (the transform's options and weights) one differentiated
#: function keeps compiled; each variant keeps at most ``get_compile_cache_size()`` programs.
GRAD_VARIANTS = 8

#: Variants of functions that cannot hold attributes (no ``__dict__``), least recent first out.
_UNATTACHED = collections.OrderedDict()
_UNATTACHED_LOCK = threading.Lock()


class GradCaches:
    """The compiled gradients of one function: variant key → programs, at most
    ``GRAD_VARIANTS`` variants, the least recently used dropped first.

    It lives on the differentiated function itself (``fn.__dict__``), as a Cell's own
    compile cache does, so a dropped function takes its gradient programs — and the
    constants and weights they hold — with it.  A variant key holds its weights
    (``refms.autograd.grad.SameObjects``), so their ids stay theirs."""

    def __init__(self, size=GRAD_VARIANTS):
        self.size = size
        self._variants = collections.OrderedDict()
        self._lock = threading.Lock()

    def programs(self, key):
        with self._lock:
            cache = self._variants.get(key)
            if cache is None:
                cache = self._variants[key] = CompileCache()
            self._variants.move_to_end(key)
            while len(self._variants) > self.size:
                self._variants.popitem(last=False)
            return cache

    def __len__(self):
        return len(self._variants)


def grad_caches(fn):
    """``fn``'s :class:`GradCaches` (made on first use)."""
    attributes = getattr(fn, "__dict__", None)
    if isinstance(attributes, dict):
        return attributes.setdefault("_refms_grad_caches", GradCaches())
    with _UNATTACHED_LOCK:
        key = id(fn)
        entry = _UNATTACHED.get(key)
        if entry is None or entry[1] is not fn:
            entry = _UNATTACHED[key] = (GradCaches(), fn)
        _UNATTACHED.move_to_end(key)
        while len(_UNATTACHED) > GRAD_VARIANTS:
            _UNATTACHED.popitem(last=False)
        return entry[0]


def call_compiled(impl, fn, key, args):
    """Run the gradient function ``impl`` (grad.py's implementation) compiled: the whole of it
    — forward, backpropagator, result structure — becomes one graph, cached on ``fn`` per
    ``key`` (the transform's options and target) and input signature."""
    cache = grad_caches(fn).programs(key)
    phase = getattr(fn, "phase", None), getattr(fn, "training", None)
    compiled = compile_for(impl, cache, args, {}, ("grad",) + phase)
    return compiled.run(list(args))


def run_recorded(fn, cache, args, kwargs, extra_key=()):
    """Run the compiled ``fn`` under an active PyNative tape: compute ``J(fn)`` and record one
    tape entry whose bprop calls the compiled backpropagator."""
    program = compile_for(_Recorded(fn), cache, args, kwargs, ("recorded",) + tuple(extra_key))
    weights = program.entry.flags.get("recorded_weights", [])
    out, backprop = program.run(list(args) + list(kwargs.values()) + list(weights))
    inputs = tuple(args) + tuple(kwargs.values()) + tuple(weights)

    def bprop(*values):
        dout = values[-1]
        return tuple(call_value(backprop, (dout,)))
    out = _fresh(out)
    _tape.record(bprop, inputs, _as_tuples(out),
                 f"jit:{getattr(fn, '__name__', type(fn).__name__)}")
    return out


def _fresh(value):
    """The program's output with new Tensor objects (the tape's outputs), same structure."""
    if isinstance(value, Tensor):
        return Tensor._make(value._value(), value.dtype)
    if isinstance(value, tuple):
        return tuple(_fresh(v) for v in value)
    if isinstance(value, dict):
        return {k: _fresh(v) for k, v in value.items()}
    return value


def _as_tuples(value):
    """``value`` with each dict replaced by the tuple of its values (the same Tensors): the
    tape's entries hold tuples, and the compiled backpropagator takes a dict output's
    cotangent as the tuple of its values' (a dict output's gradient was lost otherwise)."""
    if isinstance(value, dict):
        return tuple(_as_tuples(v) for v in value.values())
    if isinstance(value, tuple):
        return tuple(_as_tuples(v) for v in value)
    return value


class _Recorded:
    """Marker for the compiler: compile ``J(fn)`` — the program returns
    ``(out, backpropagator)`` and takes the weights after the arguments."""

    def __init__(self, fn):
        self.recorded_target = fn
        self.__name__ = "J_" + (getattr(fn, "__name__", None) or type(fn).__name__)


class GraphInterpreter(interpreters.Interpreter):
    """Graph mode's answers to the autodiff layer (:mod:`refms.autograd.interpreters`)."""

    def is_tracing(self):
        return is_tracing()

    def run_and_differentiate(self, fn, args, sens, differentiate):
        return autodiff.run_and_differentiate(fn, args, sens, differentiate)

    def call_batched(self, fn, stand_ins):
        return batch_walk.call_batched(fn, stand_ins)

    def compiles(self, fn):
        return compiles(fn)

    def call_compiled(self, impl, fn, key, args):
        return call_compiled(impl, fn, key, args)


interpreters.register(GraphInterpreter())
