"""``nn.Conv1d`` and ``nn.Conv2dTranspose``: built on the 2-D convolution primitives.

``Conv1d`` is MindSpore's own construction: the input (N, C, L) becomes
(N, C, 1, L), the weight has shape ``(out, in/group, 1, k)``, ``Conv2D``
runs with kernel (1, k), and the height axis is dropped again.

``Conv2dTranspose`` (the adjoint of a convolution — "deconvolution") is
``Conv2DBackpropInput`` with the weight ``(in_channels, out_channels/group,
kh, kw)``.  Its output size per axis, with ``k' = d·(k − 1) + 1``:

* ``'same'``: ``H·s``;
* ``'valid'``: ``H·s + max(k' − s, 0)``;
* ``'pad'``: ``H·s − (pad_before + pad_after) + k' − s``.
"""
import numpy as np

from ... import dtype as mstype
from ...initializer import initializer
from ...ops import functional as F
from ...ops.prims.conv import Conv2D, Conv2DBackpropInput
from ...parameter import Parameter
from ..cell import Cell
from ._checks import check_positive_int, check_non_negative_int, check_bool, check_int_or_pair
from ._defaults import default_weight_init, default_bias_init

__all__ = ["Conv1d", "Conv2dTranspose"]


def _check_common(name, in_channels, out_channels, group, pad_mode):
    check_positive_int(in_channels, "in_channels", name)
    check_positive_int(out_channels, "out_channels", name)
    check_positive_int(group, "group", name)
    if in_channels % group or out_channels % group:
        raise ValueError(f"The argument 'group' should be divisible by 'in_channels' and "
                         f"'out_channels', but got group:{group}, in_channels:{in_channels}, "
                         f"out_channels:{out_channels}.")
    if pad_mode not in ("same", "valid", "pad"):
        raise ValueError(f"For '{name}', the 'pad_mode' must be one of ['same', 'valid', 'pad'], "
                         f"but got {pad_mode!r}.")


def _bias(cell, has_bias, bias_init, fan_in, channels, dtype):
    cell.has_bias = check_bool(has_bias, "has_bias", cell.cls_name)
    cell.bias_init = bias_init
    cell.bias = None
    if has_bias:
        if cell.bias_init is None:
            cell.bias_init = default_bias_init(fan_in)
        cell.bias = Parameter(initializer(cell.bias_init, [channels], dtype), name="bias")


class Conv1d(Cell):
    """Conv1d(in_channels, out_channels, kernel_size, stride=1, pad_mode='same', padding=0,
    dilation=1, group=1, has_bias=False, weight_init=None, bias_init=None, dtype=float32)"""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, dtype=mstype.float32):
        super().__init__()
        name = self.cls_name
        _check_common(name, in_channels, out_channels, group, pad_mode)
        for value, arg in ((kernel_size, "kernel_size"), (stride, "stride"),
                           (dilation, "dilation")):
            check_positive_int(value, arg, name)
        check_non_negative_int(padding, "padding", name)
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride, self.dilation = kernel_size, stride, dilation
        self.pad_mode, self.padding, self.group = pad_mode, padding, group
        shape = (out_channels, in_channels // group, 1, kernel_size)
        self.weight_init = default_weight_init() if weight_init is None else weight_init
        self.weight = Parameter(initializer(self.weight_init, shape, dtype), name="weight")
        _bias(self, has_bias, bias_init, int(np.prod(shape[1:])), out_channels, dtype)
        self.conv2d = Conv2D(out_channel=out_channels, kernel_size=(1, kernel_size),
                             pad_mode=pad_mode, pad=(0, 0, padding, padding),
                             stride=(1, stride), dilation=(1, dilation), group=group)

    def construct(self, x):
        if len(x.shape) != 3 or x.shape[1] != self.in_channels:
            raise ValueError(f"For 'Conv1d', the input must have shape (N, {self.in_channels}, "
                             f"L), but got {tuple(x.shape)}.")
        out = F.squeeze(self.conv2d(F.expand_dims(x, 2), self.weight), 2)
        if self.has_bias:
            out = out + F.reshape(self.bias, (1, -1, 1))
        return out


def _deconv_length(size, kernel, stride, dilation, pad_mode, pad_total):
    span = dilation * (kernel - 1) + 1
    if pad_mode == "same":
        return size * stride
    if pad_mode == "valid":
        return size * stride + max(span - stride, 0)
    return size * stride - pad_total + span - stride


class Conv2dTranspose(Cell):
    """Conv2dTranspose(in_channels, out_channels, kernel_size, stride=1, pad_mode='same',
    padding=0, output_padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
    bias_init=None, dtype=float32)"""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, output_padding=0, dilation=1, group=1, has_bias=False,
                 weight_init=None, bias_init=None, dtype=mstype.float32):
        super().__init__()
        name = self.cls_name
        _check_common(name, in_channels, out_channels, group, pad_mode)
        self.kernel_size = check_int_or_pair(kernel_size, "kernel_size", name)
        self.stride = check_int_or_pair(stride, "stride", name)
        self.dilation = check_int_or_pair(dilation, "dilation", name)
        if isinstance(padding, int) and not isinstance(padding, bool):
            check_non_negative_int(padding, "padding", name)
            pads = (padding,) * 4
        elif isinstance(padding, tuple) and len(padding) == 4:
            pads = padding
        else:
            raise TypeError(f"For '{name}', the 'padding' must be int or a tuple of 4 ints, but "
                            f"got {padding!r}.")
        if output_padding != 0:
            raise ValueError(f"For '{name}', refms implements output_padding=0 only, but got "
                             f"{output_padding!r}.")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.pad_mode, self.padding, self.pads, self.group = pad_mode, padding, pads, group
        shape = (in_channels, out_channels // group) + self.kernel_size
        self.weight_init = default_weight_init() if weight_init is None else weight_init
        self.weight = Parameter(initializer(self.weight_init, shape, dtype), name="weight")
        _bias(self, has_bias, bias_init, int(np.prod(shape[1:])), out_channels, dtype)
        self.deconv = Conv2DBackpropInput(out_channel=in_channels, kernel_size=self.kernel_size,
                                          pad_mode=pad_mode, pad=pads, stride=self.stride,
                                          dilation=self.dilation, group=group)

    def construct(self, x):
        if len(x.shape) != 4 or x.shape[1] != self.in_channels:
            raise ValueError(f"For 'Conv2dTranspose', the input must have shape (N, "
                             f"{self.in_channels}, H, W), but got {tuple(x.shape)}.")
        n, _, h, w = x.shape
        out_h = _deconv_length(h, self.kernel_size[0], self.stride[0], self.dilation[0],
                               self.pad_mode, self.pads[0] + self.pads[1])
        out_w = _deconv_length(w, self.kernel_size[1], self.stride[1], self.dilation[1],
                               self.pad_mode, self.pads[2] + self.pads[3])
        out = self.deconv(x, self.weight, (n, self.out_channels, out_h, out_w))
        if self.has_bias:
            out = out + F.reshape(self.bias, (1, -1, 1, 1))
        return out
