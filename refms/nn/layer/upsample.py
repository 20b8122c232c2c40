"""``nn.Upsample``: the Cell spelling of ``ops.interpolate`` (MindSpore 2.10 ``nn.layer.basic``)."""
from ...ops.composites.interpolate import interpolate
from ..cell import Cell

__all__ = ["Upsample"]


class Upsample(Cell):
    """Upsample(size=None, scale_factor=None, mode='nearest', align_corners=None,
    recompute_scale_factor=None): ``construct(x)`` is ``ops.interpolate(x, ...)`` with these."""

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.size = size
        self.scale_factor = scale_factor
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def construct(self, x):
        return interpolate(x, self.size, self.scale_factor, self.mode, self.align_corners,
                           self.recompute_scale_factor)
