"""PyNative execution: run each primitive at once, recording it when a gradient is wanted.

:func:`run_primitive` is the executor installed into :mod:`refms.ops.primitive`.
It is :func:`refms.ops.apply.apply` — mixed-precision casts, weak scalars,
shape/dtype inference, the kernel, the output dtype — with one hook: while a tape
is active and the op is differentiable, the call is appended to the tape
(:mod:`refms.autograd.tape`).
"""
from ..ops.apply import apply, set_mixed_precision
from ..ops.primitive import set_default_executor
from . import tape as _tape

__all__ = ["run_primitive", "set_mixed_precision"]


def _record(prim, inputs, out):
    _tape.record(prim.bprop, inputs if inputs.__class__ is tuple else tuple(inputs), out,
                 prim.name)


def run_primitive(prim, args):
    """``prim(*args)`` now, recorded on the active tapes (positional arguments: the cheapest
    call on the path every op takes)."""
    return apply(prim, args, _ACTIVE_TAPES, _record)


_ACTIVE_TAPES = _tape._ACTIVE


set_default_executor(run_primitive)
