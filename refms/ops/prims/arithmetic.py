"""Binary arithmetic: Add, Sub, Mul, RealDiv/Div, FloorDiv, FloorMod, Mod, Pow, Maximum, Minimum.

All broadcast (numpy rules) and promote (semantics 1.7); gradients are
summed back to each input's shape and cast to its dtype (``grad_like``).
"""

from ... import dtype as mstype
from ... import kernels
from .. import batching
from ..primitive import F, Primitive, Abstract, register, alias, functional, op_error
from ..promotion import promote
from ._base import binary_abstract, broadcast_shape, grad_like


class _Binary(Primitive):
    """Elementwise binary op computed in the promoted dtype."""
    elementwise = True
    n_tensor_inputs = 2
    compute_in_output_dtype = True
    infer_by_signature = True

    def infer(self, x, y):
        return binary_abstract(self.name, x, y)


def _reject_bool_pair(prim, x, y):
    """MindSpore 2.10's Add/Sub kernels take no Bool (the Tensor operators ``+``/``-`` turn two
    Bool tensors into a logical or / exclusive or before reaching them; recorded)."""
    if (x.dtype is mstype.bool_ and y.dtype is mstype.bool_
            and not getattr(x, "weak", False) and not getattr(y, "weak", False)):
        raise op_error(prim, "the input argument[x] must be a type of {Tensor[Float16], "
                             "Tensor[Float32], Tensor[Float64], Tensor[Int8], Tensor[Int16], "
                             "Tensor[Int32], Tensor[Int64], Tensor[UInt8], ...}, but got "
                             "Tensor[Bool].")


@register
class Add(_Binary):
    """z = x + y."""

    def infer(self, x, y):
        _reject_bool_pair(self.name, x, y)
        return super().infer(x, y)

    def forward(self, x, y):
        return kernels.call("add")(x, y)

    def bprop(self, x, y, out, dout):
        return grad_like(dout, x), grad_like(dout, y)


@register
class Sub(_Binary):
    """z = x − y.  Two Bool tensors are rejected (the ``-`` operator gives x ≠ y for them,
    :meth:`refms.Tensor.__sub__`); a Python bool on the left is rejected
    (``True - boolT`` → TypeError in MindSpore 2.10, semantics 1.7)."""

    def infer(self, x, y):
        _reject_bool_pair(self.name, x, y)
        if getattr(x, "weak", False) and x.dtype is mstype.bool_:
            raise op_error(self.name, f"the input argument[x] must be a Tensor or a number other "
                                      f"than bool, but got bool (y: Tensor[{y.dtype}]).")
        return super().infer(x, y)

    def forward(self, x, y):
        return kernels.call("sub")(x, y)

    def bprop(self, x, y, out, dout):
        return grad_like(dout, x), grad_like(-dout, y)


@register
class SquaredDifference(_Binary):
    """z = (x − y)²;  ∂z/∂x = 2(x − y),  ∂z/∂y = −2(x − y).  Int and float dtypes; two Bool
    tensors are rejected (TypeError), as MindSpore 2.10 does."""

    def infer(self, x, y):
        _reject_bool_pair(self.name, x, y)
        return super().infer(x, y)

    def forward(self, x, y):
        difference = kernels.call("sub")(x, y)
        return kernels.call("mul")(difference, difference)

    def bprop(self, x, y, out, dout):
        twice = dout * (x - y) * 2
        return grad_like(twice, x), grad_like(-twice, y)


@register
class Mul(_Binary):
    """z = x · y."""

    def forward(self, x, y):
        return kernels.call("mul")(x, y)

    def bprop(self, x, y, out, dout):
        return grad_like(dout * y, x), grad_like(dout * x, y)


@register
class RealDiv(_Binary):
    """z = x / y in the promoted dtype: integer quotients are truncated toward zero
    (``RealDiv()(Int32 [3, -7], Int32 [2, 2])`` → Int32 ``[1, -3]`` in MindSpore 2.10)."""

    def forward(self, x, y):
        return kernels.call("div")(x, y)

    def bprop(self, x, y, out, dout):
        dx = dout / y
        return grad_like(dx, x), grad_like(-dx * out, y)


@register
class Div(RealDiv):
    """z = x / y; integer and bool inputs divide in Float32 (``/``, ``ops.div``; semantics 1.7)."""

    def infer(self, x, y):
        dtype = promote(x, y)
        if dtype.kind in ("int", "uint", "bool"):
            dtype = mstype.float32
        return Abstract(broadcast_shape(self.name, x.shape, y.shape), dtype)


