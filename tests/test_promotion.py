"""Type promotion for binary arithmetic and dtype inference of Tensor construction,
row by row from semantics 1.7 and 1.1 (each rule checked on MindSpore 2.10).

A Python number is a *weak* operand: it yields to the tensor's dtype except
where the kinds differ.  A 0-d tensor is NOT weak.  Between tensors, any float
beats any int keeping its own width; ``int8 ⊕ uint8 → Int16``.
"""
import numpy as np
import pytest

import refms as ms
from refms import Tensor, ops


def tensor(values, dtype):
    return Tensor(np.array(values), dtype)


# -- Tensor ⊕ Python scalar (the scalar is weak) ---------------------------------------------

#: (tensor dtype, Python scalar, result dtype) — semantics 1.7, first table.
WEAK_SCALAR_TABLE = [
    (ms.float16, 2, "Float16"), (ms.float32, 2, "Float32"), (ms.float64, 2, "Float64"),
    (ms.float16, 2.5, "Float16"), (ms.float32, 2.5, "Float32"), (ms.float64, 2.5, "Float64"),
    (ms.float16, True, "Float16"), (ms.float32, True, "Float32"), (ms.float64, True, "Float64"),
    (ms.int8, 2, "Int8"), (ms.int16, 2, "Int16"), (ms.int32, 2, "Int32"), (ms.int64, 2, "Int64"),
    (ms.uint8, 2, "UInt8"),
    (ms.int8, 2.5, "Float32"), (ms.int16, 2.5, "Float32"), (ms.int32, 2.5, "Float32"),
    (ms.int64, 2.5, "Float32"), (ms.uint8, 2.5, "Float32"),
    (ms.int8, True, "Int8"), (ms.int32, True, "Int32"), (ms.int64, True, "Int64"),
    (ms.uint8, True, "UInt8"),
    (ms.bool_, 2, "Int64"), (ms.bool_, 2.5, "Float32"), (ms.bool_, True, "Bool"),
]


@pytest.mark.parametrize("dtype,scalar,expected", WEAK_SCALAR_TABLE,
                         ids=[f"{d}-{type(s).__name__}" for d, s, _ in WEAK_SCALAR_TABLE])
def test_tensor_with_python_scalar(dtype, scalar, expected):
    x = tensor([1, 0], dtype)
    results = [x + scalar, scalar + x, x * scalar]
    if not (dtype == ms.bool_ and isinstance(scalar, bool)):
        # MindSpore 2.10's Add primitive rejects Bool ⊕ Bool (TypeError) although the ``+``
        # operator accepts it; only the operator is pinned for that pair.
        results += [ops.add(x, scalar), ops.Add()(x, scalar), ops.add(scalar, x),
                    ops.maximum(x, scalar)]
    for result in results:
        assert str(result.dtype) == expected
    if expected != "Bool":                  # Bool + True is logical (True + True is True)
        np.testing.assert_allclose((x + scalar).asnumpy().astype(np.float64),
                                   np.array([1, 0], np.float64) + scalar)


def test_weak_int_wraps_around_in_the_tensor_dtype():
    out = tensor([1, 2], ms.uint8) + 300
    assert out.dtype == ms.uint8
    assert out.tolist() == [45, 46]
    out = tensor([1, 2], ms.int32) + 2 ** 40
    assert out.dtype == ms.int32
    assert out.tolist() == [1, 2]


def test_bool_tensor_minus_python_bool():
    mask = Tensor([True, False])
    out = mask - True
    assert out.dtype == ms.bool_
    assert out.tolist() == [False, True]
    with pytest.raises(TypeError, match="Sub"):
        True - mask                                   # noqa: B018 (MindSpore 2.10 rejects it)


# -- Tensor ⊕ Tensor ---------------------------------------------------------------------------

#: (left dtype, right dtype, result dtype) — semantics 1.7, tensor ⊕ tensor.
TENSOR_TABLE = [
    (ms.int32, ms.float32, "Float32"),
    (ms.float16, ms.float32, "Float32"),
    (ms.float64, ms.float32, "Float64"),
    (ms.int32, ms.int64, "Int64"),
    (ms.bool_, ms.int32, "Int32"),
    (ms.bool_, ms.float16, "Float16"),
    (ms.bool_, ms.bool_, "Bool"),
    (ms.int8, ms.uint8, "Int16"),
    (ms.int16, ms.uint8, "Int16"),
    (ms.uint8, ms.uint8, "UInt8"),
    (ms.int64, ms.float16, "Float16"),
    (ms.int32, ms.bfloat16, "BFloat16"),
    (ms.float16, ms.bfloat16, "Float32"),
    (ms.int32, ms.bool_, "Int32"),
]


@pytest.mark.parametrize("left,right,expected", TENSOR_TABLE,
                         ids=[f"{a}-{b}" for a, b, _ in TENSOR_TABLE])
def test_tensor_with_tensor(left, right, expected):
    x, y = tensor([1, 0], left), tensor([1, 1], right)
    results = [x + y, y + x, x * y, ops.Mul()(y, x)]
    if not left == right == ms.bool_:          # ops.add(Bool, Bool) is a TypeError in 2.10
        results.append(ops.add(x, y))
    for result in results:
        assert str(result.dtype) == expected
    np.testing.assert_allclose((x * y).asnumpy().astype(np.float64), [1, 0])


