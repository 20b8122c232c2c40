"""Inverse trigonometric functions: Asin, Acos, Atan and Atan2 (``mint.asin``, ``mint.acos``,
``mint.atan``, ``mint.atan2``).

They cannot be composed from the other primitives, so each is one here; the
hyperbolic functions are compositions (:mod:`refms.mint`).
Floating inputs only, as the other transcendental ops (``_FloatOnlyUnary``).
"""
from ... import kernels
from ..primitive import F, Primitive, register, alias
from ._base import binary_abstract, grad_like
from .unary import _FloatOnlyUnary, reject_non_float


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


@register
class Atan2(Primitive):
    """z = atan2(x, y), the angle of the point (y, x) in (−π, π];
    ∂z/∂x = y / (x² + y²),  ∂z/∂y = −x / (x² + y²).  Floating dtypes only, broadcast."""
    elementwise = True
    n_tensor_inputs = 2

    def infer(self, x, y):
        reject_non_float(self.name, x)
        reject_non_float(self.name, y)
        return binary_abstract(self.name, x, y)

    def forward(self, x, y):
        return kernels.call("atan2")(x, y)

    def bprop(self, x, y, out, dout):
        scale = dout / (x * x + y * y)
        return grad_like(scale * y, x), grad_like(-scale * x, y)


alias("asin", Asin())
alias("acos", ACos())
alias("atan", Atan())
