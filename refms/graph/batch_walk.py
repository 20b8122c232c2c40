"""``vmap`` inside a graph: batching a function by walking its typed graph.

While a graph is traced, ``vmap`` (:mod:`refms.autograd.vmap`) runs on stand-ins
and its executor turns every primitive call on a batched stand-in into the
primitive's batching rule — whose calls emit graph nodes.  The mapped function
cannot be called on the stand-ins directly: a *user* function (parsed: a ``def`` of
the program, a Cell) would take them for one example, and a gradient inside
(``vmap(grad(f))``, ``jacrev``'s batched cotangents) would be emitted for one
example too.  So the mapped function — user code or library code alike — is
specialized for one example, as any call would be, made ready like an autodiff
target (inlined, lambda-lifted: ``refms.graph.autodiff.prepare``), and its typed
graph is *interpreted with the stand-ins* — the executor's environment loop
(``refms.graph.executor.run_graph``) with each primitive called as
``prim(*args)``, so it reaches the vmap executor.  Another walk over the same
IR, like ``J`` in autodiff.

Control flow on a batched Tensor has no single branch to take for the whole
batch: its ``Switch`` needs the condition's value and fails with the tracer's
compile error.
"""
from ..ops.primitive import Abstract
from . import abstract as A
from . import executor
from . import tracer
from .autodiff import prepare
from .bridge import GraphCallable
from .ir import ValueNode

__all__ = ["call_batched"]


def _example_abstract(value):
    """What one example of a stand-in looks like to the specializer."""
    if isinstance(value, tracer.Tracer):
        return value.abstract
    if hasattr(value, "level") and hasattr(value, "inner"):          # a BatchedTensor
        return Abstract(tuple(value.shape), value.dtype, getattr(value, "weak", False))
    if isinstance(value, (tuple, list)):
        return A.AbstractTuple([_example_abstract(v) for v in value],
                               "list" if isinstance(value, list) else "tuple")
    return A.Const(value)


def call_batched(fn, stand_ins):
    """``fn(*stand_ins)`` while tracing, with batched stand-ins (see the module docstring)."""
    state = tracer.current()
    spec, ctx, loc = state.specializer, state.ctx, state.loc
    if isinstance(fn, GraphCallable):
        fn_abstract, fn_node = fn.abstract, fn.node
    else:
        fn_abstract, fn_node = A.Const(fn), ValueNode(fn)
    name = getattr(fn, "__name__", None) or type(fn).__name__
    target = spec.graph_for_call(fn_abstract, fn_node, [_example_abstract(s) for s in stand_ins],
                                 f"vmap_{name}", loc=loc)
    prepared, lifted = prepare(target)
    free = [node.default if getattr(node, "default", None) is not None
            else spec.to_python(ctx, node, node.abstract, loc) for node in lifted]
    with executor.calling_primitives():
        return executor.run_graph(prepared, list(stand_ins) + free)
