"""``nn.Conv2dBnAct``: ``Conv2d``, then (with ``has_bn``) ``BatchNorm2d``, then an activation.

The three cells MindSpore chains; ``activation`` is a name for
``refms.nn.get_activation`` (or a Cell), ``alpha`` the slope of a
'leakyrelu'.  MindSpore's defaults: ``weight_init='normal'``,
``bias_init='zeros'``, BatchNorm ``momentum=0.997``, ``eps=1e-5``.
"""
from ..cell import Cell
from .activation import get_activation
from .activation_piecewise import LeakyReLU
from .conv import Conv2d
from .normalization import BatchNorm2d

__all__ = ["Conv2dBnAct"]


class Conv2dBnAct(Cell):
    """Conv2dBnAct(in_channels, out_channels, kernel_size, stride=1, pad_mode='same', padding=0,
    dilation=1, group=1, has_bias=False, weight_init='normal', bias_init='zeros', has_bn=False,
    momentum=0.997, eps=1e-5, activation=None, alpha=0.2, after_fake=True)"""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init="normal",
                 bias_init="zeros", has_bn=False, momentum=0.997, eps=1e-5, activation=None,
                 alpha=0.2, after_fake=True):
        super().__init__()
        self.conv = Conv2d(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                           dilation, group, has_bias, weight_init, bias_init)
        self.has_bn = has_bn
        self.has_act = activation is not None
        self.batchnorm = BatchNorm2d(out_channels, eps, momentum) if has_bn else None
        if activation == "leakyrelu":
            self.activation = LeakyReLU(alpha)
        elif isinstance(activation, str):
            self.activation = get_activation(activation)
        else:
            self.activation = activation

    def construct(self, x):
        x = self.conv(x)
        if self.has_bn:
            x = self.batchnorm(x)
        if self.has_act:
            x = self.activation(x)
        return x