@register
class FloorDiv(_Binary):
    """z = ⌊x / y⌋ (no gradient: piecewise constant)."""
    elementwise = False

    def batch(self, batched, x, y):
        """vmap: broadcasting like the other elementwise ops (kept out of fusion only)."""
        return batching.elementwise(self, batched, (x, y))

    def forward(self, x, y):
        return kernels.call("floor_div")(x, y)


@register
class FloorMod(_Binary):
    """z = x − ⌊x / y⌋·y (sign of y, Python's ``%``).  ∂z/∂x = 1, ∂z/∂y = −⌊x / y⌋."""
    elementwise = False

    def batch(self, batched, x, y):
        """vmap: broadcasting like the other elementwise ops (kept out of fusion only)."""
        return batching.elementwise(self, batched, (x, y))

    def forward(self, x, y):
        return kernels.call("floor_mod")(x, y)

    def bprop(self, x, y, out, dout):
        return grad_like(dout, x), grad_like(-dout * F.floor_div(x, y), y)


@register
class Mod(_Binary):
    """z = x − trunc(x / y)·y (sign of x, C's ``fmod``).  ∂z/∂x = 1, ∂z/∂y = −trunc(x / y)."""
    elementwise = False

    def batch(self, batched, x, y):
        """vmap: broadcasting like the other elementwise ops (kept out of fusion only)."""
        return batching.elementwise(self, batched, (x, y))

    def forward(self, x, y):
        return kernels.call("fmod")(x, y)

    def bprop(self, x, y, out, dout):
        quotient = F.cast(F.cast((x - out) / y, mstype.int64), dout.dtype)
        return grad_like(dout, x), grad_like(-dout * quotient, y)


@register
class Pow(_Binary):
    """z = xʸ.  ∂z/∂x = y·xʸ⁻¹, ∂z/∂y = z·ln x (taken as 0 where x ≤ 0)."""

    def forward(self, x, y):
        return kernels.call("pow")(x, y)

    def bprop(self, x, y, out, dout):
        dx = dout * y * F.pow(x, y - 1)
        positive = F.greater(x, 0)
        safe_x = F.select(positive, x, F.ones_like(x))
        dy = F.select(positive, dout * out * F.log(safe_x), F.zeros_like(dout))
        return grad_like(dx, x), grad_like(dy, y)


class _Extremum(_Binary):
    """Shared bprop of Maximum/Minimum: the winner gets dout; ties split it 0.5/0.5."""

    def bprop(self, x, y, out, dout):
        x_wins = F.cast(self.wins(x, y), dout.dtype)
        tie = F.cast(F.equal(x, y), dout.dtype) * 0.5
        dx = dout * (x_wins + tie)
        dy = dout * (1 - x_wins - tie)
        return grad_like(dx, x), grad_like(dy, y)


@register
class Maximum(_Extremum):
    """z = max(x, y) (NaN propagates)."""

    def forward(self, x, y):
        return kernels.call("maximum")(x, y)

    def wins(self, x, y):
        return F.greater(x, y)


@register
class Minimum(_Extremum):
    """z = min(x, y) (NaN propagates)."""

    def forward(self, x, y):
        return kernels.call("minimum")(x, y)

    def wins(self, x, y):
        return F.less(x, y)


add = alias("add", Add())
sub = alias("sub", Sub())
mul = alias("mul", Mul())
alias("multiply", Mul())
floor_div = alias("floor_div", FloorDiv())
floor_mod = alias("floor_mod", FloorMod())
alias("floor_divide", FloorDiv())
alias("remainder", FloorMod())
maximum = alias("maximum", Maximum())
minimum = alias("minimum", Minimum())
pow_ = alias("pow", Pow())
_DIV = Div()


def div(input, other, *, rounding_mode=None):
    """ops.div: true division; ``rounding_mode='floor'`` floors, ``'trunc'`` truncates."""
    if rounding_mode is None:
        return _DIV(input, other)
    if rounding_mode == "floor":
        return F.floor_div(input, other)
    if rounding_mode == "trunc":
        truncated = F.trunc(_DIV(input, other))
        return F.cast(truncated, F.floor_div(input, other).dtype)
    raise ValueError(f"For 'div', rounding_mode should be None, 'floor' or 'trunc', "
                     f"but got {rounding_mode!r}.")


functional("div", div)


def subtract(input, other, *, alpha=1):                    # noqa: A002  (MindSpore's names)
    """ops.subtract: input − alpha·other (an integer input with a float ``alpha`` gives a
    float result, MindSpore 2.10)."""
    return sub(input, other if alpha == 1 else other * alpha)


functional("subtract", subtract)
alias("true_divide", Div())
alias("divide", Div())
