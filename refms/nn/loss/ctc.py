"""``nn.CTCLoss``: the loss value of ``ops.ctc_loss`` as a Cell; a 2-D ``log_probs`` (T, C) is one
unbatched sample (MindSpore 2.10 ``nn.loss.CTCLoss``)."""
from ..._tensor import Tensor
from ...ops import functional as F
from ...ops.composites.ctc_loss import ctc_loss, check_ctc_arguments
from .loss_base import LossBase

__all__ = ["CTCLoss"]


class CTCLoss(LossBase):
    """CTCLoss(blank=0, reduction='mean', zero_infinity=False)(log_probs, targets, input_lengths,
    target_lengths)"""

    def __init__(self, blank=0, reduction="mean", zero_infinity=False):
        super().__init__()
        self.blank = blank
        self.reduction = reduction
        self.zero_infinity = zero_infinity

    def construct(self, log_probs, targets, input_lengths, target_lengths):
        for name, value in (("log_probs", log_probs), ("targets", targets)):
            if not isinstance(value, Tensor):
                raise TypeError(f"For 'CTCLoss', the '{name}' should be a Tensor, but got "
                                f"{type(value).__name__}.")
        check_ctc_arguments(self.blank, self.reduction, self.zero_infinity, "CTCLoss")
        if len(log_probs.shape) == 2:
            if len(targets.shape) > 1 and targets.shape[0] != 1:
                raise ValueError(f"For 'CTCLoss', the first dimension of 2-D 'targets' must be 1 "
                                 f"for an unbatched 'log_probs', but got {tuple(targets.shape)}.")
            if len(targets.shape) == 1:
                targets = F.expand_dims(targets, 0)
            loss, _ = ctc_loss(F.expand_dims(log_probs, -2), targets, input_lengths,
                               target_lengths, self.blank, self.reduction, self.zero_infinity)
            return F.squeeze(loss, 0) if len(loss.shape) else loss
        loss, _ = ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank,
                           self.reduction, self.zero_infinity)
        return loss
