"""``refms.train.metrics``: evaluation metrics and the name table ``Model`` uses for ``metrics={'acc'}``."""
from .metric import Metric, EvaluationBase, rearrange_inputs
from .accuracy import (Accuracy, TopKCategoricalAccuracy, Top1CategoricalAccuracy,
                       Top5CategoricalAccuracy)
from .loss import Loss
from .regression import MAE, MSE
from .precision_recall import Precision, Recall, Fbeta, F1
from .confusion_matrix import ConfusionMatrix
from .perplexity import Perplexity
from .overlap import Dice, CosineSimilarity
from .area_under_curve import auc
from .roc import ROC

__all__ = ["MAE", "MSE", "Metric", "EvaluationBase", "rearrange_inputs", "Accuracy", "TopKCategoricalAccuracy",
           "Top1CategoricalAccuracy", "Top5CategoricalAccuracy", "Loss", "Precision", "Recall", "Fbeta", "F1",
           "ConfusionMatrix", "Perplexity", "Dice", "CosineSimilarity", "auc", "ROC", "names", "get_metric_fn",
           "get_metrics"]

#: Metric names accepted in a set (``metrics={'accuracy', 'loss'}``); those refms implements.
_FACTORY = {
    "accuracy": Accuracy,
    "acc": Accuracy,
    "topk": TopKCategoricalAccuracy,
    "top_1_accuracy": Top1CategoricalAccuracy,
    "top_5_accuracy": Top5CategoricalAccuracy,
    "loss": Loss,
    "mae": MAE,
    "mse": MSE,
    "precision": Precision,
    "recall": Recall,
    "F1": F1,
    "confusion_matrix": ConfusionMatrix,
    "perplexity": Perplexity,
    "dice": Dice,
    "cosine_similarity": CosineSimilarity,
    "roc": ROC,
}


def names():
    """The metric names :func:`get_metric_fn` accepts, sorted."""
    return sorted(_FACTORY)


def get_metric_fn(name, *args, **kwargs):
    if name not in _FACTORY:
        raise KeyError(f"For 'get_metric_fn', unsupported metric {name}; refms knows "
                       f"{names()}.")
    return _FACTORY[name](*args, **kwargs)


def get_metrics(metrics):
    """``{name: Metric}`` from a dict of Metric objects or a set of names (None stays None)."""
    if metrics is None:
        return None
    if isinstance(metrics, dict):
        for name, metric in metrics.items():
            if not isinstance(name, str) or not isinstance(metric, Metric):
                raise TypeError(f"For 'get_metrics', if 'metrics' is dict, the key in 'metrics' "
                                f"must be string and value in 'metrics' must be Metric, but got "
                                f"key:{type(name)}, value:{type(metric)}.")
        return metrics
    if isinstance(metrics, set):
        return {name: get_metric_fn(name) for name in sorted(metrics)}
    raise TypeError(f"For 'get_metrics', the argument 'metrics' must be None, dict or set, but got "
                    f"{metrics}")
