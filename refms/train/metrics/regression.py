"""``MAE`` and ``MSE``: mean absolute / squared error over every update::

    MAE = Σ_updates Σ |y − ŷ| / Σ_updates batch size,   MSE likewise with (y − ŷ)²

(the batch size is ``y.shape[0]``; MindSpore 2.10's definition, checked by running it).
"""
import numpy as np

from .metric import Metric, rearrange_inputs

__all__ = ["MAE", "MSE"]


class _ErrorMetric(Metric):
    name = "MAE"

    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        self._error_sum = 0.0
        self._samples_num = 0

    def _error(self, diff):
        raise NotImplementedError

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError(f"For '{self.name}.update', it needs 2 inputs (predicted value, true "
                             f"value), but got {len(inputs)}.")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1]).reshape(y_pred.shape)
        # the errors and their batch sum in the inputs' dtype (float32 stays float32, as in
        # MindSpore), accumulated across updates as a Python float
        self._error_sum += float(self._error(y - y_pred).sum())
        self._samples_num += y.shape[0] if y.ndim else 1

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError(f"The '{self.name}' can not be calculated, because the number of "
                               f"samples is 0, please check whether your inputs(predicted value, "
                               f"true value) are empty, or has called update method before "
                               f"calling eval method.")
        return np.float64(self._error_sum / self._samples_num)    # numpy float64, as MindSpore


class MAE(_ErrorMetric):
    """MAE(): mean absolute error."""
    name = "MAE"

    def _error(self, diff):
        return np.abs(diff)


class MSE(_ErrorMetric):
    """MSE(): mean squared error."""
    name = "MSE"

    def _error(self, diff):
        return diff * diff
