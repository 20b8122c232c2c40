"""``nn.Conv2d``: 2-D cross-correlation of an (N, C_in, H, W) input (semantics 8.1).

    out[n, o] = bias[o] + Σ_c weight[o, c] ⋆ x[n, g(o)·C_in/group + c]

``weight`` has shape ``(out_channels, in_channels / group, kh, kw)``; ``bias``
(only with ``has_bias=True``, default False) ``(out_channels,)``.  Padding
(``pad_mode``): ``'same'`` (default; output ⌈H/stride⌉, the odd padded cell at
the bottom/right), ``'valid'`` (none), ``'pad'`` (``padding`` = int or
``(top, bottom, left, right)``).  The arithmetic is the ``ops.Conv2D``
primitive's; this layer holds the parameters and checks the input.

Default initialisation follows the compat version (``default_init``): 2.x
``HeUniform(√5)`` weight and ``Uniform(1/√fan_in)`` bias; r1.x ``'normal'``
and ``'zeros'``.
"""
import numpy as np

from ... import dtype as mstype
from ...initializer import initializer
from ...ops import functional as F
from ...ops.prims.conv import Conv2D
from ...parameter import Parameter
from ..cell import Cell
from ._checks import check_positive_int, check_non_negative_int, check_bool, check_int_or_pair
from ._defaults import default_weight_init, default_bias_init

__all__ = ["Conv2d"]


class Conv2d(Cell):
    """Conv2d(in_channels, out_channels, kernel_size, stride=1, pad_mode='same', padding=0,
    dilation=1, group=1, has_bias=False, weight_init=None, bias_init=None, data_format='NCHW',
    dtype=float32)"""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0,
                 dilation=1, group=1, has_bias=False, weight_init=None, bias_init=None,
                 data_format="NCHW", dtype=mstype.float32):
        super().__init__()
        name = self.cls_name
        self.in_channels = check_positive_int(in_channels, "in_channels", name)
        self.out_channels = check_positive_int(out_channels, "out_channels", name)
        self.kernel_size = check_int_or_pair(kernel_size, "kernel_size", name)
        self.stride = check_int_or_pair(stride, "stride", name)
        self.dilation = check_int_or_pair(dilation, "dilation", name)
        self.group = check_positive_int(group, "group", name)
        if in_channels % group or out_channels % group:
            raise ValueError(f"The argument 'group' should be divisible by 'in_channels' and "
                             f"'out_channels', but got group:{group}, in_channels:{in_channels}, "
                             f"out_channels:{out_channels}.")
        if pad_mode not in ("same", "valid", "pad"):
            raise ValueError(f"For '{name}', the 'pad_mode' must be one of ['same', 'valid', "
                             f"'pad'], but got {pad_mode!r}.")
        self.pad_mode = pad_mode
        if isinstance(padding, int) and not isinstance(padding, bool):
            check_non_negative_int(padding, "padding", name)
        elif isinstance(padding, tuple):
            for item in padding:
                check_non_negative_int(item, "padding item", name)
        else:
            raise TypeError(f"For '{name}', the type of 'padding' must be int or tuple(int), but "
                            f"got {type(padding).__name__}.")
        self.padding = padding
        if data_format != "NCHW":
            raise ValueError(f"For '{name}', the \"NHWC\" format only support in GPU target, but "
                             f"got the 'format' is {data_format} and the platform is CPU.")
        self.data_format = data_format
        self.has_bias = check_bool(has_bias, "has_bias", name)
        shape = (out_channels, in_channels // group) + self.kernel_size
        self.weight_init = default_weight_init() if weight_init is None else weight_init
        self.weight = Parameter(initializer(self.weight_init, shape, dtype), name="weight")
        self.bias_init = bias_init
        self.bias = None
        if has_bias:
            fan_in = int(np.prod(shape[1:]))
            if self.bias_init is None:
                self.bias_init = default_bias_init(fan_in)
            self.bias = Parameter(initializer(self.bias_init, [out_channels], dtype), name="bias")
        self.conv2d = Conv2D(out_channel=out_channels, kernel_size=self.kernel_size,
                             pad_mode=pad_mode, pad=padding, stride=self.stride,
                             dilation=self.dilation, group=group)

    def construct(self, x):
        if len(x.shape) != 4 or x.shape[1] != self.in_channels:
            raise RuntimeError(f"For '{self.cls_name}', the input must have shape (N, "
                               f"{self.in_channels}, H, W) (in_channels={self.in_channels}), but "
                               f"got input shape {tuple(x.shape)}; weight shape "
                               f"{tuple(self.weight.shape)}.")
        output = self.conv2d(x, self.weight)
        if self.has_bias:
            output = output + F.reshape(self.bias, (1, -1, 1, 1))
        return output

    def extend_repr(self):
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}, "
                f"padding={self.padding}, dilation={self.dilation}, group={self.group}, "
                f"has_bias={self.has_bias}, weight_init={self.weight_init}, "
                f"bias_init={self.bias_init}, format={self.data_format}")
