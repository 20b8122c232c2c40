"""``mindspore.nn.loss.loss``: MindSpore keeps its losses in this one module; refms in several."""
from .loss_base import LossBase
from .regression import L1Loss, MSELoss, SmoothL1Loss
from .softmax_cross_entropy import SoftmaxCrossEntropyWithLogits
from .cross_entropy import NLLLoss, CrossEntropyLoss
from .bce_with_logits import BCEWithLogitsLoss
from .binary_cross_entropy import BCELoss

#: The private base-class name older MindSpore scripts import.
_Loss = LossBase

__all__ = ["LossBase", "L1Loss", "MSELoss", "SmoothL1Loss", "SoftmaxCrossEntropyWithLogits",
           "NLLLoss", "CrossEntropyLoss", "BCEWithLogitsLoss", "BCELoss"]
