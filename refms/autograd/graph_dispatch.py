"""When gradients are compiled, and how compiled calls take part in PyNative gradients.

* :func:`compiles` — ``grad(fn)``/``GradOperation()(fn)`` is compiled as one graph
  (forward, backpropagator and the result structure) when ``fn`` is a ``jit``
  function, a Cell in GRAPH_MODE, or the gradient function of one (higher
  order); :func:`call_compiled` compiles and caches it per input signature.
* :func:`run_recorded` — a compiled call (``jit`` function, Cell in
  GRAPH_MODE) made while a PyNative tape records: the program compiled is
  ``J(fn)``, returning the output and the backpropagator; one tape entry is
  recorded whose bprop calls that backpropagator (MindSpore's jit graphs inside
  PyNative gradients behave the same way).
"""
from .._tensor import Tensor
from . import tape as _tape

__all__ = ["compiles", "call_compiled", "tape_wants", "run_recorded"]


def compiles(fn):
    """Whether ``grad(fn)`` is computed by a compiled gradient graph: ``fn`` is a ``jit``
    function, or a Cell in GRAPH_MODE, or the gradient function of one (higher order)."""
    from ..context import is_graph_mode
    from ..graph.api import JitFunction
    from ..nn.cell import Cell
    seen = 0
    while fn is not None and seen < 16:
        if isinstance(fn, JitFunction):
            return True
        if isinstance(fn, Cell):
            return is_graph_mode()
        fn = getattr(fn, "__wrapped__", None) if getattr(fn, "_refms_grad", False) else None
        seen += 1
    return False


#: key -> (compiled programs, impl, fn).  The key holds ``id(fn)`` and the value ``fn`` itself,
#: so the id stays unique while the entry exists.
_GRAD_CACHES = {}


def call_compiled(impl, fn, key, args):
    """Run the gradient function ``impl`` (grad.py's implementation) compiled: the whole of it
    — forward, backpropagator, result structure — becomes one graph, cached per ``key``
    (the transform's options and target) and input signature."""
    from ..graph.api import compile_for
    cache = _GRAD_CACHES.setdefault(key, ({}, impl, fn))[0]
    phase = getattr(fn, "phase", None), getattr(fn, "training", None)
    compiled = compile_for(impl, cache, args, {}, ("grad",) + phase)
    return compiled.run(list(args))


def tape_wants(args):
    """A compiled call runs under a PyNative tape: it must be recorded for the gradient."""
    return _tape.recording()


def run_recorded(fn, cache, args, kwargs, extra_key=()):
    """Run the compiled ``fn`` under an active PyNative tape: compute ``J(fn)`` and record one
    tape entry whose bprop calls the compiled backpropagator."""
    from ..graph.api import compile_for
    from ..graph.executor import call_value
    program = compile_for(_Recorded(fn), cache, args, kwargs, ("recorded",) + tuple(extra_key))
    weights = program.entry.flags.get("recorded_weights", [])
    out, backprop = program.run(list(args) + list(kwargs.values()) + list(weights))
    inputs = tuple(args) + tuple(kwargs.values()) + tuple(weights)

    def bprop(*values):
        dout = values[-1]
        return tuple(call_value(backprop, (dout,)))
    out = _fresh(out)
    _tape.record(bprop, inputs, out, f"jit:{getattr(fn, '__name__', type(fn).__name__)}")
    return out


def _fresh(value):
    if isinstance(value, Tensor):
        return Tensor._make(value._value(), value.dtype)
    if isinstance(value, tuple):
        return tuple(_fresh(v) for v in value)
    return value


class _Recorded:
    """Marker for the compiler: compile ``J(fn)`` — the program returns
    ``(out, backpropagator)`` and takes the weights after the arguments."""

    def __init__(self, fn):
        self.recorded_target = fn
        self.__name__ = "J_" + (getattr(fn, "__name__", None) or type(fn).__name__)
