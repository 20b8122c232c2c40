"""``amp.StaticLossScaler``, ``amp.DynamicLossScaler`` and ``amp.all_finite`` (MindSpore 2.x).

A loss scaler multiplies the loss by ``scale_value`` before differentiation
(``scale``) and divides the gradients by it afterwards (``unscale``), so that
float16 gradients do not underflow.  ``DynamicLossScaler.adjust(finite)``:

* the gradients were finite: ``counter += 1``; after ``scale_window``
  finite steps in a row the scale is multiplied by ``scale_factor`` and
  the counter restarts;
* they were not: the scale is divided by ``scale_factor`` (at least 1) and
  the counter restarts.

``scale_value`` and ``counter`` are Parameters, as in MindSpore.
"""
import numbers

from . import dtype as mstype
from ._tensor import Tensor
from .ops import functional as F
from .parameter import Parameter

__all__ = ["StaticLossScaler", "DynamicLossScaler", "all_finite"]


def all_finite(inputs):
    """True (a Bool Tensor) when every element of every tensor of ``inputs`` is finite."""
    flags = [F.reduce_all(F.isfinite(x), (), False) for x in inputs]
    result = flags[0]
    for flag in flags[1:]:
        result = F.logical_and(result, flag)
    return result


def _map(fn, inputs):
    if isinstance(inputs, (tuple, list)):
        return type(inputs)(fn(x) for x in inputs)
    return fn(inputs)


class StaticLossScaler:
    """StaticLossScaler(scale_value): a fixed scale."""

    def __init__(self, scale_value):
        if isinstance(scale_value, bool) or not isinstance(scale_value, numbers.Real) or \
                scale_value < 1:
            raise ValueError(f"For 'StaticLossScaler', the 'scale_value' should be a number >= 1, "
                             f"but got {scale_value!r}.")
        self.scale_value = Parameter(Tensor(float(scale_value), mstype.float32), name="scale_value")

    def scale(self, inputs):
        return _map(lambda x: x * F.cast(self.scale_value, x.dtype), inputs)

    def unscale(self, inputs):
        return _map(lambda x: x / F.cast(self.scale_value, x.dtype), inputs)

    def adjust(self, grads_finite):
        return False


class DynamicLossScaler(StaticLossScaler):
    """DynamicLossScaler(scale_value, scale_factor, scale_window)"""

    def __init__(self, scale_value, scale_factor, scale_window):
        super().__init__(scale_value)
        if isinstance(scale_factor, bool) or not isinstance(scale_factor, numbers.Real) or \
                scale_factor <= 1:
            raise ValueError(f"For 'DynamicLossScaler', the 'scale_factor' should be > 1, but got "
                             f"{scale_factor!r}.")
        if isinstance(scale_window, bool) or not isinstance(scale_window, int) or scale_window < 1:
            raise ValueError(f"For 'DynamicLossScaler', the 'scale_window' should be a positive "
                             f"int, but got {scale_window!r}.")
        self.scale_factor = float(scale_factor)
        self.scale_window = scale_window
        self.counter = Parameter(Tensor(0, mstype.int32), name="counter")

    def adjust(self, grads_finite):
        """Update the scale from whether this step's gradients were finite (see the module doc)."""
        scale = float(self.scale_value.asnumpy())
        counter = int(self.counter.asnumpy())
        if bool(grads_finite.asnumpy() if isinstance(grads_finite, Tensor) else grads_finite):
            counter += 1
            if counter >= self.scale_window:
                scale, counter = scale * self.scale_factor, 0
        else:
            scale, counter = max(scale / self.scale_factor, 1.0), 0
        F.assign(self.scale_value, Tensor(scale, mstype.float32))
        F.assign(self.counter, Tensor(counter, mstype.int32))
        return True
