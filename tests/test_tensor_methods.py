"""Tensor methods that are functional ops with the tensor first (``refms/_tensor_op_methods.py``).

The differential cases (``tests/test_differential.py``) hold each against MindSpore 2.10's
recorded results; here the two that MindSpore 2.10 runs on Ascend only (``clone`` and
``repeat``), checked against their documented definitions (numpy's ``tile``; a copy the
gradient flows through), and the table's wiring.
"""
import numpy as np
import pytest

import refms
from refms._tensor_op_methods import OP_METHODS


def test_every_table_method_calls_its_op():
    x = refms.Tensor(np.array([[0.5, -1.5], [2.0, 3.0]], np.float32))
    for method, op in OP_METHODS.items():
        assert getattr(refms.Tensor, method).__name__ == method
    np.testing.assert_array_equal(x.maximum(x * 0).asnumpy(), np.maximum(x.asnumpy(), 0))
    np.testing.assert_array_equal(x.gather(refms.Tensor([1], refms.int32), 0).asnumpy(),
                                  x.asnumpy()[[1]])


@pytest.mark.parametrize("repeats", [(2, 3), (3, 1, 2)])
def test_repeat_tiles_as_documented(repeats):
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = refms.Tensor(x).repeat(*repeats)
    np.testing.assert_array_equal(out.asnumpy(), np.tile(x, repeats))
    np.testing.assert_array_equal(refms.Tensor(x).repeat(repeats).asnumpy(), np.tile(x, repeats))


def test_repeat_needs_a_repeat_per_axis():
    with pytest.raises(ValueError, match="repeat"):
        refms.Tensor(np.ones((2, 3), np.float32)).repeat(2)


def test_clone_copies_and_passes_the_gradient():
    x = refms.Tensor(np.array([1.0, 2.0], np.float32))
    np.testing.assert_array_equal(x.clone().asnumpy(), x.asnumpy())
    grad = refms.grad(lambda t: (t.clone() * t).sum())(x)
    np.testing.assert_array_equal(grad.asnumpy(), 2 * x.asnumpy())


def test_std_is_the_root_of_the_mean_squared_deviation():
    x = np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)
    np.testing.assert_allclose(refms.Tensor(x).std(1, 1, True).asnumpy(),
                               np.std(x, axis=1, ddof=1, keepdims=True), rtol=1e-6)
