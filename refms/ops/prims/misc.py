"""Assorted elementwise and accumulating ops: ClipByValue, Clamp, CumSum, Invert, BitwiseAnd,
BitwiseOr, AddN; and ``ops.isclose`` composed from comparisons.
"""
import numpy as np

from ..._tensor import Tensor
from ... import dtype as mstype
from ... import kernels
from .. import batching
from ..primitive import F, Primitive, Abstract, register, alias, functional, op_error
from ..promotion import promote_many
from ._base import binary_abstract, broadcast_shape, grad_like, normalize_axis, shape_str
from .join import tensor_sequence


def _mask(cond, dtype):
    """A Bool tensor as 0/1 of ``dtype`` (for gradient routing)."""
    return F.cast(cond, dtype)


class _Clip(Primitive):
    """y = min(max(x, lo), hi); a bound given as None is left out; x and the bounds broadcast."""
    n_tensor_inputs = 3

    def clip_shape(self, x, clip_min, clip_max):
        if clip_min is None and clip_max is None:
            raise op_error(self.name, "at least one of 'min' and 'max' must not be None.",
                           ValueError)
        shape = tuple(x.shape)
        for bound in (clip_min, clip_max):
            if bound is not None:
                shape = broadcast_shape(self.name, shape, bound.shape)
        return shape

    def batch(self, batched, x, clip_min, clip_max):
        """vmap: the bounds broadcast against x, as the elementwise ops."""
        return batching.elementwise(self, batched, (x, clip_min, clip_max))

    def forward(self, x, clip_min, clip_max):
        return kernels.call("clip")(x, clip_min, clip_max)


@register
class ClipByValue(_Clip):
    """y = min(max(x, lo), hi) in x's dtype (``ops.clip_by_value``).

    The gradient is that of ``minimum(maximum(x, lo), hi)``, which is how
    MindSpore 2.10 computes it: where x equals a bound the gradient is split
    ½ / ½ between x and that bound (as ``maximum`` ties, semantics 4.8).
    """

    def infer(self, x, clip_min, clip_max):
        return Abstract(self.clip_shape(x, clip_min, clip_max), x.dtype)

    def bprop(self, x, clip_min, clip_max, out, dout):

        def share(a, b):        # ∂max(a, b)/∂a: 1 where a > b, ½ where a = b, else 0
            return _mask(F.greater(a, b), dout.dtype) + _mask(F.equal(a, b), dout.dtype) * 0.5

        x_share = 1 if clip_min is None else share(x, clip_min)          # x's part of max(x, lo)
        middle = x if clip_min is None else F.maximum(x, clip_min)
        middle_share = 1 if clip_max is None else share(clip_max, middle)  # middle's part of min
        dx = grad_like(dout * middle_share * x_share, x)
        dmin = None if clip_min is None else grad_like(dout * middle_share * (1 - x_share), clip_min)
        dmax = None if clip_max is None else grad_like(dout * (1 - middle_share), clip_max)
        return dx, dmin, dmax


@register
class Clamp(_Clip):
    """y = min(max(x, lo), hi) in the promoted dtype (``ops.clamp``, ``ops.clip``, ``Tensor.clip``).

    The whole gradient goes to where the value came from: hi where max(x, lo) > hi,
    else lo where x < lo, else x (so x keeps it on the bounds; lo > hi gives hi everywhere).
    """

    def infer(self, x, clip_min, clip_max):
        shape = self.clip_shape(x, clip_min, clip_max)
        return Abstract(shape, promote_many([v for v in (x, clip_min, clip_max) if v is not None]))

    def bprop(self, x, clip_min, clip_max, out, dout):
        middle = x if clip_min is None else F.maximum(x, clip_min)
        to_max = 0 if clip_max is None else _mask(F.greater(middle, clip_max), dout.dtype)
        to_min = 0 if clip_min is None else _mask(F.less(x, clip_min), dout.dtype) * (1 - to_max)
        dx = grad_like(dout * (1 - to_max - to_min), x)
        dmin = None if clip_min is None else grad_like(dout * to_min, clip_min)
        dmax = None if clip_max is None else grad_like(dout * to_max, clip_max)
        return dx, dmin, dmax


@register
class CumSum(Primitive):
    """yᵢ = Σ_{j ≤ i} xⱼ along ``axis`` (``exclusive``: j < i; ``reverse``: sums from the end).

    ∂/∂x is the cumulative sum of dout in the opposite direction.
    """
    n_tensor_inputs = 1

    def __init__(self, exclusive=False, reverse=False):
        for name, value in (("exclusive", exclusive), ("reverse", reverse)):
            if not isinstance(value, bool):
                raise op_error("CumSum", f"the '{name}' should be bool, but got "
                                         f"{type(value).__name__}.")
        self.exclusive = exclusive
        self.reverse = reverse

    def infer(self, x, axis):
        if x.dtype is mstype.bool_:
            raise op_error("CumSum", "the dtype of 'x' should be a number type, but got Bool.")
        if hasattr(axis, "shape") and tuple(axis.shape) == ():
            axis = int(axis)
        normalize_axis("CumSum", axis, len(x.shape))
        return Abstract(tuple(x.shape), x.dtype)

    def batch(self, batched, x, axis):
        """vmap: the per-example axis shifted past the batch axis."""
        return self(x, batching.batch_axis(int(axis), len(x.shape) - 1))

    def forward(self, x, axis):
        return kernels.call("cumsum")(x, int(axis) % max(x.ndim, 1), self.exclusive, self.reverse)

    def bprop(self, x, axis, out, dout):
        return CumSum(self.exclusive, not self.reverse)(dout, axis), None


