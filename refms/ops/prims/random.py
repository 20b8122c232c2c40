"""Random ops: UniformReal, StandardNormal, UniformInt, Dropout, and ``uniform`` /
``standard_normal`` / ``dropout``.

Seeds follow MindSpore (semantics 9, [ran 2.10]):

* A primitive built with ``(seed, seed2)`` owns one generator, created at
  its first call: repeated calls of the same instance give new values, a
  new instance with the same seeds starts the sequence again; with both
  seeds 0 the generator is seeded from the OS (values differ per run).
* The functional forms ask ``refms.seed.op_seed_pair`` for the pair
  ``(global seed, per-op counter)`` and build a fresh primitive each call —
  so ``set_seed`` / an op seed make a program's sequence reproducible while
  successive calls still differ.  The generator is the one
  ``refms.seed.op_rng`` builds for that pair (PCG64 seeded with it).

The values cannot match MindSpore's Philox streams bit for bit; only the
distributions and the seeding rules are reproduced.
"""
import numpy as np

from ... import dtype as mstype
from ... import kernels
from ... import seed as _seed
from ..._tensor import Tensor
from ..primitive import Primitive, Abstract, register, functional, op_error
from ._base import FLOATS, host_int, shape_str


def _generator(seed, seed2):
    """The generator of a primitive with seeds ``(seed, seed2)``; both 0 → seeded from the OS."""
    if seed == 0 and seed2 == 0:
        return np.random.default_rng()
    return np.random.default_rng(np.random.PCG64([seed, seed2]))


def _check_seed(op, name, value):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise op_error(op, f"the '{name}' must be int, but got '{type(value).__name__}'.")
    if value < 0:
        raise op_error(op, f"the '{name}' must be int and must >= 0, but got '{value}'.", ValueError)
    return int(value)


def _check_shape(op, shape):
    if not isinstance(shape, (tuple, list)):
        raise op_error(op, f"the 'shape' must be a tuple of ints, but got {type(shape).__name__}.")
    for i, d in enumerate(shape):
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)):
            raise op_error(op, f"the 'shape' must be a tuple of ints, but got {tuple(shape)!r}.")
        if d < 0:
            raise op_error(op, f"the {i}th dimension of input shape must be greater than or equal "
                               f"to 0, but got {d}.", ValueError)
    return tuple(int(d) for d in shape)


class _Random(Primitive):
    """A random primitive: seeds as attributes, one generator per instance."""
    n_tensor_inputs = 0
    #: Each call draws new values: graph passes must neither fold nor merge calls (MindSpore's attr).
    side_effect_hidden = True
    seed_names = ("seed", "seed2")

    def __init__(self, seed=0, seed2=0):
        first, second = self.seed_names
        setattr(self, first, _check_seed(type(self).__name__, first, seed))
        setattr(self, second, _check_seed(type(self).__name__, second, seed2))
        self._rng = None

    def rng(self):
        if self._rng is None:
            first, second = self.seed_names
            self._rng = _generator(getattr(self, first), getattr(self, second))
        return self._rng


@register
class UniformReal(_Random):
    """y ~ U[0, 1), Float32, of the given ``shape`` (no gradient)."""

    def infer(self, shape):
        return Abstract(_check_shape("UniformReal", shape), mstype.float32)

    def forward(self, shape):
        return kernels.call("uniform_real")(self.rng(), shape)


@register
class StandardNormal(_Random):
    """y ~ N(0, 1), Float32, of the given ``shape`` (no gradient)."""

    def infer(self, shape):
        return Abstract(_check_shape("StandardNormal", shape), mstype.float32)

    def forward(self, shape):
        return kernels.call("standard_normal")(self.rng(), shape)


@register
class UniformInt(_Random):
    """y ~ U{minval, …, maxval − 1}, Int32; ``minval`` and ``maxval`` are 0-d Int32 Tensors."""

    def infer(self, shape, minval, maxval):
        for i, (name, value) in enumerate((("minval", minval), ("maxval", maxval)), start=1):
            if not hasattr(value, "dtype"):
                raise op_error("UniformInt", f"the input[{i}] should be a Tensor, but got "
                                             f"{type(value).__name__}.")
            if value.dtype is not mstype.int32:
                raise op_error("UniformInt", f"the input argument[{name}] must be a type of "
                                             f"{{Tensor[Int32]}}, but got Tensor[{value.dtype}].")
            if tuple(value.shape) != ():
                raise op_error("UniformInt", f"the {name} should be a scalar tensor, but got shape "
                                             f"{shape_str(value.shape)}.", ValueError)
        return Abstract(_check_shape("UniformInt", shape), mstype.int32)

    def forward(self, shape, minval, maxval):
        low, high = host_int(minval), host_int(maxval)
        if low >= high:
            raise op_error("UniformInt", f"invalid min/max values: minval {low} must be less than "
                                         f"maxval {high}.", RuntimeError)
        return kernels.call("uniform_int")(self.rng(), shape, low, high)


