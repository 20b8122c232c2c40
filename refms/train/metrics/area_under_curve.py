"""``auc(x, y, reorder=False)``: the area under the curve through the points (x, y).

    area = Σ_i (x[i+1] − x[i]) · (y[i] + y[i+1]) / 2        (the trapezoidal rule)

x must be monotonic (a decreasing x gives the area with its sign flipped back) unless
``reorder``, which sorts the points by x (ties by y) first.  Inputs are numpy arrays
of one dimension (or (n, 1)); ``ROC().eval()`` gives such (fpr, tpr).
"""
import numpy as np

__all__ = ["auc"]


def _as_1d(values):
    shape = np.shape(values)
    if len(shape) == 1 or (len(shape) == 2 and shape[1] == 1):
        return np.ravel(values)
    raise ValueError(f"For 'auc', the input must be a 1-dimensional array, or a 2-dimensional "
                     f"array with the second dimension of 1, but got shape {shape}.")


def auc(x, y, reorder=False):
    """Area under the piecewise-linear curve through (x[i], y[i])."""
    if not isinstance(x, np.ndarray) or not isinstance(y, np.ndarray):
        raise TypeError(f"For 'auc', the argument 'x' and 'y' must all be np.ndarray, but got "
                        f"{type(x)}, {type(y)}")
    for value in (x, y):
        if value.ndim == 0:
            raise TypeError(f"Singleton array {value} cannot be considered as a valid collection.")
    if x.shape[0] != y.shape[0]:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: "
                         f"{[int(x.shape[0]), int(y.shape[0])]}.")
    x, y = _as_1d(x), _as_1d(y)
    if x.shape[0] < 2:
        raise ValueError(f"For 'auc', the shape of the argument 'x' in axis 0 must be greater "
                         f"than 2, but got {x.shape[0]}.")
    direction = 1
    if reorder:
        order = np.lexsort((y, x))
        x, y = x[order], y[order]
    else:
        dx = np.diff(x)
        if np.any(dx < 0):
            if not np.all(dx <= 0):
                raise ValueError(f"For 'auc', if the argument is False, the argument 'x' array "
                                 f"must be increasing or decreasing, but got 'x': {x}")
            direction = -1
    area = np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2.0)
    return direction * area
