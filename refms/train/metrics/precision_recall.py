"""``Precision``, ``Recall``, ``Fbeta`` and ``F1``: per-class counts of a classifier's hits.

For class c, with predictions one-hot at argmax(y_pred) (``'classification'``)::

    precision_c = TP_c / (TP_c + FP_c)        recall_c = TP_c / (TP_c + FN_c)
    Fβ_c = (1 + β²) · TP_c / (β² · (TP_c + FN_c) + (TP_c + FP_c))

Each denominator gets ``sys.float_info.min`` added, so a class never predicted
(or never present) scores 0 instead of dividing by zero.  ``eval(average=True)``
returns the mean over classes.

``'multilabel'`` (y_pred and y of 0/1, shape (N, C)) follows MindSpore 2.10 exactly:
the inputs are reshaped to (C, N) *without* transposing (``swapaxes(1, 0)`` of an
(N, C) array then ``reshape(C, -1)``), and the counts are sums over axis 0 of that
array; ``average=True`` averages the per-column ratios of every update.
"""
import sys

import numpy as np

from .metric import EvaluationBase, Metric, check_onehot_data, rearrange_inputs

__all__ = ["Precision", "Recall", "Fbeta", "F1"]

_EPS = sys.float_info.min


def _one_hot_counts(metric, name, inputs, check=True):
    """(y_pred, y) of one update as 0/1 arrays of equal shape, the class count checked."""
    if len(inputs) != 2:
        raise ValueError(f"For '{name}.update', it needs 2 inputs (predicted value, true value), "
                         f"but got {len(inputs)}.")
    y_pred = metric._convert_data(inputs[0])
    y = metric._convert_data(inputs[1])
    classification = getattr(metric, "_type", "classification") == "classification"
    if classification and y_pred.ndim == y.ndim and check_onehot_data(y):
        y = y.argmax(axis=1)
    if check:
        metric._check_shape(y_pred, y)
        metric._check_value(y_pred, y)
    if metric._class_num == 0:
        metric._class_num = y_pred.shape[1]
    elif y_pred.shape[1] != metric._class_num:
        raise ValueError(f"For '{name}.update', class number not match, last input predicted data "
                         f"contain {metric._class_num} classes, but current predicted data contain "
                         f"{y_pred.shape[1]} classes, please check your predicted value(inputs[0]).")
    classes = metric._class_num
    if classification:
        if y.max() + 1 > classes:
            raise ValueError(f"For '{name}.update', predicted value (input[0]) should have the same "
                             f"classes number as true value (input[1]), but got predicted value "
                             f"classes {classes}, true value classes {y.max() + 1}.")
        eye = np.eye(classes)
        return eye[y_pred.argmax(axis=1).reshape(-1)], eye[y.reshape(-1)]
    return (y_pred.swapaxes(1, 0).reshape(classes, -1), y.swapaxes(1, 0).reshape(classes, -1))


def _not_updated(name):
    return RuntimeError(f"The '{name}' can not be calculated, because the number of samples is 0, "
                        f"please check whether your inputs (predicted value, true value) are empty, "
                        f"or has called update method before calling eval method.")


def _check_average(name, average):
    if not isinstance(average, bool):
        raise TypeError(f"For '{name}', the type of 'average' should be bool, but got "
                        f"{type(average).__name__}.")


class _HitRatio(EvaluationBase):
    """TP / (TP + something) per class: Precision counts predictions, Recall labels."""
    name = "Precision"

    def __init__(self, eval_type="classification"):
        super().__init__(eval_type)
        self.eps = _EPS
        self.clear()

    def clear(self):
        self._class_num = 0
        multilabel = self._type == "multilabel"
        self._true_positives = np.empty(0) if multilabel else 0
        self._totals = np.empty(0) if multilabel else 0
        self._ratio_sum = 0
        self._ratio_count = 0

    def _total(self, y_pred, y):
        raise NotImplementedError

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = _one_hot_counts(self, self.name, inputs)
        totals = self._total(y_pred, y).sum(axis=0)
        true_positives = (y * y_pred).sum(axis=0)
        if self._type == "multilabel":
            self._ratio_sum += float(np.sum(true_positives / (totals + self.eps)))
            self._ratio_count += len(totals)
            self._true_positives = np.concatenate((self._true_positives, true_positives))
            self._totals = np.concatenate((self._totals, totals))
        else:
            self._true_positives = self._true_positives + true_positives
            self._totals = self._totals + totals

    def eval(self, average=False):
        if self._class_num == 0:
            raise _not_updated(self.name)
        _check_average(self.name, average)
        result = self._true_positives / (self._totals + self.eps)
        if not average:
            return result
        if self._type == "multilabel":
            result = np.float64(self._ratio_sum / (self._ratio_count + self.eps))
        return result.mean()


class Precision(_HitRatio):
    """Precision(eval_type='classification'): TP / (TP + FP) per class."""
    name = "Precision"

    def _total(self, y_pred, y):
        return y_pred


class Recall(_HitRatio):
    """Recall(eval_type='classification'): TP / (TP + FN) per class."""
    name = "Recall"

    def _total(self, y_pred, y):
        return y


class Fbeta(Metric):
    """Fbeta(beta): the weighted harmonic mean of precision and recall per class."""
    name = "Fbeta"

    def __init__(self, beta):
        super().__init__()
        if isinstance(beta, bool) or not isinstance(beta, (int, float)):
            raise TypeError(f"For 'Fbeta', the type of 'beta' should be float or int, but got "
                            f"{type(beta).__name__}.")
        if not beta > 0:
            raise ValueError(f"For 'Fbeta', the argument 'beta' must be greater than 0, but got "
                             f"{beta}.")
        self.eps = _EPS
        self.beta = beta
        self.clear()

    def clear(self):
        self._true_positives = 0
        self._actual_positives = 0
        self._positives = 0
        self._class_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = _one_hot_counts(self, "Fbeta", inputs, check=False)
        self._true_positives = self._true_positives + (y * y_pred).sum(axis=0)
        self._positives = self._positives + y_pred.sum(axis=0)
        self._actual_positives = self._actual_positives + y.sum(axis=0)

    def eval(self, average=False):
        if self._class_num == 0:
            raise _not_updated("Fbeta")
        beta2 = self.beta ** 2
        fbeta = ((1.0 + beta2) * self._true_positives
                 / (beta2 * self._actual_positives + self._positives + self.eps))
        return fbeta.mean() if average else fbeta


class F1(Fbeta):
    """F1(): Fbeta with β = 1, 2·TP / (2·TP + FP + FN) per class."""

    def __init__(self):
        super().__init__(1.0)