class _Bitwise(Primitive):
    """Elementwise bit operation on integer or Bool tensors (promoted as arithmetic)."""
    n_tensor_inputs = 2
    compute_in_output_dtype = True

    def infer(self, x, y):
        result = binary_abstract(self.name, x, y)
        for name, dtype in (("x", x.dtype), ("y", y.dtype), ("result", result.dtype)):
            if dtype.kind not in ("int", "uint", "bool"):
                raise op_error(self.name, f"the dtype of '{name}' should be an integer or Bool "
                                          f"type, but got {dtype}.")
        return result

    def batch(self, batched, x, y):
        """vmap: broadcasting, as the elementwise ops."""
        return batching.elementwise(self, batched, (x, y))



@register
class BitwiseAnd(_Bitwise):
    """z = x & y (bitwise)."""

    def forward(self, x, y):
        return kernels.call("bitwise_and")(x, y)


@register
class BitwiseOr(_Bitwise):
    """z = x | y (bitwise)."""

    def forward(self, x, y):
        return kernels.call("bitwise_or")(x, y)


@register
class Invert(Primitive):
    """y = ~x (bitwise not of an integer tensor: −x − 1 for signed types)."""
    n_tensor_inputs = 1

    def infer(self, x):
        if x.dtype.kind not in ("int", "uint"):
            raise op_error("Invert", f"the dtype of 'x' should be an integer type, but got "
                                     f"{x.dtype}.")
        return Abstract(tuple(x.shape), x.dtype)

    def batch(self, batched, x):
        """vmap: pointwise, so the batch passes straight through."""
        return self(x)

    def forward(self, x):
        return kernels.call("invert")(x)


@register
class AddN(Primitive):
    """y = x₀ + x₁ + … + xₙ₋₁ over a tuple of tensors of one shape and dtype; ∂y/∂xᵢ = 1."""
    n_tensor_inputs = 1

    def infer(self, tensors):
        tensors = tensor_sequence("AddN", tensors, "x")
        first = tensors[0]
        for i, t in enumerate(tensors):
            if t.dtype is not first.dtype:
                raise op_error("AddN", f"the input type must be same, but got {first.dtype} at "
                                       f"position 0 and {t.dtype} at position {i}.")
            if tuple(t.shape) != tuple(first.shape):
                raise op_error("AddN", f"input shape must be same, but got shape of input[{i}]: "
                                       f"{shape_str(t.shape)}, shape of input[0]: "
                                       f"{shape_str(first.shape)}.", ValueError)
        return Abstract(tuple(first.shape), first.dtype)

    def batch(self, batched, tensors):
        """vmap: every member is batched (the executor broadcast the others): a plain AddN."""
        return self(tensors)

    def forward(self, tensors):
        return kernels.call("add_n")(tensors)

    def bprop(self, tensors, out, dout):
        return (tuple(dout for _ in tensors),)


_CLIP_BY_VALUE = ClipByValue()
_CLAMP = Clamp()


def clip_by_value(x, clip_value_min=None, clip_value_max=None):
    """ops.clip_by_value(x, clip_value_min=None, clip_value_max=None); x may be a list/tuple."""
    if isinstance(x, (tuple, list)):
        if not all(isinstance(t, Tensor) for t in x):
            raise TypeError(f"For 'clip_by_value', the type of argument 'x' must be Tensor or "
                            f"tuple[Tensor] or list[Tensor], but got {type(x).__name__} holding "
                            f"{sorted({type(t).__name__ for t in x})}.")
        return tuple(_CLIP_BY_VALUE(t, clip_value_min, clip_value_max) for t in x)
    return _CLIP_BY_VALUE(x, clip_value_min, clip_value_max)


def clamp(input, min=None, max=None):
    """ops.clamp(input, min=None, max=None) (also ops.clip)."""
    return _CLAMP(input, min, max)


def cumsum(x, axis, dtype=None):
    """ops.cumsum(x, axis, dtype=None): ``dtype`` casts x first."""
    if dtype is not None:
        x = F.cast(x, mstype.to_dtype(dtype))
    return CumSum()(x, axis)


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """ops.isclose: |input − other| ≤ atol + rtol·|other| (other finite), or input = other;
    NaN equals NaN only with ``equal_nan``.  Inputs must share a dtype; ints compare in Float64."""
    if input.dtype is not other.dtype:
        raise TypeError(f"For 'isclose', the input type must be same, but got 'input': "
                        f"{input.dtype} and 'other': {other.dtype}.")
    if input.dtype.kind != "float":
        input, other = F.cast(input, mstype.float64), F.cast(other, mstype.float64)
    with np.errstate(invalid="ignore"):         # inf − inf is NaN here, by design
        within = F.less_equal(F.abs(input - other), atol + rtol * F.abs(other))
    close = F.logical_or(F.logical_and(within, F.isfinite(other)), F.equal(input, other))
    if equal_nan:
        close = F.logical_or(close, F.logical_and(F.isnan(input), F.isnan(other)))
    return close


functional("clip_by_value", clip_by_value)
functional("clamp", clamp)
functional("clip", clamp)
functional("cumsum", cumsum)
functional("isclose", isclose)
alias("invert", Invert())
alias("bitwise_and", BitwiseAnd())
alias("bitwise_or", BitwiseOr())
alias("addn", AddN())
