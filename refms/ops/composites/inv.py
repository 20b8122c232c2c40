"""Inv: the element-wise reciprocal ``1 / x``, keeping x's dtype.

Floats: ``reciprocal(x)`` (1/0 is inf).  Integers: 1/x truncated toward zero, i.e. 1 for
x = 1, −1 for x = −1 and 0 for any other non-zero x, still an integer Tensor (MindSpore
2.10's CPU kernel).  The gradient is that of ``reciprocal``, −1/x².
"""
from ... import dtype as mstype
from ..primitive import F
from ..._tensor import Tensor
from ._common import CompositeOp

__all__ = ["Inv", "inv"]


def inv(x):
    """``ops.inv(x)`` = 1 / x in x's dtype (integers truncate toward zero)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"For 'Inv', the input 'x' must be a Tensor, but got {type(x).__name__}.")
    if x.dtype.kind == "float":
        return F.reciprocal(x)
    quotient = F.reciprocal(F.cast(x, mstype.float32))
    return F.cast(F.trunc(quotient), x.dtype)


class Inv(CompositeOp):
    """``Inv()(x)``: :func:`inv`."""

    def __call__(self, x):
        return inv(x)
