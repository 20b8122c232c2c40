"""Accuracy metrics: ``Accuracy``, ``TopKCategoricalAccuracy`` (``Top1``/``Top5``).

``Accuracy('classification')``: the fraction of samples with argmax(y_pred) == y
(one-hot y is turned into indices); ``'multilabel'``: the fraction whose whole
0/1 prediction vector equals y.  ``TopKCategoricalAccuracy(k)``: the fraction
with y among the k largest predictions (ties broken by a stable sort of −y_pred).
"""
import numpy as np

from .metric import EvaluationBase, Metric, check_onehot_data, rearrange_inputs

__all__ = ["Accuracy", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy",
           "Top5CategoricalAccuracy"]


class Accuracy(EvaluationBase):
    """Accuracy(eval_type='classification')"""

    def __init__(self, eval_type="classification"):
        super().__init__(eval_type)
        self.clear()

    def clear(self):
        self._correct_num = 0
        self._total_num = 0
        self._class_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError(f"For 'Accuracy.update', it needs 2 inputs (predicted value, true "
                             f"value), but got {len(inputs)}")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if self._type == "classification" and y_pred.ndim == y.ndim and check_onehot_data(y):
            y = y.argmax(axis=1)
        self._check_shape(y_pred, y)
        self._check_value(y_pred, y)
        if self._class_num == 0:
            self._class_num = y_pred.shape[1]
        elif y_pred.shape[1] != self._class_num:
            raise ValueError(f"For 'Accuracy.update', class number not match, last input predicted "
                             f"data contain {self._class_num} classes, but current predicted data "
                             f"contain {y_pred.shape[1]} classes, please check your predicted "
                             f"value(inputs[0]).")
        if self._type == "classification":
            result = (np.equal(y_pred.argmax(axis=1), y) * 1).reshape(-1)
        else:
            axis = y_pred.ndim - 1
            y_pred = y_pred.swapaxes(1, axis).reshape(-1, self._class_num)
            y = y.swapaxes(1, axis).reshape(-1, self._class_num)
            result = np.equal(y_pred, y).all(axis=1) * 1
        self._correct_num += result.sum()
        self._total_num += result.shape[0]

    def eval(self):
        if self._total_num == 0:
            raise RuntimeError("The 'Accuracy' can not be calculated, because the number of samples "
                               "is 0, please check whether your inputs(predicted value, true value) "
                               "are empty, or has called update method before calling eval method.")
        return np.float64(self._correct_num) / self._total_num     # numpy float64, as MindSpore


class TopKCategoricalAccuracy(Metric):
    """TopKCategoricalAccuracy(k)"""

    def __init__(self, k):
        super().__init__()
        if isinstance(k, bool) or not isinstance(k, int):
            raise TypeError(f"For 'TopKCategoricalAccuracy', the type of the argument 'k' should be "
                            f"int, but got 'k' type: {type(k)}.")
        if k < 1:
            raise ValueError(f"For 'TopKCategoricalAccuracy', the argument 'k' must be at least 1, "
                             f"but got 'k' value: {k}.")
        self.k = k
        self.clear()

    def clear(self):
        self._correct_num = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError(f"For 'TopKCategoricalAccuracy.update', it needs 2 inputs (predicted "
                             f"value, true value), but got 'inputs' size: {len(inputs)}.")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if y_pred.ndim == y.ndim and check_onehot_data(y):
            y = y.argmax(axis=1)
        indices = np.argsort(-y_pred, axis=1)[:, :self.k]
        repeated = y.reshape(-1, 1).repeat(self.k, axis=1)
        correct = np.equal(indices, repeated).sum(axis=1)
        self._correct_num += correct.sum()
        self._samples_num += repeated.shape[0]

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError("The 'TopKCategoricalAccuracy' can not be calculated, because the "
                               "number of samples is 0, please check whether your inputs "
                               "(predicted value, true value) are empty, or has called update "
                               "method before calling eval method.")
        return np.float64(self._correct_num) / self._samples_num   # numpy float64, as MindSpore


class Top1CategoricalAccuracy(TopKCategoricalAccuracy):
    """Top-1 accuracy."""

    def __init__(self):
        super().__init__(1)


class Top5CategoricalAccuracy(TopKCategoricalAccuracy):
    """Top-5 accuracy."""

    def __init__(self):
        super().__init__(5)
