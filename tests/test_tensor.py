"""The Tensor API, dtype objects, seeds and context (semantics 1.1–1.3, 1.6, 7.1, 9).

Expected values are what MindSpore 2.10 printed for the same expressions.
"""
import os
import random
import subprocess
import sys

import numpy as np
import pytest

import refms
import refms as ms
from refms import Tensor, ops


@pytest.fixture
def x():
    return Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))


# -- construction ----------------------------------------------------------------------------------

def test_dtype_argument_casts_and_truncates_toward_zero():
    assert Tensor(2.7, ms.int32).item() == 2
    assert Tensor(-2.7, ms.int32).item() == -2
    t = Tensor([1.5, -1.5], ms.int64)
    assert t.dtype == ms.int64 and t.tolist() == [1, -1]
    half = Tensor(np.array([1.5]), ms.float16)
    assert half.dtype == ms.float16 and half.tolist() == [1.5]


def test_ints_beyond_int64_are_rejected():
    # semantics 1.1.  (MindSpore 2.10 raises TypeError for the list and
    # RuntimeError("Unsupported tensor type!") for the bare Python int.)
    with pytest.raises(TypeError):
        Tensor([2 ** 70])
    with pytest.raises(TypeError):
        Tensor(2 ** 70)
    assert Tensor(-2 ** 63).item() == -2 ** 63


def test_construction_from_tensors(x):
    copy = Tensor(x)
    assert copy.dtype == ms.float32 and copy.tolist() == x.tolist()
    cast = Tensor(x, ms.int32)
    assert cast.dtype == ms.int32 and cast.tolist()[2] == [8, 9, 10, 11]
    stacked = Tensor([Tensor(1.0), Tensor(2.0)])
    assert stacked.dtype == ms.float32 and stacked.tolist() == [1.0, 2.0]


def test_asnumpy(x):
    array = x.asnumpy()
    assert isinstance(array, np.ndarray) and array.dtype == np.float32
    np.testing.assert_array_equal(array, np.arange(12, dtype=np.float32).reshape(3, 4))
    assert Tensor([1, 2], ms.int32).asnumpy().dtype == np.int32
    assert Tensor([True]).asnumpy().dtype == np.bool_


# -- attributes ------------------------------------------------------------------------------------

def test_shape_ndim_size_len(x):
    assert x.shape == (3, 4) and isinstance(x.shape, tuple)
    assert x.ndim == 2 and x.size == 12 and len(x) == 3
    assert x.itemsize == 4 and x.nbytes == 48
    scalar = Tensor(1.0)
    assert scalar.shape == () and scalar.ndim == 0 and scalar.size == 1
    with pytest.raises(TypeError, match="Not support len of a 0-D tensor"):
        len(scalar)


def test_item_and_tolist(x):
    assert Tensor(3.5).item() == 3.5 and isinstance(Tensor(3.5).item(), float)
    assert Tensor(3).item() == 3 and isinstance(Tensor(3).item(), int)
    assert Tensor(True).item() is True
    assert Tensor([[2.5]]).item() == 2.5
    with pytest.raises(ValueError):
        x.item()
    assert x.tolist() == [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]
    assert Tensor(2.5).tolist() == 2.5


def test_python_scalars_of_one_element_tensors():
    assert bool(Tensor([0.0])) is False
    assert float(Tensor([2.5])) == 2.5
    assert int(Tensor([2.7])) == 2 and int(Tensor([-2.7])) == -2
    with pytest.raises(ValueError, match="The tensor should have only one element, but got 2, "
                                         "more than one element is ambiguous."):
        bool(Tensor([1.0, 2.0]))
    with pytest.raises(ValueError, match="Only one element tensors can be converted to Python "
                                         "scalars"):
        float(Tensor([1.0, 2.0]))
    with pytest.raises(ValueError, match="The tensor should have only one element, but got 12, "
                                         "more than one element is ambiguous."):
        Tensor(np.ones((3, 4), np.float32)).item()


def test_hash_is_identity_based(x):
    assert hash(x) == hash(x)
    assert {x: 1}[x] == 1


