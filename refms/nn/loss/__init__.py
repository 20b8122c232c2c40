"""``refms.nn.loss``: loss functions as Cells (mirrors ``mindspore.nn.loss``).

Every loss derives from :class:`~refms.nn.loss.loss_base.LossBase`, whose
``get_loss`` applies the ``reduction`` ('mean', 'sum' or 'none') in float32.
Each module states its formula and its numerically safe form.
"""
from .loss_base import LossBase
from .regression import L1Loss, MSELoss, SmoothL1Loss
from .softmax_cross_entropy import SoftmaxCrossEntropyWithLogits
from .cross_entropy import NLLLoss, CrossEntropyLoss
from .bce_with_logits import BCEWithLogitsLoss
from .binary_cross_entropy import BCELoss
from .ctc import CTCLoss

__all__ = ["LossBase", "L1Loss", "MSELoss", "SmoothL1Loss", "SoftmaxCrossEntropyWithLogits",
           "NLLLoss", "CrossEntropyLoss", "BCEWithLogitsLoss", "BCELoss", "CTCLoss"]