def test_bool_with_bool_stays_bool():
    a, b = Tensor([True, False]), Tensor([True, True])
    assert (a + b).dtype == ms.bool_ and (a + b).tolist() == [True, True]
    assert (a * b).dtype == ms.bool_ and (a * b).tolist() == [True, False]
    assert (a - b).dtype == ms.bool_ and (a - b).tolist() == [False, True]


def test_zero_d_tensors_are_not_weak():
    ints = tensor([1, 2], ms.int32)
    assert (Tensor(2.0) + ints).dtype == ms.float32
    assert (Tensor(2) + ints).dtype == ms.int64
    assert (Tensor(2.0, ms.float64) + tensor([1, 2], ms.float16)).dtype == ms.float64


def test_int64_with_float16_computes_in_float16():
    out = tensor([1, 2], ms.int64) + tensor([1, 2], ms.float16)
    assert out.dtype == ms.float16
    assert out.tolist() == [2.0, 4.0]


# -- division, floor division, modulo, power ------------------------------------------------------

def test_true_division_of_ints_is_float32():
    a, b = tensor([3, -7], ms.int32), tensor([2, 2], ms.int32)
    for out in (a / b, ops.div(a, b), ops.Div()(a, b)):
        assert out.dtype == ms.float32
        assert out.tolist() == [1.5, -3.5]
    bools = Tensor([True]) / Tensor([True])
    assert bools.dtype == ms.float32 and bools.tolist() == [1.0]


def test_floor_division_modulo_and_power_keep_int32():
    a, b = tensor([3, -7], ms.int32), tensor([2, 2], ms.int32)
    assert (a // b).dtype == ms.int32 and (a // b).tolist() == [1, -4]
    assert (a % b).dtype == ms.int32 and (a % b).tolist() == [1, 1]
    assert (a ** 2).dtype == ms.int32 and (a ** 2).tolist() == [9, 49]
    assert (a ** 2.0).dtype == ms.float32 and (a ** 2.0).tolist() == [9.0, 49.0]


def test_seed_003_label_times_mask_and_bool_sum():
    label = tensor([1, 2, 3], ms.int32)
    mask = Tensor([True, False, True])
    assert (label * mask).dtype == ms.int32
    assert (label * mask).tolist() == [1, 0, 3]
    scaled = Tensor([True, True]).sum() * 0.7
    assert scaled.dtype == ms.float32 and scaled.shape == ()
    assert abs(scaled.item() - 1.4) < 1e-6


def test_functional_add_of_two_python_ints():
    out = ops.add(1, 2)
    assert isinstance(out, Tensor)
    assert out.dtype == ms.int64 and out.shape == () and out.item() == 3


# -- primitives that do not promote ----------------------------------------------------------------

def test_matmul_does_not_promote():
    with pytest.raises(TypeError, match="For 'MatMul', the type of 'x2' should be same as 'x1'"):
        ops.MatMul()(tensor([[1.0]], ms.float16), tensor([[1.0]], ms.float32))


def test_stack_does_not_promote():
    with pytest.raises(TypeError):
        ops.stack([tensor([1], ms.int32), tensor([1.0], ms.float32)])


# -- Tensor construction (semantics 1.1) --------------------------------------------------------

#: (input data, dtype name, shape).
CONSTRUCTION_TABLE = [
    (1.0, "Float32", ()), (1, "Int64", ()), (True, "Bool", ()),
    ([1, 2], "Int64", (2,)), ([1.0, 2], "Float32", (2,)), ((1, 2.5), "Float32", (2,)),
    ([[1, 2], [3, 4]], "Int64", (2, 2)), ([], "Float32", (0,)),
    ([True, False], "Bool", (2,)), ([True, 2], "Int64", (2,)), ([True, 2.0], "Float32", (2,)),
    (np.array([1, 2]), "Int64", (2,)), (np.array([1.0, 2.0]), "Float64", (2,)),
    (np.float64(1.5), "Float64", ()), (np.float32(1.5), "Float32", ()), (np.int32(1), "Int32", ()),
    (np.array([1, 2], np.uint8), "UInt8", (2,)), (np.array([1.0], np.float16), "Float16", (1,)),
]


@pytest.mark.parametrize("data,dtype,shape", CONSTRUCTION_TABLE,
                         ids=[repr(d) for d, _, _ in CONSTRUCTION_TABLE])
def test_tensor_dtype_inference(data, dtype, shape):
    t = Tensor(data)
    assert str(t.dtype) == dtype
    assert t.shape == shape


# -- Tensor.sum of ints and bools is Int64 (semantics 1.6) ---------------------------------

@pytest.mark.parametrize("dtype", [ms.int8, ms.int32, ms.uint8, ms.int64, ms.bool_])
def test_sum_of_ints_and_bools_is_int64(dtype):
    t = tensor([1, 1, 0], dtype)
    total = t.sum()
    assert total.dtype == ms.int64 and total.shape == () and total.item() == 2
    assert t.sum(axis=0).dtype == ms.int64


def test_float16_sum_stays_float16():
    total = tensor([1.0, 2.0], ms.float16).sum()
    assert total.dtype == ms.float16 and total.item() == 3.0
