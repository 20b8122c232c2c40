"""Comparisons and logic: Equal, NotEqual, Greater, GreaterEqual, Less, LessEqual,
LogicalAnd, LogicalOr, LogicalNot, IsNan, IsInf, IsFinite.  All return Bool, no gradient."""

from ... import dtype as mstype
from ... import kernels
from .. import batching
from ..primitive import Primitive, Abstract, register, alias
from ._base import broadcast_shape


class _Compare(Primitive):
    """Elementwise comparison with broadcasting; the result is Bool."""
    elementwise = True
    n_tensor_inputs = 2
    infer_by_signature = True

    def infer(self, x, y):
        return Abstract(broadcast_shape(self.name, x.shape, y.shape), mstype.bool_)


@register
class Equal(_Compare):
    """z = (x == y)."""
    tensor_first = True       # Less()(0, x): TypeError (MindSpore 2.10)


    def forward(self, x, y):
        return kernels.call("equal")(x, y)


@register
class NotEqual(_Compare):
    """z = (x ≠ y)."""

    def forward(self, x, y):
        return kernels.call("not_equal")(x, y)


@register
class Greater(_Compare):
    """z = (x > y)."""

    def forward(self, x, y):
        return kernels.call("greater")(x, y)


@register
class GreaterEqual(_Compare):
    """z = (x ≥ y)."""

    def forward(self, x, y):
        return kernels.call("greater_equal")(x, y)


@register
class Less(_Compare):
    """z = (x < y)."""
    tensor_first = True       # Less()(0, x): TypeError (MindSpore 2.10)


    def forward(self, x, y):
        return kernels.call("less")(x, y)


@register
class LessEqual(_Compare):
    """z = (x ≤ y)."""

    def forward(self, x, y):
        return kernels.call("less_equal")(x, y)


class _Logical(_Compare):
    """Logical ops: any dtype, nonzero is True; the result is Bool (MindSpore 2.10 accepts
    Float32 and Int32 inputs: ``LogicalAnd()([0., 1., 2.], [1., 1., 0.])`` → ``[False True False]``).
    Of the Python numbers only a bool may stand for a tensor, in either place
    (``LogicalAnd()(True, x)`` works, ``LogicalAnd()(1, x)`` is a TypeError in MindSpore 2.10)."""
    python_bool_only = True


@register
class LogicalAnd(_Logical):
    """z = x ∧ y."""


    def forward(self, x, y):
        return kernels.call("logical_and")(x, y)


@register
class LogicalOr(_Logical):
    """z = x ∨ y."""

    def forward(self, x, y):
        return kernels.call("logical_or")(x, y)


@register
class LogicalNot(Primitive):
    """y = ¬x (any dtype, nonzero is True; the result is Bool)."""
    elementwise = True
    n_tensor_inputs = 1
    infer_by_signature = True

    def infer(self, x):
        return Abstract(x.shape, mstype.bool_)

    def forward(self, x):
        return kernels.call("logical_not")(x)


class _Classify(Primitive):
    n_tensor_inputs = 1
    infer_by_signature = True

    def infer(self, x):
        return Abstract(x.shape, mstype.bool_)

    def batch(self, batched, x):
        """vmap: pointwise, so the batch passes straight through."""
        return self(x)



@register
class IsNan(_Classify):
    """y = (x is NaN)."""

    def forward(self, x):
        return kernels.call("isnan")(x)


@register
class IsInf(_Classify):
    """y = (x is ±inf); floating inputs only (MindSpore 2.10 rejects ints, unlike IsNan)."""

    def infer(self, x):
        from .unary import reject_non_float
        reject_non_float(self.name, x)
        return Abstract(x.shape, mstype.bool_)

    def forward(self, x):
        return kernels.call("isinf")(x)


@register
class IsFinite(_Classify):
    """y = (x is neither NaN nor ±inf)."""

    def forward(self, x):
        return kernels.call("isfinite")(x)


equal = alias("equal", Equal())
not_equal = alias("not_equal", NotEqual())
alias("ne", NotEqual())
greater = alias("greater", Greater())
alias("gt", Greater())
greater_equal = alias("greater_equal", GreaterEqual())
alias("ge", GreaterEqual())
less = alias("less", Less())
alias("lt", Less())
less_equal = alias("less_equal", LessEqual())
alias("le", LessEqual())
logical_and = alias("logical_and", LogicalAnd())
logical_or = alias("logical_or", LogicalOr())
logical_not = alias("logical_not", LogicalNot())
alias("isnan", IsNan())
alias("isinf", IsInf())
alias("isfinite", IsFinite())
