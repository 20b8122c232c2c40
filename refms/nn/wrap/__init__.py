"""``refms.nn.wrap``: cells that wrap a network for training and evaluation (mirrors ``mindspore.nn.wrap``)."""
from .cell_wrapper import WithLossCell, WithGradCell, TrainOneStepCell, WithEvalCell
from .loss_scale import (DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell,
                         TrainOneStepWithLossScaleCell)
from .grad_reducer import DistributedGradReducer

__all__ = ["WithLossCell", "WithGradCell", "TrainOneStepCell", "WithEvalCell",
           "DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell", "TrainOneStepWithLossScaleCell",
           "DistributedGradReducer"]
