"""Initializers: how a Parameter's first values are drawn (``mindspore.common.initializer``).

``initializer`` returns a *lazy* Tensor (``Tensor(shape=, dtype=, init=obj)``,
``has_init`` True): no values exist until ``init_data()`` (or building a
``Parameter`` from it) calls ``obj(array)``, which fills a zeroed numpy array
in place (semantics 2.4).

Randomness follows MindSpore's ``_numpy_seed``: every fill of a random
initializer takes exactly **one** draw ``np.random.randint(1, 2**63)`` from
numpy's global generator and fills from a generator seeded with it.  So
``set_seed(s)`` makes initial values reproducible, and building a network
shifts later ``np.random`` output by one draw per random initializer
(``nn.Dense`` with default init consumes 2).  The values themselves differ
from MindSpore's (its C++ generator is not reproduced); only the number of
draws matches.

``fan_in``/``fan_out`` of a weight of shape ``(out, in, *kernel)`` are
``in * prod(kernel)`` and ``out * prod(kernel)`` (2-D: ``shape[1]``, ``shape[0]``).
"""
import math
import numbers

import numpy as np

from . import dtype as mstype
from ._tensor import Tensor

__all__ = ["Initializer", "initializer", "Zero", "One", "Constant", "Normal", "Uniform",
           "TruncatedNormal", "HeUniform", "HeNormal", "XavierUniform", "XavierNormal",
           "ALIASES"]

#: lower-case alias -> Initializer class; filled by :func:`_alias` at each definition.
ALIASES = {}


def _alias(*names):
    """Class decorator: register the lower-cased class name and ``names`` as string aliases."""
    def register(cls):
        for name in (cls.__name__.lower(),) + names:
            ALIASES.setdefault(name, cls)
        return cls
    return register


def _numpy_seed():
    """One draw from numpy's global generator, as MindSpore's ``_numpy_seed``."""
    return int(np.random.randint(1, 2 ** 63, dtype=np.int64))


def _rng():
    return np.random.default_rng(_numpy_seed())


class Initializer:
    """Base class: ``init(arr)`` fills the numpy array ``arr`` in place."""

    def __init__(self, **kwargs):
        self._kwargs = kwargs

    def _initialize(self, arr):
        raise NotImplementedError(f"{type(self).__name__} must define _initialize(arr)")

    def __call__(self, arr):
        self._initialize(arr)
        return arr


def _fill(arr, values):
    """Copy ``values`` into ``arr`` (works for 0-d arrays too)."""
    arr[...] = np.asarray(values).astype(arr.dtype, copy=False)


def _fans(shape):
    """(fan_in, fan_out) of a weight shape ``(out, in, *kernel)``."""
    if len(shape) < 2:
        raise ValueError(f"'fan_in' and 'fan_out' can not be computed for tensor with fewer than "
                         f"2 dimensions, but got dimensions {len(shape)}.")
    receptive = int(np.prod(shape[2:], dtype=np.int64)) if len(shape) > 2 else 1
    return shape[1] * receptive, shape[0] * receptive


def _gain(nonlinearity, negative_slope):
    """Recommended gain of a nonlinearity (He et al. 2015, arXiv:1502.01852)."""
    if nonlinearity in ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
                        "conv_transpose2d", "conv_transpose3d", "sigmoid"):
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if negative_slope is None else negative_slope
        if isinstance(slope, bool) or not isinstance(slope, (int, float)):
            raise ValueError(f"For 'HeUniform', 'negative_slope' {slope!r} is not a valid number.")
        return math.sqrt(2.0 / (1 + slope ** 2))
    raise ValueError(f"For 'HeUniform', the argument 'nonlinearity' should be one of ['sigmoid', "
                     f"'tanh', 'relu' or 'leaky_relu'], but got {nonlinearity}.")


def _fan(shape, mode):
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"'mode' {mode} not supported, please use one of ['fan_in', 'fan_out']")
    fan_in, fan_out = _fans(shape)
    return fan_in if mode == "fan_in" else fan_out


