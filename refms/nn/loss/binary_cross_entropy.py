"""``nn.BCELoss``: binary cross-entropy on probabilities,

    loss = −w · (y·log x + (1 − y)·log(1 − x))

with the logarithms of max(·, 1e-12), so ``0·log 0`` counts as 0 (MindSpore's
CPU result), reduced by ``reduction`` ('mean', 'sum' or 'none').
"""
from ...ops.composites.losses import binary_cross_entropy
from ..cell import Cell

__all__ = ["BCELoss"]


class BCELoss(Cell):
    """BCELoss(weight=None, reduction='mean')(logits, labels)"""

    def __init__(self, weight=None, reduction="mean"):
        super().__init__()
        if reduction not in ("mean", "sum", "none"):
            raise ValueError(f"For 'BCELoss', the 'reduction' should be in ['mean', 'sum', "
                             f"'none'], but got {reduction!r}.")
        self.weight = weight
        self.reduction = reduction

    def construct(self, logits, labels):
        return binary_cross_entropy(logits, labels, self.weight, self.reduction)
