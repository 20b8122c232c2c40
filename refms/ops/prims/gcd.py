"""Gcd: the elementwise greatest common divisor of two integer tensors (``ops.gcd``,
``mint.gcd``; MindSpore 2.10's ``Gcd`` primitive).

``z = gcd(|x|, |y|)`` over the broadcast shape, ``gcd(0, 0) = 0``; Int16/Int32/Int64 inputs
(mixed widths promote, as MindSpore 2.10 does: Int32 with Int64 gives Int64).  Integer-valued,
so no gradient (listed in ``NON_DIFFERENTIABLE``).  Kernel: :mod:`refms.kernels.integer`.
"""
from ... import dtype as mstype
from ... import kernels
from .. import batching
from ..primitive import Primitive, register, alias, op_error
from ._base import binary_abstract

__all__ = ["Gcd"]

_INTEGERS = (mstype.int16, mstype.int32, mstype.int64)


@register
class Gcd(Primitive):
    """z = gcd(x, y) elementwise (broadcast), ≥ 0."""
    n_tensor_inputs = 2
    compute_in_output_dtype = True

    def infer(self, x, y):
        for value in (x, y):
            if value.dtype not in _INTEGERS:
                raise op_error("Gcd", f"the type of the input tensor must be [Int16, Int32, "
                                      f"Int64], but got {value.dtype}.")
        return binary_abstract("Gcd", x, y)

    def batch(self, batched, x, y):
        """vmap: broadcasting, as the elementwise ops."""
        return batching.elementwise(self, batched, (x, y))

    def forward(self, x, y):
        return kernels.call("gcd")(x, y)


alias("gcd", Gcd())
