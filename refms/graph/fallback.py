"""JIT Fallback at run time: Python code that needs a Tensor's *value* runs on the host
when the graph runs (a mixin of the Specializer).

MindSpore 2.x, with ``jit_syntax_level=LAX`` (the default), compiles what it can and
hands the rest to the Python interpreter *at run time* ("JIT Fallback supports
runtime"; tutorial "Introduction to Graph Mode Programming", section "AST Extended
Syntaxes (LAX level)").  ``x.asnumpy()``, ``int(t)``, ``len(t.asnumpy())``, numpy on a
computed Tensor, a Tensor used as a Python index, ``assert t in [2, 3]``: each becomes
one **PyExecute** node, ``PyExecute(fn, *args)``, whose meaning is "call the Python
function ``fn`` on the run-time values of ``args``".

How inference gets there:

* Python code run on stand-ins (``PythonBridge.trace_call`` in :mod:`refms.graph.bridge`)
  that asks a stand-in for its value (``Tracer.asnumpy``, ``__int__``, ``__bool__``…)
  raises ``NeedsValue``; the nodes the call emitted are dropped and the whole call
  becomes one PyExecute node instead;
* the result's type is unknown until run time: ``AbstractAny`` of
  :mod:`refms.graph.abstract` (MindSpore's ``Any``), except for the builtins whose result
  type is known (``int(t)`` is an ``int``, ``len``, ``isinstance``, ``in``… see
  ``RESULT_TYPES``), which give a run-time Python number that later Tensor ops use like
  any other (MindSpore's "Annotation Type" does the same for these);
* a graph function given to host code (``map(lambda v: v * 2, x.asnumpy())``) is
  specialized for ``Any`` arguments and called by the host;
* every later call that receives an ``Any`` — an operator, a function, a primitive, a
  method of the run-time object — is itself a PyExecute node; an ``if`` on an ``Any``
  is decided at run time; ``Any`` joined with anything is ``Any``.

A PyExecute node has an effect (it may print or change a Python object), so no pass
removes, merges or reorders it.  Gradients do not flow through it: a value computed on
the host is a constant for autodiff (MindSpore 2.10 gives zero gradients through it,
``tests/recorders/record_graph_fallback.py``).

With ``MS_DEV_JIT_SYNTAX_LEVEL=0`` (STRICT) or ``1`` (COMPATIBLE) there is no run-time
fallback: asking for a computed Tensor's value is a compile error (at STRICT,
``x.asnumpy()`` is MindSpore's ``AttributeError``), except ``int``, ``float`` and ``bool``
of a Tensor, which MindSpore compiles as graph ops at every level.
"""
import builtins
import operator

import numpy as np

from ..autograd import tape as _tape
from .._tensor import Tensor
from . import abstract as A
from . import tracer as _tracer
from . import graph_ops as G
from .errors import GraphCompileError, NeedsValue
from .executor import call_value
from .ir import FuncGraph, ValueNode
from .parse_expr import _contains, _not_contains
from .syntax_level import COMPATIBLE, LAX, STRICT, runtime_fallback  # noqa: F401 (re-exported)

__all__ = ["PyExecute", "PY_EXECUTE", "AnyValue", "RuntimeFallback", "runtime_fallback",
           "holds_any", "converts_at_every_level", "RESULT_TYPES", "HOST_VERSIONS"]

class PyExecute(G.GraphOp):
    """``PyExecute[kw…](fn, *args)``: call ``fn`` on run-time values, on the host.

    ``keywords`` names the last ``len(keywords)`` inputs, passed as keyword arguments.
    The call runs without recording a gradient tape: host code is a constant for autodiff.
    """

    def __init__(self, keywords=()):
        super().__init__("PyExecute", effect=True)
        self.keywords = tuple(keywords)

    def run(self, fn, *values):
        split = len(values) - len(self.keywords)
        kwargs = dict(zip(self.keywords, values[split:]))
        positional = [_host_callable(v) for v in values[:split]]
        kwargs = {k: _host_callable(v) for k, v in kwargs.items()}
        with _tape.no_grad():
            return fn(*positional, **kwargs)

    def __repr__(self):
        return f"PyExecute[{', '.join(self.keywords)}]" if self.keywords else "PyExecute"


#: PyExecute without keyword arguments (a node prints as ``PyExecute(fn, args…)``).
PY_EXECUTE = PyExecute()

#: Callables whose result type is known whatever their run-time arguments: their
#: PyExecute node gives a run-time Python number instead of ``Any``.
RESULT_TYPES = {
    builtins.int: int, builtins.float: float, builtins.bool: bool, builtins.len: int,
    builtins.isinstance: bool, builtins.hasattr: bool, builtins.callable: bool,
    operator.not_: bool, operator.truth: bool, _contains: bool, _not_contains: bool,
}


def converts_at_every_level(fn):
    """``int(t)``, ``float(t)``, ``bool(t)`` of a computed Tensor become run-time numbers even
    below LAX: MindSpore 2.10 compiles them as graph ops at STRICT too (observed)."""
    return fn in (builtins.int, builtins.float, builtins.bool)


def _result_abstract(fn):
    try:
        kind = RESULT_TYPES.get(fn)
    except TypeError:                       # unhashable callee
        kind = None
    return A.AbstractAny() if kind is None else A.AbstractScalar(kind)


def _one_element(kind):
    def convert(value, *args):
        if isinstance(value, np.ndarray) and value.size == 1 and value.ndim > 0 and not args:
            value = value.reshape(())
        return kind(value, *args)
    convert.__name__ = kind.__name__
    convert.__qualname__ = f"host_{kind.__name__}"
    return convert


