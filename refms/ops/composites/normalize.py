"""L2Normalize: ``y = x / √(max(Σ x², ε))`` with the sum over ``axis`` (kept as size 1).

One axis only, as in MindSpore 2.10 (a longer ``axis`` tuple raises ``TypeError``).
"""
from ..primitive import F, op_error
from ._common import CompositeOp, check_tensor

__all__ = ["L2Normalize"]


class L2Normalize(CompositeOp):
    """``L2Normalize(axis=0, epsilon=1e-4)(x)``."""

    def __init__(self, axis=0, epsilon=1e-4):
        if isinstance(axis, int) and not isinstance(axis, bool):
            axis = (axis,)
        if not isinstance(axis, (tuple, list)):
            raise op_error("L2Normalize", f"the 'axis' should be int or tuple, but got "
                                          f"{type(axis).__name__}.")
        if len(axis) != 1:
            raise op_error("L2Normalize", f"the length of 'axis' must be 1, but got {len(axis)}.")
        self.axis = tuple(axis)
        self.epsilon = float(epsilon)

    def __call__(self, x):
        check_tensor("L2Normalize", "x", x)
        squares = F.reduce_sum(F.square(x), self.axis, True)
        return x / F.sqrt(F.maximum(squares, self.epsilon))
