"""Inverse trigonometric functions: Asin, Acos, Atan (``mint.asin``, ``mint.acos``, ``mint.atan``).

They cannot be composed from the other primitives, so each is one here; the
hyperbolic functions and ``atan2`` are compositions (:mod:`refms.mint`).
Floating inputs only, as the other transcendental ops (``_FloatOnlyUnary``).
"""
from ... import kernels
from ..primitive import F, register, alias
from .unary import _FloatOnlyUnary


@register
class Asin(_FloatOnlyUnary):
    """y = arcsin x on [−1, 1]; ∂y/∂x = 1/√(1 − x²)."""

    def forward(self, x):
        return kernels.call("asin")(x)

    def bprop(self, x, out, dout):
        return (dout * F.rsqrt(1 - x * x),)


@register
class ACos(_FloatOnlyUnary):
    """y = arccos x on [−1, 1]; ∂y/∂x = −1/√(1 − x²)."""

    def forward(self, x):
        return kernels.call("acos")(x)

    def bprop(self, x, out, dout):
        return (-dout * F.rsqrt(1 - x * x),)


@register
class Atan(_FloatOnlyUnary):
    """y = arctan x; ∂y/∂x = 1/(1 + x²)."""

    def forward(self, x):
        return kernels.call("atan")(x)

    def bprop(self, x, out, dout):
        return (dout / (1 + x * x),)


alias("asin", Asin())
alias("acos", ACos())
alias("atan", Atan())
