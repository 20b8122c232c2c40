"""Regression losses: ``L1Loss``, ``MSELoss``, ``SmoothL1Loss`` (element-wise, then ``LossBase`` reduction).

=================  ==============================================================  =========
loss               element-wise value, d = logits − labels                          default
=================  ==============================================================  =========
``L1Loss``         \\|d\\|                                                            'mean'
``MSELoss``        d²                                                              'mean'
``SmoothL1Loss``   0.5·d²/β if \\|d\\| < β else \\|d\\| − 0.5·β   (Huber / β)            'none'
=================  ==============================================================  =========

(MindSpore 2.10 ``nn/loss/loss.py``; note SmoothL1Loss's default reduction is 'none'.)
"""
from ...ops import functional as F
from .loss_base import LossBase, check_tensor

__all__ = ["L1Loss", "MSELoss", "SmoothL1Loss"]


def _check_same_shape(cls_name, logits, labels):
    if tuple(logits.shape) != tuple(labels.shape):
        raise ValueError(f"For '{cls_name}', the shape of 'logits' and 'labels' must be the same, "
                         f"but got 'logits' shape {tuple(logits.shape)} and 'labels' shape "
                         f"{tuple(labels.shape)}.")


class L1Loss(LossBase):
    """L1Loss(reduction='mean'): loss = reduce(\\|logits − labels\\|)."""

    def construct(self, logits, labels):
        check_tensor(self.cls_name, "logits", logits)
        check_tensor(self.cls_name, "labels", labels)
        return self.get_loss(F.abs(logits - labels))


class MSELoss(LossBase):
    """MSELoss(reduction='mean'): loss = reduce((logits − labels)²)."""

    def construct(self, logits, labels):
        check_tensor(self.cls_name, "logits", logits)
        check_tensor(self.cls_name, "labels", labels)
        return self.get_loss(F.square(logits - labels))


class SmoothL1Loss(LossBase):
    """SmoothL1Loss(beta=1.0, reduction='none'): 0.5·d²/β where \\|d\\| < β, else \\|d\\| − 0.5·β."""

    def __init__(self, beta=1.0, reduction="none"):
        super().__init__(reduction)
        if isinstance(beta, bool) or not isinstance(beta, (int, float)):
            raise TypeError(f"For '{self.cls_name}', the 'beta' must be float, but got "
                            f"{type(beta).__name__}.")
        if beta <= 0:
            raise ValueError(f"For '{self.cls_name}', the 'beta' must be greater than 0, but got "
                             f"{beta}.")
        self.beta = float(beta)

    def construct(self, logits, labels):
        check_tensor(self.cls_name, "logits", logits)
        check_tensor(self.cls_name, "labels", labels)
        _check_same_shape("SmoothL1Loss", logits, labels)
        diff = F.abs(logits - labels)
        quadratic = 0.5 * diff * diff / self.beta
        linear = diff - 0.5 * self.beta
        return self.get_loss(F.select(diff < self.beta, quadratic, linear))
