"""ReverseV2 / flip: reverse the order of the entries along the given axes (``Gather`` with n−1…0)."""
from ..primitive import F, op_error
from ._common import CompositeOp, check_tensor, int_tensor

__all__ = ["ReverseV2", "reverse", "flip"]


def flip(input, dims):                       # noqa: A002  (MindSpore's name)
    """``ops.flip(input, dims)``."""
    check_tensor("flip", "input", input)
    if isinstance(dims, int) and not isinstance(dims, bool):
        dims = (dims,)
    ndim = len(input.shape)
    y = input
    for axis in dims:
        if not -ndim <= axis < ndim:
            raise op_error("ReverseV2", f"the 'axis' should be in [{-ndim}, {ndim}), but got "
                                        f"{axis}.", ValueError)
        n = input.shape[axis]
        y = F.gather(y, int_tensor(list(range(n - 1, -1, -1))), axis % ndim)
    return y


def reverse(x, axis):
    """``ops.reverse(x, axis)`` = :func:`flip`."""
    return flip(x, axis)


class ReverseV2(CompositeOp):
    """``ReverseV2(axis)(x)``."""

    def __init__(self, axis):
        self.axis = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)

    def __call__(self, x):
        return flip(x, self.axis)
