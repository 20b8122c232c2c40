"""``nn.Conv2dBnAct`` and ``nn.DenseBnAct``: a linear layer, then (with ``has_bn``)
batch normalization, then an activation.

``Conv2dBnAct(x) = act(BatchNorm2d(Conv2d(x)))`` and
``DenseBnAct(x) = act(BatchNorm1d(Dense(x)))``, each stage present only when asked
for.  These are the cells MindSpore chains in ``mindspore/nn/layer/combined.py``
(used by the model zoo, e.g. Inception-v4's stem and its ``logsoftmax`` head).
``activation`` is a name for ``refms.nn.get_activation``, a Cell or a Primitive;
``'leakyrelu'`` takes its slope from ``alpha``.  ``after_fake`` is only stored (it
marks where quantization-aware training puts a fake-quant node).

Defaults differ between the two, as in MindSpore: Conv2dBnAct has no bias and
BatchNorm ``momentum=0.997``; DenseBnAct has a bias and ``momentum=0.9``.
"""
from ...ops.primitive import Primitive
from ..cell import Cell
from ._checks import check_bool
from .activation import get_activation
from .activation_piecewise import LeakyReLU
from .conv import Conv2d
from .dense import Dense
from .normalization import BatchNorm1d, BatchNorm2d

__all__ = ["Conv2dBnAct", "DenseBnAct"]


def _activation_cell(activation, alpha, cell_name):
    """The activation stage: None, LeakyReLU(alpha), a named activation, or the Cell/Primitive given."""
    if activation == "leakyrelu":
        return LeakyReLU(alpha)
    act = get_activation(activation) if isinstance(activation, str) else activation
    if activation is not None and not isinstance(act, (Cell, Primitive)):
        raise TypeError(f"For '{cell_name}', the 'activation' must be str or Cell or Primitive, "
                        f"but got {type(activation).__name__}.")
    return act


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
        self.has_bn = check_bool(has_bn, "has_bn", "Conv2dBnAct")
        self.has_act = activation is not None
        self.after_fake = check_bool(after_fake, "after_fake", "Conv2dBnAct")
        if has_bn:
            self.batchnorm = BatchNorm2d(out_channels, eps, momentum)
        self.activation = _activation_cell(activation, alpha, "Conv2dBnAct")

    def construct(self, x):
        x = self.conv(x)
        if self.has_bn:
            x = self.batchnorm(x)
        if self.has_act:
            x = self.activation(x)
        return x


class DenseBnAct(Cell):
    """DenseBnAct(in_channels, out_channels, weight_init='normal', bias_init='zeros',
    has_bias=True, has_bn=False, momentum=0.9, eps=1e-5, activation=None, alpha=0.2,
    after_fake=True)"""

    def __init__(self, in_channels, out_channels, weight_init="normal", bias_init="zeros",
                 has_bias=True, has_bn=False, momentum=0.9, eps=1e-5, activation=None,
                 alpha=0.2, after_fake=True):
        super().__init__()
        self.dense = Dense(in_channels, out_channels, weight_init, bias_init, has_bias)
        self.has_bn = check_bool(has_bn, "has_bn", "DenseBnAct")
        self.has_act = activation is not None
        self.after_fake = check_bool(after_fake, "after_fake", "DenseBnAct")
        if has_bn:
            self.batchnorm = BatchNorm1d(out_channels, eps, momentum)
        self.activation = _activation_cell(activation, alpha, "DenseBnAct")

    def construct(self, x):
        x = self.dense(x)
        if self.has_bn:
            x = self.batchnorm(x)
        if self.has_act:
            x = self.activation(x)
        return x
