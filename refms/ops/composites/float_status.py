"""FloatStatus: whether a Tensor holds an overflow (a NaN or ±inf), as a 1-element Tensor.

    FloatStatus()(x) = [1] if any element of x is NaN, inf or -inf, else [0]

in ``x``'s floating dtype, shape ``(1,)``.  Loss-scaling training steps (the model zoo's
BERT) apply it to every gradient and add the results.  MindSpore 2.10 has the kernel on
GPU (and none on CPU); refms computes it everywhere from ``IsFinite`` and ``ReduceAll``.
"""
from ... import dtype as mstype
from ..primitive import F, op_error
from ._common import CompositeOp, check_tensor

__all__ = ["FloatStatus"]


class FloatStatus(CompositeOp):
    """``FloatStatus()(x)``: ``[1.]`` when ``x`` holds a NaN or an infinity, else ``[0.]``."""

    def __call__(self, x):
        check_tensor("FloatStatus", "x", x)
        if x.dtype not in (mstype.float16, mstype.float32, mstype.float64):
            raise op_error("FloatStatus", f"the 'x' must be a Tensor of float16, float32 or "
                                          f"float64, but got {x.dtype}.", TypeError)
        finite = F.reduce_all(F.isfinite(x), (), False)
        return F.reshape(F.cast(F.logical_not(finite), x.dtype), (1,))
