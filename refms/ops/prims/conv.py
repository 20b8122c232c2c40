"""2-D convolution: Conv2D and its two gradients, Conv2DBackpropInput and Conv2DBackpropFilter.

``ops.Conv2D(out_channel, kernel_size, mode=1, pad_mode="valid", pad=0,
stride=1, dilation=1, group=1, data_format="NCHW")(x, w)`` computes the
cross-correlation of x (N, C, H, W) with w (out_channel, C/group, kh, kw).

Padding (semantics 8.1, [ran 2.10]):

* ``'valid'``: none;  OH = ⌊(H − dh·(kh − 1) − 1) / sh⌋ + 1.
* ``'same'``:  OH = ⌈H / sh⌉; total = max((OH − 1)·sh + dh·(kh − 1) + 1 − H, 0),
  ⌊total/2⌋ on top, the rest (the odd one) at the bottom; likewise left/right.
* ``'pad'``:   ``pad`` = int or (top, bottom, left, right).

The three primitives are linear maps and each other's adjoints, so every
bprop is one of the three again: gradients of any order stay convolutions.
"""
import numpy as np

from ... import kernels
from ..._tensor import Tensor
from .. import batching
from ..primitive import (F, Primitive, Abstract, register, functional, op_error,
                         input_grad_wanted)
from ._base import FLOATS, shape_str


def conv_output_size(size, kernel, stride, pad_before, pad_after, dilation=1):
    """⌊(size + pads − dilation·(kernel − 1) − 1) / stride⌋ + 1 (−1 stays unknown)."""
    if size == -1:
        return -1
    return (size + pad_before + pad_after - dilation * (kernel - 1) - 1) // stride + 1


