"""LeakyReLU, ReLU6 and PReLU: piecewise-linear activations.

* ``leaky_relu(x, α) = x`` for x > 0, ``α·x`` otherwise;
* ``relu6(x) = min(max(x, 0), 6)``;
* ``prelu(x, w) = x`` for x > 0, ``w_c · x`` otherwise, with one slope ``w_c``
  per channel (axis 1; a single slope when ``w`` has one element).

Compositions of ``Greater``/``Select``, ``Maximum``/``Minimum`` and ``Mul``;
the gradient of ``prelu`` reaches both ``x`` and the slopes ``w``.
"""
import numbers

from ..primitive import F, op_error
from ._common import CompositeOp, check_tensor

__all__ = ["LeakyReLU", "ReLU6", "PReLU", "leaky_relu", "relu6", "prelu"]


def _check_float(op, x):
    if x.dtype.kind != "float":
        raise op_error(op, f"the dtype of 'x' should be float16, float32 or float64, but got "
                           f"{x.dtype}.")


def leaky_relu(input, alpha=0.2):            # noqa: A002  (MindSpore's name)
    """``ops.leaky_relu(input, alpha=0.2)``."""
    check_tensor("leaky_relu", "input", input)
    if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real):
        raise op_error("leaky_relu", f"the 'alpha' should be float, but got "
                                     f"{type(alpha).__name__}.")
    _check_float("leaky_relu", input)
    return F.select(input > 0, input, input * float(alpha))


def relu6(x):
    """``ops.relu6(x) = min(max(x, 0), 6)``."""
    check_tensor("ReLU6", "x", x)
    _check_float("ReLU6", x)
    # the constants first: NaN passes through both (MindSpore 2.10 gives relu6(nan) = nan)
    return F.minimum(6.0, F.maximum(0.0, x))


def prelu(input, weight):                    # noqa: A002  (MindSpore's name)
    """``ops.prelu(input, weight)``: one slope per channel (axis 1)."""
    check_tensor("PReLU", "input", input)
    check_tensor("PReLU", "weight", weight)
    _check_float("PReLU", input)
    channels = input.shape[1] if len(input.shape) >= 2 else 1
    n = 1
    for d in weight.shape:
        n *= d
    if len(weight.shape) > 1 or n not in (1, channels):
        raise op_error("PReLU", f"the 'weight' should be 1-D with 1 or {channels} (channels of "
                                f"'input') elements, but got shape {tuple(weight.shape)}.",
                       ValueError)
    if n > 1:
        weight = F.reshape(weight, (channels,) + (1,) * (len(input.shape) - 2))
    return F.select(input > 0, input, input * weight)


class LeakyReLU(CompositeOp):
    """``ops.LeakyReLU(alpha=0.2)(x)`` = :func:`leaky_relu`."""

    def __init__(self, alpha=0.2):
        self.alpha = alpha

    def __call__(self, x):
        return leaky_relu(x, self.alpha)


class ReLU6(CompositeOp):
    """``ops.ReLU6()(x)`` = :func:`relu6`."""

    def __call__(self, x):
        return relu6(x)


class PReLU(CompositeOp):
    """``ops.PReLU()(x, weight)`` = :func:`prelu`."""

    def __call__(self, x, weight):
        return prelu(x, weight)
