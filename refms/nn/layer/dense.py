"""``nn.Dense``: the fully connected layer y = activation(x · Wᵀ + b) (semantics 8.2).

W has shape ``(out_channels, in_channels)`` and b ``(out_channels,)``.  Inputs
with more than two axes are flattened to ``(-1, in_channels)`` and reshaped
back, as in MindSpore ``nn/layer/basic.py``.

Default initialisation depends on the compat version (``default_init``):
2.x uses ``HeUniform(√5)`` for W (= U(±1/√in_channels)) and
``Uniform(1/√in_channels)`` for b; r1.x used ``Normal(σ=0.01)`` and zeros.
Each random initializer consumes one numpy draw (semantics 2.4).

``nn.Linear(in_features, out_features, bias=True)`` (MindSpore 2.3+) is the same
map with the 2.x initialisation always, PyTorch's argument names and a ``bias``
flag; it prints ``input_features=…, output_features=…`` like Dense.
"""
import math

from ... import dtype as mstype
from ...initializer import initializer, HeUniform, Uniform
from ...ops import functional as F
from ...ops.prims.matmul import MatMul
from ...ops.primitive import Primitive
from ...parameter import Parameter
from ..._tensor import Tensor
from ..cell import Cell
from ._checks import check_positive_int, check_bool
from ._defaults import default_weight_init, default_bias_init
from .activation import get_activation

__all__ = ["Dense", "Linear"]


class Dense(Cell):
    """Dense(in_channels, out_channels, weight_init=None, bias_init=None, has_bias=True, activation=None, dtype=float32)"""

    def __init__(self, in_channels, out_channels, weight_init=None, bias_init=None, has_bias=True,
                 activation=None, dtype=mstype.float32):
        super().__init__()
        self.in_channels = check_positive_int(in_channels, "in_channels", self.cls_name)
        self.out_channels = check_positive_int(out_channels, "out_channels", self.cls_name)
        self.has_bias = check_bool(has_bias, "has_bias", self.cls_name)
        if isinstance(weight_init, Tensor) and tuple(weight_init.shape) != (out_channels, in_channels):
            raise ValueError(f"For '{self.cls_name}', weight init shape error. The ndim of "
                             f"'weight_init' must be equal to 2, and the first dim must be equal to "
                             f"'out_channels', and the second dim must be equal to 'in_channels'. "
                             f"But got 'weight_init' shape {tuple(weight_init.shape)}, "
                             f"'out_channels': {out_channels}, 'in_channels': {in_channels}.")
        if weight_init is None:
            weight_init = default_weight_init()
        self.weight = Parameter(initializer(weight_init, [out_channels, in_channels], dtype),
                                name="weight")
        self.bias = None
        if self.has_bias:
            if isinstance(bias_init, Tensor) and tuple(bias_init.shape) != (out_channels,):
                raise ValueError(f"For '{self.cls_name}', bias init shape error. The ndim of "
                                 f"'bias_init' must be equal to 1, and the first dim must be equal "
                                 f"to 'out_channels'. But got 'bias_init' shape "
                                 f"{tuple(bias_init.shape)}, 'out_channels': {out_channels}.")
            if bias_init is None:
                bias_init = default_bias_init(in_channels)
            self.bias = Parameter(initializer(bias_init, [out_channels], dtype), name="bias")
        self.matmul = MatMul(transpose_b=True)
        self.activation = get_activation(activation) if isinstance(activation, str) else activation
        if activation is not None and not isinstance(self.activation, (Cell, Primitive)):
            raise TypeError(f"For '{self.cls_name}', the 'activation' must be str or Cell or "
                            f"Primitive, but got {type(activation).__name__}.")
        self.activation_flag = self.activation is not None

    def construct(self, x):
        x_shape = x.shape
        if len(x_shape) < 1 or x_shape[-1] != self.in_channels:
            raise ValueError(f"For '{self.cls_name}', the last dimension of the input must equal "
                             f"in_channels={self.in_channels}, but got input shape {tuple(x_shape)}.")
        if len(x_shape) != 2:
            x = F.reshape(x, (-1, x_shape[-1]))
        x = self.matmul(x, self.weight)
        if self.has_bias:
            x = x + self.bias
        if self.activation_flag:
            x = self.activation(x)
        if len(x_shape) != 2:
            x = F.reshape(x, tuple(x_shape[:-1]) + (self.out_channels,))
        return x

    def extend_repr(self):
        s = f"input_channels={self.in_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        if self.activation_flag:
            s += f", activation={self.activation}"
        return s


class Linear(Cell):
    """Linear(in_features, out_features, bias=True, weight_init=None, bias_init=None, dtype=None)"""

    def __init__(self, in_features, out_features, bias=True, weight_init=None, bias_init=None,
                 dtype=None):
        super().__init__()
        self.in_features = check_positive_int(in_features, "in_features", self.cls_name)
        self.out_features = check_positive_int(out_features, "out_features", self.cls_name)
        self.has_bias = check_bool(bias, "has_bias", self.cls_name)
        dtype = mstype.float32 if dtype is None else dtype
        if isinstance(weight_init, Tensor) and tuple(weight_init.shape) != (out_features,
                                                                           in_features):
            raise ValueError(f"For '{self.cls_name}', weight init shape error. The ndim of "
                             f"'weight_init' must be equal to 2, and the first dim must be equal "
                             f"to 'out_features', and the second dim must be equal to "
                             f"'in_features'. But got 'weight_init': {weight_init}, "
                             f"'out_features': {out_features}, 'in_features': {in_features}.")
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(initializer(weight_init, [out_features, in_features], dtype),
                                name="weight")
        self.bias = None
        if self.has_bias:
            if isinstance(bias_init, Tensor) and tuple(bias_init.shape) != (out_features,):
                raise ValueError(f"For '{self.cls_name}', bias init shape error. The ndim of "
                                 f"'bias_init' must be equal to 1, and the first dim must be "
                                 f"equal to 'out_features'. But got 'bias_init': {bias_init}, "
                                 f"'out_features': {out_features}.")
            if bias_init is None:
                bias_init = Uniform(scale=1 / math.sqrt(in_features))
            self.bias = Parameter(initializer(bias_init, [out_features], dtype), name="bias")

    def construct(self, x):
        """y = x · Wᵀ + b over the last axis of an input of any rank ≥ 1."""
        y = F.matmul(x, F.transpose(self.weight, (1, 0)))
        if self.has_bias:
            y = y + self.bias
        return y

    def extend_repr(self):
        s = f"input_features={self.in_features}, output_features={self.out_features}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        return s