# -- conversions and shape methods -----------------------------------------------------------------

def test_astype(x):
    assert x.astype(ms.int32).dtype == ms.int32
    assert x.astype(np.float16).dtype == ms.float16
    assert x.astype(np.int64).dtype == ms.int64
    assert Tensor([0.0, 2.0]).astype(ms.bool_).tolist() == [False, True]
    assert x.astype(ms.float32) is not x


def test_view_and_reshape(x):
    for t in (x.view((-1, 6)), x.view(2, 6), x.reshape(2, 6)):
        assert t.shape == (2, 6) and t.tolist()[1] == [6.0, 7.0, 8.0, 9.0, 10.0, 11.0]
    assert x.reshape((4, -1)).shape == (4, 3)


def test_expand_dims_transpose_copy(x):
    assert x.expand_dims(1).shape == (3, 1, 4)
    assert x.transpose().tolist()[0] == [0.0, 4.0, 8.0]
    assert x.T.shape == (4, 3) and x.T.tolist() == x.transpose().tolist()
    assert Tensor(np.zeros((2, 3, 4), np.float32)).transpose(1, 0, 2).shape == (3, 2, 4)
    copy = x.copy()
    assert copy is not x and copy.tolist() == x.tolist()


# -- reductions ------------------------------------------------------------------------------------

def test_reductions(x):
    assert x.sum().shape == () and x.sum().item() == 66.0
    assert x.sum(axis=1).tolist() == [6.0, 22.0, 38.0]
    assert x.sum(axis=1, keepdims=True).shape == (3, 1)
    assert x.mean().item() == 5.5 and x.mean(axis=0).tolist() == [4.0, 5.0, 6.0, 7.0]
    assert x.max().item() == 11.0 and x.max(axis=1).tolist() == [3.0, 7.0, 11.0]
    assert x.min().item() == 0.0
    assert Tensor([1.0, 2.0, 3.0]).prod().item() == 6.0


def test_any_all_are_zero_d_bool(x):
    mask = x > 5
    for result in (mask.any(), mask.all()):
        assert result.dtype == ms.bool_ and result.shape == ()
    assert mask.any().item() is True and mask.all().item() is False
    assert mask.any(axis=1).tolist() == [False, True, True]


def test_argmax(x):
    assert x.argmax().dtype == ms.int64 and x.argmax().item() == 11
    assert x.argmax(axis=1).tolist() == [3, 3, 3]


# -- indexing --------------------------------------------------------------------------------------

def test_int_and_slice_indexing(x):
    assert x[0].tolist() == [0.0, 1.0, 2.0, 3.0]
    assert x[-1].tolist() == [8.0, 9.0, 10.0, 11.0]
    assert x[0, 1].shape == () and x[0, 1].item() == 1.0
    assert x[1:, ::2].tolist() == [[4.0, 6.0], [8.0, 10.0]]
    with pytest.raises(IndexError):
        x[5]


def test_none_and_ellipsis_indexing(x):
    assert x[None].shape == (1, 3, 4)
    assert x[..., 1].tolist() == [1.0, 5.0, 9.0]
    assert x[:, None, 1].tolist() == [[1.0], [5.0], [9.0]]


def test_tensor_indexing(x):
    assert x[Tensor(2, ms.int32)].tolist() == [8.0, 9.0, 10.0, 11.0]
    assert x[Tensor([2, 0])].tolist() == [[8.0, 9.0, 10.0, 11.0], [0.0, 1.0, 2.0, 3.0]]
    assert x[x > 6].tolist() == [7.0, 8.0, 9.0, 10.0, 11.0]
    assert x[Tensor([True, False, True])].shape == (2, 4)


def test_setitem(x):
    y = x.copy()
    y[0, 0] = 100.0
    assert y[0, 0].item() == 100.0 and x[0, 0].item() == 0.0


def test_iteration():
    assert [row.tolist() for row in Tensor([[1, 2], [3, 4]])] == [[1, 2], [3, 4]]


# -- operators and comparisons ---------------------------------------------------------------------

