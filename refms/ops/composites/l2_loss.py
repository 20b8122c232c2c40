"""L2Loss: half the squared Euclidean norm, ``Σ x² / 2`` (a 0-d Tensor of x's float dtype)."""
from ... import dtype as mstype
from ..primitive import F, op_error
from ._common import CompositeOp, check_tensor

__all__ = ["L2Loss"]


class L2Loss(CompositeOp):
    """``L2Loss()(x)`` = Σ x² / 2; gradient x."""

    def __call__(self, x):
        check_tensor("L2Loss", "x", x)
        if x.dtype not in (mstype.float16, mstype.float32, mstype.float64):
            raise op_error("L2Loss", f"the input argument[x] must be a type of {{Tensor[Float16], "
                                     f"Tensor[Float32], Tensor[Float64]}}, but got "
                                     f"Tensor[{x.dtype}].")
        return F.reduce_sum(F.square(x), ()) * 0.5
