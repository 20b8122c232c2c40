"""``BCEWithLogitsLoss``: binary cross-entropy on logits (MindSpore ``nn.BCEWithLogitsLoss``).

With σ the sigmoid, w the ``weight`` and p the ``pos_weight`` (both broadcast)::

    loss = −w · [p · y · log σ(x) + (1 − y) · log(1 − σ(x))]

computed in the stable form (no log of a probability, no exp of a large x)::

    loss = w · [(1 − y) · x + (1 + (p − 1) · y) · (log1p(exp(−|x|)) + max(−x, 0))]

using ``log σ(x) = −(max(−x, 0) + log1p(exp(−|x|)))`` and ``log(1 − σ(x)) = log σ(x) − x``.
The naive formula overflows exp for x ≪ 0 and takes log(0) for ``|x| ≳ 17`` in float32.
"""
from ... import dtype as mstype
from ...ops import functional as F
from ...parameter import Parameter
from ..._tensor import Tensor
from .loss_base import LossBase, check_tensor

__all__ = ["BCEWithLogitsLoss"]


class BCEWithLogitsLoss(LossBase):
    """BCEWithLogitsLoss(reduction='mean', weight=None, pos_weight=None)"""

    def __init__(self, reduction="mean", weight=None, pos_weight=None):
        super().__init__(reduction)
        for name, value in (("weight", weight), ("pos_weight", pos_weight)):
            if isinstance(value, Parameter):
                raise TypeError(f"For '{self.cls_name}', the '{name}' can not be a Parameter.")
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"For '{self.cls_name}', the '{name}' must be a Tensor or None, but "
                                f"got {type(value).__name__}.")
        self.weight = weight
        self.pos_weight = pos_weight

    def construct(self, logits, labels):
        check_tensor(self.cls_name, "input", logits)
        check_tensor(self.cls_name, "target", labels)
        if tuple(logits.shape) != tuple(labels.shape):
            raise ValueError(f"For 'BCEWithLogitsLoss', the shape of 'input' and 'target' must be the "
                             f"same, but got {tuple(logits.shape)} and {tuple(labels.shape)}.")
        if logits.dtype not in (mstype.float16, mstype.float32, mstype.float64) or \
                labels.dtype is not logits.dtype:
            raise TypeError(f"For 'BCEWithLogitsLoss', 'input' and 'target' must be float tensors of "
                            f"one dtype, but got {logits.dtype} and {labels.dtype}.")
        softplus_neg = F.log1p(F.exp(-F.abs(logits))) + F.maximum(-logits, 0.0)
        if self.pos_weight is None:
            loss = (1 - labels) * logits + softplus_neg
        else:
            loss = (1 - labels) * logits + (1 + (self.pos_weight - 1) * labels) * softplus_neg
        if self.weight is not None:
            loss = self.weight * loss
        return self.get_loss(loss)