def same_padding(size, kernel, stride, dilation=1):
    """(before, after) padding for 'same': output ⌈size/stride⌉, the odd cell after (semantics 8.1)."""
    out = -(-size // stride)
    total = max((out - 1) * stride + dilation * (kernel - 1) + 1 - size, 0)
    return total // 2, total - total // 2


def positive_pair(op, name, value, allow_four=False):
    """int, (h, w) or — where MindSpore allows it — (1, 1, h, w) as the pair (h, w)."""
    if isinstance(value, list):
        value = tuple(value)
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        value = (int(value), int(value))
    ok = isinstance(value, tuple) and all(isinstance(v, (int, np.integer)) and
                                          not isinstance(v, bool) and v > 0 for v in value)
    if ok and allow_four and len(value) == 4:
        value = value[2:]
    if not ok or len(value) != 2:
        allowed = "two or four" if allow_four else "two"
        raise op_error(op, f"attr '{name}' must be an positive int number or a tuple of {allowed} "
                           f"positive int numbers, but got {value!r}.", ValueError)
    return int(value[0]), int(value[1])


def _pad_tuple(op, pad):
    if isinstance(pad, (int, np.integer)) and not isinstance(pad, bool):
        pad = (int(pad),) * 4
    if not isinstance(pad, (tuple, list)):
        raise op_error(op, f"the type of 'pad' should be one of '['int', 'tuple']', but got type "
                           f"'{type(pad).__name__}'.")
    if len(pad) != 4:
        raise op_error(op, f"the 'pad size' must be int and must = 4, but got '{len(pad)}'.",
                       ValueError)
    for item in pad:
        if isinstance(item, bool) or not isinstance(item, (int, np.integer)) or item < 0:
            raise op_error(op, f"the 'pad item' must be int and must >= 0, but got '{item}'.",
                           ValueError)
    return tuple(int(p) for p in pad)


class _Conv2DAttrs(Primitive):
    """The attributes the three convolution primitives share, checked as MindSpore does."""

    def _init_conv(self, out_channel, kernel_size, mode, pad_mode, pad, stride, dilation, group,
                   data_format):
        op = type(self).__name__
        if isinstance(out_channel, bool) or not isinstance(out_channel, (int, np.integer)) \
                or out_channel <= 0:
            raise op_error(op, f"the 'out_channel' must be a positive int, but got {out_channel!r}.",
                           ValueError)
        if mode != 1:
            raise op_error(op, f"the 'mode' must be int and must = 1, but got '{mode}'.", ValueError)
        if pad_mode not in ("valid", "same", "pad"):
            raise op_error(op, f"the 'pad_mode' must be str and must be in '['valid', 'same', "
                               f"'pad']', but got '{pad_mode}'.", ValueError)
        pad = _pad_tuple(op, pad)
        if pad_mode != "pad" and pad != (0, 0, 0, 0):
            raise op_error(op, f"the 'pad' must be zero when 'pad_mode' is not 'pad', but got "
                               f"'pad': {pad} and 'pad_mode': {pad_mode}.", ValueError)
        if isinstance(group, bool) or not isinstance(group, (int, np.integer)) or group <= 0:
            raise op_error(op, f"the 'group' must be a positive int, but got {group!r}.", ValueError)
        if data_format != "NCHW":
            raise op_error(op, f"the 'data_format' must be 'NCHW' (refms runs on CPU; 'NHWC' is "
                               f"only supported in GPU target), but got {data_format!r}.",
                           ValueError)
        self.out_channel = int(out_channel)
        self.kernel_size = positive_pair(op, "kernel_size", kernel_size)
        self.mode = 1
        self.pad_mode = pad_mode
        self.pad = pad
        self.stride = (1, 1) + positive_pair(op, "stride", stride, allow_four=True)
        self.dilation = (1, 1) + positive_pair(op, "dilation", dilation, allow_four=True)
        self.group = int(group)
        self.data_format = data_format
        self.groups = int(group)

    def conv_attrs(self):
        """Keyword arguments that rebuild the same convolution in another of the three primitives."""
        return dict(out_channel=self.out_channel, kernel_size=self.kernel_size,
                    pad_mode=self.pad_mode, pad=self.pad, stride=self.stride,
                    dilation=self.dilation, group=self.group)

    def pads(self, x_shape):
        """(top, bottom, left, right) for an input of shape ``x_shape``."""
        if self.pad_mode == "pad":
            return self.pad
        if self.pad_mode == "valid" or -1 in x_shape[2:]:
            return (0, 0, 0, 0)
        (kh, kw), (sh, sw), (dh, dw) = self.kernel_size, self.stride[2:], self.dilation[2:]
        return same_padding(x_shape[2], kh, sh, dh) + same_padding(x_shape[3], kw, sw, dw)

    def output_hw(self, x_shape):
        """(OH, OW) of the convolution of an input of shape ``x_shape``, checked to be positive."""
        top, bottom, left, right = self.pads(x_shape)
        (kh, kw), (sh, sw), (dh, dw) = self.kernel_size, self.stride[2:], self.dilation[2:]
        oh = conv_output_size(x_shape[2], kh, sh, top, bottom, dh)
        ow = conv_output_size(x_shape[3], kw, sw, left, right, dw)
        if oh == 0 or ow == 0 or oh < -1 or ow < -1:
            raise op_error(self.name, f"input shape's h and w after padding must be greater than or "
                                      f"equal to kernel_size's h and w (dilated) respectively, but "
                                      f"got x shape {shape_str(x_shape)}, pad {(top, bottom, left, right)}, "
                                      f"kernel_size {self.kernel_size}, dilation {self.dilation[2:]}.",
                           ValueError)
        return oh, ow

    def kernel_args(self, x_shape):
        return self.stride[2:], self.pads(x_shape), self.dilation[2:], self.group

    def check_weight(self, x_channels, w, w_name="w"):
        """The weight's shape against out_channel, kernel_size, group and the input channels."""
        op = self.name
        if len(w.shape) != 4:
            raise op_error(op, f"the {w_name} shape size must be equal to 4, but got "
                               f"{len(w.shape)} ({w_name} shape {shape_str(w.shape)}).", ValueError)
        if w.shape[0] != self.out_channel:
            raise op_error(op, f"'w_shape[0]' must be equal to 'out_channel', but got 'w_shape[0]': "
                               f"{w.shape[0]}, 'out_channel': {self.out_channel}.", RuntimeError)
        for i in (0, 1):
            if w.shape[2 + i] != self.kernel_size[i]:
                raise op_error(op, f"'w_shape[{2 + i}]' must be equal to 'kernel_size[{i}]', but got "
                                   f"'w_shape[{2 + i}]': {w.shape[2 + i]}, 'kernel_size[{i}]': "
                                   f"{self.kernel_size[i]}.", RuntimeError)
        if self.out_channel % self.group:
            raise op_error(op, f"'out_channel' {self.out_channel} must be divisible by 'group' "
                               f"{self.group}.", ValueError)
        if x_channels != -1 and (x_channels % self.group or x_channels // self.group != w.shape[1]):
            raise op_error(op, f"'C_in' of input 'x' shape divide by parameter 'group' must be equal "
                               f"to 'C_in' of input 'weight' shape: {w.shape[1]}, but got 'C_in' of "
                               f"input 'x' shape: {x_channels}, and 'group': {self.group}.",
                           RuntimeError)


def _check_inputs(op, named):
    """Rank-4 float tensors of one dtype: ``named`` is [(name, abstract), ...]."""
    for name, value in named:
        if len(value.shape) != 4:
            raise op_error(op, f"the {name} shape size must be equal to 4, but got "
                               f"{len(value.shape)} ({name} shape {shape_str(value.shape)}).",
                           ValueError)
        if value.dtype not in FLOATS:
            raise op_error(op, f"the input argument[{name}] must be a type of {{Tensor[Float16], "
                               f"Tensor[Float32], Tensor[Float64]}}, but got Tensor[{value.dtype}].")
    first_name, first = named[0]
    for name, value in named[1:]:
        if value.dtype is not first.dtype:
            raise op_error(op, f"the input type must be same, but got '{first_name}' "
                               f"Tensor[{first.dtype}] and '{name}' Tensor[{value.dtype}].")


def _shape4(op, name, value):
    shape = tuple(int(d) for d in value) if isinstance(value, (tuple, list)) else None
    if shape is None or len(shape) != 4:
        raise op_error(op, f"the '{name}' should be a tuple of 4 ints, but got {value!r}.",
                       ValueError)
    return shape


@register
class Conv2D(_Conv2DAttrs):
    """y[n, o] = Σ_c w[o, c] ⋆ x_pad[n, g·C/group + c]  (cross-correlation, grouped).

    dx = Conv2DBackpropInput(dy, w, x.shape);  dw = Conv2DBackpropFilter(dy, x, w.shape).
    """
    n_tensor_inputs = 2

    def __init__(self, out_channel, kernel_size, mode=1, pad_mode="valid", pad=0, stride=1,
                 dilation=1, group=1, data_format="NCHW"):
        self._init_conv(out_channel, kernel_size, mode, pad_mode, pad, stride, dilation, group,
                        data_format)

    def infer(self, x, w):
        _check_inputs("Conv2D", [("x", x), ("w", w)])
        self.check_weight(x.shape[1], w)
        return Abstract((x.shape[0], self.out_channel) + self.output_hw(x.shape), x.dtype)

    def batch(self, batched, x, w):
        """vmap over the images only: the batch folds into N (a shared filter); a batched
        filter runs per example."""
        if batched[1]:
            return NotImplemented
        return batching.merge_batch(self, x, w)

    def forward(self, x, w):
        return kernels.call("conv2d")(x, w, *self.kernel_args(x.shape))

    def bprop(self, x, w, out, dout):
        attrs = self.conv_attrs()
        dx = None
        if input_grad_wanted(self, 0):          # not for a network's data, in PyNative
            dx = Conv2DBackpropInput(**attrs)(dout, w, tuple(x.shape))
        dw = None
        if input_grad_wanted(self, 1):
            dw = Conv2DBackpropFilter(**attrs)(dout, x, tuple(w.shape))
        return dx, dw


@register
class Conv2DBackpropInput(_Conv2DAttrs):
    """dx = Convᵀ_w(dy): the adjoint of Conv2D in x.  Inputs ``(dout, w, input_size)``.

    Its own bprop: d(dout) = Conv2D(ddx, w);  dw = Conv2DBackpropFilter(dout, ddx, w.shape).
    """
    n_tensor_inputs = 2

    def __init__(self, out_channel, kernel_size, pad_mode="valid", pad=0, pad_list=None, mode=1,
                 stride=1, dilation=1, group=1, data_format="NCHW"):
        self._init_conv(out_channel, kernel_size, mode, pad_mode, pad, stride, dilation, group,
                        data_format)

    def infer(self, dout, w, input_size):
        _check_inputs(self.name, [("out_backprop", dout), ("filter", w)])
        x_shape = _shape4(self.name, "input_size", input_size)
        self.check_weight(x_shape[1], w, "filter")
        expected = (x_shape[0], self.out_channel) + self.output_hw(x_shape)
        if tuple(dout.shape) != expected:
            raise op_error(self.name, f"the shape of 'out_backprop' should be {shape_str(expected)} "
                                      f"for input_size {shape_str(x_shape)}, but got "
                                      f"{shape_str(dout.shape)}.", ValueError)
        return Abstract(x_shape, dout.dtype)

    def batch(self, batched, dout, w, input_size):
        """vmap over dout with a shared filter: the batch folds into N (and into input_size)."""
        if batched[1]:
            return NotImplemented
        shape = tuple(dout.shape)
        folded = F.reshape(dout, (shape[0] * shape[1],) + shape[2:])
        size = tuple(input_size)
        out = self(folded, w, (shape[0] * size[0],) + size[1:])
        return F.reshape(out, shape[:1] + size)

    def forward(self, dout, w, input_size):
        x_shape = tuple(input_size)
        return kernels.call("conv2d_backprop_input")(dout, w, x_shape, *self.kernel_args(x_shape))

    def bprop(self, dout, w, input_size, out, ddx):
        attrs = self.conv_attrs()
        d_dout = Conv2D(**attrs)(ddx, w)
        dw = Conv2DBackpropFilter(**attrs)(dout, ddx, tuple(w.shape))
        return d_dout, dw, None


@register
class Conv2DBackpropFilter(_Conv2DAttrs):
    """dw = Σₙ dy ⋆ x: the adjoint of Conv2D in w.  Inputs ``(dout, x, filter_size)``.

    Its own bprop: d(dout) = Conv2D(x, ddw);  dx = Conv2DBackpropInput(dout, ddw, x.shape).
    """
    n_tensor_inputs = 2

    def __init__(self, out_channel, kernel_size, pad_mode="valid", pad=0, pad_list=(0, 0, 0, 0),
                 mode=1, stride=(1, 1), dilation=(1, 1, 1, 1), group=1, data_format="NCHW"):
        self._init_conv(out_channel, kernel_size, mode, pad_mode, pad, stride, dilation, group,
                        data_format)

    def infer(self, dout, x, filter_size):
        _check_inputs(self.name, [("out_backprop", dout), ("input", x)])
        w_shape = _shape4(self.name, "filter_size", filter_size)
        self.check_weight(x.shape[1], Abstract(w_shape, x.dtype), "filter")
        expected = (x.shape[0], self.out_channel) + self.output_hw(x.shape)
        if tuple(dout.shape) != expected:
            raise op_error(self.name, f"the shape of 'out_backprop' should be {shape_str(expected)} "
                                      f"for input shape {shape_str(x.shape)}, but got "
                                      f"{shape_str(dout.shape)}.", ValueError)
        return Abstract(w_shape, dout.dtype)

    def forward(self, dout, x, filter_size):
        w_shape = tuple(filter_size)
        return kernels.call("conv2d_backprop_filter")(dout, x, w_shape, *self.kernel_args(x.shape))

    def bprop(self, dout, x, filter_size, out, ddw):
        attrs = self.conv_attrs()
        d_dout = Conv2D(**attrs)(x, ddw)
        dx = Conv2DBackpropInput(**attrs)(dout, ddw, tuple(x.shape))
        return d_dout, dx, None


def conv2d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1, groups=1):
    """ops.conv2d: Conv2D with out_channel and kernel_size read from ``weight``, plus an optional bias.

    ``padding`` is an int or a pair (h, w) applied on both sides (``pad_mode='pad'`` only).
    """
    if isinstance(padding, (tuple, list)):
        if len(padding) != 2:
            raise ValueError(f"For 'conv2d', 'padding' must be a tuple or list of 2 integers, but "
                             f"got {tuple(padding)}.")
        padding = (padding[0], padding[0], padding[1], padding[1])
    out_channel, in_channel = weight.shape[0], input.shape[1]
    if in_channel % groups or out_channel % groups:
        raise ValueError(f"The argument 'groups' should be divisible by 'in_channel' and "
                         f"'out_channel', but got group:{groups}, in_channel:{in_channel}, "
                         f"out_channel:{out_channel}.")
    conv = Conv2D(out_channel, tuple(weight.shape[2:4]), 1, pad_mode, padding, stride, dilation,
                  groups)
    out = conv(input, weight)
    if bias is None:
        return out
    if not isinstance(bias, Tensor):
        raise TypeError(f"For 'conv2d', the 'bias' must be a Tensor, but got {type(bias)}.")
    if len(bias.shape) != 1 or bias.shape[0] != out_channel:
        raise ValueError(f"For 'conv2d', Given weight of size {tuple(weight.shape)}, expected bias "
                         f"to be 1-dimensional with {out_channel} elements, but got bias of size "
                         f"{tuple(bias.shape)} instead.")
    return out + F.reshape(bias, (1, out_channel, 1, 1))


functional("conv2d", conv2d)
