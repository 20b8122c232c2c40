"""PyNative execution: run each primitive at once, recording it when a gradient is wanted.

The executor installed into :mod:`refms.ops.primitive` is ``refms.ops.apply.apply``
itself — mixed-precision casts, weak scalars, shape/dtype inference, the kernel, the
output dtype — with one recorder: while a tape is active and the op is differentiable,
the call is appended to the tape (:mod:`refms.autograd.tape`).
"""
from ..ops.apply import apply, set_mixed_precision, set_recorder
from ..ops.primitive import set_default_executor
from . import tape as _tape

__all__ = ["run_primitive", "set_mixed_precision"]


#: ``run_primitive(prim, args)``: ``prim(*args)`` now, recorded on the active tapes.
run_primitive = apply

set_recorder(_tape._ACTIVE, _tape.record_primitive)
set_default_executor(run_primitive)