#: Builtins run on the host in numpy 1.x's manner, the numpy MindSpore 2.10 requires
#: (``numpy<2``): ``float(np.array([-1]))`` is ``-1.0`` (numpy 2 raises TypeError).
HOST_VERSIONS = {builtins.int: _one_element(builtins.int),
                 builtins.float: _one_element(builtins.float)}


def _host_function(fn):
    """The function to run on real values for ``fn``: a method the inference stand-ins
    override (``Tracer.asnumpy`` asks for a value) is the Tensor's own method; ``int`` and
    ``float`` accept one-element arrays (``HOST_VERSIONS``)."""
    owner = getattr(fn, "__qualname__", "").split(".")[0]
    if owner in ("Tracer", "ScalarTracer") and getattr(fn, "__module__", "") == _tracer.__name__:
        return getattr(Tensor, fn.__name__)
    try:
        return HOST_VERSIONS.get(fn, fn)
    except TypeError:                       # unhashable callee
        return fn


def holds_any(abstract):
    """True when ``abstract`` is, or contains, a value known only at run time as ``Any``."""
    if isinstance(abstract, A.AbstractAny):
        return True
    if isinstance(abstract, A.AbstractTuple):
        return any(holds_any(item) for item in abstract.items)
    if isinstance(abstract, A.AbstractPartial):
        return holds_any(abstract.fn) or any(holds_any(a) for _, a in abstract.args)
    return False


def _no_value(what):
    raise NeedsValue(f"{what} needs the value of an object known only when the graph runs")


class AnyValue:
    """The stand-in of an ``Any`` value in Python code run during inference: anything that
    needs its value raises :class:`NeedsValue`, so the code runs at run time instead."""

    __slots__ = ("node",)

    def __init__(self, node):
        object.__setattr__(self, "node", node)

    def __getattr__(self, name):
        _no_value(f"Reading the attribute '{name}'")

    def __setattr__(self, name, value):
        _no_value(f"Setting the attribute '{name}'")

    def __call__(self, *args, **kwargs):
        _no_value("Calling it")

    def __repr__(self):
        return "Any(value=<run time>)"

    __str__ = __repr__

    def __hash__(self):
        return id(self)


def _install_value_methods():
    names = ["bool", "int", "float", "index", "len", "iter", "contains", "getitem", "setitem",
             "array", "format", "neg", "pos", "abs", "invert", "lt", "le", "gt", "ge",
             "eq", "ne"]
    for op in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and",
               "or", "xor", "lshift", "rshift"):
        names += [op, "r" + op]
    for name in names:
        def method(self, *args, _name=name):
            _no_value(f"'__{_name}__'")
        method.__name__ = f"__{name}__"
        setattr(AnyValue, f"__{name}__", method)


_install_value_methods()


def _host_function_error():
    return GraphCompileError(
        "a function of the graph is passed to Python code that runs when the graph runs (JIT "
        "Fallback): refms gives host code the graph's functions that take positional "
        "parameters only (a lambda, a nested def), not methods, partials or functions chosen "
        "by a run-time condition")


def _host_callable(value):
    """A run-time function value as a Python callable: a graph, or a graph with arguments
    bound in front (what closure conversion makes of a closure), is run by the executor."""
    if isinstance(value, (FuncGraph, G.PartialValue)):
        return lambda *args: call_value(value, args)
    return value


class RuntimeFallback:
    """Mixin of :class:`refms.graph.infer.Specializer`: emitting PyExecute nodes."""

    def py_execute(self, ctx, fn_node, fn_abstract, args, kwargs, loc):
        """The node ``PyExecute(fn, *args, **kwargs)`` and its abstract (``Any``, or a
        run-time number for the callables of ``RESULT_TYPES``)."""
        args = [self.host_value(ctx, n, a, loc) for n, a in args]
        kwargs = {k: self.host_value(ctx, n, a, loc) for k, (n, a) in kwargs.items()}
        if isinstance(fn_abstract, A.Const):          # a known function: named in the node
            abstract = _result_abstract(fn_abstract.value)
            fn = _host_function(fn_abstract.value)
            fn_abstract = A.Const(fn)
            fn_node = ValueNode(fn, abstract=fn_abstract, loc=loc)
        else:                                         # an object known at run time
            abstract = A.AbstractAny()
        op = PyExecute(tuple(kwargs)) if kwargs else PY_EXECUTE
        # (a graph function among the arguments is already a typed graph: host_value)
        inputs = [op, fn_node] + [n for n, _ in list(args) + list(kwargs.values())]
        node = ctx.graph.apply(inputs, abstract=abstract, loc=loc)
        ctx.effects = True
        return node, abstract

    def host_value(self, ctx, node, abstract, loc):
        """An argument of a PyExecute node as the host will see it.  A function of the graph
        (a ``lambda`` given to ``map``) is specialized for ``Any`` arguments, so that host
        code can call it: its run-time value is a closure the executor runs."""
        if isinstance(abstract, A.AbstractClosure):
            signature = abstract.graph.signature
            if signature is None or signature.defaults or signature.vararg or \
                    signature.kwonly or signature.kwarg:
                raise _host_function_error()
            any_args = [(None, A.AbstractAny())] * len(signature.names)
            graph = self.specialize(abstract, any_args, loc)
            typed = A.AbstractGraph(graph)
            return ValueNode(graph, abstract=typed, loc=loc), typed
        if isinstance(abstract, A.FUNCTION_ABSTRACTS + (A.Pending,)):
            raise _host_function_error()
        return node, abstract

    def py_execute_value(self, ctx, fn, args, kwargs, loc):
        """PyExecute of the constant callable ``fn``."""
        return self.py_execute(ctx, None, A.Const(fn), args, kwargs, loc)
