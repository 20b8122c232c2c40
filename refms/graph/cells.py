"""How a Cell call compiles (a mixin of the Specializer).

``cell(*args)`` inside a compiled graph follows the Cell call pipeline of
SEMANTICS.md 3.4, resolved at compile time:

1. forward pre-hooks run now, on stand-ins: in MindSpore 2.10 they are
   compiled into the graph, so their Python side effects happen once, at
   compile time, and the ops they call become nodes (SEMANTICS.md 5.6);
   under a compat version whose docs say graph mode ignores hooks they are skipped;
2. ``construct``: a user-written one is parsed and specialized with ``self``
   bound to the cell; refms's own layers are run on stand-ins;
3. a cell with a custom ``bprop`` is kept as one graph flagged
   ``custom_bprop`` (graph autodiff calls the bprop instead of differentiating
   inside it, SEMANTICS.md 6);
4. forward hooks run on the output, like pre-hooks;
5. a cell with backward (pre-)hooks is kept as one graph flagged
   ``backward_hooks`` holding steps 2–4 (2.x scope: forward-hook ops inside,
   pre-hook ops outside, SEMANTICS.md 5.4); graph autodiff wraps its
   backpropagator with :class:`PyCall` nodes that run the hooks in Python when
   the gradient runs (:func:`backward_pre_hooks`, :func:`backward_hooks`);
6. ``to_float`` casts the floating inputs of the ops inside, as PyNative does.
"""
from ..autograd import pynative as _pynative
from . import abstract as A
from . import graph_ops as G
from .errors import GraphCompileError
from .ir import ValueNode
from .tracer import current

__all__ = ["CellRule", "PyCall", "backward_pre_hooks", "backward_hooks"]


class PyCall(G.GraphOp):
    """Run a Python function on run-time values (the cell hooks' bodies): an effect, so it
    is never folded, merged or dropped."""

    def __init__(self, fn, name):
        super().__init__(f"PyCall[{name}]", fn, effect=True)


def backward_pre_hooks(cell):
    """The run-time step ``dout -> dout'`` of a cell's backward pre-hooks (SEMANTICS.md 5.5)."""
    def run(dout):
        grad_output = dout if isinstance(dout, tuple) else (dout,)
        owner = cell._hook_owner()
        for hook in list(cell._backward_pre_hooks.values()):
            result = hook(owner, grad_output)
            if result is None:
                continue
            result = result if isinstance(result, tuple) else (result,)
            if len(result) != len(grad_output):
                raise TypeError(f"The backward pre hook return value size is {len(result)} not "
                                f"equal to expect output size {len(grad_output)}: a backward "
                                f"pre-hook of cell '{cell.cls_name}' must return one gradient "
                                f"per Tensor output.")
            grad_output = result
        return grad_output if isinstance(dout, tuple) else grad_output[0]
    return run


def backward_hooks(cell):
    """The run-time step ``(grad_input, dout, *inputs) -> grad_input'`` of a cell's backward
    hooks, through the same :class:`refms.nn.cell_hooks.BackwardHookCall` PyNative uses."""
    from ..nn.cell_hooks import BackwardHookCall

    def run(grad_input, dout, *inputs):
        call = BackwardHookCall(cell)
        call.inputs = tuple(inputs)
        call.grad_output = dout if isinstance(dout, tuple) else (dout,)
        return tuple(call._call_hooks(tuple(grad_input)))
    return run


class CellRule:
    """Mixin of :class:`refms.graph.infer.Specializer`."""

    @staticmethod
    def is_cell(value):
        from ..nn.cell import Cell
        return isinstance(value, Cell)

    def call_cell(self, ctx, cell, args, kwargs, loc):
        def pipeline(*py_args, **py_kwargs):
            return self.run_cell_pipeline(cell, py_args, py_kwargs)
        pipeline.__name__ = f"{cell.cls_name}.__call__"
        return self.trace_call(ctx, pipeline, args, kwargs, loc)

    def run_cell_pipeline(self, cell, args, kwargs):
        """Steps 1–5 of the module docstring, in Python on stand-ins (inside a trace)."""
        hooks = cell._hooks_active() and cell._has_hooks()
        if hooks and cell._forward_pre_hooks:
            args, kwargs = cell._run_forward_pre_hooks(tuple(args), kwargs)
        if hooks and (cell._backward_hooks or cell._backward_pre_hooks):
            def hooked(*inner_args):
                return self.run_cell_body(cell, inner_args, kwargs, hooks)
            return self.call_as_unit(cell, args, hooked, "backward_hooks")
        return self.run_cell_body(cell, args, kwargs, hooks)

    def run_cell_body(self, cell, args, kwargs, hooks):
        """``construct`` (or the custom-bprop unit) and the forward hooks."""
        previous = None
        if cell.mixed_precision_type is not None:
            previous = _pynative.set_mixed_precision(cell.mixed_precision_type)
        try:
            if cell.has_bprop:
                if kwargs:
                    raise GraphCompileError(f"Cell '{cell.cls_name}' has a custom bprop: call it "
                                            f"with positional arguments in graph mode")

                def body(*inner_args):
                    return self.call_construct(cell, inner_args, {})
                output = self.call_as_unit(cell, args, body, "custom_bprop")
            else:
                output = self.call_construct(cell, args, kwargs)
        finally:
            if cell.mixed_precision_type is not None:
                _pynative.set_mixed_precision(previous)
        if hooks and cell._forward_hooks:
            output = cell._run_forward_hooks(tuple(args), kwargs, output)
        return output

    def construct_callee(self, cell):
        """(abstract, node) of ``cell.construct`` as a callee: parsed for user code."""
        method = cell.construct
        return A.Const(method), ValueNode(method)

    def call_construct(self, cell, args, kwargs):
        state = current()
        ctx, loc = state.ctx, state.loc
        pairs = [self.from_python(ctx, a, loc) for a in args]
        kw = {k: self.from_python(ctx, v, loc) for k, v in kwargs.items()}
        fn_abstract, fn_node = self.construct_callee(cell)
        parsed = self.parsed_callee(fn_abstract.value)
        if parsed is None:                    # refms's own layer: run it on the stand-ins
            construct = type(cell).construct
            from .api import JitFunction
            if isinstance(construct, JitFunction):
                construct = construct.fn
            return construct(cell, *args, **kwargs)
        node, abstract = self.apply(ctx, fn_abstract, fn_node, pairs, kw, loc)
        return self.to_python(ctx, node, abstract, loc)

    def call_as_unit(self, cell, args, body, flag):
        """``body(*args)`` in a graph of its own flagged ``{flag: cell}``, so that graph autodiff
        can treat it as one unit (a custom bprop, backward hooks); returns its stand-ins."""
        state = current()
        ctx, loc = state.ctx, state.loc
        pairs = [self.from_python(ctx, a, loc) for a in args]
        body.__name__ = f"{cell.cls_name}.{flag}"
        graph = self.graph_for_call(A.Const(body), ValueNode(body), [a for _, a in pairs],
                                    f"{cell.cls_name}_construct", loc=loc,
                                    flags={flag: cell, "n_inputs": len(pairs)})
        node, abstract = self.call_graph(ctx, graph, pairs, loc)
        return self.to_python(ctx, node, abstract, loc)