def test_arithmetic_operators(x):
    row = x[0]
    assert (row + 1).tolist() == [1.0, 2.0, 3.0, 4.0]
    assert (row - 1).tolist() == [-1.0, 0.0, 1.0, 2.0]
    assert (row * 2).tolist() == [0.0, 2.0, 4.0, 6.0]
    assert (row / 2).tolist() == [0.0, 0.5, 1.0, 1.5]
    assert (-row).tolist() == [-0.0, -1.0, -2.0, -3.0]
    assert (row ** 2).tolist() == [0.0, 1.0, 4.0, 9.0]
    assert (row // 2).tolist() == [0.0, 0.0, 1.0, 1.0]
    assert (row % 3).tolist() == [0.0, 1.0, 2.0, 0.0]
    assert abs(-row).tolist() == [0.0, 1.0, 2.0, 3.0]
    assert (1 - row).tolist() == [1.0, 0.0, -1.0, -2.0]
    np.testing.assert_allclose((2 / (row + 1)).asnumpy(), [2.0, 1.0, 2 / 3, 0.5], rtol=1e-6)
    assert (x @ x.T).tolist()[0] == [14.0, 38.0, 62.0]


def test_comparisons_give_bool_tensors():
    t = Tensor([1.0, 2.0])
    cases = [(t > 1, [False, True]), (t >= 2, [False, True]), (t < 2, [True, False]),
             (t <= 1, [True, False]), (t == 2, [False, True]), (t != 2, [True, False]),
             (t > Tensor([2.0, 1.0]), [False, True])]
    for result, expected in cases:
        assert result.dtype == ms.bool_ and result.tolist() == expected


def test_equality_with_non_numbers_is_python_false():
    t = Tensor([1.0])
    assert (t == None) is False                      # noqa: E711
    assert (t == "a") is False
    assert (t != "a") is True


# -- dtype objects (semantics 1.2) --------------------------------------------------------------

DTYPE_NAMES = [
    (ms.int8, "Int8", "mindspore.int8"), (ms.int16, "Int16", "mindspore.int16"),
    (ms.int32, "Int32", "mindspore.int32"), (ms.int64, "Int64", "mindspore.int64"),
    (ms.uint8, "UInt8", "mindspore.uint8"), (ms.uint16, "UInt16", "mindspore.uint16"),
    (ms.uint32, "UInt32", "mindspore.uint32"), (ms.uint64, "UInt64", "mindspore.uint64"),
    (ms.float16, "Float16", "mindspore.float16"), (ms.float32, "Float32", "mindspore.float32"),
    (ms.float64, "Float64", "mindspore.float64"), (ms.bfloat16, "BFloat16", "mindspore.bfloat16"),
    (ms.bool_, "Bool", "mindspore.bool"), (ms.complex64, "Complex64", "mindspore.complex64"),
    (ms.complex128, "Complex128", "mindspore.complex128"),
]


@pytest.mark.parametrize("dtype,name,path", DTYPE_NAMES, ids=[n for _, n, _ in DTYPE_NAMES])
def test_dtype_str_and_repr(dtype, name, path):
    assert str(dtype) == name
    assert repr(dtype) == path


def test_dtype_aliases_and_modules():
    assert str(ms.float_) == "Float" and str(ms.int_) == "Int" and str(ms.half) == "Float16"
    assert ms.half is ms.float16
    assert str(ms.single) == "Float32" and str(ms.double) == "Float64"
    assert ms.dtype.float32 is ms.float32
    assert refms.common.dtype.float32 is ms.float32
    from refms import dtype as mstype
    assert mstype.int32 is ms.int32
    assert (ms.float32 == np.float32) is False
    assert ms.dtype_to_nptype(ms.float32) is np.float32
    assert Tensor(1.0).dtype is ms.float32
    assert str(((2,), ms.float32, 2)) == "((2,), mindspore.float32, 2)"


# -- seeds (semantics 9) ------------------------------------------------------------------------

def test_get_seed_is_none_until_set():
    assert ms.get_seed() is None
    ms.set_seed(5)
    assert ms.get_seed() == 5


def test_set_seed_seeds_numpy_and_python_random():
    ms.set_seed(1)
    ours = (np.random.rand(3).tolist(), random.random())
    np.random.seed(1)
    random.seed(1)
    assert ours == (np.random.rand(3).tolist(), random.random())
    ms.set_seed(1)
    assert np.random.randint(0, 1000) == np.random.RandomState(1).randint(0, 1000)


def test_set_seed_checks_its_argument():
    with pytest.raises(TypeError):
        ms.set_seed(1.5)
    with pytest.raises(ValueError):
        ms.set_seed(-1)


def test_op_seed_pairs_advance_and_reseeding_repeats():
    from refms.seed import op_seed_pair
    assert op_seed_pair("uniform") is None                  # neither seed set: fresh each run
    assert op_seed_pair("uniform", 7) == (0, 7)             # an op seed alone is reproducible
    ms.set_seed(1)
    first = [op_seed_pair("uniform") for _ in range(3)]
    assert first == [(1, 0), (1, 1), (1, 2)]                # repeated calls differ
    ms.set_seed(1)
    assert [op_seed_pair("uniform") for _ in range(3)] == first   # reseeding repeats
    assert op_seed_pair("normal", 3) == (1, 3)              # counters are per (kernel, op seed)
    ms.set_seed(0)
    assert op_seed_pair("uniform") == (87654321, 0)         # global 0 maps to 87654321


def _random_ops_exist():
    return "StandardNormal" in ops.REGISTRY and hasattr(ops, "standard_normal")


@pytest.mark.skipif(not _random_ops_exist(), reason="random ops are not registered yet")
def test_random_ops_differ_per_call_and_repeat_after_reseeding():
    ms.set_seed(3)
    first, second = ops.standard_normal((4,)), ops.standard_normal((4,))
    assert first.tolist() != second.tolist()
    ms.set_seed(3)
    assert ops.standard_normal((4,)).tolist() == first.tolist()
    assert ops.standard_normal((4,)).tolist() == second.tolist()


# -- context (semantics 7.1) --------------------------------------------------------------------

def test_modes_and_default():
    assert ms.GRAPH_MODE == 0 and ms.PYNATIVE_MODE == 1
    assert ms.get_context("mode") == ms.PYNATIVE_MODE          # 2.10 default
    ms.set_context(mode=ms.GRAPH_MODE)
    assert ms.get_context("mode") == ms.GRAPH_MODE
    ms.context.set_context(mode=ms.context.PYNATIVE_MODE)
    assert ms.context.get_context("mode") == ms.PYNATIVE_MODE


def test_context_keys():
    ms.set_context(pynative_synchronize=True, device_target="CPU")
    assert ms.get_context("pynative_synchronize") is True
    assert ms.get_context("device_target") == "CPU"
    with pytest.raises(ValueError, match="not recognized"):
        ms.set_context(foo=1)
    with pytest.raises(ValueError):
        ms.get_context("foo")
    with pytest.raises(ValueError):
        ms.set_context(mode=5)


def test_compat_switch():
    assert ms.get_context("compat") == "2.10"
    ms.set_context(compat="1.7")
    assert ms.get_context("compat") == "1.7"
    assert ms.get_context("mode") == ms.GRAPH_MODE             # r1.x docs: Graph by default
    ms.set_context(compat="r2.0")
    assert ms.get_context("compat") == "2.0"
    assert ms.get_context("mode") == ms.PYNATIVE_MODE
    with pytest.raises(ValueError):
        ms.set_context(compat="0.1")


def test_compat_grad_position_returns_a_one_tuple_before_2_1():
    f = ms.grad(lambda a, b: a * b, grad_position=0)
    args = (Tensor([5.0]), Tensor([7.0]))
    assert isinstance(f(*args), Tensor)
    ms.set_context(compat="2.0")
    result = f(*args)
    assert isinstance(result, tuple) and len(result) == 1 and result[0].tolist() == [7.0]


def test_refms_compat_environment_variable():
    code = "import refms; print(refms.get_context('compat'), refms.get_context('mode'))"
    env = dict(os.environ, REFMS_COMPAT="1.7")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True, cwd=root)
    assert out.stdout.split() == ["1.7", "0"]
