"""The four cell hooks (semantics 5.2-5.6; MindSpore ``nn/cell.py`` ``register_*_hook``).

==================  =======================================  ==========================
kind                called with                               its return value
==================  =======================================  ==========================
forward pre-hook    ``fn(cell, args)`` before ``construct``   None keeps the args; a
                                                              tuple replaces them; any
                                                              other value becomes a 1-tuple
forward hook        ``fn(cell, args, output)`` after it       None keeps; else replaces output
backward pre-hook   ``fn(cell, grad_output)``                 None keeps; else replaces
                                                              the gradient arriving at the cell
backward hook       ``fn(cell, grad_input, grad_output)``     None keeps; else replaces
                                                              ``grad_input``
==================  =======================================  ==========================

Hooks of one kind run in registration order (``prepend=True`` puts a hook
first); each sees the previous one's replacement.  Every ``register_*``
returns a new ``HookHandle``; ``remove()`` deletes
that hook.  A forward hook on a cell with a custom ``bprop`` is ignored, as in
2.10.

Backward hooks are two identity nodes on the PyNative tape, recorded with
:func:`refms.autograd.tape.record` like any primitive: an *enter* node on the
cell's Tensor inputs and an *exit* node on its output.  The tape walks
entries in reverse, so the exit node's bprop sees the gradient w.r.t. the
output first and stores it; the enter node's bprop then has both gradients
and calls the hooks.  Each call of the cell gets its own pair, so a cell used
twice fires its hooks twice.  The backward pre-hook node sits outside the exit
node, so its replacement is what the backward hook sees as ``grad_output``.

Differences between versions, chosen by :mod:`refms.compat`:

* ``backward_hook_args``: 2.x passes ``(cell, grad w.r.t. inputs, grad w.r.t.
  output)``; r1.6/r1.7 docs pass ``(cell_id, grad w.r.t. output, grad w.r.t.
  inputs)``.  In r1 mode every hook kind receives the ``cell_id`` string
  ``"ClassName(<id>)"`` (MindSpore r1.x ``self.cls_name + "(" + str(id(self)) + ")"``)
  instead of the Cell.
* ``backward_hook_scope_includes_forward_hooks``: in 2.x the exit node is
  placed after the forward hooks (their ops are inside the hook's scope); in
  r1 before them.  Pre-hook ops are outside in both.
* ``cell_hooks_in_graph_mode``: r1 docs say cell hooks do nothing in GRAPH_MODE.

Known difference from 2.10: an input that received no gradient shows a zero
tensor in ``grad_input`` where MindSpore shows ``None``.
"""
from collections import OrderedDict

from .. import compat
from ..autograd import tape as _tape
from ..hook_handle import HookHandle
from ..context import is_graph_mode
from .._tensor import Tensor

__all__ = ["CellHooks", "BackwardHookCall", "GraphBackwardHooks"]


def _check_hook_fn(hook_fn):
    if not callable(hook_fn):
        raise TypeError(f"Expected a callable hook function, but got {type(hook_fn).__name__}.")


def _as_tuple(value):
    return value if isinstance(value, tuple) else (value,)


def _shapes(values):
    return [tuple(v.shape) if isinstance(v, Tensor) else None for v in values]


def _wrap_tensors(value, bprop, name):
    """Pass the Tensors of ``value`` (a Tensor or a tuple) through one identity node on the tape.

    Returns ``(new value, recorded)``; ``recorded`` is False when no active tape
    watches those tensors (nothing to differentiate), and ``value`` comes back unchanged.
    """
    items = value if isinstance(value, tuple) else (value,)
    positions = [i for i, item in enumerate(items) if isinstance(item, Tensor)]
    inputs = tuple(items[i] for i in positions)
    if not inputs or not any(tape.is_watched(inputs) for tape in _tape.active_tapes()):
        return value, False
    aliases = tuple(Tensor._make(t._value(), t.dtype) for t in inputs)
    _tape.record(bprop, inputs, aliases, name)
    new_items = list(items)
    for i, alias in zip(positions, aliases):
        new_items[i] = alias
    return (tuple(new_items) if isinstance(value, tuple) else new_items[0]), True


