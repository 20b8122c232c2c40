"""``nn.Conv3d``: 3-D cross-correlation of an (N, C, D, H, W) input, built from 2-D convolutions.

    out[:, :, od] = Σ_{kd} Conv2D(x_p[:, :, od·s_d + kd·d_d], w[:, :, kd])

— every output depth slice is a sum of 2-D convolutions of input depth
slices with the matching depth slice of the weight ``(out, in/group, kd, kh,
kw)``.  ``x_p`` is ``x`` zero-padded along depth; the height/width padding
is the 2-D convolution's own.  Padding (``pad_mode``): ``'same'`` (output
⌈size/stride⌉, the odd padded cell at the end), ``'valid'`` (none), ``'pad'``
(``padding`` = int or (head, tail, top, bottom, left, right)).  Gradients
and graph mode come from ``Conv2D``, ``GetItem`` and ``Stack``.
"""
import numpy as np

from ... import dtype as mstype
from ...initializer import initializer
from ...ops import functional as F
from ...ops.composites.padding import pad_axes
from ...ops.prims.conv import Conv2D, same_padding
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

    def _pads(self, sizes):
        if self.pad_mode == "valid":
            return ((0, 0),) * 3
        if self.pad_mode == "pad":
            p = self.padding6
            return (p[0], p[1]), (p[2], p[3]), (p[4], p[5])
        return tuple(same_padding(n, k, s, d) for n, k, s, d in
                     zip(sizes, self.kernel_size, self.stride, self.dilation))

    def construct(self, x):
        if len(x.shape) != 5 or x.shape[1] != self.in_channels:
            raise ValueError(f"For 'Conv3d', the input must have shape (N, {self.in_channels}, D, "
                             f"H, W), but got {tuple(x.shape)}.")
        (pd0, pd1), (ph0, ph1), (pw0, pw1) = self._pads(tuple(x.shape[2:]))
        if pd0 or pd1:
            x = pad_axes("Conv3d", x, ((0, 0), (0, 0), (pd0, pd1), (0, 0), (0, 0)))
        kd, kh, kw = self.kernel_size
        sd, sh, sw = self.stride
        dd, dh, dw = self.dilation
        depth = (x.shape[2] - dd * (kd - 1) - 1) // sd + 1
        if depth <= 0:
            raise ValueError(f"For 'Conv3d', the padded depth {x.shape[2]} is smaller than the "
                             f"dilated kernel depth {dd * (kd - 1) + 1}.")
        conv = Conv2D(out_channel=self.out_channels, kernel_size=(kh, kw), pad_mode="pad",
                      pad=(ph0, ph1, pw0, pw1), stride=(sh, sw), dilation=(dh, dw),
                      group=self.group)
        slices = []
        for od in range(depth):
            acc = None
            for k in range(kd):
                term = conv(x[:, :, od * sd + k * dd], self.weight[:, :, k])
                acc = term if acc is None else acc + term
            slices.append(acc)
        out = F.stack(slices, 2)
        if self.has_bias:
            out = out + F.reshape(self.bias, (1, -1, 1, 1, 1))
        return out
