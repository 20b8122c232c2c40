"""``nn.LeakyReLU``, ``nn.ReLU6`` and ``nn.PReLU``: piecewise-linear activations as Cells.

The arithmetic is :mod:`refms.ops.composites.activations`; ``PReLU`` holds its
slopes ``w`` as a Parameter of shape ``(channel,)`` initialised to ``w``
(MindSpore's default 0.25), one slope per channel of axis 1.
"""
import numbers

from ... import dtype as mstype
from ..._tensor import Tensor
from ...ops.composites.activations import leaky_relu, relu6, prelu
from ...parameter import Parameter
from ..cell import Cell
from ._checks import check_positive_int

__all__ = ["LeakyReLU", "ReLU6", "PReLU"]


class LeakyReLU(Cell):
    """LeakyReLU(alpha=0.2): x for x > 0, alpha·x otherwise."""

    def __init__(self, alpha=0.2):
        super().__init__()
        if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real):
            raise TypeError(f"For 'LeakyReLU', the 'alpha' should be float or int, but got "
                            f"{type(alpha).__name__}.")
        self.alpha = alpha

    def construct(self, x):
        return leaky_relu(x, self.alpha)


class ReLU6(Cell):
    """ReLU6(): min(max(x, 0), 6)."""

    def construct(self, x):
        return relu6(x)


class PReLU(Cell):
    """PReLU(channel=1, w=0.25): x for x > 0, w_c·x otherwise, with learnable slopes w."""

    def __init__(self, channel=1, w=0.25):
        super().__init__()
        check_positive_int(channel, "channel", "PReLU")
        if isinstance(w, (int, float)) and not isinstance(w, bool):
            w = Tensor([float(w)] * channel, mstype.float32)
        elif isinstance(w, Tensor):
            if len(w.shape) != 1 or w.shape[0] != channel:
                raise ValueError(f"For 'PReLU', the 'w' Tensor should be 1-D of length "
                                 f"'channel' ({channel}), but got shape {tuple(w.shape)}.")
        else:
            raise TypeError(f"For 'PReLU', the 'w' should be float or Tensor, but got "
                            f"{type(w).__name__}.")
        self.channel = channel
        self.w = Parameter(w, name="a")

    def construct(self, x):
        return prelu(x, self.w)
