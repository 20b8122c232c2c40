"""``set_grad()`` top cells: record the forward once, let the gradient reuse it (semantics 6.3).

Observed on MindSpore 2.10 (PyNative): ``grad(cell)(x)`` runs the forward
itself *unless* the cell has ``requires_grad`` (``cell.set_grad()``) and its
most recent call used the very same input objects and was not yet used by a
gradient; then the recorded graph is reused and ``construct`` does not run
again.  This matters for random or stateful forwards: a BatchNorm in training
mode updates its moving statistics once per step, not twice (the pattern of
``TrainOneStepCell``: call the network, then take its gradient).

refms does it in two halves:

* ``call_as_top_cell`` — a call of a ``set_grad`` cell while no tape is
  recording runs under a fresh :class:`~refms.autograd.tape.Tape` that watches
  the Tensor inputs, and keeps ``(inputs, tape, output)`` on the cell;
* ``pop_recorded_forward`` — ``refms.autograd.grad.run_and_differentiate``
  asks the function it differentiates (through its ``_pop_recorded_forward``
  method, so the autodiff layer needs no import of ``nn``) for that record.
  It is handed out once; any request clears it.
"""
from ..autograd import tape as _tape
from .._tensor import Tensor

__all__ = ["call_as_top_cell", "pop_recorded_forward"]


def call_as_top_cell(cell, args, kwargs):
    """Run ``cell`` with its forward recorded for a later gradient."""
    tape = _tape.Tape()
    tensors = [a for a in args if isinstance(a, Tensor)]
    for t in tensors:
        tape.watch(t)
    with tape:
        output = cell._run_construct(args, kwargs)
    reusable = not kwargs and len({id(t) for t in tensors}) == len(tensors)
    cell.__dict__["_recorded_forward"] = (tuple(args), tape, output) if reusable else None
    return output


def pop_recorded_forward(cell, args):
    """``(tape, output)`` of the cell's last call if it used exactly ``args``; else None."""
    record = cell.__dict__.get("_recorded_forward")
    cell.__dict__["_recorded_forward"] = None
    if record is None or not cell.requires_grad:
        return None
    recorded_args, tape, output = record
    if len(recorded_args) != len(args):
        return None
    for old, new in zip(recorded_args, args):
        if old is new:
            continue
        plain = (int, float, str, bool, type(None))
        if not (type(old) is type(new) and isinstance(old, plain) and old == new):
            return None
    return tape, output
