"""``Dice`` and ``CosineSimilarity``: overlap of two sets of vectors.

Dice, per update (the whole batch flattened into vectors p and y)::

    dice = 2 · (p · y) / (p · p + y · y + smooth)

``eval`` returns Σ dice over updates / Σ batch sizes (MindSpore 2.10's averaging, so
one update of a batch of N gives dice / N).

CosineSimilarity, of the rows of the last update's (N, D) input::

    S[i, j] = x_i · x_j            ('dot')
    S[i, j] = x_i · x_j / (‖x_i‖ ‖x_j‖)   ('cosine')

with the diagonal set to 0 when ``zero_diagonal``, then reduced over the last axis by
``reduction`` ('none', 'sum' or 'mean').
"""
import numpy as np

from .metric import Metric, rearrange_inputs

__all__ = ["Dice", "CosineSimilarity"]


class Dice(Metric):
    """Dice(smooth=1e-5)"""

    def __init__(self, smooth=1e-5):
        super().__init__()
        if not isinstance(smooth, float):
            raise TypeError(f"For 'Dice', the type of 'smooth' should be float, but got "
                            f"{type(smooth).__name__}.")
        if smooth <= 0:
            raise ValueError(f"For 'Dice', the argument 'smooth' must be greater than 0, but got "
                             f"{smooth}.")
        self.smooth = smooth
        self.clear()

    def clear(self):
        self._dice_coeff_sum = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError(f"For 'Dice.update', it needs 2 inputs (predicted value, true value), "
                             f"but got {len(inputs)}.")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        self._samples_num += y.shape[0]
        if y_pred.shape != y.shape:
            raise ValueError(f"For 'Dice.update', predicted value (input[0]) and true value "
                             f"(input[1]) should have same shape, but got predicted value shape: "
                             f"{y_pred.shape}, true value shape: {y.shape}.")
        p, t = y_pred.flatten(), y.flatten()
        intersection = np.dot(p, t)
        union = np.dot(p, p) + np.dot(t, t)
        # the dot products in the inputs' dtype; smoothing and division in float64
        self._dice_coeff_sum += 2 * float(intersection) / (float(union) + self.smooth)

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError("The 'Dice coefficient' can not be calculated, because the number "
                               "of samples is 0, please check whether your inputs(predicted value, "
                               "true value) are empty, or has called update method before calling "
                               "eval method.")
        return self._dice_coeff_sum / float(self._samples_num)


class CosineSimilarity(Metric):
    """CosineSimilarity(similarity='cosine', reduction='none', zero_diagonal=True)"""

    def __init__(self, similarity="cosine", reduction="none", zero_diagonal=True):
        super().__init__()
        if similarity not in ("dot", "cosine"):
            raise ValueError(f"For 'CosineSimilarity', the argument 'similarity' must be in "
                             f"['dot', 'cosine'], but got {similarity}.")
        if reduction not in ("none", "sum", "mean"):
            raise ValueError(f"For 'CosineSimilarity', the argument 'reduction' must be in "
                             f"['none', 'sum', 'mean'], but got {reduction}.")
        if not isinstance(zero_diagonal, bool):
            raise TypeError(f"For 'CosineSimilarity', the type of 'zero_diagonal' should be bool, "
                            f"but got {type(zero_diagonal).__name__}.")
        self.similarity = similarity
        self.reduction = reduction
        self.zero_diagonal = zero_diagonal
        self.clear()

    def clear(self):
        self.sqr_mtx_res = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, inputs):
        data = self._convert_data(inputs)
        if self.similarity == "cosine":
            data = data / np.expand_dims(np.linalg.norm(data, ord=2, axis=1), 1)
        self.sqr_mtx_res = np.dot(data, data.transpose(1, 0))
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        if self.zero_diagonal:
            np.fill_diagonal(self.sqr_mtx_res, 0)
        if self.reduction == "mean":
            self.sqr_mtx_res = np.mean(self.sqr_mtx_res, axis=-1)
        elif self.reduction == "sum":
            self.sqr_mtx_res = np.sum(self.sqr_mtx_res, axis=-1)
        return self.sqr_mtx_res
