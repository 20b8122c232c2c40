"""``LossBase``: the reduction every loss shares (MindSpore ``nn/loss/loss.py`` ``LossBase.get_loss``).

``get_loss(x, weights=1.0)`` computes, in float32 whatever x's dtype::

    'none' -> weights · x        'mean' -> mean(weights · x)        'sum' -> Σ weights · x

then casts back to x's dtype (so a float16 loss is reduced in float32).
"""
from ... import dtype as mstype
from ..._tensor import Tensor
from ...ops import functional as F
from ...ops.keywords import NotATensorError
from ..cell import Cell

__all__ = ["LossBase", "check_reduction"]

_REDUCTIONS = ("mean", "sum", "none")


def check_reduction(reduction, cls_name):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"For '{cls_name}', the 'reduction' must be in ['mean', 'sum', 'none'], "
                         f"but got {reduction}.")
    return reduction


def reduce_loss(x, reduction, weights=1.0):
    """The function behind :meth:`LossBase.get_loss` (used by the functional losses too)."""
    input_dtype = x.dtype
    x = F.cast(x, mstype.float32)
    if not isinstance(weights, float) or weights != 1.0:
        x = F.cast(weights, mstype.float32) * x
    if reduction == "mean":
        x = F.reduce_mean(x, (), False)
    elif reduction == "sum":
        x = F.reduce_sum(x, (), False)
    return F.cast(x, input_dtype)


class LossBase(Cell):
    """LossBase(reduction='mean'): subclasses compute the element-wise loss and call ``get_loss``."""

    def __init__(self, reduction="mean"):
        super().__init__()
        check_reduction(reduction, self.cls_name)
        self.reduction = reduction
        self.average = reduction == "mean"
        self.reduce = reduction != "none"

    def get_axis(self, x):
        """All axes of x, as MindSpore's ``LossBase.get_axis``."""
        return tuple(range(len(x.shape)))

    def get_loss(self, x, weights=1.0):
        """weights · x reduced by ``self.reduction`` in float32, cast back to x's dtype."""
        return reduce_loss(x, self.reduction, weights)

    def construct(self, logits, labels):
        raise NotImplementedError(f"For '{self.cls_name}', the method 'construct' is not defined.")


def check_tensor(cls_name, arg_name, value):
    """MindSpore's ``_check_is_tensor``: losses take Tensors, not numbers or arrays."""
    if not isinstance(value, Tensor):
        raise NotATensorError(f"For '{cls_name}', the '{arg_name}' must be 'Tensor', but got "
                              f"'{type(value).__name__}'")
