"""Reference elementwise kernels (numpy), table-driven: one entry per operation.

Every ``UNARY`` kernel is ``name(x) -> y`` with y of x's shape; every
``BINARY`` kernel is ``name(x, y) -> z`` with numpy broadcasting.  Results
keep numpy's dtype (the executor casts to the inferred dtype).  Floating
exceptions (division by zero, overflow, invalid) give inf/NaN silently, as
MindSpore's kernels do.  A backend may implement any subset of the names:
the others run through the host.
"""
import math

import numpy as np
from scipy.special import erf, erfinv, expit

from . import reference

#: √(2/π) and the cubic coefficient of the tanh approximation of GeLU (Hendrycks & Gimpel 2016).
GELU_C = math.sqrt(2.0 / math.pi)
GELU_A = 0.044715


def _quiet(ufunc):
    """``ufunc`` with numpy's floating-point warnings off (inf/NaN results are the answer)."""
    def run(*args):
        with np.errstate(all="ignore"):
            return ufunc(*args)
    return run


def relu(x):
    """x if x > 0 else 0, in x's dtype: NaN gives 0, as MindSpore 2.10's CPU kernel
    (``x > 0 ? x : 0``; recorded in tests/recorders/differential.json.gz)."""
    return np.fmax(x, np.zeros((), dtype=x.dtype))


def sign(x):
    """1, −1 or 0 by the sign of x; NaN gives 0 as MindSpore 2.10's CPU kernel
    (``(x > 0) − (x < 0)``)."""
    if x.dtype.kind != "f":
        return np.sign(x)
    return (x > 0).astype(x.dtype) - (x < 0).astype(x.dtype)


def maximum(x, y):
    """x if x > y else y (broadcast), MindSpore 2.10's CPU rule: a NaN in x gives y, a NaN in
    y gives NaN (numpy's ``maximum`` would give NaN for both)."""
    out = np.maximum(x, y)
    if out.dtype.kind == "f" and np.isnan(out).any():
        out = np.where(x > y, x, y)
    return out


def minimum(x, y):
    """x if x < y else y (broadcast): a NaN in x gives y, a NaN in y gives NaN (MindSpore)."""
    out = np.minimum(x, y)
    if out.dtype.kind == "f" and np.isnan(out).any():
        out = np.where(x < y, x, y)
    return out


def gelu(x):
    """½·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))."""
    inner = GELU_C * (x + GELU_A * x * x * x)
    return 0.5 * x * (1 + np.tanh(inner))


def rsqrt(x):
    """1 / √x."""
    with np.errstate(all="ignore"):
        return np.reciprocal(np.sqrt(x))


def sub(x, y):
    """x − y; for two bool arrays, x XOR y."""
    if x.dtype == np.bool_ and y.dtype == np.bool_:
        return np.not_equal(x, y)
    return np.subtract(x, y)


def power(x, y):
    """xʸ; an integer base with a negative exponent is computed in float64 and truncated."""
    if x.dtype.kind in "iu" and np.any(np.asarray(y) < 0):
        return np.power(x.astype(np.float64), y).astype(x.dtype)
    with np.errstate(all="ignore"):
        return np.power(x, y)


UNARY = {
    "neg": np.negative, "abs": np.abs, "square": np.square, "sqrt": _quiet(np.sqrt),
    "rsqrt": rsqrt, "reciprocal": _quiet(np.reciprocal), "exp": _quiet(np.exp),
    "log": _quiet(np.log), "log1p": _quiet(np.log1p), "expm1": _quiet(np.expm1),
    "sin": np.sin, "cos": np.cos, "asin": _quiet(np.arcsin), "acos": _quiet(np.arccos),
    "atan": np.arctan, "erf": erf, "erfinv": erfinv, "floor": np.floor, "ceil": np.ceil,
    "trunc": np.trunc, "round": np.round, "sign": sign,
    "relu": relu, "sigmoid": expit, "tanh": np.tanh, "gelu": gelu,
    "logical_not": np.logical_not, "isnan": np.isnan, "isinf": np.isinf,
    "isfinite": np.isfinite, "invert": np.invert,
}

BINARY = {
    "add": np.add, "sub": sub, "mul": np.multiply, "div": _quiet(np.true_divide),
    "floor_div": _quiet(np.floor_divide), "floor_mod": _quiet(np.mod), "fmod": _quiet(np.fmod),
    "pow": power, "maximum": maximum, "minimum": minimum,
    "equal": np.equal, "not_equal": np.not_equal, "greater": np.greater,
    "greater_equal": np.greater_equal, "less": np.less, "less_equal": np.less_equal,
    "logical_and": np.logical_and, "logical_or": np.logical_or,
    "bitwise_and": np.bitwise_and, "bitwise_or": np.bitwise_or, "atan2": np.arctan2,
}

for _name, _fn in {**UNARY, **BINARY}.items():
    reference(_fn, _name)


@reference
def relu_grad(dy, y):
    """dy where y > 0, else 0, in dy's dtype: ReLU's backward, one mask and one select.

    ``y`` is ReLU's output (MindSpore's ReLU bprop passes it; its input gives the same
    mask, since relu(x) > 0 exactly where x > 0).  A NaN in y gives 0, as MindSpore 2.10's
    ReluGrad [ran 2.10].  ``dy`` and ``y`` have one shape (no broadcasting).
    """
    return np.where(y > 0, dy, np.zeros((), dtype=dy.dtype))


@reference
def clip(x, low, high):
    """minimum(maximum(x, low), high) with MindSpore's NaN rule (:func:`maximum`): NaN is
    clamped to ``low`` (recorded); a bound that is None is not applied."""
    if low is not None:
        x = maximum(x, low)
    if high is not None:
        x = minimum(x, high)
    return x


@reference
def where(cond, x, y):
    """x where cond, else y (broadcast)."""
    return np.where(cond, x, y)


@reference
def scale(x, factor):
    """x · factor, with ``factor`` (a host number) taken in x's dtype."""
    return x * x.dtype.type(factor)


@reference
def add_n(xs):
    """x₀ + x₁ + … (a new array, even for one input)."""
    total = np.array(xs[0], copy=True)
    for x in xs[1:]:
        total = total + x
    return total
