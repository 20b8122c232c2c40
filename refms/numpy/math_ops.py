"""Math, reductions and comparisons in ``mindspore.numpy``'s dtype rules.

Python numbers given to binary functions become Int32 / Float32 Tensors first
(``asarray``), then refms's promotion applies; ``multiply`` and ``matmul`` reject
them (``TypeError``), as MindSpore 2.10 does.  ``divide`` is true division (Float32
for integers); ``sum`` of integers is Int64; ``mean`` keeps an integer dtype
(truncating); ``norm`` is the 2-norm of the flattened input or along ``axis``.
"""
from .. import dtype as mstype
from .._tensor import Tensor
from ..ops import functional as F
from .array_creations import asarray

__all__ = ["sum", "mean", "where", "clip", "norm", "sqrt", "log", "exp", "power", "square",
           "abs", "reciprocal", "tanh", "sin", "cos", "minimum", "maximum", "multiply", "divide",
           "add", "subtract", "floor_divide", "mod", "matmul", "amax", "amin", "argmax",
           "greater", "less", "greater_equal", "isinf"]


def _axes(axis):
    if axis is None:
        return ()
    return (axis,) if isinstance(axis, int) else tuple(axis)


def _float(x):
    x = asarray(x)
    return x if x.dtype.kind == "float" else F.cast(x, mstype.float32)


def _tensors_only(name, *values):
    for value in values:
        if not isinstance(value, Tensor):
            raise TypeError(f"For '{name}', expect Tensor, but got {type(value).__name__}")


def sum(a, axis=None, dtype=None, keepdims=False, initial=None):  # noqa: A001
    """Σ over ``axis`` (all for None); integers and bools sum to Int64."""
    if dtype is not None:
        a = F.cast(a, mstype.to_dtype(dtype))
    elif a.dtype.kind != "float":
        a = F.cast(a, mstype.int64)
    total = F.reduce_sum(a, _axes(axis), keepdims)
    return total if initial is None else total + initial


def mean(a, axis=None, keepdims=False, dtype=None):
    """The mean over ``axis``; an integer input keeps its dtype (the quotient truncated)."""
    if a.dtype.kind == "float":
        return F.reduce_mean(a, _axes(axis), keepdims)
    averaged = F.reduce_mean(F.cast(a, mstype.float32), _axes(axis), keepdims)
    return F.cast(averaged, a.dtype if dtype is None else mstype.to_dtype(dtype))


def where(condition, x=None, y=None):
    """x where ``condition``, else y (both required in MindSpore 2.10).

    A condition that is not Bool counts as ``condition != 0`` (numpy's truth rule).
    """
    if x is None or y is None:
        raise TypeError("Expect input to be array like.")
    x, y, condition = asarray(x), asarray(y), asarray(condition)
    if condition.dtype != mstype.bool_:
        condition = F.cast(condition, mstype.bool_)
    shape = F.broadcast_to(condition, _broadcast_shape(condition, x, y)).shape
    dtype = (x + y).dtype if x.dtype != y.dtype else x.dtype
    return F.select(F.broadcast_to(condition, shape), F.broadcast_to(F.cast(x, dtype), shape),
                    F.broadcast_to(F.cast(y, dtype), shape))


def _broadcast_shape(*tensors):
    ndim = max(len(t.shape) for t in tensors)
    shape = []
    for k in range(ndim):
        sizes = {t.shape[k - ndim + len(t.shape)] for t in tensors if k - ndim + len(t.shape) >= 0}
        sizes.discard(1)
        shape.append(sizes.pop() if sizes else 1)
    return tuple(shape)


def clip(x, xmin, xmax, dtype=None):
    """x limited to [xmin, xmax] (either may be None); the result keeps x's dtype."""
    out = x
    if xmin is not None:
        out = F.maximum(out, F.cast(asarray(xmin), out.dtype))
    if xmax is not None:
        out = F.minimum(out, F.cast(asarray(xmax), out.dtype))
    return out if dtype is None else F.cast(out, mstype.to_dtype(dtype))


def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002
    """‖x‖₂ of the flattened input, or along ``axis``."""
    if ord not in (None, 2, "fro") and not (ord is None):
        raise NotImplementedError(f"refms.numpy.norm implements the 2-norm, not ord={ord!r}.")
    return F.sqrt(F.reduce_sum(F.square(_float(x)), _axes(axis), keepdims))


def sqrt(x):
    return F.sqrt(_float(x))


def log(x):
    return F.log(_float(x))


def exp(x):
    return F.exp(_float(x))


def tanh(x):
    return F.tanh(_float(x))


def sin(x):
    return F.sin(_float(x))


def cos(x):
    return F.cos(_float(x))


def reciprocal(x):
    return F.reciprocal(_float(x))


def square(x):
    return F.square(asarray(x))


def abs(x):  # noqa: A001
    return F.abs(asarray(x))


def power(x1, x2):
    return F.pow(asarray(x1), asarray(x2))


def minimum(x1, x2):
    return F.minimum(asarray(x1), asarray(x2))


def maximum(x1, x2):
    return F.maximum(asarray(x1), asarray(x2))


def add(x1, x2):
    return F.add(asarray(x1), asarray(x2))


def subtract(x1, x2):
    return F.sub(asarray(x1), asarray(x2))


def multiply(x1, x2):
    _tensors_only("multiply", x1, x2)
    return F.mul(x1, x2)


def divide(x1, x2):
    """True division (integers give Float32)."""
    return F.div(_float(x1), _float(x2))


def floor_divide(x1, x2):
    return F.floor_div(asarray(x1), asarray(x2))


def mod(x1, x2):
    return F.floor_mod(asarray(x1), asarray(x2))


def matmul(x1, x2):
    _tensors_only("matmul", x1, x2)
    return F.matmul(x1, x2)


def amax(a, axis=None, keepdims=False):
    return F.reduce_max(a, _axes(axis), keepdims)


def amin(a, axis=None, keepdims=False):
    return F.reduce_min(a, _axes(axis), keepdims)


def argmax(a, axis=None):
    """Index of the first maximum (of the flattened input for None), Int64."""
    if axis is None:
        a, axis = F.reshape(a, (-1,)), 0
    return F.cast(F.argmax(a, axis), mstype.int64)


def greater(x1, x2):
    return F.greater(asarray(x1), asarray(x2))


def less(x1, x2):
    return F.less(asarray(x1), asarray(x2))


def greater_equal(x1, x2):
    return F.greater_equal(asarray(x1), asarray(x2))


def isinf(x):
    return F.isinf(x)
