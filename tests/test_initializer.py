"""Initializers and lazy tensors (semantics 2.4; MindSpore ``common/initializer.py``).

Values are random, so distributions are checked by their properties (bounds,
moments); what must match MindSpore exactly is how many draws each
initializer takes from numpy's global generator.
"""
import math

import numpy as np
import pytest

import refms as ms
from refms import Parameter, Tensor, nn
from refms.common import initializer as init_module
from refms.common.initializer import (Constant, HeNormal, HeUniform, Normal, One,
                                      TruncatedNormal, Uniform, XavierNormal, XavierUniform, Zero,
                                      initializer)


def filled(init, shape, dtype=ms.float32):
    return initializer(init, shape, dtype).init_data().asnumpy()


def test_mirror_path_is_the_same_module():
    assert init_module.initializer is ms.initializer.initializer
    assert ms.common.initializer.Normal is Normal


# -- lazy tensors --------------------------------------------------------------------------

def test_initializer_returns_a_lazy_tensor():
    t = initializer("ones", [2, 3], ms.float16)
    assert t.has_init and t.shape == (2, 3) and t.dtype == ms.float16
    assert t.init_data() is t and not t.has_init
    assert t.asnumpy().tolist() == [[1.0] * 3] * 2
    with pytest.raises(TypeError, match="init_data must be set Tensor.init, init can't be None"):
        t.init_data()


def test_lazy_tensor_in_an_op_raises():
    t = initializer("zeros", [2])
    with pytest.raises(RuntimeError, match="uninitialized"):
        ms.ops.add(t, 1.0)


def test_asnumpy_initialises():
    t = initializer(2.5, 3)
    assert t.asnumpy().tolist() == [2.5, 2.5, 2.5]


def test_tensor_init_is_returned_as_is():
    t = Tensor([1.0, 2.0])
    assert initializer(t, [2]) is t
    with pytest.raises(ValueError, match="shape of the 'init' argument should be same"):
        initializer(t, [3])


@pytest.mark.parametrize("bad", [[0, 2], [2, -1], [2.0]])
def test_shape_entries_must_be_positive_ints(bad):
    with pytest.raises(ValueError, match="must be positive integer"):
        initializer("ones", bad)


def test_unknown_alias_and_bad_type():
    with pytest.raises(ValueError, match="class corresponding to 'foo' was not found"):
        initializer("foo", [2])
    with pytest.raises(TypeError, match="'Tensor', 'number', 'string' or 'initializer'"):
        initializer([1, 2], [2])


@pytest.mark.parametrize("alias,cls", [
    ("zeros", Zero), ("Zero", Zero), ("ones", One), ("ONE", One), ("normal", Normal),
    ("uniform", Uniform), ("truncatednormal", TruncatedNormal), ("he_uniform", HeUniform),
    ("HeUniform", HeUniform), ("he_normal", HeNormal), ("xavier_uniform", XavierUniform),
    ("XAVIER_NORMAL", XavierNormal)])
def test_string_aliases_are_case_insensitive(alias, cls):
    assert isinstance(initializer(alias, [2, 2]).init, cls)


def test_numbers_become_constant():
    assert isinstance(initializer(3, [2]).init, Constant)
    assert filled(3, [2], ms.int32).tolist() == [3, 3]
    assert filled(Constant(np.array([1.0, 2.0])), [2, 2]).tolist() == [[1, 2], [1, 2]]


# -- distributions ----------------------------------------------------------------------------

N = (200, 300)       # fan_in 300, fan_out 200


def test_normal_defaults_and_moments():
    values = filled("normal", N)
    assert abs(values.mean()) < 1e-3 and abs(values.std() - 0.01) < 5e-4
    values = filled(Normal(sigma=2.0, mean=5.0), N)
    assert abs(values.mean() - 5.0) < 0.05 and abs(values.std() - 2.0) < 0.05


def test_uniform_default_scale():
    values = filled("uniform", N)
    assert values.min() >= -0.07 and values.max() <= 0.07 and values.max() > 0.069


def test_truncated_normal_stays_in_absolute_bounds():
    values = filled(TruncatedNormal(sigma=1.0, mean=3.0, a=2.5, b=3.2), [10000])
    assert values.min() >= 2.5 and values.max() <= 3.2
    assert 2.8 < values.mean() < 2.9                      # 2.10 gave 2.8547


def test_he_uniform_sqrt5_is_one_over_sqrt_fan_in():
    values = filled(HeUniform(math.sqrt(5)), N)
    bound = 1 / math.sqrt(300)
    assert values.min() >= -bound and values.max() <= bound and values.max() > 0.99 * bound


@pytest.mark.parametrize("init,std", [
    (HeNormal(), math.sqrt(2.0) / math.sqrt(300)),
    (HeNormal(mode="fan_out", nonlinearity="relu"), math.sqrt(2.0) / math.sqrt(200)),
    (XavierNormal(), math.sqrt(2.0 / 500)),
    (XavierUniform(gain=2), 2 * math.sqrt(6.0 / 500) / math.sqrt(3)),
    (HeUniform(), math.sqrt(2.0) / math.sqrt(300)),
])
def test_fan_based_standard_deviations(init, std):
    values = filled(init, N)
    assert abs(values.std() - std) < 0.03 * std


def test_conv_shaped_fans():
    values = filled(HeUniform(math.sqrt(5)), [8, 4, 3, 3])     # fan_in = 4·3·3
    assert np.abs(values).max() <= 1 / 6


def test_fan_needs_two_dims():
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        filled("he_uniform", [5])


# -- numpy draws (semantics 2.4) -------------------------------------------------------------

def test_each_random_fill_consumes_one_numpy_draw():
    ms.set_seed(1)
    first = np.random.uniform()
    assert first == 0.417022004702574
    ms.set_seed(1)
    nn.Dense(2, 1)                                     # weight + bias: two draws
    assert np.random.uniform() == 0.00011437481734488664
    ms.set_seed(1)
    nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    assert np.random.uniform() == first


def test_seeded_values_are_reproducible():
    ms.set_seed(7)
    a = filled("normal", [3, 3])
    ms.set_seed(7)
    b = filled("normal", [3, 3])
    assert (a == b).all()


def test_the_draw_happens_at_fill_time():
    ms.set_seed(1)
    lazy = initializer("normal", [2])
    assert np.random.uniform() == 0.417022004702574      # nothing drawn yet
    Parameter(lazy)                                        # materialised now


def test_dtypes():
    assert filled("normal", [2], ms.float64).dtype == np.float64
    assert filled("ones", [2], ms.int32).dtype == np.int32
    assert filled("normal", [2], ms.float16).dtype == np.float16
