"""``nn.MaxPool3d`` and ``nn.AvgPool3d``: Cells over ``MaxPool3D`` / ``AvgPool3D`` (MindSpore 2.10
``nn.layer.pooling``); a 4-D (C, D, H, W) input is one unbatched sample.  ``MaxPool3d`` with
``dilation`` ≠ 1 or ``return_indices=True`` requires ``pad_mode='pad'`` (MindSpore runs
``MaxPool3DWithArgmax`` then); the indices are flat positions in the input's D·H·W."""
from ...ops import functional as F
from ...ops.composites.pool3d import AvgPool3D, pool3d, pool3d_indices, pads_of, triple
from ..cell import Cell

__all__ = ["MaxPool3d", "AvgPool3d"]


def _pad_mode(name, pad_mode):
    if not isinstance(pad_mode, str):
        raise TypeError(f"For '{name}', the 'pad_mode' must be str, but got "
                        f"{type(pad_mode).__name__}.")
    if pad_mode.upper() not in ("VALID", "SAME", "PAD"):
        raise ValueError(f"For '{name}', the 'pad_mode' must be in ['VALID', 'SAME', 'PAD'], "
                         f"but got {pad_mode}.")
    return pad_mode.lower()


def _padding3(name, padding):
    if isinstance(padding, bool) or not isinstance(padding, (int, tuple, list)):
        raise TypeError(f"For '{name}', the 'padding' must be int or tuple, but got "
                        f"{type(padding).__name__}.")
    return triple(name, "padding", padding, minimum=0)


class MaxPool3d(Cell):
    """MaxPool3d(kernel_size=1, stride=1, pad_mode='valid', padding=0, dilation=1,
    return_indices=False, ceil_mode=False)"""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1,
                 return_indices=False, ceil_mode=False):
        super().__init__()
        name = "MaxPool3d"
        self.kernel_size = triple(name, "kernel_size", kernel_size)
        self.stride = triple(name, "stride", stride)
        self.pad_mode = _pad_mode(name, pad_mode)
        self.padding = _padding3(name, padding)
        self.dilation = triple(name, "dilation", dilation)
        if (self.dilation != (1, 1, 1) or return_indices) and self.pad_mode != "pad":
            raise ValueError(f"For {name}, the pad_mode must be 'pad' when dilation is not 1 or "
                             f"return_indices is True, but got pad_mode:{pad_mode}.")
        if self.pad_mode != "pad" and any(self.padding):
            raise ValueError(f"For '{name}', the 'padding' must be 0 when 'pad_mode' is not "
                             f"'pad', but got {padding!r}.")
        self.ceil_mode = bool(ceil_mode)
        self.return_indices = bool(return_indices)

    def pool(self, x):
        p = self.padding
        pads = pads_of(self.pad_mode, x.shape[2:], self.kernel_size, self.stride, self.dilation,
                       (p[0], p[0], p[1], p[1], p[2], p[2]))
        values = pool3d("MaxPool3d", x, "max", self.kernel_size, self.stride, self.dilation,
                        pads, self.ceil_mode)
        if not self.return_indices:
            return values
        return values, pool3d_indices(x, values, self.kernel_size, self.stride, self.dilation,
                                      pads, self.ceil_mode)

    def construct(self, x):
        if len(x.shape) == 4:               # one unbatched (C, D, H, W) sample
            out = self.pool(F.expand_dims(x, 0))
            if self.return_indices:
                return F.squeeze(out[0], 0), F.squeeze(out[1], 0)
            return F.squeeze(out, 0)
        return self.pool(x)


class AvgPool3d(Cell):
    """AvgPool3d(kernel_size=1, stride=1, pad_mode='valid', padding=0, ceil_mode=False,
    count_include_pad=True, divisor_override=None)"""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__()
        name = "AvgPool3d"
        mode = _pad_mode(name, pad_mode)
        if divisor_override is not None and divisor_override <= 0:
            raise ValueError(f"For '{name}', the 'divisor_override' must be > 0, but got "
                             f"{divisor_override}.")
        self.avg_pool = AvgPool3D(kernel_size, stride, mode, padding, ceil_mode,
                                  count_include_pad, divisor_override or 0)

    def construct(self, x):
        if len(x.shape) == 4:               # one unbatched (C, D, H, W) sample
            return F.squeeze(self.avg_pool(F.expand_dims(x, 0)), 0)
        return self.avg_pool(x)
