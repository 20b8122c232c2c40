"""TransposeView: ``ops.operations.TransposeView()(x, perm)``, MindSpore 2.x's view form of
Transpose (tutorial *Static Graph Syntax*, "View and In-place Operations").

In MindSpore the result shares ``x``'s storage; refms computes it as ``Transpose``
does (a new Tensor, as MindSpore's CPU backend does), so the values and gradients
are Transpose's.
"""
from ..primitive import F
from ._common import CompositeOp

__all__ = ["TransposeView"]


class TransposeView(CompositeOp):
    """``TransposeView()(x, perm)`` = ``Transpose()(x, perm)``: y[i₀…] = x[i_perm…]."""

    view_op = True

    def __call__(self, x, perm):
        return F.transpose(x, tuple(perm))
