"""``refms.train``: ``Model``, callbacks, metrics, loss-scale managers (mirrors ``mindspore.train``).

Reading order: :mod:`~refms.train.model`, then :mod:`~refms.train.callback`
and :mod:`~refms.train.metrics`.  Checkpoint functions are re-exported from
:mod:`refms.checkpoint` (MindSpore keeps them in ``mindspore.train.serialization``).
"""
from .model import Model
from .callback import (Callback, CallbackManager, RunContext, LossMonitor, TimeMonitor,
                       CheckpointConfig, ModelCheckpoint, ProgressBar)
from .metrics import (MAE, MSE, Metric, Accuracy, Loss, TopKCategoricalAccuracy,
                      Top1CategoricalAccuracy, Top5CategoricalAccuracy, names, get_metric_fn,
                      Precision, Recall, Fbeta, F1, ConfusionMatrix, Perplexity, Dice,
                      CosineSimilarity, auc, ROC)
from .loss_scale_manager import LossScaleManager, FixedLossScaleManager, DynamicLossScaleManager
from ..checkpoint import save_checkpoint, load_checkpoint, load_param_into_net
from . import callback, metrics, serialization  # noqa: F401  (the submodules, as in MindSpore)

__all__ = ["Model", "Callback", "CallbackManager", "RunContext", "LossMonitor", "TimeMonitor",
           "CheckpointConfig", "ModelCheckpoint", "ProgressBar", "MAE", "MSE", "Metric", "Accuracy",
           "Loss", "Precision", "Recall", "Fbeta", "F1", "ConfusionMatrix", "Perplexity", "Dice",
           "CosineSimilarity", "auc", "ROC",
           "TopKCategoricalAccuracy", "Top1CategoricalAccuracy", "Top5CategoricalAccuracy",
           "names", "get_metric_fn", "LossScaleManager", "FixedLossScaleManager",
           "DynamicLossScaleManager", "save_checkpoint", "load_checkpoint", "load_param_into_net"]