class BackwardHookCall:
    """One call of a cell that has backward hooks: its enter node, exit node and captured gradients."""

    def __init__(self, cell):
        self.cell = cell
        self.grad_output = None
        self.inputs = ()
        self.entered = False

    def enter(self, args):
        """Wrap the Tensor positional inputs; returns the new args."""
        self.inputs = tuple(a for a in args if isinstance(a, Tensor))
        new_args, self.entered = _wrap_tensors(tuple(args), self._enter_bprop,
                                               f"{self.cell.cls_name}.backward_hook.enter")
        return new_args

    def exit(self, output):
        """Wrap the Tensors of the output; returns the new output."""
        new_output, _ = _wrap_tensors(output, self._exit_bprop,
                                      f"{self.cell.cls_name}.backward_hook.exit")
        return new_output

    def _exit_bprop(self, *args):
        self.grad_output = tuple(args[-1])
        if not self.entered:        # no differentiable input: the hooks still see the output grads
            self._call_hooks((None,) * len(self.inputs))
        return self.grad_output

    def _enter_bprop(self, *args):
        return self._call_hooks(tuple(args[-1]))

    def _call_hooks(self, grad_input):
        cell = self.cell
        owner = cell._hook_owner()
        r1_order = compat.behaviour("backward_hook_args") == "r1"
        grad_output = self.grad_output if self.grad_output is not None else ()
        for hook in list(cell._backward_hooks.values()):
            if r1_order:
                result = hook(owner, grad_output, grad_input)
            else:
                result = hook(owner, grad_input, grad_output)
            if result is None:
                continue
            result = _as_tuple(result)
            if len(result) != len(grad_input):
                raise TypeError(f"The backward hook return value size is {len(result)} not equal "
                                f"to expect grad input size {len(grad_input)}: a backward hook "
                                f"of cell '{cell.cls_name}' must return one gradient per Tensor "
                                f"input (input shapes {_shapes(self.inputs)}).")
            grad_input = result
        return grad_input


