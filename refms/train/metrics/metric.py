"""``Metric``: something updated batch by batch and evaluated at the end (MindSpore ``train/metrics``).

``clear()`` resets, ``update(*inputs)`` accumulates (Tensors, lists and numpy
arrays accepted), ``eval()`` returns the value; calling a metric does all
three on one batch.  ``set_indexes([i, j])`` picks which of ``Model``'s eval
outputs ``(loss, logits, label)`` a metric receives.
"""
import functools

import numpy as np

from ..._tensor import Tensor

__all__ = ["Metric", "EvaluationBase", "rearrange_inputs", "check_onehot_data"]


def rearrange_inputs(func):
    """Decorator for ``update``: reorder the inputs by ``self.indexes`` when set."""
    @functools.wraps(func)
    def wrapper(self, *inputs):
        indexes = self.indexes
        if indexes:
            inputs = [inputs[i] for i in indexes]
        return func(self, *inputs)
    return wrapper


def check_onehot_data(data):
    """True when ``data`` (N, C, …) is one-hot along axis 1."""
    if data.ndim > 1 and np.equal(data ** 2, data).all():
        shape = (data.shape[0],) + data.shape[2:]
        return bool(np.equal(np.ones(shape), data.sum(axis=1)).all())
    return False


class Metric:
    """Base class: subclasses define ``clear``, ``update`` and ``eval``."""

    def __init__(self):
        self._indexes = None

    def _convert_data(self, data):
        if isinstance(data, Tensor):
            return data.asnumpy()
        if isinstance(data, list):
            return np.array(data)
        if isinstance(data, np.ndarray):
            return data
        raise TypeError(f"For 'Metric' and its derived classes, the input data type must be tensor, "
                        f"list or numpy.ndarray, but got {type(data)}.")

    @property
    def indexes(self):
        return getattr(self, "_indexes", None)

    def set_indexes(self, indexes):
        if not isinstance(indexes, list) or not all(isinstance(i, int) for i in indexes):
            raise ValueError("For 'set_indexes', the argument 'indexes' must be a list and all its "
                             "elements must be int, please check whether it is correct.")
        self._indexes = indexes
        return self

    def __call__(self, *inputs):
        self.clear()
        self.update(*inputs)
        return self.eval()

    def clear(self):
        raise NotImplementedError("Must define clear function to use this base class")

    def update(self, *inputs):
        raise NotImplementedError("Must define update function to use this base class")

    def eval(self):
        raise NotImplementedError("Must define eval function to use this base class")


class EvaluationBase(Metric):
    """A metric comparing predictions with labels, ``'classification'`` or ``'multilabel'``."""

    def __init__(self, eval_type):
        super().__init__()
        if eval_type not in ("classification", "multilabel"):
            raise TypeError(f"The argument 'eval_type' must be in {{'classification', "
                            f"'multilabel'}}, but got {eval_type}")
        self._type = eval_type

    def _check_shape(self, y_pred, y):
        if self._type == "classification":
            if y_pred.ndim != y.ndim + 1:
                raise ValueError(f"In classification case, the dimension of y_pred (predicted "
                                 f"value) should equal to the dimension of y (true value) add 1, "
                                 f"but got y_pred dimension: {y_pred.ndim} and y dimension: "
                                 f"{y.ndim}.")
            if y.shape != (y_pred.shape[0],) + y_pred.shape[2:]:
                raise ValueError(f"In classification case, y_pred (predicted value) shape and y "
                                 f"(true value) shape can not match, y shape should be equal to "
                                 f"y_pred shape that the value at index 1 is deleted. But got "
                                 f"y_pred shape {y_pred.shape} and y shape {y.shape}")
        elif y_pred.shape != y.shape:
            raise ValueError(f"In {self._type} case, the shape of y_pred (predicted value) should "
                             f"equal to the shape of y (true value), but got y_pred shape: "
                             f"{y_pred.shape} and y shape: {y.shape}.")

    def _check_value(self, y_pred, y):
        if self._type != "classification" and not (np.equal(y_pred ** 2, y_pred).all()
                                                   and np.equal(y ** 2, y).all()):
            raise ValueError("In multilabel case, all elements in y_pred (predicted value) and y "
                             "(true value) should be 0 or 1.Please check whether your inputs y_pred "
                             "and y are correct.")
