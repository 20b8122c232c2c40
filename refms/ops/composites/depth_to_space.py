"""DepthToSpace: move blocks of channels into space (the inverse of SpaceToDepth, "DCR" order).

    y[n, c, h·b + i, w·b + j] = x[n, (i·b + j)·C' + c, h, w],   C' = C / b²

A reshape to (N, b, b, C', H, W), a transpose to (N, C', H, b, W, b) and a reshape to
(N, C', H·b, W·b) — so its gradient is the inverse permutation (MindSpore 2.10 ``DepthToSpace``).
"""
from ..primitive import F, op_error
from ._common import CompositeOp, check_int, check_tensor

__all__ = ["DepthToSpace"]


class DepthToSpace(CompositeOp):
    """``DepthToSpace(block_size)(x)`` for an (N, C, H, W) x with C divisible by block_size²."""

    def __init__(self, block_size):
        check_int("DepthToSpace", "block_size", block_size)
        if block_size < 2:
            raise op_error("DepthToSpace", f"the 'block_size' must be >= 2, but got {block_size}.",
                           ValueError)
        self.block_size = block_size

    def __call__(self, x):
        check_tensor("DepthToSpace", "x", x)
        if len(x.shape) != 4:
            raise op_error("DepthToSpace", f"the input must be 4-D (N, C, H, W), but got shape "
                                           f"{tuple(x.shape)}.", ValueError)
        n, c, h, w = x.shape
        b = self.block_size
        if c % (b * b):
            raise op_error("DepthToSpace", f"the channels {c} must be divisible by "
                                           f"block_size * block_size = {b * b}.", ValueError)
        y = F.reshape(x, (n, b, b, c // (b * b), h, w))
        y = F.transpose(y, (0, 3, 4, 1, 5, 2))
        return F.reshape(y, (n, c // (b * b), h * b, w * b))
