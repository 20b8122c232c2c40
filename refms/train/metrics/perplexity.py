"""``Perplexity(ignore_label=None)``: exp of the mean negative log-probability of the labels.

    perplexity = exp(−Σ log max(p[label], 1e-10) / number of counted labels)

``y_pred`` holds probabilities with the classes on the last axis; labels equal to
``ignore_label`` are left out of both sums.  ``eval`` returns a Python float.
"""
import math

import numpy as np

from .metric import Metric, rearrange_inputs

__all__ = ["Perplexity"]


class Perplexity(Metric):
    """Perplexity(ignore_label=None)"""

    def __init__(self, ignore_label=None):
        super().__init__()
        if ignore_label is not None and (isinstance(ignore_label, bool)
                                         or not isinstance(ignore_label, int)):
            raise TypeError(f"For 'Perplexity', the type of 'ignore_label' should be int, but got "
                            f"{type(ignore_label).__name__}.")
        self.ignore_label = ignore_label
        self.clear()

    def clear(self):
        self._sum_metric = 0.0
        self._num_inst = 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError(f"For 'Perplexity.update', it needs 2 inputs (predicted value, "
                             f"label), but got {len(inputs)}.")
        pred = self._convert_data(inputs[0])
        label = self._convert_data(inputs[1])
        if label.size != pred.size / pred.shape[-1]:
            raise RuntimeError(f"For 'Perplexity.update', predicted value (input[0]) and label "
                               f"(input[1]) should have the same shape, but got predicted value "
                               f"shape {pred.shape}, label shape {label.shape}.")
        label = label.reshape(label.size)
        picked = np.squeeze(pred.reshape(label.size, -1)[np.arange(label.size), label.astype(int)])
        count = picked.size
        if self.ignore_label is not None:
            ignore = (label == self.ignore_label).astype(picked.dtype)
            count -= np.sum(ignore)
            picked = picked * (1 - ignore) + ignore          # log 1 = 0 for ignored labels
        # the logs summed in the predictions' dtype, accumulated as a Python float
        self._sum_metric -= float(np.sum(np.log(np.maximum(1e-10, picked))))
        self._num_inst += count

    def eval(self):
        if self._num_inst == 0:
            raise RuntimeError("The 'Perplexity' can not be calculated, because the number of "
                               "samples is 0, please check whether the update method has been "
                               "called before calling eval method.")
        return math.exp(self._sum_metric / self._num_inst)
