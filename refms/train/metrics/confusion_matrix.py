"""``ConfusionMatrix(num_classes, normalize='no_norm', threshold=0.5)``.

Entry [i, j] counts the samples of true class i predicted as class j.  A prediction
with one more axis than the labels is reduced by argmax over axis 1; a float
prediction of the labels' shape is thresholded (``y_pred >= threshold`` → 1).
``normalize``: ``'target'`` divides each row by its sum, ``'prediction'`` each column,
``'all'`` by the total (an empty row or column gives 0, not NaN); ``'no_norm'`` returns
the counts as float64.
"""
import numpy as np

from .metric import Metric, rearrange_inputs

__all__ = ["ConfusionMatrix"]


class ConfusionMatrix(Metric):
    """ConfusionMatrix(num_classes, normalize='no_norm', threshold=0.5)"""

    def __init__(self, num_classes, normalize="no_norm", threshold=0.5):
        super().__init__()
        if isinstance(num_classes, bool) or not isinstance(num_classes, int):
            raise TypeError(f"For 'ConfusionMatrix', the type of 'num_classes' should be int, but "
                            f"got {type(num_classes).__name__}.")
        if normalize not in ("target", "prediction", "all", "no_norm"):
            raise ValueError(f"For 'ConfusionMatrix', the argument 'normalize' must be in ['all', "
                             f"'prediction', 'label', 'no_norm'(None)], but got {normalize}.")
        if not isinstance(threshold, float):
            raise TypeError(f"For 'ConfusionMatrix', the type of 'threshold' should be float, but "
                            f"got {type(threshold).__name__}.")
        self.num_classes = num_classes
        self.normalize = normalize
        self.threshold = threshold
        self.clear()

    def clear(self):
        self.confusion_matrix = np.zeros((self.num_classes, self.num_classes))
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError(f"For 'ConfusionMatrix.update', it needs 2 inputs (predicted value, "
                             f"true value), but got {len(inputs)}.")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if y_pred.ndim not in (y.ndim, y.ndim + 1):
            raise ValueError(f"For 'ConfusionMatrix.update', predicted value (input[0]) and true "
                             f"value (input[1]) should have same dimensions, or the dimension of "
                             f"predicted value equals the dimension of true value add 1, but got "
                             f"predicted value ndim: {y_pred.ndim}, true value ndim: {y.ndim}.")
        if y_pred.ndim == y.ndim + 1:
            y_pred = np.argmax(y_pred, axis=1)
        elif y_pred.dtype.kind == "f":
            y_pred = (y_pred >= self.threshold).astype(int)
        cell = (y.reshape(-1) * self.num_classes + y_pred.reshape(-1)).astype(int)
        counts = np.bincount(cell, minlength=self.num_classes ** 2)
        self.confusion_matrix += counts.reshape(self.num_classes, self.num_classes)
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        counts = self.confusion_matrix.astype(float)
        if self.normalize == "no_norm":
            return counts
        total = {"target": counts.sum(axis=1, keepdims=True),
                 "prediction": counts.sum(axis=0, keepdims=True),
                 "all": counts.sum()}[self.normalize]
        with np.errstate(invalid="ignore", divide="ignore"):
            matrix = counts / total
        matrix[np.isnan(matrix)] = 0
        return matrix