@_alias("zeros")
class Zero(Initializer):
    """w = 0."""

    def _initialize(self, arr):
        arr.fill(0)


@_alias("ones")
class One(Initializer):
    """w = 1."""

    def _initialize(self, arr):
        arr.fill(1)


class Constant(Initializer):
    """w = value (a number or an array broadcast to the shape)."""

    def __init__(self, value):
        super().__init__(value=value)
        self.value = value

    def _initialize(self, arr):
        _fill(arr, np.broadcast_to(np.asarray(self.value), arr.shape))


@_alias()
class Normal(Initializer):
    """w ~ N(mean, sigma²); default sigma = 0.01 (the r1.x default of Dense/Conv2d)."""

    def __init__(self, sigma=0.01, mean=0.0):
        super().__init__(sigma=sigma, mean=mean)
        if sigma < 0:
            raise ValueError("sigma < 0")
        self.sigma = sigma
        self.mean = mean

    def _initialize(self, arr):
        _fill(arr, _rng().normal(self.mean, self.sigma, arr.shape))


@_alias()
class Uniform(Initializer):
    """w ~ U(-scale, scale); default scale = 0.07."""

    def __init__(self, scale=0.07):
        super().__init__(scale=scale)
        self.scale = scale

    def _initialize(self, arr):
        _fill(arr, _rng().uniform(-self.scale, self.scale, arr.shape))


@_alias()
class TruncatedNormal(Initializer):
    """w ~ N(mean, sigma²) conditioned on a <= w <= b (a, b absolute bounds, as in 2.10).

    Drawn by rejection: values outside [a, b] are redrawn from the same seeded
    generator (after 1000 rounds, a pathological interval far in a tail, the
    rest are clipped), so exactly one numpy seed draw is consumed.
    """

    def __init__(self, sigma=0.01, mean=0.0, a=-2.0, b=2.0):
        super().__init__(sigma=sigma, mean=mean, a=a, b=b)
        if sigma < 0:
            raise ValueError("sigma < 0")
        self.sigma, self.mean, self.a, self.b = sigma, mean, a, b

    def _initialize(self, arr):
        rng = _rng()
        values = rng.normal(self.mean, self.sigma, arr.shape)
        outside = (values < self.a) | (values > self.b)
        for _ in range(1000):
            if not outside.any():
                break
            values[outside] = rng.normal(self.mean, self.sigma, int(outside.sum()))
            outside = (values < self.a) | (values > self.b)
        _fill(arr, np.clip(values, self.a, self.b))


@_alias("he_uniform")
class HeUniform(Initializer):
    """w ~ U(-bound, bound), bound = gain·√(3/fan), gain = √(2/(1+slope²)) for leaky_relu.

    He et al. 2015 (arXiv:1502.01852).  ``HeUniform(negative_slope=√5)`` gives
    bound = 1/√fan_in: MindSpore 2.x's default Dense/Conv2d weight.
    """

    def __init__(self, negative_slope=0, mode="fan_in", nonlinearity="leaky_relu"):
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        self.negative_slope, self.mode, self.nonlinearity = negative_slope, mode, nonlinearity

    def _initialize(self, arr):
        std = _gain(self.nonlinearity, self.negative_slope) / math.sqrt(_fan(arr.shape, self.mode))
        bound = math.sqrt(3.0) * std
        _fill(arr, _rng().uniform(-bound, bound, arr.shape))


@_alias("he_normal")
class HeNormal(Initializer):
    """w ~ N(0, sigma²), sigma = gain/√fan (He et al. 2015, arXiv:1502.01852)."""

    def __init__(self, negative_slope=0, mode="fan_in", nonlinearity="leaky_relu"):
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        self.negative_slope, self.mode, self.nonlinearity = negative_slope, mode, nonlinearity

    def _initialize(self, arr):
        std = _gain(self.nonlinearity, self.negative_slope) / math.sqrt(_fan(arr.shape, self.mode))
        _fill(arr, _rng().normal(0.0, std, arr.shape))


