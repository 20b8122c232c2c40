"""``Loss``: the mean of the per-batch mean losses (MindSpore ``train/metrics/loss.py``)."""
import numpy as np

from .metric import Metric, rearrange_inputs

__all__ = ["Loss"]


class Loss(Metric):
    """Loss(): eval = (1/B) Σ_b mean(loss_b) over the B updates."""

    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        self._sum_loss = 0
        self._total_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 1:
            raise ValueError(f"For 'Loss.update', it needs 1 input (loss), but got {len(inputs)}")
        loss = self._convert_data(inputs[0])
        if loss.ndim == 0:
            loss = loss.reshape(1)
        if loss.ndim != 1:
            raise ValueError(f"For 'Loss.update', the dimension of your input (loss) must be 1, but "
                             f"got {loss.ndim}.")
        self._sum_loss += float(loss.mean(-1))      # float64 sum, as numpy 1.x gave MindSpore
        self._total_num += 1

    def eval(self):
        if self._total_num == 0:
            raise RuntimeError("The 'Loss' can not be calculated, because the number of samples is "
                               "0, please check whether has called update method before calling "
                               "eval method.")
        return np.float64(self._sum_loss / self._total_num)    # numpy float64, as MindSpore
