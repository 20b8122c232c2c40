"""How a call of an upper layer's object compiles: call rules (the graph layer's one seam).

``refms.nn`` sits above this package, yet a Cell called inside a compiled
graph must follow the Cell call pipeline of semantics 3.4 — forward
pre-hooks, ``construct`` (or the custom-bprop unit), forward hooks, the
backward-hook unit — exactly as in PyNative.  That pipeline is written once,
in :mod:`refms.nn.cell_call`.  So ``refms.nn`` registers a ``CallRule``
for ``Cell`` here when it is imported (``register_call_rule``), and the
specializer, meeting a call of an object whose type has a rule, hands the
call to it together with ``GraphSteps``: what each step of the
pipeline means in a graph:

``construct(obj, method, args, kwargs)``
    a user-written method is parsed and specialized with ``self`` bound; refms's
    own layers run on stand-ins;
``custom_bprop(obj, args, body, bprop)``
    ``body`` in a graph of its own flagged ``custom_bprop``: graph autodiff
    calls ``bprop(*inputs, out, dout)`` instead of differentiating inside it
    (semantics 6);
``backward_hooks(obj, args, body, hooks)``
    ``body`` in a graph of its own flagged ``backward_hooks``: graph autodiff
    wraps its backpropagator with ``PyCall`` nodes that run
    ``hooks.pre(dout)`` and ``hooks.post(grad_input, dout, *inputs)`` in Python
    when the gradient runs (semantics 5.3–5.6).

Pre- and forward hooks run at compile time, on stand-ins: in MindSpore 2.10
they are compiled into the graph, so their Python side effects happen once
and the ops they call become nodes (semantics 5.6).
"""
from . import abstract as A
from . import forward_reuse
from . import graph_ops as G
from .errors import GraphCompileError
from .ir import ValueNode
from .jit_function import JitTarget
from .tracer import current

__all__ = ["CallRule", "register_call_rule", "call_rule_for", "GraphSteps", "CellRule", "PyCall"]


class CallRule:
    """How objects of one type (registered by an upper layer) are called in a graph."""

    def call(self, steps, obj, args, kwargs):
        """Run ``obj(*args, **kwargs)`` on stand-ins, using ``steps`` (a ``GraphSteps``)."""
        raise NotImplementedError

    def source_function(self, obj):
        """The Python function whose source the parser reads for a call of ``obj``."""
        raise NotImplementedError

    def compiled_in_graph_mode(self, obj):
        """True when a gradient of ``obj`` taken in GRAPH_MODE is compiled as a whole."""
        return True


#: type -> CallRule, filled by the layers above at import.
_CALL_RULES = {}


def register_call_rule(cls, rule):
    """Calls of instances of ``cls`` (and its subclasses) inside a graph go to ``rule``."""
    _CALL_RULES[cls] = rule
    return rule


def call_rule_for(value):
    """The rule registered for ``type(value)`` or one of its bases, or None."""
    if not _CALL_RULES:
        return None
    for cls in type(value).__mro__:
        rule = _CALL_RULES.get(cls)
        if rule is not None:
            return rule
    return None


class PyCall(G.GraphOp):
    """Run a Python function on run-time values (the cell hooks' bodies): an effect, so it
    is never folded, merged or dropped."""

    def __init__(self, fn, name):
        super().__init__(f"PyCall[{name}]", fn, effect=True)


class GraphSteps:
    """The steps of a call pipeline as the specializer runs them (see the module docstring)."""

    def __init__(self, specializer):
        self.spec = specializer

    def construct(self, obj, method, args, kwargs):
        spec = self.spec
        state = current()
        ctx, loc = state.ctx, state.loc
        pairs = [spec.from_python(ctx, a, loc) for a in args]
        kw = {k: spec.from_python(ctx, v, loc) for k, v in kwargs.items()}
        parsed = spec.parsed_callee(method)
        if parsed is None:                    # refms's own code: run it on the stand-ins
            return spec.run_unparsed(method, args, kwargs)
        node, abstract = spec.apply(ctx, A.Const(method), ValueNode(method), pairs, kw, loc)
        return spec.to_python(ctx, node, abstract, loc)

    def custom_bprop(self, obj, args, kwargs, body, bprop):
        if kwargs:
            raise GraphCompileError(f"Cell '{type(obj).__name__}' has a custom bprop: call it "
                                    f"with positional arguments in graph mode")
        return self._unit(obj, args, body, "custom_bprop", bprop)

    def backward_hooks(self, obj, args, body, hooks):
        return self._unit(obj, args, body, "backward_hooks", hooks)

    def _unit(self, obj, args, body, flag, handler):
        """``body(*args)`` in a graph of its own flagged ``{flag: handler}``, so that graph
        autodiff can treat it as one unit; returns its stand-ins."""
        spec = self.spec
        state = current()
        ctx, loc = state.ctx, state.loc
        name = type(obj).__name__
        pairs = [spec.from_python(ctx, a, loc) for a in args]
        body.__name__ = f"{name}.{flag}"
        graph = spec.graph_for_call(A.Const(body), ValueNode(body), [a for _, a in pairs],
                                    f"{name}_construct", loc=loc,
                                    flags={flag: handler, "n_inputs": len(pairs)})
        node, abstract = spec.call_graph(ctx, graph, pairs, loc)
        return spec.to_python(ctx, node, abstract, loc)


class CellRule:
    """Mixin of :class:`refms.graph.infer.Specializer`: calls that go to a registered rule."""

    @staticmethod
    def is_cell(value):
        return call_rule_for(value) is not None

    def call_cell(self, ctx, obj, args, kwargs, loc):
        rule = call_rule_for(obj)
        steps = GraphSteps(self)

        def pipeline(*py_args, **py_kwargs):
            return rule.call(steps, obj, py_args, py_kwargs)
        pipeline.__name__ = f"{type(obj).__name__}.__call__"
        start = len(ctx.graph.order)
        node, abstract = self.trace_call(ctx, pipeline, args, kwargs, loc)
        if not kwargs:           # a gradient of the same call may reuse it (forward_reuse)
            forward_reuse.record(self.cell_calls, ctx.graph, obj, [n for n, _ in args], start,
                                 node)
        return node, abstract

    @staticmethod
    def run_unparsed(method, args, kwargs):
        """Call refms library code (a method the parser does not read) on stand-ins; a
        ``jit``-decorated method runs its undecorated function (we are compiling already)."""
        if isinstance(method, JitTarget):
            return method.call_unparsed(*args, **kwargs)
        return method(*args, **kwargs)
