"""Channel dropout: Dropout2D and Dropout3D, and ``dropout1d`` / ``dropout2d`` / ``dropout3d``.

One Bernoulli(keep_prob) draw per (sample, channel) of an (N, C, spatial…)
input zeroes or keeps that whole feature map (Tompson et al., "Efficient Object
Localization Using Convolutional Networks", CVPR 2015, "SpatialDropout")::

    mask[n, c, …] = m[n, c] ~ Bernoulli(keep_prob);   y = x · mask / keep_prob

The mask output is Bool; dx = dy · mask / keep_prob; keep_prob = 0 gives zeros.
Integer inputs are allowed (not Bool), as in MindSpore 2.10.

Seeding (MindSpore 2.10 on CPU, measured): the primitive has no seed
arguments, ignores ``set_seed``, and every new instance starts the same
fixed sequence (successive calls of one instance differ).  refms keeps that
rule with its own generator (PCG64 seeded with 0), so the masks are
reproducible but not MindSpore's.
"""
import numpy as np

from ... import dtype as mstype
from ... import kernels
from ..primitive import F, Abstract, register, functional, op_error
from ._base import check_tensor, shape_str
from .random import _Random

__all__ = ["Dropout2D", "Dropout3D", "dropout1d", "dropout2d", "dropout3d"]

_DTYPES = (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16, mstype.int8,
           mstype.int16, mstype.int32, mstype.int64, mstype.uint8)


class _ChannelDropout(_Random):
    """Dropout of whole channels of a rank-``rank`` input."""
    n_tensor_inputs = 1
    n_outputs = 2
    rank = None

    def __init__(self, keep_prob=0.5):
        name = type(self).__name__
        if not isinstance(keep_prob, float):
            raise op_error(name, f"the type of 'keep_prob' should be 'float', but got type "
                                 f"'{type(keep_prob).__name__}'.")
        if not 0.0 <= keep_prob <= 1.0:
            raise op_error(name, f"the 'keep_prob' must be in range of [0.0, 1.0], but got "
                                 f"{keep_prob} with type 'float'.", ValueError)
        self.keep_prob = keep_prob
        super().__init__(0, 0)

    def rng(self):
        """A fixed-seed generator per instance (see the module docstring)."""
        if self._rng is None:
            self._rng = np.random.default_rng(np.random.PCG64(0))
        return self._rng

    def infer(self, x):
        name = type(self).__name__
        check_tensor(name, "x", x)
        if x.dtype not in _DTYPES:
            raise op_error(name, f"the input argument[x] must be a type of {{Tensor[BFloat16], "
                                 f"Tensor[Float16], Tensor[Float32], Tensor[Float64], "
                                 f"Tensor[Int16], Tensor[Int32], Tensor[Int64], Tensor[Int8], "
                                 f"Tensor[UInt8]}}, but got Tensor[{x.dtype}].")
        if len(x.shape) != self.rank:
            raise op_error(name, f"the rank of input must be equal to {self.rank}, but got "
                                 f"{len(x.shape)} (shape {shape_str(x.shape)}).", ValueError)
        return Abstract(tuple(x.shape), x.dtype), Abstract(tuple(x.shape), mstype.bool_)

    def forward(self, x):
        channels = tuple(x.shape[:2]) + (1,) * (self.rank - 2)
        keep = kernels.call("bernoulli")(self.rng(), channels, self.keep_prob, bool)
        mask = kernels.call("broadcast_to")(keep, tuple(x.shape))
        if x.dtype.kind == "f":
            kept = kernels.call("mul")(x, kernels.call("cast")(mask, x.dtype))
            return kernels.call("scale")(kept, self.scale()), mask
        # integers: scaled in float32, then truncated back (MindSpore: 7 / 0.75 -> 9)
        kept = kernels.call("mul")(kernels.call("cast")(x, "float32"),
                                   kernels.call("cast")(mask, "float32"))
        return kernels.call("cast")(kernels.call("scale")(kept, self.scale()), x.dtype), mask

    def scale(self):
        """1 / keep_prob (0 when every channel is dropped)."""
        return 1 / self.keep_prob if self.keep_prob else 0.0

    def bprop(self, x, out, dout):
        return (dout[0] * F.cast(out[1], dout[0].dtype) * self.scale(),)


@register
class Dropout2D(_ChannelDropout):
    """(y, mask) = channel dropout of an (N, C, H, W) input; mask Bool."""
    rank = 4


@register
class Dropout3D(_ChannelDropout):
    """(y, mask) = channel dropout of an (N, C, D, H, W) input; mask Bool."""
    rank = 5


def _check_training(name, training):
    if not isinstance(training, bool):
        raise TypeError(f"For '{name}', the 'training' must be a bool, but got "
                        f"{type(training).__name__}.")


def dropout2d(input, p=0.5, training=True):          # noqa: A002  (MindSpore's name)
    """ops.dropout2d: channel dropout of an (N, C, H, W) input with drop probability ``p``;
    the identity when ``training`` is False."""
    _check_training("dropout2d", training)
    if not training:
        return input
    return Dropout2D(1.0 - p)(input)[0]


def dropout3d(input, p=0.5, training=True):          # noqa: A002
    """ops.dropout3d: channel dropout of an (N, C, D, H, W) input."""
    _check_training("dropout3d", training)
    if not training:
        return input
    return Dropout3D(1.0 - p)(input)[0]


def dropout1d(input, p=0.5, training=True):          # noqa: A002
    """ops.dropout1d: channel dropout of an (N, C, L) or (C, L) input (``Dropout2D`` on the
    input with unit axes added, as MindSpore does)."""
    if not isinstance(p, float):
        raise TypeError(f"For dropout1d, 'p' must be float, but got type {type(p)}.")
    if p < 0 or p > 1:
        raise ValueError(f"For dropout1d, the 'p' must be a number in range [0, 1], but got {p}.")
    if not hasattr(input, "dtype") or not hasattr(input, "shape"):
        raise TypeError(f"For dropout1d, 'input' must be Tensor, but got type {type(input)}.")
    _check_training("dropout1d", training)
    if not training:
        return input
    rank = len(input.shape)
    if rank not in (2, 3):
        raise ValueError(f"For dropout1d, input shape should be 2D or 3D, but got {rank}.")
    x = F.expand_dims(input, -1)
    if rank == 2:
        x = F.expand_dims(x, 0)
    out = Dropout2D(1.0 - p)(x)[0]
    out = F.squeeze(out, -1)
    return F.squeeze(out, 0) if rank == 2 else out


for _fn in (dropout1d, dropout2d, dropout3d):
    functional(_fn.__name__, _fn)
