"""``nn.Conv3d``: 3-D cross-correlation of an (N, C, D, H, W) input, built from 2-D convolutions
(``refms.ops.composites.conv3d`` says how).  Padding (``pad_mode``): ``'same'`` (output
⌈size/stride⌉, the odd padded cell at the end), ``'valid'`` (none), ``'pad'``
(``padding`` = int or (head, tail, top, bottom, left, right)).
"""
import numpy as np

from ... import dtype as mstype
from ...initializer import initializer
from ...ops.composites.conv3d import conv3d_slices, pads_for
from ...parameter import Parameter
from ..cell import Cell
from ._checks import check_positive_int, check_non_negative_int, check_bool
from ._defaults import default_weight_init, default_bias_init

__all__ = ["Conv3d"]


def _triple(value, name):
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,) * 3
    if not isinstance(value, tuple) or len(value) != 3 or not all(
            isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value):
        raise ValueError(f"For 'Conv3d', the '{name}' should be a positive int or a tuple of "
                         f"three positive ints, but got {value!r}.")
    return value


class Conv3d(Cell):
    """Conv3d(in_channels, out_channels, kernel_size, stride=1, pad_mode='same', padding=0,
    dilation=1, group=1, has_bias=False, weight_init=None, bias_init=None, data_format='NCDHW',
    dtype=float32)"""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, data_format="NCDHW", dtype=mstype.float32):
        super().__init__()
        check_positive_int(in_channels, "in_channels", "Conv3d")
        check_positive_int(out_channels, "out_channels", "Conv3d")
        check_positive_int(group, "group", "Conv3d")
        if in_channels % group or out_channels % group:
            raise ValueError(f"The argument 'group' should be divisible by 'in_channels' and "
                             f"'out_channels', but got group:{group}, in_channels:{in_channels}, "
                             f"out_channels:{out_channels}.")
        if pad_mode not in ("same", "valid", "pad"):
            raise ValueError(f"For 'Conv3d', the 'pad_mode' must be one of ['same', 'valid', "
                             f"'pad'], but got {pad_mode!r}.")
        if data_format != "NCDHW":
            raise ValueError(f"For 'Conv3d', only 'NCDHW' is supported, but got {data_format!r}.")
        if isinstance(padding, int) and not isinstance(padding, bool):
            check_non_negative_int(padding, "padding", "Conv3d")
            padding6 = (padding,) * 6
        elif isinstance(padding, tuple) and len(padding) == 6:
            for p in padding:
                check_non_negative_int(p, "padding", "Conv3d")
            padding6 = padding
        else:
            raise TypeError(f"For 'Conv3d', the 'padding' must be int or a tuple of 6 ints, but "
                            f"got {padding!r}.")
        self.in_channels, self.out_channels, self.group = in_channels, out_channels, group
        self.kernel_size = _triple(kernel_size, "kernel_size")
        self.stride = _triple(stride, "stride")
        self.dilation = _triple(dilation, "dilation")
        self.pad_mode, self.padding, self.padding6 = pad_mode, padding, padding6
        self.data_format = data_format
        self.has_bias = check_bool(has_bias, "has_bias", "Conv3d")
        shape = (out_channels, in_channels // group) + self.kernel_size
        self.weight_init = default_weight_init() if weight_init is None else weight_init
        self.weight = Parameter(initializer(self.weight_init, shape, dtype), name="weight")
        self.bias_init, self.bias = bias_init, None
        if has_bias:
            if self.bias_init is None:
                self.bias_init = default_bias_init(int(np.prod(shape[1:])))
            self.bias = Parameter(initializer(self.bias_init, [out_channels], dtype), name="bias")

    def construct(self, x):
        if len(x.shape) != 5 or x.shape[1] != self.in_channels:
            raise ValueError(f"For 'Conv3d', the input must have shape (N, {self.in_channels}, D, "
                             f"H, W), but got {tuple(x.shape)}.")
        pads = pads_for(self.pad_mode, tuple(x.shape[2:]), self.kernel_size, self.stride,
                        self.dilation, self.padding6)
        return conv3d_slices("Conv3d", x, self.weight, self.bias, pads, self.stride,
                             self.dilation, self.group)
