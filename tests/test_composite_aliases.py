"""The names MindSpore 2.10 also exports from ``ops.composite`` (C) and ``ops.functional`` (F)
that mindspore-ai/models uses (issue 13): C.clip_by_value in 92 files, C.ones_like in 17,
C.add_flags in 7, F.tensor_mul in 4 (counted over the repository's Python files)."""
import numpy as np

import refms as ms
from refms import Tensor
from refms.ops import composite as C
from refms.ops import functional as F


def test_ones_and_zeros_like_map_over_nested_tuples():
    x, y = Tensor(np.array([1.5, 2.0], np.float32)), Tensor(np.array([[1, 2]], np.int32))
    ones = C.ones_like((x, [y, x]))
    assert isinstance(ones, tuple) and isinstance(ones[1], tuple)
    assert ones[0].dtype == ms.float32 and ones[1][0].dtype == ms.int32
    np.testing.assert_array_equal(ones[1][0].asnumpy(), np.ones((1, 2)))
    np.testing.assert_array_equal(C.zeros_like(x).asnumpy(), np.zeros(2))


def test_function_aliases_are_the_functional_ops():
    assert C.clip_by_value is ms.ops.clip_by_value and C.matmul is ms.ops.matmul
    assert C.tensor_dot is ms.ops.tensor_dot and C.repeat_elements is ms.ops.repeat_elements
    np.testing.assert_allclose(C.clip_by_value(Tensor(np.array([0.0, 3.0], np.float32)), 0.5,
                                               2.0).asnumpy(), [0.5, 2.0])
    a, b = Tensor(np.array([7.0, -7.0], np.float32)), Tensor(np.array([2.0, 2.0], np.float32))
    np.testing.assert_allclose(F.tensor_mul(a, b).asnumpy(), [14.0, -14.0])
    np.testing.assert_allclose(F.tensor_add(a, b).asnumpy(), [9.0, -5.0])
    np.testing.assert_allclose(F.tensor_floordiv(a, b).asnumpy(), [3.0, -4.0])
    np.testing.assert_allclose(F.tensor_pow(b, a).asnumpy(), [128.0, 2.0 ** -7])


def test_add_flags_records_graph_flags():
    def f(x):
        return x

    assert C.add_flags(f, defer_inline=True) is f
    assert C.add_flags(f, other=1)._func_graph_flags == {"defer_inline": True, "other": 1}

    @C.add_flags(flag=False)
    def g(x):
        return x
    assert g._func_graph_flags == {"flag": False}
    assert ms.ops.add_flags is C.add_flags           # also ops.add_flags, as in MindSpore


def test_scalar_cast_converts_python_numbers():
    """ops.ScalarCast: int64 truncates toward zero, float64 and bool convert (MindSpore 2.10
    gave 2, -2, 3.0, False, True for these; 7 files of mindspore-ai/models use it)."""
    import pytest
    cast = ms.ops.ScalarCast()
    assert ms.ops.operations.ScalarCast is ms.ops.ScalarCast
    results = [cast(2.7, ms.int64), cast(-2.7, ms.int64), cast(3, ms.float64),
               cast(0, ms.bool_), cast(2.5, ms.bool_)]
    assert results == [2, -2, 3.0, False, True]
    assert [type(r) for r in results] == [int, int, float, bool, bool]
    with pytest.raises(ValueError, match="ScalarCast"):
        cast(2.7, ms.int32)
    with pytest.raises(TypeError, match="ScalarCast"):
        cast(Tensor(1.0), ms.int64)
