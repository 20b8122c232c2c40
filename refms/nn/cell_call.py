"""The Cell call pipeline, written once for both execution modes (semantics 3.4).

``run_pipeline`` is what ``cell(*args)`` does after the first-call name
check (MindSpore ``Cell.__call__`` / ``_run_construct``)::

    forward pre-hooks
    -> [backward-hook unit:                     only when the cell has backward (pre-)hooks
           construct, or the custom-bprop unit  when the cell defines ``bprop``
           -> forward hooks                     2.x scope: inside the unit
       ]
    -> forward hooks                            r1 scope: outside the unit

The steps that differ between modes come from a *steps* object:

``construct(cell, method, args, kwargs)``
    run ``construct``;
``custom_bprop(cell, args, kwargs, body, bprop)``
    run ``body(*args)`` as one differentiable unit whose backward is ``bprop``
    (``refms.nn.custom_bprop.UserBprop``);
``backward_hooks(cell, args, body, hooks)``
    run ``body(*args)`` as one unit whose gradient passes through the cell's
    backward pre-hooks and backward hooks.

PyNative's steps (``PYNATIVE``) record on the tape: a custom bprop is one
tape entry (:mod:`refms.nn.custom_bprop`), backward hooks are identity nodes
around the unit (:mod:`refms.nn.cell_hooks`), and both only while a tape
records.  Graph mode's steps are ``refms.graph.cells.GraphSteps``: each
unit becomes a graph of its own that graph autodiff treats whole.  The rule
registered with the graph compiler below (``CellCallRule``) is how a Cell
called inside a compiled graph reaches this same pipeline.

Mixed precision (``to_float``) is set for the whole call, hooks included, so
the innermost cell's setting wins (``refms.ops.apply.set_mixed_precision``).
"""
import inspect

from .. import compat
from ..autograd import tape as _tape
from ..graph.cells import CallRule
from ..ops.apply import set_mixed_precision
from ..ops.keywords import NotATensorError, not_a_tensor
from .cell_hooks import BackwardHookCall, GraphBackwardHooks
from .custom_bprop import UserBprop, call_custom_bprop

__all__ = ["run_pipeline", "PYNATIVE", "CellCallRule"]


def run_pipeline(cell, args, kwargs, steps):
    """``cell(*args, **kwargs)`` through the pipeline of the module docstring."""
    previous = None
    if cell.mixed_precision_type is not None:
        previous = set_mixed_precision(cell.mixed_precision_type)
    try:
        return _run(cell, tuple(args), kwargs, steps)
    finally:
        if cell.mixed_precision_type is not None:
            set_mixed_precision(previous)


def _run(cell, args, kwargs, steps):
    hooks = cell._has_hooks() and cell._hooks_active()
    if not hooks and not cell.has_bprop:                 # the fast path (3.4 step 3)
        return steps.construct(cell, cell.construct, args, kwargs)
    if hooks and cell._forward_pre_hooks:
        args, kwargs = cell._run_forward_pre_hooks(args, kwargs)
    forward_hooks = hooks and bool(cell._forward_hooks)
    unit = hooks and bool(cell._backward_hooks or cell._backward_pre_hooks)
    inside = not unit or compat.behaviour("backward_hook_scope_includes_forward_hooks")

    def body(*inner_args):
        if cell.has_bprop:
            def construct(*unit_args):
                return steps.construct(cell, cell.construct, unit_args, kwargs)
            output = steps.custom_bprop(cell, inner_args, kwargs, construct, UserBprop(cell))
        else:
            output = steps.construct(cell, cell.construct, inner_args, kwargs)
        if forward_hooks and inside:
            output = cell._run_forward_hooks(inner_args, kwargs, output)
        return output

    if not unit:
        return body(*args)
    output = steps.backward_hooks(cell, args, body, GraphBackwardHooks(cell))
    if forward_hooks and not inside:
        output = cell._run_forward_hooks(args, kwargs, output)
    return output


class PyNativeSteps:
    """The pipeline's steps run op by op, recorded on the tape when a gradient is wanted."""

    @staticmethod
    def construct(cell, method, args, kwargs):
        try:
            return method(*args, **kwargs)
        except (AttributeError, NotATensorError) as exc:
            # a None or a list given where the layer needs a Tensor: MindSpore's TypeError
            # naming the layer and the argument, not the AttributeError from inside construct
            error = not_a_tensor(type(cell).__name__, inspect.signature(method), args, kwargs,
                                 exc)
            if error is None:
                raise
            raise error from None

    @staticmethod
    def custom_bprop(cell, args, kwargs, body, bprop):
        if not _tape.recording():
            return body(*args)
        return call_custom_bprop(cell, args, kwargs)

    @staticmethod
    def backward_hooks(cell, args, body, hooks):
        recording = _tape.recording()
        call = None
        if recording and cell._backward_hooks:
            call = BackwardHookCall(cell)
            args = call.enter(args)
        output = body(*args)
        if call is not None:
            output = call.exit(output)
        if recording and cell._backward_pre_hooks:
            output = cell._backward_pre_hook_node(output)
        return output


PYNATIVE = PyNativeSteps()


class CellCallRule(CallRule):
    """A Cell called inside a compiled graph: the same pipeline, with the graph's steps."""

    def call(self, steps, cell, args, kwargs):
        return run_pipeline(cell, args, kwargs, steps)

    def source_function(self, cell):
        return type(cell).construct

    def compiled_in_graph_mode(self, cell):
        return True
