"""Moving values between the graph and Python during inference (a mixin of the Specializer).

Inference keeps ``(node, abstract)`` pairs.  To run Python code on them — a
library function, a Tensor method, a hook, a bprop — each pair becomes a
Python *stand-in* (``to_python``): a ``Tracer``
for a run-time Tensor, the value itself for a constant, a tuple of stand-ins
for a tuple, a ``GraphCallable`` for a function value.  What the code
returns comes back as a pair (``from_python``).  ``trace_call`` does
both around one call with the node-emitting executor installed, and
``emit_primitive`` is that executor's body: infer the primitive's output
from the stand-ins and append its cnode.
"""
import types

from ..ops import apply as _apply
from ..parameter import Parameter
from . import abstract as A
from . import graph_ops as G
from .errors import GraphCompileError, NeedsValue, note_location
from .fallback import AnyValue, converts_at_every_level, holds_any, runtime_fallback
from .ir import CNode, ValueNode
from .scalars import SCALAR_FLOAT_OPS, float32_scalar
from .tracer import ScalarTracer, Tracer, tracing, current, inferring_shapes

__all__ = ["PythonBridge", "GraphCallable"]


class GraphCallable:
    """The Python stand-in for a function value of the graph (a parsed closure, a
    specialized graph, a Partial): calling it during tracing emits the call."""

    def __init__(self, specializer, node, abstract):
        self.specializer = specializer
        self.node = node
        self.abstract = abstract

    def __call__(self, *args, **kwargs):
        state = current()
        if state is None:
            raise GraphCompileError("a graph function was called outside graph compilation")
        spec, ctx = state.specializer, state.ctx
        pairs = [spec.from_python(ctx, a) for a in args]
        kw = {k: spec.from_python(ctx, v) for k, v in kwargs.items()}
        node, abstract = spec.apply(ctx, self.abstract, self.node, pairs, kw, state.loc)
        return spec.to_python(ctx, node, abstract)

    def __repr__(self):
        return f"GraphCallable({self.abstract!r})"


