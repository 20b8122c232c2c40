"""``mint``'s elementwise functions, PyTorch-style (``input``, ``other``, ``alpha``).

Each is the refms op of the same meaning (``mint.add`` is ``ops.add``) or a short
composition of ops; the docstring states the definition.  Gradients, graph mode
and dtype rules come from the ops used.
"""
import math

from .. import dtype as mstype
from .._tensor import Tensor
from ..ops import functional as F
from ..ops.prims.trig import Atan2

LN2 = math.log(2.0)
LN10 = math.log(10.0)

_ATAN2 = Atan2()


def _float(x):
    """``x`` as a floating Tensor (integers and bools compute in Float32)."""
    return x if x.dtype.kind in ("float", "complex") else F.cast(x, mstype.float32)


# -- arithmetic ----------------------------------------------------------------------------

def add(input, other, *, alpha=1):                      # noqa: A002  (MindSpore's names)
    """input + alpha·other."""
    return F.add(input, other if alpha == 1 else other * alpha)


def sub(input, other, *, alpha=1):                      # noqa: A002
    """input − alpha·other."""
    return F.sub(input, other if alpha == 1 else other * alpha)


def mul(input, other):                                  # noqa: A002
    """input · other."""
    return F.mul(input, other)


def div(input, other, *, rounding_mode=None):           # noqa: A002
    """input / other; ``rounding_mode`` "trunc" or "floor" rounds the quotient."""
    return F.div(input, other, rounding_mode=rounding_mode)


divide = div


def floor_divide(input, other):                         # noqa: A002
    """⌊input / other⌋."""
    return F.floor_div(input, other)


def remainder(input, other):                            # noqa: A002
    """input − ⌊input / other⌋·other (the sign of ``other``)."""
    return F.floor_mod(input, other)


def gcd(input, other):                                  # noqa: A002
    """The greatest common divisor of each broadcast pair of integers (≥ 0; gcd(0, 0) = 0)."""
    return F.gcd(input, other)


def fmod(input, other):                                 # noqa: A002
    """input − trunc(input / other)·other (the sign of ``input``)."""
    return F.sub(input, F.mul(F.trunc(F.div(input, other)), other))


def pow(input, exponent):                               # noqa: A002,A001
    """inputᵉˣᵖᵒⁿᵉⁿᵗ."""
    return F.pow(input, exponent)


def float_power(input, exponent):                       # noqa: A002
    """inputᵉˣᵖᵒⁿᵉⁿᵗ computed in Float64."""
    if hasattr(exponent, "dtype"):
        exponent = F.cast(exponent, mstype.float64)
    return F.pow(F.cast(input, mstype.float64), exponent)


def neg(input):                                         # noqa: A002
    """−input."""
    return F.neg(input)


negative = neg


def abs(input):                                         # noqa: A002,A001
    """abs(input)."""
    return F.abs(input)


def reciprocal(input):                                  # noqa: A002
    """1 / input."""
    return F.reciprocal(input)


def square(input):                                      # noqa: A002
    """input²."""
    return F.square(input)


def sqrt(input):                                        # noqa: A002
    """√input."""
    return F.sqrt(input)


def rsqrt(input):                                       # noqa: A002
    """1 / √input."""
    return F.rsqrt(input)


def sign(input):                                        # noqa: A002
    """sign(input) ∈ {−1, 0, 1}."""
    return F.sign(input)


def addcmul(input, tensor1, tensor2, *, value=1):       # noqa: A002
    """input + value·tensor1·tensor2."""
    return F.add(input, F.mul(tensor1, tensor2) * value)


def addcdiv(input, tensor1, tensor2, *, value=1):       # noqa: A002
    """input + value·tensor1/tensor2."""
    return F.add(input, F.div(tensor1, tensor2) * value)


def lerp(input, end, weight):                           # noqa: A002
    """input + weight·(end − input)."""
    return F.add(input, F.mul(weight, F.sub(end, input)))


def xlogy(input, other):                                # noqa: A002
    """input·ln(other), 0 where input = 0."""
    x, y = _float(input), _float(other)
    product = F.mul(x, F.log(y))
    return F.select(F.equal(x, 0), F.zeros_like(product), product)


# -- exponentials and logarithms ----------------------------------------------------------------

def exp(input):                                         # noqa: A002
    """eⁱⁿᵖᵘᵗ."""
    return F.exp(_float(input))


def exp2(input):                                        # noqa: A002
    """2ⁱⁿᵖᵘᵗ = e^(input·ln 2)."""
    return F.exp(_float(input) * LN2)


def expm1(input):                                       # noqa: A002
    """eⁱⁿᵖᵘᵗ − 1, accurate near 0."""
    return F.expm1(_float(input))


def log(input):                                         # noqa: A002
    """ln input."""
    return F.log(_float(input))


