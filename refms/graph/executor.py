"""The executor: an interpreter over the optimized IR (an environment loop).

``run_graph(graph, args)`` binds the parameters in a ``Frame`` (an
environment: node → value), then evaluates the graph's cnodes in order.  A
node's value is found in the frame of the graph that owns it, walking the
chain of enclosing frames for free variables — a closure is a graph plus the
frame it was created in (``Closure``), the classic environment model.

* A primitive runs through ``refms.ops.apply.execute`` (the input casts,
  ``forward`` on the inputs' arrays on their backend, the result cast to the dtype inference
  gave the node).  No shape inference, no tape: that work was
  done at compile time (this is where graph mode saves time over PyNative).
* A weight (a parameter with a default) is read from its refms Parameter
  when the node runs, so optimizer updates between calls are seen.
* ``Switch`` returns one of two functions; the next cnode calls it.
  ``Partial`` binds arguments in front of a function.
* A call in tail position (the graph's last node is its output) reuses the
  loop instead of recursing, so a ``while`` loop does not grow the Python stack.
"""
import threading

from ..ops.apply import execute
from ..ops.primitive import Primitive
from . import abstract as A
from . import graph_ops as G
from .ir import FuncGraph, Parameter, ValueNode

__all__ = ["run_graph", "call_value", "Closure", "run_primitive", "calling_primitives"]


class Frame:
    """The values of one graph call; ``parent`` is the frame of the enclosing graph."""

    __slots__ = ("graph", "values", "parent")

    def __init__(self, graph, parent):
        self.graph = graph
        self.values = {}
        self.parent = parent


class Closure:
    """A graph with free variables, together with the frame its free variables live in."""

    __slots__ = ("graph", "frame")

    def __init__(self, graph, frame):
        self.graph = graph
        self.frame = frame

    def __call__(self, *args):
        return run_graph(self.graph, args, self.frame)

    def __repr__(self):
        return f"Closure(@{self.graph.name})"


def _value(node, frame):
    """The run-time value of ``node`` seen from ``frame``."""
    if isinstance(node, ValueNode):
        value = node.value
        if isinstance(value, FuncGraph) and value.parent is not None:
            owner = frame
            while owner.graph is not value.parent:
                owner = owner.parent
            return Closure(value, owner)
        return value
    if isinstance(node, Parameter) and node.default is not None:
        return node.default
    owner = frame
    while owner.graph is not node.graph:
        owner = owner.parent
    return owner.values[node]


class _Walk(threading.local):
    """True while a graph is walked with Python stand-ins (:func:`calling_primitives`)."""
    active = False


_WALK = _Walk()


class calling_primitives:
    """Context manager: :func:`run_graph` calls each primitive as ``prim(*args)`` — through
    the current executor — instead of computing it (``vmap`` walks a typed graph with
    batched stand-ins this way: :mod:`refms.graph.batch_walk`)."""

    def __enter__(self):
        self.previous = _WALK.active
        _WALK.active = True

    def __exit__(self, *exc):
        _WALK.active = self.previous
        return False


def run_primitive(prim, args, abstract):
    """``prim`` on run-time values whose output's abstract value inference gave: the same
    ``refms.ops.apply.execute`` PyNative runs after its own inference."""
    if _WALK.active:
        return prim(*args)
    if isinstance(abstract, A.AbstractTuple):
        abstract = tuple(abstract.items)
    return execute(prim, args, abstract)


def call_value(fn, args, abstract=None):
    """Call a run-time function value: graph, closure, partial, primitive or graph op."""
    while isinstance(fn, G.PartialValue):
        args = tuple(fn.args) + tuple(args)
        fn = fn.fn
    if isinstance(fn, FuncGraph):
        return run_graph(fn, args, None)
    if isinstance(fn, Closure):
        return run_graph(fn.graph, args, fn.frame)
    if isinstance(fn, Primitive):
        return run_primitive(fn, args, abstract)
    if isinstance(fn, G.GraphOp):
        return fn.run(*args)
    return fn(*args)


def run_graph(graph, args, parent=None):
    """Run ``graph`` on ``args`` (run-time values); returns its output value."""
    while True:
        if len(args) != len(graph.params):
            raise TypeError(f"@{graph.name} takes {len(graph.params)} arguments but "
                            f"{len(args)} were given")
        frame = Frame(graph, parent)
        values = frame.values
        for param, arg in zip(graph.params, args):
            values[param] = arg
        order = graph.order
        tail = order[-1] if order and order[-1] is graph.output else None
        for node in order:
            inputs = node.inputs
            fn = _value(inputs[0], frame)
            call_args = [_value(i, frame) for i in inputs[1:]]
            if node is tail:
                while isinstance(fn, G.PartialValue):
                    call_args = list(fn.args) + call_args
                    fn = fn.fn
                if isinstance(fn, (FuncGraph, Closure)):
                    break
            values[node] = call_value(fn, call_args, node.abstract)
        else:
            return _value(graph.output, frame)
        if isinstance(fn, Closure):           # tail call: continue with the callee
            graph, parent = fn.graph, fn.frame
        else:
            graph, parent = fn, None
        args = call_args
