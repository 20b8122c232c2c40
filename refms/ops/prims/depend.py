"""Depend: ``depend(value, expr)`` is ``value``, computed after ``expr``.

MindSpore code writes ``F.depend(loss, self.optimizer(grads))`` so that the
optimizer's update belongs to the graph even though its result is unused.
In refms the op is an identity on ``value`` whose second input is ``expr``:
the graph keeps ``expr`` because Depend consumes it, and PyNative has run
``expr`` already when Depend is called.  The gradient flows to ``value`` only.
"""
from ..._tensor import Tensor
from ..primitive import Primitive, Abstract, register, functional, op_error

__all__ = ["Depend", "depend"]


@register
class Depend(Primitive):
    """y = value; ``expr`` only orders execution (no gradient)."""
    n_tensor_inputs = 1

    def infer(self, value, expr):
        if not hasattr(value, "dtype") or not hasattr(value, "shape"):
            raise op_error("Depend", f"the 'value' should be a Tensor, but got "
                                     f"{type(value).__name__}.")
        return Abstract(value.shape, value.dtype)

    def forward(self, value, expr):
        return value

    def bprop(self, value, expr, out, dout):
        return dout, None


def depend(value, expr):
    """``value`` after ``expr`` (``ops.depend``); a non-Tensor ``value`` is returned as is."""
    if not isinstance(value, Tensor):
        return value
    return Depend()(value, expr)


functional("depend", depend)
