"""``refms.nn``: Cells and the built-in layers (mirrors ``mindspore.nn``).

Reading order: :mod:`refms.nn.cell` (registration, naming, the call
pipeline), :mod:`refms.nn.cell_hooks` (the four hooks),
:mod:`refms.nn.custom_bprop` (a cell's own backward), :mod:`refms.nn.top_cell`
(``set_grad`` forward reuse), then the layers in :mod:`refms.nn.layer`.
"""
from .cell import Cell
from .layer import *  # noqa: F401,F403
from .layer import __all__ as _layer_all

__all__ = ["Cell"] + list(_layer_all)
from .graph_cell import GraphCell  # noqa: E402
__all__ += ["GraphCell"]
from .loss import *  # noqa: F401,F403,E402  (losses, optimizers, wrappers: issue 6)
from .loss import __all__ as _loss_all  # noqa: E402
__all__ += list(_loss_all)
from .optim import *  # noqa: F401,F403,E402
from .optim import __all__ as _optim_all  # noqa: E402
from .wrap import *  # noqa: F401,F403,E402
from .wrap import __all__ as _wrap_all  # noqa: E402
from .learning_rate_schedule import *  # noqa: F401,F403,E402
from .learning_rate_schedule import __all__ as _lr_all  # noqa: E402
__all__ += list(_optim_all) + list(_wrap_all) + list(_lr_all)
from .dynamic_lr import *  # noqa: F401,F403,E402
from .dynamic_lr import __all__ as _dynamic_lr_all  # noqa: E402
from . import dynamic_lr, metrics  # noqa: E402,F401  (the submodules, as in MindSpore)
__all__ += list(_dynamic_lr_all)
from ..train.metrics import (Metric, Accuracy, Loss, TopKCategoricalAccuracy,  # noqa: E402,F401
                             Top1CategoricalAccuracy, Top5CategoricalAccuracy, MAE, MSE,
                             Precision, Recall, Fbeta, F1, ConfusionMatrix, Perplexity, Dice,
                             CosineSimilarity, auc, ROC)
__all__ += ["MAE", "MSE", "Metric", "Accuracy", "Loss", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy",
            "Top5CategoricalAccuracy", "Precision", "Recall", "Fbeta", "F1", "ConfusionMatrix",
            "Perplexity", "Dice", "CosineSimilarity", "auc", "ROC"]