class PythonBridge:
    """Mixin of :class:`refms.graph.infer.Specializer`."""

    # -- nodes for constants ---------------------------------------------------------------
    def weight_node(self, param):
        return self.unit.weight(param)

    def const_node(self, abstract, loc=None):
        value = abstract.value
        if isinstance(value, Parameter):
            return self.weight_node(value)
        return ValueNode(value, abstract=abstract, loc=loc)

    def const(self, value, loc=None):
        abstract = A.Const(value)
        return self.const_node(abstract, loc), abstract

    # -- graph -> Python ---------------------------------------------------------------------
    def items(self, ctx, node, abstract, loc=None):
        """The (node, abstract) pairs of a tuple-like value's items."""
        if isinstance(abstract, A.Const):
            return [self.const(v, loc) for v in abstract.value]
        builder = _local_builder(ctx, node)
        if builder is G.MAKE_TUPLE or builder is G.MAKE_LIST:
            return [(i, a) for i, a in zip(node.inputs[1:], abstract.items)]
        if builder is G.MAKE_DICT:
            half = len(abstract.items)
            return [(i, a) for i, a in zip(node.inputs[1 + half:], abstract.items)]
        pairs = []
        for k, item in enumerate(abstract.items):
            if isinstance(item, A.Const):
                pairs.append(self.const(item.value, loc))
            else:
                pairs.append((ctx.graph.apply([G.TUPLE_GETITEM, node, ValueNode(k)],
                                              abstract=item, loc=loc), item))
        return pairs

    def to_python(self, ctx, node, abstract, loc=None):
        """The Python stand-in of a (node, abstract) pair."""
        if isinstance(abstract, A.Abstract):
            return Tracer(node, abstract)
        if isinstance(abstract, A.AbstractScalar):
            return ScalarTracer(node, abstract)
        if isinstance(abstract, A.Const):
            return abstract.value
        if isinstance(abstract, A.AbstractTuple):
            values = [self.to_python(ctx, n, a, loc) for n, a in self.items(ctx, node, abstract, loc)]
            if abstract.kind == "list":
                return values
            if abstract.kind == "dict":
                return dict(zip(abstract.keys, values))
            return tuple(values)
        if isinstance(abstract, A.FUNCTION_ABSTRACTS):
            return GraphCallable(self, node, abstract)
        if isinstance(abstract, A.AbstractAny):
            return AnyValue(node)
        if isinstance(abstract, A.Pending):
            raise GraphCompileError("the result of a recursive call is used before its type is "
                                    "known: graph mode supports recursion (and loops on Tensor "
                                    "conditions) only in tail position")
        raise GraphCompileError(f"cannot use a value of kind {abstract!r} here")

    # -- Python -> graph ---------------------------------------------------------------------
    def from_python(self, ctx, value, loc=None):
        """The (node, abstract) pair for a Python value produced during tracing."""
        if isinstance(value, ScalarTracer):
            return value.scalar_node, value.scalar_abstract
        if isinstance(value, Tracer):
            return value.node, value.abstract
        if isinstance(value, GraphCallable):
            return value.node, value.abstract
        if isinstance(value, AnyValue):
            return value.node, A.AbstractAny()
        if isinstance(value, Parameter):
            return self.weight_node(value), A.Const(value)
        if isinstance(value, types.MethodType) and isinstance(value.__self__, Tracer):
            owner = value.__self__
            fn = value.__func__
            abstract = A.AbstractPartial(A.Const(fn), ValueNode(fn), [(owner.node, owner.abstract)])
            return ValueNode(fn, abstract=abstract), abstract
        if isinstance(value, (tuple, list, dict)) and not _is_namedtuple(value):
            items = list(value.values()) if isinstance(value, dict) else list(value)
            pairs = [self.from_python(ctx, v, loc) for v in items]
            if all(isinstance(a, A.Const) for _, a in pairs):
                return self.const(value, loc)
            kind = "dict" if isinstance(value, dict) else ("list" if isinstance(value, list)
                                                           else "tuple")
            abstract = A.AbstractTuple([a for _, a in pairs], kind,
                                       list(value.keys()) if kind == "dict" else None)
            if kind == "dict":
                keys = [self.const(k, loc)[0] for k in value.keys()]
                node = ctx.graph.apply([G.MAKE_DICT] + keys + [n for n, _ in pairs],
                                       abstract=abstract, loc=loc)
            else:
                op = G.MAKE_LIST if kind == "list" else G.MAKE_TUPLE
                node = ctx.graph.apply([op] + [n for n, _ in pairs], abstract=abstract, loc=loc)
            return node, abstract
        return self.const(value, loc)

    # -- running Python on stand-ins ----------------------------------------------------------------
    def trace_call(self, ctx, fn, args, kwargs, loc):
        """Call the Python callable ``fn`` on stand-ins of ``args`` with the node-emitting
        executor installed; returns the (node, abstract) of its result.

        When ``fn`` needs a value known only at run time (an argument is ``Any``, or the
        code asks a stand-in for its value) and ``jit_syntax_level`` is LAX, the call
        becomes one PyExecute node run on the host when the graph runs; the nodes it had
        emitted are dropped (:mod:`refms.graph.fallback`)."""
        if runtime_fallback() and any(holds_any(a) for _, a in list(args) + list(kwargs.values())):
            return self.py_execute_value(ctx, fn, args, kwargs, loc)
        stand_ins = [self.to_python(ctx, n, a, loc) for n, a in args]
        kw = {k: self.to_python(ctx, n, a, loc) for k, (n, a) in kwargs.items()}
        emitted, effects = len(ctx.graph.order), ctx.effects
        with tracing(self, ctx, loc):
            try:
                result = fn(*stand_ins, **kw)
            except NeedsValue as error:
                if not (runtime_fallback() or converts_at_every_level(fn)):
                    note_location(error, loc)
                    raise
                del ctx.graph.order[emitted:]
                ctx.effects = effects
                return self.py_execute_value(ctx, fn, args, kwargs, loc)
            except Exception as error:
                note_location(error, loc)
                raise
            if type(result) is float and fn in SCALAR_FLOAT_OPS:
                result = float32_scalar(result)
            return self.from_python(ctx, result, loc)

    def input_node(self, ctx, value, loc):
        """The node for one input of an emitted primitive."""
        if isinstance(value, Tracer):
            return value.node
        if isinstance(value, Parameter):
            return self.weight_node(value)
        if isinstance(value, (tuple, list)) and _contains_graph_value(value):
            nodes = [self.input_node(ctx, v, loc) for v in value]
            abstract = A.AbstractTuple([_abstract_of_input(v) for v in value])
            return ctx.graph.apply([G.MAKE_TUPLE] + nodes, abstract=abstract, loc=loc)
        return ValueNode(value, abstract=A.Const(value), loc=loc)

    def emit_primitive(self, ctx, prim, args, loc):
        """``prim(*args)`` while tracing: infer its output and append its cnode."""
        if prim.identity_in_graph:          # HookBackward: graph mode ignores it (semantics 5.1)
            return args[0] if len(args) == 1 else tuple(args)
        if _contains_any_value(args):
            raise NeedsValue(f"{prim.name} on a value known only at run time")
        mixed = _apply.mixed_precision()
        if mixed is not None and not prim.keeps_input_dtypes:
            args = _apply.cast_floating_inputs(prim, args, mixed)
        inputs = _apply.prepare(prim, args)
        with inferring_shapes():
            inferred = prim.infer(*inputs)
        if isinstance(inferred, tuple) and len(inferred) != prim.n_outputs:
            raise GraphCompileError(f"internal error: {prim.name}'s shape rule gave "
                                    f"{len(inferred)} outputs, but it declares n_outputs = "
                                    f"{prim.n_outputs}")
        abstract = A.AbstractTuple(inferred) if isinstance(inferred, tuple) else inferred
        nodes = [self.input_node(ctx, x, loc) for x in inputs]
        node = ctx.graph.apply([ValueNode(prim)] + nodes, abstract=abstract, loc=loc)
        if prim.has_side_effect:
            ctx.effects = True
        if isinstance(inferred, tuple):
            return tuple(Tracer(ctx.graph.apply([G.TUPLE_GETITEM, node, ValueNode(k)],
                                                abstract=a, loc=loc), a)
                         for k, a in enumerate(inferred))
        return Tracer(node, inferred)

    def emit_op(self, op, args):
        """Emit a graph op (``Print``) on stand-ins from inside traced code."""
        state = current()
        ctx = state.ctx
        nodes = [self.from_python(ctx, a, state.loc)[0] for a in args]
        ctx.graph.apply([op] + nodes, abstract=A.Const(None), loc=state.loc)
        if op.effect:
            ctx.effects = True
        return None


def _local_builder(ctx, node):
    """The graph op that built ``node`` in the graph being inferred, if any: its items can then
    be read off its inputs instead of emitting ``TupleGetItem`` nodes."""
    if isinstance(node, CNode) and node.graph is ctx.graph and isinstance(node.inputs[0], ValueNode):
        return node.inputs[0].value
    return None


def _contains_any_value(values):
    for v in values:
        if isinstance(v, AnyValue):
            return True
        if isinstance(v, (tuple, list)) and _contains_any_value(v):
            return True
    return False


def _is_namedtuple(value):
    return isinstance(value, tuple) and hasattr(value, "_fields")


def _contains_graph_value(values):
    for v in values:
        if isinstance(v, (Tracer, Parameter)):
            return True
        if isinstance(v, (tuple, list)) and _contains_graph_value(v):
            return True
    return False


def _abstract_of_input(value):
    if isinstance(value, Tracer):
        return value.abstract
    if isinstance(value, (tuple, list)) and _contains_graph_value(value):
        return A.AbstractTuple([_abstract_of_input(v) for v in value])
    return A.Const(value)