@_alias("xavier_uniform")
class XavierUniform(Initializer):
    """w ~ U(-bound, bound), bound = gain·√(6/(fan_in+fan_out)) (Glorot & Bengio 2010)."""

    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr):
        fan_in, fan_out = _fans(arr.shape)
        bound = self.gain * math.sqrt(6.0 / (fan_in + fan_out))
        _fill(arr, _rng().uniform(-bound, bound, arr.shape))


@_alias("xavier_normal")
class XavierNormal(Initializer):
    """w ~ N(0, sigma²), sigma = gain·√(2/(fan_in+fan_out)) (Glorot & Bengio 2010)."""

    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr):
        fan_in, fan_out = _fans(arr.shape)
        std = self.gain * math.sqrt(2.0 / (fan_in + fan_out))
        _fill(arr, _rng().normal(0.0, std, arr.shape))


def _shape_tuple(shape):
    if shape is None:
        return None
    if isinstance(shape, numbers.Integral) and not isinstance(shape, bool):
        return (int(shape),)
    return tuple(shape)


def initializer(init, shape=None, dtype=mstype.float32):
    """A lazily initialised Tensor of ``shape`` and ``dtype`` filled by ``init`` on ``init_data()``.

    ``init``: an :class:`Initializer`; a string alias (``'ones'``, ``'zeros'``,
    ``'normal'``, ``'uniform'``, ``'he_uniform'``, ..., case-insensitive); a
    number (-> :class:`Constant`); or a Tensor, returned as is when its shape
    matches.  Shape entries must be positive ints.
    """
    if not isinstance(init, (Tensor, numbers.Number, str, Initializer)):
        raise TypeError(f"For 'initializer', the type of the 'init' argument should be 'Tensor', "
                        f"'number', 'string' or 'initializer', but got {type(init)}.")
    if isinstance(init, Tensor):
        if shape is not None and tuple(init.shape) != _shape_tuple(shape):
            raise ValueError(f"For 'initializer', the shape of the 'init' argument should be same "
                             f"as the argument 'shape', but got the 'init' shape "
                             f"{list(init.shape)} and the 'shape' {list(_shape_tuple(shape))}.")
        return init
    shape = _shape_tuple(shape)
    if shape is None:
        raise ValueError("For 'initializer', the argument 'shape' must be given for a "
                         f"{type(init).__name__} init.")
    for value in shape:
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
            raise ValueError(f"For 'initializer', the argument 'shape' is invalid, the value of "
                             f"'shape' must be positive integer, but got {shape}")
    if isinstance(init, str):
        cls = ALIASES.get(init.lower())
        if cls is None:
            raise ValueError(f"For 'initializer', the class corresponding to '{init}' was not found.")
        init = cls()
    elif isinstance(init, numbers.Number):
        init = Constant(init)
    return Tensor(shape=shape, dtype=mstype.to_dtype(dtype), init=init)


# -- helpers MindSpore keeps private in this module, imported by name by the model zoo's
# custom initializers (``from mindspore.common.initializer import _assignment``) --------------

def _assignment(arr, num):
    """Copy ``num`` (a number or an array of ``arr``'s shape) into ``arr``; returns ``arr``."""
    _fill(arr, num)
    return arr


def _calculate_fan_in_and_fan_out(shape):
    """``(fan_in, fan_out)`` of a weight of ``shape`` ``(out, in, *kernel)``."""
    return _fans(tuple(shape))


def _calculate_correct_fan(shape, mode):
    """``fan_in`` or ``fan_out`` of ``shape``, as ``mode`` says."""
    return _fan(tuple(shape), mode)


def _calculate_gain(nonlinearity, param=None):
    """The recommended gain of ``nonlinearity`` (``param``: leaky_relu's negative slope)."""
    return _gain(nonlinearity, param)


_register = _alias