@register
class Dropout(_Random):
    """(y, mask): mask ~ Bernoulli(keep_prob) in x's dtype, y = x · mask / keep_prob.

    dx = dy · mask / keep_prob (the mask output carries no gradient).  keep_prob = 0 drops everything.
    """
    n_tensor_inputs = 1
    n_outputs = 2
    seed_names = ("Seed0", "Seed1")

    def __init__(self, keep_prob=0.5, Seed0=0, Seed1=0):
        if isinstance(keep_prob, bool) or not isinstance(keep_prob, (int, float, np.floating)):
            raise op_error("Dropout", f"the 'keep_prob' must be a float, but got "
                                      f"{type(keep_prob).__name__}.")
        if not 0 <= keep_prob <= 1:
            raise op_error("Dropout", f"the 'keep_prob' must be in range [0, 1], but got "
                                      f"{keep_prob}.", ValueError)
        self.keep_prob = float(keep_prob)
        super().__init__(Seed0, Seed1)

    def infer(self, x):
        if x.dtype not in FLOATS:
            raise op_error("Dropout", f"the input argument[x] must be a type of {{Tensor[BFloat16], "
                                      f"Tensor[Float16], Tensor[Float32], Tensor[Float64]}}, but "
                                      f"got Tensor[{x.dtype}].")
        return Abstract(x.shape, x.dtype), Abstract(x.shape, x.dtype)

    def forward(self, x):
        if self.keep_prob == 1:
            mask = kernels.call("full_like")(x, 1)
        else:
            mask = kernels.call("bernoulli")(self.rng(), x.shape, self.keep_prob, x.dtype)
        return kernels.call("scale")(kernels.call("mul")(x, mask), self.scale()), mask

    def scale(self):
        """1 / keep_prob (0 when everything is dropped)."""
        return 1 / self.keep_prob if self.keep_prob else 0.0

    def bprop(self, x, out, dout):
        return (dout[0] * out[1] * self.scale(),)


def _seed_pair(kernel, seed):
    """``(seed, seed2)`` for a functional random op (MindSpore's ``_get_seed``)."""
    if seed is not None:
        _check_seed(kernel, "seed", seed)
    return _seed.op_seed_pair(kernel, seed) or (0, 0)


def uniform(shape, minval, maxval, seed=None, dtype=mstype.float32):
    """ops.uniform: Float32 U[minval, maxval) (as U[0, 1)·(maxval − minval) + minval), or Int32
    U{minval, …, maxval − 1} for ``dtype=int32``; ``minval``, ``maxval`` are Tensors of ``dtype``."""
    if not isinstance(minval, Tensor) or not isinstance(maxval, Tensor):
        raise TypeError("For functional operator[uniform], the input[minval] and input[maxval] "
                        "must be a Tensor.")
    dtype = mstype.to_dtype(dtype)
    if dtype not in (mstype.int32, mstype.float32):
        raise TypeError(f"The 'uniform' doesn't support '{dtype}' and expect to receive "
                        f"[mindspore.int32, mindspore.float32].")
    for name, value in (("minval", minval), ("maxval", maxval)):
        if value.dtype is not dtype:
            raise TypeError(f"For 'uniform', the dtype of '{name}' should be {dtype} (the 'dtype' "
                            f"argument), but got {value.dtype}.")
    seed1, seed2 = _seed_pair("uniform", seed)
    if dtype is mstype.int32:
        return UniformInt(seed1, seed2)(shape, minval, maxval)
    return UniformReal(seed1, seed2)(shape) * (maxval - minval) + minval


def standard_normal(shape, seed=None):
    """ops.standard_normal: Float32 N(0, 1) of ``shape``."""
    return StandardNormal(*_seed_pair("standard_normal", seed))(shape)


def dropout(input, p=0.5, training=True, seed=None):
    """ops.dropout: zero each element with probability ``p``, scale the rest by 1/(1 − p);
    the identity when ``training`` is False."""
    if not isinstance(training, bool):
        raise TypeError(f"For 'dropout', the 'training' must be a bool, but got "
                        f"{type(training).__name__}.")
    if not training:
        return input
    return Dropout(1 - p, *_seed_pair("dropout", seed))(input)[0]


for _fn in (uniform, standard_normal, dropout):
    functional(_fn.__name__, _fn)
