"""``nn.ClipByNorm``: scale ``x`` so that its L2 norm over ``axis`` is at most ``clip_norm``.

    y = x · clip_norm / max(‖x‖₂, clip_norm)

with the norm over ``axis`` (all axes for None), kept as size-1 axes so it broadcasts.
"""
from ... import dtype as mstype
from ..._tensor import Tensor
from ...ops import functional as F
from ..cell import Cell

__all__ = ["ClipByNorm"]


class ClipByNorm(Cell):
    """ClipByNorm(axis=None)(x, clip_norm)"""

    def __init__(self, axis=None):
        super().__init__()
        if axis is None:
            axis = ()
        if isinstance(axis, int) and not isinstance(axis, bool):
            axis = (axis,)
        if not isinstance(axis, (tuple, list)):
            raise TypeError(f"For 'ClipByNorm', the 'axis' should be None, int or tuple, but got "
                            f"{type(axis).__name__}.")
        self.axis = tuple(axis)

    def construct(self, x, clip_norm):
        if not isinstance(clip_norm, Tensor):
            clip_norm = Tensor(float(clip_norm), mstype.float32)
        norm = F.sqrt(F.reduce_sum(F.square(x), self.axis, True))
        clip = F.cast(clip_norm, x.dtype)
        return x * clip / F.maximum(norm, clip)
