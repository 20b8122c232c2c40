"""range / arange: the 1-D tensor ``start, start + step, ...`` below ``end`` (a constant)."""
import builtins
import math

from ... import dtype as mstype
from ..._tensor import Tensor
from ..primitive import op_error

__all__ = ["range", "arange"]


def _scalar(value):
    if isinstance(value, Tensor):
        return value.asnumpy().item()
    return value


def arange(start=0, end=None, step=1, *, dtype=None):
    """``ops.arange``: Int64 for int arguments, Float32 when any is a float."""
    start, end, step = _scalar(start), _scalar(end), _scalar(step)
    if end is None:
        start, end = 0, start
    if step == 0:
        raise op_error("arange", "the 'step' should not be 0.", ValueError)
    if (end - start) * step < 0:
        raise op_error("arange", f"the 'start' {start}, 'end' {end} and 'step' {step} give an "
                                 f"empty or backwards range.", ValueError)
    count = max(math.ceil((end - start) / step), 0)
    is_float = any(isinstance(v, float) for v in (start, end, step))
    values = [start + i * step for i in builtins.range(count)]
    if dtype is None:
        dtype = mstype.float32 if is_float else mstype.int64
    return Tensor(values, dtype) if values else Tensor(None, dtype, shape=(0,))


def range(start, end, step, maxlen=1000000):  # noqa: A001  (MindSpore's name)
    """``ops.range(start, end, step)`` = :func:`arange` (``maxlen`` bounds the length)."""
    out = arange(start, end, step)
    if out.shape[0] > maxlen:
        raise op_error("Range", f"the number of elements {out.shape[0]} exceeds 'maxlen' "
                                f"{maxlen}.", ValueError)
    return out

