"""``ROC(class_num=None, pos_label=None)``: the receiver operating characteristic curve.

Sorting the scores from high to low and lowering a threshold through each distinct
score t gives, for the samples scored ≥ t::

    fpr(t) = false positives / all negatives      tpr(t) = true positives / all positives

``eval`` returns ``(fpr, tpr, thresholds)``, each starting with the point (0, 0) at the
threshold max score + 1.  Binary input (scores of the labels' shape) counts label
``pos_label`` (default 1) as positive; scores with one more axis (N, C) give one curve
per class c (label c positive), returned as three lists.  Only the last ``update``
counts.  ``auc(fpr, tpr)`` is the area under the curve.
"""
import numpy as np

from .metric import Metric, rearrange_inputs

__all__ = ["ROC"]


def _check_int(name, value):
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise TypeError(f"For 'ROC', the type of '{name}' should be int, but got "
                        f"{type(value).__name__}.")
    return value


def _binary_curve(scores, target, pos_label):
    """False and true positive counts at each distinct score, highest score first."""
    order = np.argsort(-scores)
    scores, target = scores[order], target[order]
    last_of_each_score = np.where(scores[1:] - scores[:-1])[0]
    cut = np.pad(last_of_each_score, (0, 1), constant_values=target.shape[0] - 1)
    positive = np.array(target == pos_label).astype(np.int64)
    tps = np.cumsum(positive, axis=0)[cut]
    fps = 1 + cut - tps
    return fps, tps, scores[cut]


def _arrange(y_pred, y, class_num, pos_label):
    """Flattened inputs and the (class_num, pos_label) they imply."""
    if y_pred.ndim not in (y.ndim, y.ndim + 1):
        raise ValueError(f"For 'ROC', predicted value (input[0]) and true value (input[1]) must "
                         f"have same dimensions, or the dimension of predicted value equal the "
                         f"dimension of true value add 1, but got predicted value ndim: "
                         f"{y_pred.ndim}, true value ndim: {y.ndim}.")
    if y_pred.ndim == y.ndim:
        if class_num is not None and class_num != 1:
            raise ValueError(f"For 'ROC', when predicted value (input[0]) and true value "
                             f"(input[1]) have the same shape, the 'class_num' must be 1, but got "
                             f"{class_num}.")
        return y_pred.flatten(), y.flatten(), 1, 1 if pos_label is None else pos_label
    if pos_label is not None:
        raise ValueError(f"For 'ROC', when the dimension of predicted value (input[0]) equals the "
                         f"dimension of true value (input[1]) add 1, the 'pos_label' must be None, "
                         f"but got {pos_label}.")
    if class_num != y_pred.shape[1]:
        raise ValueError(f"For 'ROC', the 'class_num' must equal the number of classes from "
                         f"predicted value (input[0]), but got 'class_num' {class_num}, the number "
                         f"of classes from predicted value {y_pred.shape[1]}.")
    # As MindSpore 2.10: the (N, C) scores are reshaped to (C, N) without a transpose, and
    # class c's curve reads column c; that is class c's scores when N == C (its examples).
    return y_pred.reshape(class_num, -1), y.flatten(), class_num, pos_label


def _curve(y_pred, y, class_num, pos_label):
    if class_num == 1:
        fps, tps, thresholds = _binary_curve(y_pred, y, pos_label)
        fps = np.squeeze(np.hstack([np.zeros(1, dtype=fps.dtype), fps]))
        tps = np.squeeze(np.hstack([np.zeros(1, dtype=tps.dtype), tps]))
        thresholds = np.hstack([thresholds[0][None] + 1, thresholds])
        if fps[-1] <= 0:
            raise ValueError("For 'ROC.eval', there is no negative samples in true value, false "
                             "positive value is meaningless.")
        if tps[-1] <= 0:
            raise ValueError("For 'ROC.eval', there is no positive samples in true value, true "
                             "positive value is meaningless.")
        return fps / fps[-1], tps / tps[-1], thresholds
    curves = [_curve(*_arrange(y_pred[:, c], y, 1, c)) for c in range(class_num)]
    return tuple(list(part) for part in zip(*curves))


class ROC(Metric):
    """ROC(class_num=None, pos_label=None)"""

    def __init__(self, class_num=None, pos_label=None):
        super().__init__()
        self.class_num = _check_int("class_num", class_num)
        self.pos_label = _check_int("pos_label", pos_label)
        self.clear()

    def clear(self):
        self.y_pred = 0
        self.y = 0
        self.sample_weights = None
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError(f"For 'ROC.update', it needs 2 inputs (predicted value, true value), "
                             f"but got {len(inputs)}")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        self.y_pred, self.y, self.class_num, self.pos_label = _arrange(
            y_pred, y, self.class_num, self.pos_label)
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        return _curve(np.squeeze(self.y_pred), np.squeeze(self.y), self.class_num, self.pos_label)
