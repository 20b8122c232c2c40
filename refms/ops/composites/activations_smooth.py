"""ELU, HSwish, HSigmoid, SiLU and Softplus: smooth (or hard-approximated) activations.

* ``elu(x) = x`` for x > 0, ``α(eˣ − 1)`` otherwise (MindSpore 2.10 accepts α = 1.0 only);
* ``hsigmoid(x) = relu6(x + 3) / 6``;  ``hswish(x) = x · hsigmoid(x)``;
* ``silu(x) = x · σ(x)``;
* ``softplus(x) = log(1 + e^{βx}) / β``, and ``x`` itself where ``βx > threshold``.

Compositions of ``Select``, ``Exp``, ``Expm1``, ``Log1p``, ``Sigmoid`` and
``Minimum``/``Maximum``.
"""
from ..primitive import F, op_error
from ._common import CompositeOp, check_tensor

__all__ = ["Elu", "HSwish", "HSigmoid", "Softplus", "elu", "hardswish", "hardsigmoid", "silu",
           "softplus"]


def _float(op, x):
    check_tensor(op, "input", x)
    if x.dtype.kind != "float":
        raise op_error(op, f"the dtype of 'input' should be float16, float32 or float64, but "
                           f"got {x.dtype}.")


def elu(input_x, alpha=1.0):
    """``ops.elu(input_x, alpha=1.0)``."""
    _float("Elu", input_x)
    if alpha != 1.0:
        raise op_error("Elu", f"the 'alpha' must be 1.0, but got {alpha}.", ValueError)
    negative = F.expm1(F.minimum(input_x, 0.0)) * float(alpha)
    return F.select(input_x > 0, input_x, negative)


def hardsigmoid(input):                      # noqa: A002  (MindSpore's name)
    """``ops.hardsigmoid(input) = relu6(input + 3) / 6``."""
    _float("HSigmoid", input)
    return F.minimum(F.maximum(input + 3.0, 0.0), 6.0) / 6.0


def hardswish(input):                        # noqa: A002
    """``ops.hardswish(input) = input · relu6(input + 3) / 6``."""
    _float("HSwish", input)
    return input * hardsigmoid(input)


def silu(input):                             # noqa: A002
    """``ops.silu(input) = input · σ(input)``."""
    _float("SiLU", input)
    return input * F.sigmoid(input)


def softplus(input, beta=1, threshold=20):   # noqa: A002
    """``ops.softplus(input, beta=1, threshold=20)``."""
    _float("Softplus", input)
    scaled = input * float(beta)
    safe = F.minimum(scaled, float(threshold))
    smooth = F.log1p(F.exp(safe)) / float(beta)
    return F.select(scaled > float(threshold), input, smooth)


class Elu(CompositeOp):
    """``Elu(alpha=1.0)(x)`` = :func:`elu`."""

    def __init__(self, alpha=1.0):
        self.alpha = alpha

    def __call__(self, x):
        return elu(x, self.alpha)


class HSwish(CompositeOp):
    """``HSwish()(x)`` = :func:`hardswish`."""

    def __call__(self, x):
        return hardswish(x)


class HSigmoid(CompositeOp):
    """``HSigmoid()(x)`` = :func:`hardsigmoid`."""

    def __call__(self, x):
        return hardsigmoid(x)


class Softplus(CompositeOp):
    """``Softplus()(x)`` = :func:`softplus` with β = 1, threshold = 20."""

    def __call__(self, x):
        return softplus(x)