def log2(input):                                        # noqa: A002
    """log₂ input = ln input / ln 2."""
    return F.log(_float(input)) / LN2


def log10(input):                                       # noqa: A002
    """log₁₀ input = ln input / ln 10."""
    return F.log(_float(input)) / LN10


def log1p(input):                                       # noqa: A002
    """ln(1 + input), accurate near 0."""
    return F.log1p(_float(input))


def logaddexp(input, other):                            # noqa: A002
    """ln(eᵃ + eᵇ) = max(a, b) + ln(1 + e^(−abs(a − b))) (no overflow)."""
    a, b = _float(input), _float(other)
    return F.add(F.maximum(a, b), F.log1p(F.exp(-F.abs(F.sub(a, b)))))


def logaddexp2(input, other):                           # noqa: A002
    """log₂(2ᵃ + 2ᵇ) = max(a, b) + log₂(1 + 2^(−abs(a − b)))."""
    a, b = _float(input), _float(other)
    return F.add(F.maximum(a, b), F.log1p(F.exp(-F.abs(F.sub(a, b)) * LN2)) / LN2)


# -- trigonometric and hyperbolic functions -------------------------------------------------------

def sin(input):                                         # noqa: A002
    """sin input."""
    return F.sin(_float(input))


def cos(input):                                         # noqa: A002
    """cos input."""
    return F.cos(_float(input))


def tan(input):                                         # noqa: A002
    """tan input = sin / cos."""
    x = _float(input)
    return F.div(F.sin(x), F.cos(x))


def asin(input):                                        # noqa: A002
    """arcsin input (``ops.Asin``)."""
    return F.asin(_float(input))


def acos(input):                                        # noqa: A002
    """arccos input (``ops.ACos``)."""
    return F.acos(_float(input))


def atan(input):                                        # noqa: A002
    """arctan input (``ops.Atan``)."""
    return F.atan(_float(input))


def atan2(input, other):                                # noqa: A002
    """The angle of the point (other, input), in (−π, π] (``ops.Atan2``; integers compute in
    Float32)."""
    return _ATAN2(_float(input), _float(other))


def sinh(input):                                        # noqa: A002
    """sinh x = (eˣ − e⁻ˣ) / 2."""
    x = _float(input)
    return F.sub(F.exp(x), F.exp(-x)) * 0.5


def cosh(input):                                        # noqa: A002
    """cosh x = (eˣ + e⁻ˣ) / 2."""
    x = _float(input)
    return F.add(F.exp(x), F.exp(-x)) * 0.5


def tanh(input):                                        # noqa: A002
    """tanh input."""
    return F.tanh(_float(input))


def asinh(input):                                       # noqa: A002
    """arsinh x = sign(x)·ln(abs(x) + √(x² + 1)) (odd, so accurate for negative x)."""
    x = _float(input)
    ax = F.abs(x)
    return F.mul(F.sign(x), F.log(F.add(ax, F.sqrt(F.add(F.mul(ax, ax), 1)))))


def acosh(input):                                       # noqa: A002
    """arcosh x = ln(x + √(x² − 1)), x ≥ 1."""
    x = _float(input)
    return F.log(F.add(x, F.sqrt(F.sub(F.mul(x, x), 1))))


def atanh(input):                                       # noqa: A002
    """artanh x = ½·(ln(1 + x) − ln(1 − x))."""
    x = _float(input)
    return F.sub(F.log1p(x), F.log1p(-x)) * 0.5


def sinc(input):                                        # noqa: A002
    """sin(πx) / (πx), 1 at x = 0."""
    x = _float(input)
    px = x * math.pi
    safe = F.select(F.equal(x, 0), F.ones_like(px), px)
    return F.select(F.equal(x, 0), F.ones_like(px), F.div(F.sin(safe), safe))


arcsin, arccos, arctan, arctan2 = asin, acos, atan, atan2
arcsinh, arccosh, arctanh = asinh, acosh, atanh


# -- special functions and activations ----------------------------------------------------------

def erf(input):                                         # noqa: A002
    """erf input."""
    return F.erf(_float(input))


def erfc(input):                                        # noqa: A002
    """1 − erf input."""
    return 1 - F.erf(_float(input))


def sigmoid(input):                                     # noqa: A002
    """1 / (1 + e⁻ⁱⁿᵖᵘᵗ)."""
    return F.sigmoid(_float(input))


# -- rounding -----------------------------------------------------------------------------------

def floor(input):                                       # noqa: A002
    """⌊input⌋."""
    return F.floor(input)


def ceil(input):                                        # noqa: A002
    """⌈input⌉."""
    return F.ceil(input)


def trunc(input):                                       # noqa: A002
    """input rounded toward zero."""
    return F.trunc(input)


fix = trunc


