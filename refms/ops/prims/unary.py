"""Elementwise unary math: Neg, Abs, Square, Sqrt, Rsqrt, Exp, Log, Sign, Reciprocal,
Sin, Cos, Floor, Ceil, Trunc, Round, Log1p, Expm1, Erf.

Sqrt and Reciprocal on integer or bool tensors compute in Float32 (``_FloatUnary``);
the other transcendental ops and Floor/Ceil reject them with ``TypeError``, as
MindSpore 2.10's CPU kernels do (``_FloatOnlyUnary``).
"""
import math

from ... import dtype as mstype
from ... import kernels
from ..primitive import F, Primitive, Abstract, register, alias, op_error


class _Unary(Primitive):
    """Elementwise, same shape and dtype as the input."""
    elementwise = True
    infer_by_signature = True
    n_tensor_inputs = 1

    def infer(self, x):
        return Abstract(x.shape, x.dtype)


class _FloatUnary(_Unary):
    """Elementwise, result is floating point (ints and bools compute in Float32)."""
    compute_in_output_dtype = True

    def infer(self, x):
        dtype = x.dtype if x.dtype.kind in ("float", "complex") else mstype.float32
        return Abstract(x.shape, dtype)


def reject_non_float(op, x):
    """TypeError for a non-floating input (MindSpore 2.10's CPU kernels have none for it)."""
    if x.dtype.kind not in ("float", "complex"):
        raise op_error(op, f"the input argument[input] must be a type of {{Float16, Float32, "
                           f"Float64}}, but got {x.dtype}.")


class _FloatOnlyUnary(_FloatUnary):
    """Elementwise, floating inputs only (ints and bools raise TypeError)."""

    def infer(self, x):
        reject_non_float(self.name, x)
        return Abstract(x.shape, x.dtype)


@register
class Neg(_Unary):
    """y = −x."""

    def forward(self, x):
        return kernels.call("neg")(x)

    def bprop(self, x, out, dout):
        return (-dout,)


@register
class Abs(_Unary):
    """y = |x|; ∂y/∂x = sign(x) (0 at 0)."""

    def forward(self, x):
        return kernels.call("abs")(x)

    def bprop(self, x, out, dout):
        return (dout * F.cast(F.sign(x), dout.dtype),)


@register
class Square(_Unary):
    """y = x²; ∂y/∂x = 2x."""

    def forward(self, x):
        return kernels.call("square")(x)

    def bprop(self, x, out, dout):
        return (dout * x * 2,)


@register
class Sqrt(_FloatUnary):
    """y = √x; ∂y/∂x = 1 / (2y)."""

    def forward(self, x):
        return kernels.call("sqrt")(x)

    def bprop(self, x, out, dout):
        return (dout / (out * 2),)


@register
class Rsqrt(_FloatOnlyUnary):
    """y = 1/√x; ∂y/∂x = −y³/2."""

    def forward(self, x):
        return kernels.call("rsqrt")(x)

    def bprop(self, x, out, dout):
        return (dout * out * out * out * -0.5,)


@register
class Reciprocal(_FloatUnary):
    """y = 1/x; ∂y/∂x = −y²."""

    def forward(self, x):
        return kernels.call("reciprocal")(x)

    def bprop(self, x, out, dout):
        return (-dout * out * out,)


@register
class Exp(_FloatOnlyUnary):
    """y = eˣ; ∂y/∂x = y."""

    def forward(self, x):
        return kernels.call("exp")(x)

    def bprop(self, x, out, dout):
        return (dout * out,)


@register
class Log(_FloatOnlyUnary):
    """y = ln x; ∂y/∂x = 1/x."""

    def forward(self, x):
        return kernels.call("log")(x)

    def bprop(self, x, out, dout):
        return (dout / x,)


@register
class Log1p(_FloatOnlyUnary):
    """y = ln(1 + x); ∂y/∂x = 1/(1 + x).  Accurate for small x."""

    def forward(self, x):
        return kernels.call("log1p")(x)

    def bprop(self, x, out, dout):
        return (dout / (x + 1),)


@register
class Expm1(_FloatOnlyUnary):
    """y = eˣ − 1; ∂y/∂x = y + 1.  Accurate for small x."""

    def forward(self, x):
        return kernels.call("expm1")(x)

    def bprop(self, x, out, dout):
        return (dout * (out + 1),)


@register
class Sin(_FloatOnlyUnary):
    """y = sin x; ∂y/∂x = cos x."""

    def forward(self, x):
        return kernels.call("sin")(x)

    def bprop(self, x, out, dout):
        return (dout * F.cos(x),)


@register
class Cos(_FloatOnlyUnary):
    """y = cos x; ∂y/∂x = −sin x."""

    def forward(self, x):
        return kernels.call("cos")(x)

    def bprop(self, x, out, dout):
        return (-dout * F.sin(x),)


@register
class Erf(_FloatOnlyUnary):
    """y = erf x = (2/√π) ∫₀ˣ e^(−t²) dt; ∂y/∂x = (2/√π) e^(−x²)."""

    def forward(self, x):
        return kernels.call("erf")(x)

    def bprop(self, x, out, dout):
        return (dout * F.exp(-(x * x)) * (2 / math.sqrt(math.pi)),)


class _PiecewiseConstant(_Unary):
    """Rounding ops: gradient zero almost everywhere."""

    def bprop(self, x, out, dout):
        return (F.zeros_like(x),)


class _FloatOnlyPiecewise(_PiecewiseConstant):
    """Floor and Ceil: floating inputs only (ints and bools raise TypeError)."""

    def infer(self, x):
        reject_non_float(self.name, x)
        return Abstract(x.shape, x.dtype)


@register
class Floor(_FloatOnlyPiecewise):
    """y = ⌊x⌋."""

    def forward(self, x):
        return kernels.call("floor")(x)


@register
class Ceil(_FloatOnlyPiecewise):
    """y = ⌈x⌉."""

    def forward(self, x):
        return kernels.call("ceil")(x)


@register
class Trunc(_PiecewiseConstant):
    """y = trunc(x) (toward zero)."""

    def forward(self, x):
        return kernels.call("trunc")(x)


@register
class Round(_PiecewiseConstant):
    """y = round half to even (numpy's and MindSpore's CPU rule)."""

    def forward(self, x):
        return kernels.call("round")(x)


@register
class Sign(_Unary):
    """y = sign(x) ∈ {−1, 0, 1} (no gradient)."""

    def forward(self, x):
        return kernels.call("sign")(x)


neg = alias("neg", Neg())
alias("negative", Neg())
abs_ = alias("abs", Abs())
alias("absolute", Abs())
square = alias("square", Square())
sqrt = alias("sqrt", Sqrt())
rsqrt = alias("rsqrt", Rsqrt())
alias("reciprocal", Reciprocal())
exp = alias("exp", Exp())
log = alias("log", Log())
alias("log1p", Log1p())
alias("expm1", Expm1())
alias("sin", Sin())
alias("cos", Cos())
alias("erf", Erf())
alias("floor", Floor())
alias("ceil", Ceil())
alias("trunc", Trunc())
alias("round", Round())
sign = alias("sign", Sign())
