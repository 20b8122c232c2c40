"""Erfinv: the inverse error function (``mint.erfinv``, ``Tensor.erfinv_``)."""
import math

from ... import kernels
from ..primitive import F, register, alias
from .unary import _FloatOnlyUnary


@register
class Erfinv(_FloatOnlyUnary):
    """y = erf⁻¹(x) on (−1, 1) (±inf at ±1); ∂y/∂x = (√π / 2)·e^(y²)."""

    def forward(self, x):
        return kernels.call("erfinv")(x)

    def bprop(self, x, out, dout):
        return (dout * F.exp(out * out) * (math.sqrt(math.pi) / 2),)


alias("erfinv", Erfinv())