def round(input, *, decimals=0):                        # noqa: A002,A001
    """input rounded half to even (to ``decimals`` places: round(x·10ᵈ) / 10ᵈ)."""
    if decimals == 0:
        return F.round(input)
    scale = 10.0 ** decimals
    return F.round(input * scale) / scale


def frac(input):                                        # noqa: A002
    """input − trunc(input)."""
    return F.sub(input, F.trunc(input))


def clamp(input, min=None, max=None):                   # noqa: A002,A001
    """min(max(input, min), max)."""
    return F.clamp(input, min, max)


clip = clamp


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):   # noqa: A002
    """NaN → ``nan``, +∞ → ``posinf`` (default: the dtype's largest), −∞ → ``neginf``."""
    import numpy as np
    finfo = np.finfo(input.dtype.np_type)
    posinf = float(finfo.max) if posinf is None else posinf
    neginf = float(finfo.min) if neginf is None else neginf
    shape, dtype = tuple(input.shape), input.dtype
    out = F.select(F.isnan(input), F.fill(dtype, shape, nan), input)
    out = F.select(F.logical_and(F.isinf(out), F.greater(out, 0)), F.fill(dtype, shape, posinf),
                   out)
    return F.select(F.logical_and(F.isinf(out), F.less(out, 0)), F.fill(dtype, shape, neginf),
                    out)


# -- comparison and logic -----------------------------------------------------------------------

def eq(input, other):                                   # noqa: A002
    """input = other, elementwise."""
    return F.equal(input, other)


def ne(input, other):                                   # noqa: A002
    """input ≠ other."""
    return F.not_equal(input, other)


def gt(input, other):                                   # noqa: A002
    """input > other."""
    return F.greater(input, other)


def ge(input, other):                                   # noqa: A002
    """input ≥ other."""
    return F.greater_equal(input, other)


def lt(input, other):                                   # noqa: A002
    """input < other."""
    return F.less(input, other)


def le(input, other):                                   # noqa: A002
    """input ≤ other."""
    return F.less_equal(input, other)


not_equal, greater, greater_equal, less, less_equal = ne, gt, ge, lt, le


def maximum(input, other):                              # noqa: A002
    """max(input, other), elementwise."""
    return F.maximum(input, other)


def minimum(input, other):                              # noqa: A002
    """min(input, other), elementwise."""
    return F.minimum(input, other)


def _bool(x):
    if not isinstance(x, Tensor):
        return x            # a Python bool (the primitive checks what else it may be)
    return x if x.dtype is mstype.bool_ else F.cast(x, mstype.bool_)


def logical_and(input, other):                          # noqa: A002
    """input ∧ other (nonzero is true)."""
    return F.logical_and(_bool(input), _bool(other))


def logical_or(input, other):                           # noqa: A002
    """input ∨ other."""
    return F.logical_or(_bool(input), _bool(other))


def logical_not(input):                                 # noqa: A002
    """¬input."""
    return F.logical_not(_bool(input))


def logical_xor(input, other):                          # noqa: A002
    """input ⊕ other = (input ≠ other) on booleans."""
    return F.not_equal(_bool(input), _bool(other))


def bitwise_and(input, other):                          # noqa: A002
    """input & other."""
    return F.bitwise_and(input, other)


def bitwise_or(input, other):                           # noqa: A002
    """input | other."""
    return F.bitwise_or(input, other)


def bitwise_not(input):                                 # noqa: A002
    """~input (logical not on Bool)."""
    if input.dtype is mstype.bool_:
        return F.logical_not(input)
    return F.invert(input)


def bitwise_xor(input, other):                          # noqa: A002
    """input ^ other = (input | other) & ~(input & other)."""
    if input.dtype is mstype.bool_:
        return F.not_equal(input, other)
    return F.bitwise_and(F.bitwise_or(input, other), F.invert(F.bitwise_and(input, other)))


def isfinite(input):                                    # noqa: A002
    """Neither ±∞ nor NaN."""
    return F.isfinite(input)


def isinf(input):                                       # noqa: A002
    """±∞."""
    return F.isinf(input)


def isnan(input):                                       # noqa: A002
    """NaN."""
    return F.isnan(input)


def isneginf(input):                                    # noqa: A002
    """−∞."""
    return F.logical_and(F.isinf(input), F.less(input, 0))


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):   # noqa: A002
    """abs(input − other) ≤ atol + rtol·abs(other)."""
    return F.isclose(input, other, rtol, atol, equal_nan)


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):  # noqa: A002
    """Whether isclose holds everywhere (a Python bool)."""
    return bool(F.isclose(input, other, rtol, atol, equal_nan).all())


def equal(input, other):                                # noqa: A002
    """Whether the two Tensors have the same shape and values (a Python bool)."""
    if tuple(input.shape) != tuple(other.shape):
        return False
    return bool(F.equal(input, other).all())


def where(condition, input=None, other=None):           # noqa: A002
    """input where condition, else other."""
    return F.where(condition, input, other)