class CellHooks:
    """Hook registration and the hook steps of the call pipeline; mixed into ``Cell``."""

    def _init_hooks(self):
        for name in ("_forward_pre_hooks", "_forward_hooks", "_backward_pre_hooks",
                     "_backward_hooks"):
            self.__dict__[name] = OrderedDict()
        self.__dict__["_hooks_with_kwargs"] = set()

    # -- registration -------------------------------------------------------------
    def _register(self, hooks, hook_fn, prepend):
        _check_hook_fn(hook_fn)
        handle = HookHandle(hooks)
        hooks[handle.handle_id] = hook_fn
        if prepend:
            hooks.move_to_end(handle.handle_id, last=False)
        return handle

    def register_forward_pre_hook(self, hook_fn, *, prepend=False, with_kwargs=False):
        """``hook_fn(cell, args)`` (``(cell, args, kwargs)`` with ``with_kwargs``) before construct."""
        handle = self._register(self._forward_pre_hooks, hook_fn, prepend)
        if with_kwargs:
            self._hooks_with_kwargs.add(handle.handle_id)
        return handle

    def register_forward_hook(self, hook_fn, *, prepend=False, with_kwargs=False):
        """``hook_fn(cell, args, output)`` after construct; ignored on a cell with ``bprop``."""
        if self.has_bprop:
            return HookHandle()
        handle = self._register(self._forward_hooks, hook_fn, prepend)
        if with_kwargs:
            self._hooks_with_kwargs.add(handle.handle_id)
        return handle

    def register_backward_pre_hook(self, hook_fn, *, prepend=False):
        """``hook_fn(cell, grad_output)`` when the gradient reaches the cell's output."""
        return self._register(self._backward_pre_hooks, hook_fn, prepend)

    def register_backward_hook(self, hook_fn, *, prepend=False):
        """``hook_fn(cell, grad_input, grad_output)`` when the gradient leaves the cell (2.x order)."""
        return self._register(self._backward_hooks, hook_fn, prepend)

    # -- the pipeline's hook steps --------------------------------------------------------
    def _hook_owner(self):
        """What a hook receives first: the Cell (2.x) or a ``cell_id`` string (r1.x)."""
        if compat.behaviour("backward_hook_args") == "r1":
            return f"{self.cls_name}({id(self)})"
        return self

    def _has_hooks(self):
        return bool(self._forward_pre_hooks or self._forward_hooks or self._backward_pre_hooks
                    or self._backward_hooks)

    def _hooks_active(self):
        return not is_graph_mode() or compat.behaviour("cell_hooks_in_graph_mode")

    def _run_forward_pre_hooks(self, args, kwargs):
        owner = self._hook_owner()
        for handle_id, hook in list(self._forward_pre_hooks.items()):
            if handle_id in self._hooks_with_kwargs:
                result = hook(owner, args, kwargs)
                if result is not None:
                    if not (isinstance(result, tuple) and len(result) == 2):
                        raise RuntimeError(f"forward pre hook with kwargs must return None or a "
                                           f"tuple of (new_args, new_kwargs), but got {result}")
                    args, kwargs = result
            else:
                result = hook(owner, args)
                if result is not None:
                    args = _as_tuple(result)
        return args, kwargs

    def _run_forward_hooks(self, args, kwargs, output):
        owner = self._hook_owner()
        for handle_id, hook in list(self._forward_hooks.items()):
            if handle_id in self._hooks_with_kwargs:
                result = hook(owner, args, kwargs, output)
            else:
                result = hook(owner, args, output)
            if result is not None:
                output = result
        return output

    def _backward_hook_call(self):
        return BackwardHookCall(self)

    def _run_backward_pre_hooks(self, grad_output):
        """The backward pre-hooks on ``grad_output`` (a tuple): each may replace it."""
        owner = self._hook_owner()
        for hook in list(self._backward_pre_hooks.values()):
            result = hook(owner, grad_output)
            if result is None:
                continue
            result = _as_tuple(result)
            if len(result) != len(grad_output):
                raise TypeError(f"The backward pre hook return value size is {len(result)} "
                                f"not equal to expect output size {len(grad_output)}: a "
                                f"backward pre-hook of cell '{self.cls_name}' must return "
                                f"one gradient per Tensor output.")
            grad_output = result
        return grad_output

    def _backward_pre_hook_node(self, output):
        """PyNative: an identity node on the output whose bprop runs the backward pre-hooks."""
        cell = self

        def bprop(*args):
            return cell._run_backward_pre_hooks(tuple(args[-1]))

        new_output, _ = _wrap_tensors(output, bprop, f"{self.cls_name}.backward_pre_hook")
        return new_output


class GraphBackwardHooks:
    """A cell's backward hooks as graph autodiff runs them (:mod:`refms.graph.cells`): two
    Python steps called when the compiled gradient runs, around the unit's backpropagator."""

    def __init__(self, cell):
        self.cell = cell

    def pre(self, dout):
        """``dout -> dout'``: the backward pre-hooks (semantics 5.5)."""
        grad_output = self.cell._run_backward_pre_hooks(_as_tuple(dout))
        return grad_output if isinstance(dout, tuple) else grad_output[0]

    def post(self, grad_input, dout, *inputs):
        """``(grad_input, dout, *inputs) -> grad_input'``: the backward hooks, through the same
        :class:`BackwardHookCall` PyNative uses."""
        call = BackwardHookCall(self.cell)
        call.inputs = tuple(inputs)
        call.grad_output = _as_tuple(dout)
        return tuple(call._call_hooks(tuple(grad_input)))
