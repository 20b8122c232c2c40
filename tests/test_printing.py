"""Tensor printing: ``str`` is numpy's, ``repr`` is MindSpore's C++ format (semantics 1.4-1.5).

Every expected string below is what MindSpore 2.10 (CPU, Linux) printed for
``repr(mindspore.Tensor(array))`` or ``str(...)`` of the same array; the tests
are grouped one rule per test, in the order of semantics 1.5.
"""
import numpy as np
import pytest

import refms
from refms import Tensor
from refms.dtype import round_to_bfloat16

nan, inf = np.nan, np.inf


def bfloat16_tensor(array):
    """``Tensor(array).astype(bfloat16)``, built directly.

    (Built by hand because refms's float32 -> bfloat16 cast currently turns a
    0-d array into shape (1,); this file tests printing, not casting.)
    """
    array = np.asarray(array, dtype=np.float32)
    return Tensor._make(round_to_bfloat16(array).reshape(array.shape), refms.bfloat16)


def fill_with_ones(array):
    array[...] = 1


# -- rules 1-3: header, opening, 0-d body (C++ stream default: %g) ----------

@pytest.mark.parametrize("array, expected", [
    pytest.param(np.array(1.0, np.float32),
                 "Tensor(shape=[], dtype=Float32, value= 1)",
                 id="f32-one"),
    pytest.param(np.array(2.5, np.float32),
                 "Tensor(shape=[], dtype=Float32, value= 2.5)",
                 id="f32-2.5"),
    pytest.param(np.array(0.1, np.float32),
                 "Tensor(shape=[], dtype=Float32, value= 0.1)",
                 id="f32-0.1"),
    pytest.param(np.array(1e-5, np.float32),
                 "Tensor(shape=[], dtype=Float32, value= 1e-05)",
                 id="f32-1e-5"),
    pytest.param(np.array(123456.7, np.float32),
                 "Tensor(shape=[], dtype=Float32, value= 123457)",
                 id="f32-123456.7"),
    pytest.param(np.array(1234567.0, np.float32),
                 "Tensor(shape=[], dtype=Float32, value= 1.23457e+06)",
                 id="f32-1234567"),
    pytest.param(np.array(1e20, np.float32),
                 "Tensor(shape=[], dtype=Float32, value= 1e+20)",
                 id="f32-1e20"),
    pytest.param(np.array(1 / 3, np.float32),
                 "Tensor(shape=[], dtype=Float32, value= 0.333333)",
                 id="f32-third"),
    pytest.param(np.array(2.2689974, np.float32),
                 "Tensor(shape=[], dtype=Float32, value= 2.269)",
                 id="f32-2.2689974"),
    pytest.param(np.array(-0.0, np.float32),
                 "Tensor(shape=[], dtype=Float32, value= -0)",
                 id="f32-minus-zero"),
    pytest.param(np.array(-1.5, np.float32),
                 "Tensor(shape=[], dtype=Float32, value= -1.5)",
                 id="f32-negative"),
    pytest.param(np.array(nan, np.float32),
                 "Tensor(shape=[], dtype=Float32, value= nan)",
                 id="f32-nan"),
    pytest.param(np.array(-nan, np.float32),
                 "Tensor(shape=[], dtype=Float32, value= -nan)",
                 id="f32-minus-nan"),
    pytest.param(np.array(inf, np.float32),
                 "Tensor(shape=[], dtype=Float32, value= inf)",
                 id="f32-inf"),
    pytest.param(np.array(-inf, np.float32),
                 "Tensor(shape=[], dtype=Float32, value= -inf)",
                 id="f32-minus-inf"),
    pytest.param(np.array(1 / 3, np.float64),
                 "Tensor(shape=[], dtype=Float64, value= 0.333333)",
                 id="f64-third"),
    pytest.param(np.array(1e-300, np.float64),
                 "Tensor(shape=[], dtype=Float64, value= 1e-300)",
                 id="f64-1e-300"),
    pytest.param(np.array(7, np.float16),
                 "Tensor(shape=[], dtype=Float16, value= 7)",
                 id="f16-seven"),
    pytest.param(np.array(1 / 3, np.float16),
                 "Tensor(shape=[], dtype=Float16, value= 0.333252)",
                 id="f16-third"),
    pytest.param(np.array(65504, np.float16),
                 "Tensor(shape=[], dtype=Float16, value= 65504)",
                 id="f16-max"),
    pytest.param(np.array(3, np.int64),
                 "Tensor(shape=[], dtype=Int64, value= 3)",
                 id="int64"),
    pytest.param(np.array(-7, np.int32),
                 "Tensor(shape=[], dtype=Int32, value= -7)",
                 id="int32-negative"),
    pytest.param(np.array(-5, np.int8),
                 "Tensor(shape=[], dtype=Int8, value= -5)",
                 id="int8"),
    pytest.param(np.array(200, np.uint8),
                 "Tensor(shape=[], dtype=UInt8, value= 200)",
                 id="uint8"),
    pytest.param(np.array(-2 ** 63, np.int64),
                 "Tensor(shape=[], dtype=Int64, value= -9223372036854775808)",
                 id="int64-min"),
    pytest.param(np.array(2 ** 64 - 1, np.uint64),
                 "Tensor(shape=[], dtype=UInt64, value= 18446744073709551615)",
                 id="uint64-max"),
    pytest.param(np.array(True),
                 "Tensor(shape=[], dtype=Bool, value= True)",
                 id="bool-true"),
    pytest.param(np.array(False),
                 "Tensor(shape=[], dtype=Bool, value= False)",
                 id="bool-false"),
    pytest.param(np.array(1 + 2j, np.complex64),
                 "Tensor(shape=[], dtype=Complex64, value= 1+2j)",
                 id="complex64"),
    pytest.param(np.array(-1.5 - 0.25j, np.complex128),
                 "Tensor(shape=[], dtype=Complex128, value= -1.5-0.25j)",
                 id="complex128"),
])
def test_scalar_body_is_c_stream_default(array, expected):
    assert repr(Tensor(array)) == expected


# -- rule 4: one element, by dtype -------------------------------------------

@pytest.mark.parametrize("array, expected", [
    pytest.param(np.array([-1.5, 0.0, -0.0, 2.5], np.float32),
                 "Tensor(shape=[4], dtype=Float32, value= [-1.50000000e+00,  0.00000000e+00, -0.00000000e+00,  2.50000000e+00])",
                 id="f32-signs"),
    pytest.param(np.array([0.1, 1e-5, 1e5], np.float32),
                 "Tensor(shape=[3], dtype=Float32, value= [ 1.00000001e-01,  9.99999975e-06,  1.00000000e+05])",
                 id="f32-stored-binary-value"),
    pytest.param(np.array([nan, -nan, inf, -inf, 1.0], np.float32),
                 "Tensor(shape=[5], dtype=Float32, value= [            nan,            -nan,             inf,            -inf,  1.00000000e+00])",
                 id="f32-nan-inf"),
    pytest.param(np.array([0.1, 1 / 3, -2.0], np.float64),
                 "Tensor(shape=[3], dtype=Float64, value= [ 1.00000000e-01,  3.33333333e-01, -2.00000000e+00])",
                 id="f64-values"),
    pytest.param(np.array([1e-300, 1e300, -1e-300, 1.0], np.float64),
                 "Tensor(shape=[4], dtype=Float64, value= [1.00000000e-300, 1.00000000e+300, -1.00000000e-300,  1.00000000e+00])",
                 id="f64-three-digit-exponent"),
    pytest.param(np.array([[1e-300, 2.0], [nan, -inf]], np.float64),
                 ("Tensor(shape=[2, 2], dtype=Float64, value=\n"
                  "[[1.00000000e-300,  2.00000000e+00],\n"
                  " [            nan,            -inf]])"),
                 id="f64-2d"),
])
def test_float32_float64_elements_are_width_15_with_8_digits(array, expected):
    assert repr(Tensor(array)) == expected


@pytest.mark.parametrize("array, expected", [
    pytest.param(np.array([1.5, -2.0, 0.1, 65504, inf, nan], np.float16),
                 "Tensor(shape=[6], dtype=Float16, value= [ 1.5000e+00, -2.0000e+00,  9.9976e-02,  6.5504e+04,         inf,         nan])",
                 id="f16-values"),
    pytest.param(np.array([[1, 2, 3], [-4, 5, 6]], np.float16),
                 ("Tensor(shape=[2, 3], dtype=Float16, value=\n"
                  "[[ 1.0000e+00,  2.0000e+00,  3.0000e+00],\n"
                  " [-4.0000e+00,  5.0000e+00,  6.0000e+00]])"),
                 id="f16-2d"),
])
def test_float16_elements_are_width_11_with_4_digits(array, expected):
    assert repr(Tensor(array)) == expected


@pytest.mark.parametrize("array, expected", [
    pytest.param(np.array([1, 2], np.int32),
                 "Tensor(shape=[2], dtype=Int32, value= [1, 2])",
                 id="same-width"),
    pytest.param(np.array([1, -2], np.int32),
                 "Tensor(shape=[2], dtype=Int32, value= [ 1, -2])",
                 id="negative"),
    pytest.param(np.array([-7, 100000], np.int32),
                 "Tensor(shape=[2], dtype=Int32, value= [    -7, 100000])",
                 id="wide"),
    pytest.param(np.array([1, -2, 3, -128], np.int8),
                 "Tensor(shape=[4], dtype=Int8, value= [   1,   -2,    3, -128])",
                 id="int8"),
    pytest.param(np.array([0, 255, 7], np.uint8),
                 "Tensor(shape=[3], dtype=UInt8, value= [  0, 255,   7])",
                 id="uint8"),
    pytest.param(np.array([1, 65535], np.uint16),
                 "Tensor(shape=[2], dtype=UInt16, value= [    1, 65535])",
                 id="uint16"),
    pytest.param(np.array([3, 4000000000], np.uint32),
                 "Tensor(shape=[2], dtype=UInt32, value= [         3, 4000000000])",
                 id="uint32"),
    pytest.param(np.array([0, 2 ** 64 - 1], np.uint64),
                 "Tensor(shape=[2], dtype=UInt64, value= [                   0, 18446744073709551615])",
                 id="uint64"),
    pytest.param(np.array([[1, -200], [30, 4]], np.int16),
                 ("Tensor(shape=[2, 2], dtype=Int16, value=\n"
                  "[[   1, -200],\n"
                  " [  30,    4]])"),
                 id="int16-2d"),
    pytest.param(np.array([[-1, 2], [3, -44]], np.int32),
                 ("Tensor(shape=[2, 2], dtype=Int32, value=\n"
                  "[[ -1,   2],\n"
                  " [  3, -44]])"),
                 id="int32-2d-negative"),
    pytest.param(np.array([[1, 2, 3], [4, 5, 600]], np.int32),
                 ("Tensor(shape=[2, 3], dtype=Int32, value=\n"
                  "[[  1,   2,   3],\n"
                  " [  4,   5, 600]])"),
                 id="int32-2d"),
    pytest.param(np.array([[1, 2, 3, 1000000, 5, 6, 7]], np.int32),
                 ("Tensor(shape=[1, 7], dtype=Int32, value=\n"
                  "[[1, 2, 3 ... 5, 6, 7]])"),
                 id="hidden-column-not-counted"),
    pytest.param(np.array([[1], [2], [3], [-99999], [5], [6], [7]], np.int64),
                 ("Tensor(shape=[7, 1], dtype=Int64, value=\n"
                  "[[1],\n"
                  " [2],\n"
                  " [3],\n"
                  " ...\n"
                  " [5],\n"
                  " [6],\n"
                  " [7]])"),
                 id="hidden-row-not-counted"),
])
def test_int_elements_align_to_widest_printed_element(array, expected):
    assert repr(Tensor(array)) == expected


@pytest.mark.parametrize("array, expected", [
    pytest.param(np.array([True, False]),
                 "Tensor(shape=[2], dtype=Bool, value= [ True, False])",
                 id="1d"),
    pytest.param(np.array([[True, False, True], [False, False, True]]),
                 ("Tensor(shape=[2, 3], dtype=Bool, value=\n"
                  "[[ True, False,  True],\n"
                  " [False, False,  True]])"),
                 id="2d"),
])
def test_bool_elements_are_width_5(array, expected):
    assert repr(Tensor(array)) == expected


@pytest.mark.parametrize("array, expected", [
    pytest.param(np.array([1 + 2j, 3.5 - 1j, complex(-0.0, -1), 1e10 + 1e-10j, 123456.7 + 0j], np.complex64),
                 "Tensor(shape=[5], dtype=Complex64, value= [1+2j, 3.5-1j, -0-1j, 1e+10+1e-10j, 123457+0j])",
                 id="complex64"),
    pytest.param(np.array([[1 + 1j, 2 + 2j], [3 + 3j, 4 + 4j]], np.complex128),
                 ("Tensor(shape=[2, 2], dtype=Complex128, value=\n"
                  "[[1+1j, 2+2j],\n"
                  " [3+3j, 4+4j]])"),
                 id="complex128-2d"),
    pytest.param(np.array([complex(nan, 1), complex(inf, -inf), complex(-nan, nan)], np.complex128),
                 "Tensor(shape=[3], dtype=Complex128, value= [nan+1j, inf-infj, -nan+nanj])",
                 id="nan-inf"),
])
def test_complex_elements_are_real_and_signed_imaginary(array, expected):
    assert repr(Tensor(array)) == expected


@pytest.mark.parametrize("array, expected", [
    pytest.param(np.array(1.5, np.float32),
                 "Tensor(shape=[], dtype=BFloat16, value= 1.5)",
                 id="0d"),
    pytest.param(np.array(7.0, np.float32),
                 "Tensor(shape=[], dtype=BFloat16, value= 7)",
                 id="0d-integral"),
    pytest.param(np.array([1.5, 2.0], np.float32),
                 "Tensor(shape=[2], dtype=BFloat16, value= [1.5,   2])",
                 id="1d"),
    pytest.param(np.array([1e10, -1e-10, 3.14159, -2.5], np.float32),
                 "Tensor(shape=[4], dtype=BFloat16, value= [ 9.99922e+09, -1.00044e-10,      3.14062,         -2.5])",
                 id="rounded-values"),
    pytest.param(np.array([nan, inf, -inf, -0.0], np.float32),
                 "Tensor(shape=[4], dtype=BFloat16, value= [ nan,  inf, -inf,   -0])",
                 id="nan-inf-minus-zero"),
    pytest.param(np.array([123456.0, 1e-5], np.float32),
                 "Tensor(shape=[2], dtype=BFloat16, value= [     123392, 1.00136e-05])",
                 id="mixed-magnitudes"),
    pytest.param(np.array([[1, 2], [3, 4]], np.float32),
                 ("Tensor(shape=[2, 2], dtype=BFloat16, value=\n"
                  "[[1, 2],\n"
                  " [3, 4]])"),
                 id="2x2"),
    pytest.param(np.arange(24, dtype=np.float32).reshape(2, 3, 4),
                 ("Tensor(shape=[2, 3, 4], dtype=BFloat16, value=\n"
                  "[[[ 0,  1,  2,  3],\n"
                  "  [ 4,  5,  6,  7],\n"
                  "  [ 8,  9, 10, 11]],\n"
                  " [[12, 13, 14, 15],\n"
                  "  [16, 17, 18, 19],\n"
                  "  [20, 21, 22, 23]]])"),
                 id="2x3x4"),
    pytest.param(np.arange(30, dtype=np.float32),
                 ("Tensor(shape=[30], dtype=BFloat16, value= [ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, \n"
                  " 24, 25, 26, 27, 28, 29])"),
                 id="line-feed-every-24"),
    pytest.param(np.arange(1500, dtype=np.float32),
                 "Tensor(shape=[1500], dtype=BFloat16, value= [   0,    1,    2 ... 1496, 1496, 1496])",
                 id="summarised-1500"),
    pytest.param(np.arange(2000, dtype=np.float32).reshape(40, 50),
                 ("Tensor(shape=[40, 50], dtype=BFloat16, value=\n"
                  "[[   0,    1,    2 ...   47,   48,   49],\n"
                  " [  50,   51,   52 ...   97,   98,   99],\n"
                  " [ 100,  101,  102 ...  147,  148,  149],\n"
                  " ...\n"
                  " [1848, 1848, 1856 ... 1896, 1896, 1896],\n"
                  " [1904, 1904, 1904 ... 1944, 1952, 1952],\n"
                  " [1952, 1952, 1952 ... 2000, 2000, 2000]])"),
                 id="summarised-40x50"),
])
def test_bfloat16_repr_takes_the_integer_path(array, expected):
    assert repr(bfloat16_tensor(array)) == expected


# -- rule 5: nested layout ----------------------------------------------------

@pytest.mark.parametrize("array, expected", [
    pytest.param(np.array([[1.5, 2, 3], [4, 5, 6]], np.float32),
                 ("Tensor(shape=[2, 3], dtype=Float32, value=\n"
                  "[[ 1.50000000e+00,  2.00000000e+00,  3.00000000e+00],\n"
                  " [ 4.00000000e+00,  5.00000000e+00,  6.00000000e+00]])"),
                 id="2x3"),
    pytest.param(np.array([[7.0]], np.float32),
                 ("Tensor(shape=[1, 1], dtype=Float32, value=\n"
                  "[[ 7.00000000e+00]])"),
                 id="1x1"),
    pytest.param(np.arange(8, dtype=np.float32).reshape(2, 2, 2),
                 ("Tensor(shape=[2, 2, 2], dtype=Float32, value=\n"
                  "[[[ 0.00000000e+00,  1.00000000e+00],\n"
                  "  [ 2.00000000e+00,  3.00000000e+00]],\n"
                  " [[ 4.00000000e+00,  5.00000000e+00],\n"
                  "  [ 6.00000000e+00,  7.00000000e+00]]])"),
                 id="2x2x2"),
    pytest.param(np.full((1, 2, 1, 1), 0.999995, np.float32),
                 ("Tensor(shape=[1, 2, 1, 1], dtype=Float32, value=\n"
                  "[[[[ 9.99994993e-01]],\n"
                  "  [[ 9.99994993e-01]]]])"),
                 id="1x2x1x1"),
    pytest.param(np.arange(24, dtype=np.float32).reshape(2, 3, 2, 2) - 10,
                 ("Tensor(shape=[2, 3, 2, 2], dtype=Float32, value=\n"
                  "[[[[-1.00000000e+01, -9.00000000e+00],\n"
                  "   [-8.00000000e+00, -7.00000000e+00]],\n"
                  "  [[-6.00000000e+00, -5.00000000e+00],\n"
                  "   [-4.00000000e+00, -3.00000000e+00]],\n"
                  "  [[-2.00000000e+00, -1.00000000e+00],\n"
                  "   [ 0.00000000e+00,  1.00000000e+00]]],\n"
                  " [[[ 2.00000000e+00,  3.00000000e+00],\n"
                  "   [ 4.00000000e+00,  5.00000000e+00]],\n"
                  "  [[ 6.00000000e+00,  7.00000000e+00],\n"
                  "   [ 8.00000000e+00,  9.00000000e+00]],\n"
                  "  [[ 1.00000000e+01,  1.10000000e+01],\n"
                  "   [ 1.20000000e+01,  1.30000000e+01]]]])"),
                 id="2x3x2x2"),
    pytest.param(np.arange(20, dtype=np.float32).reshape(5, 4),
                 ("Tensor(shape=[5, 4], dtype=Float32, value=\n"
                  "[[ 0.00000000e+00,  1.00000000e+00,  2.00000000e+00,  3.00000000e+00],\n"
                  " [ 4.00000000e+00,  5.00000000e+00,  6.00000000e+00,  7.00000000e+00],\n"
                  " [ 8.00000000e+00,  9.00000000e+00,  1.00000000e+01,  1.10000000e+01],\n"
                  " [ 1.20000000e+01,  1.30000000e+01,  1.40000000e+01,  1.50000000e+01],\n"
                  " [ 1.60000000e+01,  1.70000000e+01,  1.80000000e+01,  1.90000000e+01]])"),
                 id="5x4"),
    pytest.param(np.arange(36, dtype=np.float32).reshape(6, 6),
                 ("Tensor(shape=[6, 6], dtype=Float32, value=\n"
                  "[[ 0.00000000e+00,  1.00000000e+00,  2.00000000e+00,  3.00000000e+00,  4.00000000e+00,  5.00000000e+00],\n"
                  " [ 6.00000000e+00,  7.00000000e+00,  8.00000000e+00,  9.00000000e+00,  1.00000000e+01,  1.10000000e+01],\n"
                  " [ 1.20000000e+01,  1.30000000e+01,  1.40000000e+01,  1.50000000e+01,  1.60000000e+01,  1.70000000e+01],\n"
                  " [ 1.80000000e+01,  1.90000000e+01,  2.00000000e+01,  2.10000000e+01,  2.20000000e+01,  2.30000000e+01],\n"
                  " [ 2.40000000e+01,  2.50000000e+01,  2.60000000e+01,  2.70000000e+01,  2.80000000e+01,  2.90000000e+01],\n"
                  " [ 3.00000000e+01,  3.10000000e+01,  3.20000000e+01,  3.30000000e+01,  3.40000000e+01,  3.50000000e+01]])"),
                 id="6x6-not-summarised"),
])
def test_nested_blocks_are_separated_by_comma_newline_indent(array, expected):
    assert repr(Tensor(array)) == expected


# -- rule 6: summarisation ----------------------------------------------------

@pytest.mark.parametrize("array, expected", [
    pytest.param(np.arange(14, dtype=np.float32).reshape(2, 7),
                 ("Tensor(shape=[2, 7], dtype=Float32, value=\n"
                  "[[ 0.00000000e+00,  1.00000000e+00,  2.00000000e+00 ...  4.00000000e+00,  5.00000000e+00,  6.00000000e+00],\n"
                  " [ 7.00000000e+00,  8.00000000e+00,  9.00000000e+00 ...  1.10000000e+01,  1.20000000e+01,  1.30000000e+01]])"),
                 id="2x7"),
    pytest.param(np.arange(13, dtype=np.float32).reshape(1, 13),
                 ("Tensor(shape=[1, 13], dtype=Float32, value=\n"
                  "[[ 0.00000000e+00,  1.00000000e+00,  2.00000000e+00 ...  1.00000000e+01,  1.10000000e+01,  1.20000000e+01]])"),
                 id="1x13-no-line-feeds"),
    pytest.param(np.arange(30, dtype=np.int32).reshape(1, 30),
                 ("Tensor(shape=[1, 30], dtype=Int32, value=\n"
                  "[[ 0,  1,  2 ... 27, 28, 29]])"),
                 id="int-1x30"),
    pytest.param(np.arange(16).reshape(2, 8) % 2 == 0,
                 ("Tensor(shape=[2, 8], dtype=Bool, value=\n"
                  "[[ True, False,  True ... False,  True, False],\n"
                  " [ True, False,  True ... False,  True, False]])"),
                 id="bool-2x8"),
])
def test_innermost_dimension_longer_than_6_is_summarised(array, expected):
    assert repr(Tensor(array)) == expected


@pytest.mark.parametrize("array, expected", [
    pytest.param(np.arange(14, dtype=np.float32).reshape(7, 2),
                 ("Tensor(shape=[7, 2], dtype=Float32, value=\n"
                  "[[ 0.00000000e+00,  1.00000000e+00],\n"
                  " [ 2.00000000e+00,  3.00000000e+00],\n"
                  " [ 4.00000000e+00,  5.00000000e+00],\n"
                  " ...\n"
                  " [ 8.00000000e+00,  9.00000000e+00],\n"
                  " [ 1.00000000e+01,  1.10000000e+01],\n"
                  " [ 1.20000000e+01,  1.30000000e+01]])"),
                 id="7x2"),
    pytest.param(np.arange(48, dtype=np.float32).reshape(3, 8, 2),
                 ("Tensor(shape=[3, 8, 2], dtype=Float32, value=\n"
                  "[[[ 0.00000000e+00,  1.00000000e+00],\n"
                  "  [ 2.00000000e+00,  3.00000000e+00],\n"
                  "  [ 4.00000000e+00,  5.00000000e+00],\n"
                  "  ...\n"
                  "  [ 1.00000000e+01,  1.10000000e+01],\n"
                  "  [ 1.20000000e+01,  1.30000000e+01],\n"
                  "  [ 1.40000000e+01,  1.50000000e+01]],\n"
                  " [[ 1.60000000e+01,  1.70000000e+01],\n"
                  "  [ 1.80000000e+01,  1.90000000e+01],\n"
                  "  [ 2.00000000e+01,  2.10000000e+01],\n"
                  "  ...\n"
                  "  [ 2.60000000e+01,  2.70000000e+01],\n"
                  "  [ 2.80000000e+01,  2.90000000e+01],\n"
                  "  [ 3.00000000e+01,  3.10000000e+01]],\n"
                  " [[ 3.20000000e+01,  3.30000000e+01],\n"
                  "  [ 3.40000000e+01,  3.50000000e+01],\n"
                  "  [ 3.60000000e+01,  3.70000000e+01],\n"
                  "  ...\n"
                  "  [ 4.20000000e+01,  4.30000000e+01],\n"
                  "  [ 4.40000000e+01,  4.50000000e+01],\n"
                  "  [ 4.60000000e+01,  4.70000000e+01]]])"),
                 id="3x8x2"),
    pytest.param(np.arange(56, dtype=np.float32).reshape(2, 2, 7, 2),
                 ("Tensor(shape=[2, 2, 7, 2], dtype=Float32, value=\n"
                  "[[[[ 0.00000000e+00,  1.00000000e+00],\n"
                  "   [ 2.00000000e+00,  3.00000000e+00],\n"
                  "   [ 4.00000000e+00,  5.00000000e+00],\n"
                  "   ...\n"
                  "   [ 8.00000000e+00,  9.00000000e+00],\n"
                  "   [ 1.00000000e+01,  1.10000000e+01],\n"
                  "   [ 1.20000000e+01,  1.30000000e+01]],\n"
                  "  [[ 1.40000000e+01,  1.50000000e+01],\n"
                  "   [ 1.60000000e+01,  1.70000000e+01],\n"
                  "   [ 1.80000000e+01,  1.90000000e+01],\n"
                  "   ...\n"
                  "   [ 2.20000000e+01,  2.30000000e+01],\n"
                  "   [ 2.40000000e+01,  2.50000000e+01],\n"
                  "   [ 2.60000000e+01,  2.70000000e+01]]],\n"
                  " [[[ 2.80000000e+01,  2.90000000e+01],\n"
                  "   [ 3.00000000e+01,  3.10000000e+01],\n"
                  "   [ 3.20000000e+01,  3.30000000e+01],\n"
                  "   ...\n"
                  "   [ 3.60000000e+01,  3.70000000e+01],\n"
                  "   [ 3.80000000e+01,  3.90000000e+01],\n"
                  "   [ 4.00000000e+01,  4.10000000e+01]],\n"
                  "  [[ 4.20000000e+01,  4.30000000e+01],\n"
                  "   [ 4.40000000e+01,  4.50000000e+01],\n"
                  "   [ 4.60000000e+01,  4.70000000e+01],\n"
                  "   ...\n"
                  "   [ 5.00000000e+01,  5.10000000e+01],\n"
                  "   [ 5.20000000e+01,  5.30000000e+01],\n"
                  "   [ 5.40000000e+01,  5.50000000e+01]]]])"),
                 id="2x2x7x2"),
    pytest.param(np.arange(100, dtype=np.float32).reshape(10, 10),
                 ("Tensor(shape=[10, 10], dtype=Float32, value=\n"
                  "[[ 0.00000000e+00,  1.00000000e+00,  2.00000000e+00 ...  7.00000000e+00,  8.00000000e+00,  9.00000000e+00],\n"
                  " [ 1.00000000e+01,  1.10000000e+01,  1.20000000e+01 ...  1.70000000e+01,  1.80000000e+01,  1.90000000e+01],\n"
                  " [ 2.00000000e+01,  2.10000000e+01,  2.20000000e+01 ...  2.70000000e+01,  2.80000000e+01,  2.90000000e+01],\n"
                  " ...\n"
                  " [ 7.00000000e+01,  7.10000000e+01,  7.20000000e+01 ...  7.70000000e+01,  7.80000000e+01,  7.90000000e+01],\n"
                  " [ 8.00000000e+01,  8.10000000e+01,  8.20000000e+01 ...  8.70000000e+01,  8.80000000e+01,  8.90000000e+01],\n"
                  " [ 9.00000000e+01,  9.10000000e+01,  9.20000000e+01 ...  9.70000000e+01,  9.80000000e+01,  9.90000000e+01]])"),
                 id="10x10"),
    pytest.param(np.arange(100, dtype=np.int32).reshape(10, 10) * 37 - 1000,
                 ("Tensor(shape=[10, 10], dtype=Int32, value=\n"
                  "[[-1000,  -963,  -926 ...  -741,  -704,  -667],\n"
                  " [ -630,  -593,  -556 ...  -371,  -334,  -297],\n"
                  " [ -260,  -223,  -186 ...    -1,    36,    73],\n"
                  " ...\n"
                  " [ 1590,  1627,  1664 ...  1849,  1886,  1923],\n"
                  " [ 1960,  1997,  2034 ...  2219,  2256,  2293],\n"
                  " [ 2330,  2367,  2404 ...  2589,  2626,  2663]])"),
                 id="int-10x10"),
    pytest.param(np.arange(512, dtype=np.int64).reshape(8, 8, 8),
                 ("Tensor(shape=[8, 8, 8], dtype=Int64, value=\n"
                  "[[[  0,   1,   2 ...   5,   6,   7],\n"
                  "  [  8,   9,  10 ...  13,  14,  15],\n"
                  "  [ 16,  17,  18 ...  21,  22,  23],\n"
                  "  ...\n"
                  "  [ 40,  41,  42 ...  45,  46,  47],\n"
                  "  [ 48,  49,  50 ...  53,  54,  55],\n"
                  "  [ 56,  57,  58 ...  61,  62,  63]],\n"
                  " [[ 64,  65,  66 ...  69,  70,  71],\n"
                  "  [ 72,  73,  74 ...  77,  78,  79],\n"
                  "  [ 80,  81,  82 ...  85,  86,  87],\n"
                  "  ...\n"
                  "  [104, 105, 106 ... 109, 110, 111],\n"
                  "  [112, 113, 114 ... 117, 118, 119],\n"
                  "  [120, 121, 122 ... 125, 126, 127]],\n"
                  " [[128, 129, 130 ... 133, 134, 135],\n"
                  "  [136, 137, 138 ... 141, 142, 143],\n"
                  "  [144, 145, 146 ... 149, 150, 151],\n"
                  "  ...\n"
                  "  [168, 169, 170 ... 173, 174, 175],\n"
                  "  [176, 177, 178 ... 181, 182, 183],\n"
                  "  [184, 185, 186 ... 189, 190, 191]],\n"
                  " ...\n"
                  " [[320, 321, 322 ... 325, 326, 327],\n"
                  "  [328, 329, 330 ... 333, 334, 335],\n"
                  "  [336, 337, 338 ... 341, 342, 343],\n"
                  "  ...\n"
                  "  [360, 361, 362 ... 365, 366, 367],\n"
                  "  [368, 369, 370 ... 373, 374, 375],\n"
                  "  [376, 377, 378 ... 381, 382, 383]],\n"
                  " [[384, 385, 386 ... 389, 390, 391],\n"
                  "  [392, 393, 394 ... 397, 398, 399],\n"
                  "  [400, 401, 402 ... 405, 406, 407],\n"
                  "  ...\n"
                  "  [424, 425, 426 ... 429, 430, 431],\n"
                  "  [432, 433, 434 ... 437, 438, 439],\n"
                  "  [440, 441, 442 ... 445, 446, 447]],\n"
                  " [[448, 449, 450 ... 453, 454, 455],\n"
                  "  [456, 457, 458 ... 461, 462, 463],\n"
                  "  [464, 465, 466 ... 469, 470, 471],\n"
                  "  ...\n"
                  "  [488, 489, 490 ... 493, 494, 495],\n"
                  "  [496, 497, 498 ... 501, 502, 503],\n"
                  "  [504, 505, 506 ... 509, 510, 511]]])"),
                 id="int-8x8x8"),
])
def test_outer_dimension_longer_than_6_is_summarised(array, expected):
    assert repr(Tensor(array)) == expected


@pytest.mark.parametrize("array, expected", [
    pytest.param(np.arange(1001, dtype=np.float32),
                 "Tensor(shape=[1001], dtype=Float32, value= [ 0.00000000e+00,  1.00000000e+00,  2.00000000e+00 ...  9.98000000e+02,  9.99000000e+02,  1.00000000e+03])",
                 id="f32-1001"),
    pytest.param(np.arange(1001, dtype=np.int32),
                 "Tensor(shape=[1001], dtype=Int32, value= [   0,    1,    2 ...  998,  999, 1000])",
                 id="int32-1001"),
    pytest.param(np.arange(2000, dtype=np.int64),
                 "Tensor(shape=[2000], dtype=Int64, value= [   0,    1,    2 ... 1997, 1998, 1999])",
                 id="int64-2000"),
    pytest.param(np.arange(1001) % 3 == 0,
                 "Tensor(shape=[1001], dtype=Bool, value= [ True, False, False ... False,  True, False])",
                 id="bool-1001"),
    pytest.param(np.where(np.arange(1001) == 500, -1234567, np.arange(1001)).astype(np.int32),
                 "Tensor(shape=[1001], dtype=Int32, value= [   0,    1,    2 ...  998,  999, 1000])",
                 id="hidden-element-not-counted"),
])
def test_1d_tensor_longer_than_1000_is_summarised_without_line_feeds(array, expected):
    assert repr(Tensor(array)) == expected


@pytest.mark.parametrize("dtype, line_feeds, ending", [
    (np.int32, 41, "994, 995, 996, 997, 998, 999])"),
    (np.float32, 83, " 9.97000000e+02,  9.98000000e+02,  9.99000000e+02])"),
])
def test_1d_tensor_of_1000_is_printed_in_full(dtype, line_feeds, ending):
    text = repr(Tensor(np.arange(1000, dtype=dtype)))
    assert "..." not in text
    assert text.count("\n ") == line_feeds
    assert text.endswith(ending)


# -- rule 7: 1-D line feeds ---------------------------------------------------

@pytest.mark.parametrize("array, expected", [
    pytest.param(np.arange(1, dtype=np.float32),
                 "Tensor(shape=[1], dtype=Float32, value= [ 0.00000000e+00])",
                 id="f32-1"),
    pytest.param(np.arange(3, dtype=np.float32),
                 "Tensor(shape=[3], dtype=Float32, value= [ 0.00000000e+00,  1.00000000e+00,  2.00000000e+00])",
                 id="f32-3"),
    pytest.param(np.arange(4, dtype=np.float32),
                 "Tensor(shape=[4], dtype=Float32, value= [ 0.00000000e+00,  1.00000000e+00,  2.00000000e+00,  3.00000000e+00])",
                 id="f32-4"),
    pytest.param(np.arange(12, dtype=np.float32),
                 ("Tensor(shape=[12], dtype=Float32, value= [ 0.00000000e+00,  1.00000000e+00,  2.00000000e+00,  3.00000000e+00,  4.00000000e+00,  5.00000000e+00,  6.00000000e+00,  7.00000000e+00,  8.00000000e+00,  9.00000000e+00,  1.00000000e+01,  1.10000000e+01\n"
                  " ])"),
                 id="f32-12"),
    pytest.param(np.arange(13, dtype=np.float32),
                 ("Tensor(shape=[13], dtype=Float32, value= [ 0.00000000e+00,  1.00000000e+00,  2.00000000e+00,  3.00000000e+00,  4.00000000e+00,  5.00000000e+00,  6.00000000e+00,  7.00000000e+00,  8.00000000e+00,  9.00000000e+00,  1.00000000e+01,  1.10000000e+01, \n"
                  "  1.20000000e+01])"),
                 id="f32-13"),
    pytest.param(np.arange(24, dtype=np.float32),
                 ("Tensor(shape=[24], dtype=Float32, value= [ 0.00000000e+00,  1.00000000e+00,  2.00000000e+00,  3.00000000e+00,  4.00000000e+00,  5.00000000e+00,  6.00000000e+00,  7.00000000e+00,  8.00000000e+00,  9.00000000e+00,  1.00000000e+01,  1.10000000e+01, \n"
                  "  1.20000000e+01,  1.30000000e+01,  1.40000000e+01,  1.50000000e+01,  1.60000000e+01,  1.70000000e+01,  1.80000000e+01,  1.90000000e+01,  2.00000000e+01,  2.10000000e+01,  2.20000000e+01,  2.30000000e+01\n"
                  " ])"),
                 id="f32-24"),
    pytest.param(np.arange(25, dtype=np.float32),
                 ("Tensor(shape=[25], dtype=Float32, value= [ 0.00000000e+00,  1.00000000e+00,  2.00000000e+00,  3.00000000e+00,  4.00000000e+00,  5.00000000e+00,  6.00000000e+00,  7.00000000e+00,  8.00000000e+00,  9.00000000e+00,  1.00000000e+01,  1.10000000e+01, \n"
                  "  1.20000000e+01,  1.30000000e+01,  1.40000000e+01,  1.50000000e+01,  1.60000000e+01,  1.70000000e+01,  1.80000000e+01,  1.90000000e+01,  2.00000000e+01,  2.10000000e+01,  2.20000000e+01,  2.30000000e+01, \n"
                  "  2.40000000e+01])"),
                 id="f32-25"),
    pytest.param(np.arange(13, dtype=np.float64),
                 ("Tensor(shape=[13], dtype=Float64, value= [ 0.00000000e+00,  1.00000000e+00,  2.00000000e+00,  3.00000000e+00,  4.00000000e+00,  5.00000000e+00,  6.00000000e+00,  7.00000000e+00,  8.00000000e+00,  9.00000000e+00,  1.00000000e+01,  1.10000000e+01, \n"
                  "  1.20000000e+01])"),
                 id="f64-13"),
    pytest.param(np.arange(12, dtype=np.float16),
                 ("Tensor(shape=[12], dtype=Float16, value= [ 0.0000e+00,  1.0000e+00,  2.0000e+00,  3.0000e+00,  4.0000e+00,  5.0000e+00,  6.0000e+00,  7.0000e+00,  8.0000e+00,  9.0000e+00,  1.0000e+01,  1.1000e+01\n"
                  " ])"),
                 id="f16-12"),
    pytest.param(np.arange(13, dtype=np.float16),
                 ("Tensor(shape=[13], dtype=Float16, value= [ 0.0000e+00,  1.0000e+00,  2.0000e+00,  3.0000e+00,  4.0000e+00,  5.0000e+00,  6.0000e+00,  7.0000e+00,  8.0000e+00,  9.0000e+00,  1.0000e+01,  1.1000e+01, \n"
                  "  1.2000e+01])"),
                 id="f16-13"),
    pytest.param(np.arange(3, dtype=np.int32),
                 "Tensor(shape=[3], dtype=Int32, value= [0, 1, 2])",
                 id="int32-3"),
    pytest.param(np.arange(4, dtype=np.int32),
                 "Tensor(shape=[4], dtype=Int32, value= [0, 1, 2, 3])",
                 id="int32-4"),
    pytest.param(np.arange(13, dtype=np.int32),
                 "Tensor(shape=[13], dtype=Int32, value= [ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12])",
                 id="int32-13"),
    pytest.param(np.arange(24, dtype=np.int32),
                 ("Tensor(shape=[24], dtype=Int32, value= [ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23\n"
                  " ])"),
                 id="int32-24"),
    pytest.param(np.arange(25, dtype=np.int32),
                 ("Tensor(shape=[25], dtype=Int32, value= [ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, \n"
                  " 24])"),
                 id="int32-25"),
    pytest.param(np.arange(48, dtype=np.int32),
                 ("Tensor(shape=[48], dtype=Int32, value= [ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, \n"
                  " 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47\n"
                  " ])"),
                 id="int32-48"),
    pytest.param(np.arange(49, dtype=np.int32),
                 ("Tensor(shape=[49], dtype=Int32, value= [ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, \n"
                  " 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, \n"
                  " 48])"),
                 id="int32-49"),
    pytest.param(np.arange(4) % 3 == 0,
                 "Tensor(shape=[4], dtype=Bool, value= [ True, False, False,  True])",
                 id="bool-4"),
    pytest.param(np.arange(12) % 3 == 0,
                 ("Tensor(shape=[12], dtype=Bool, value= [ True, False, False,  True, False, False,  True, False, False,  True, False, False\n"
                  " ])"),
                 id="bool-12"),
    pytest.param(np.arange(13) % 3 == 0,
                 ("Tensor(shape=[13], dtype=Bool, value= [ True, False, False,  True, False, False,  True, False, False,  True, False, False, \n"
                  "  True])"),
                 id="bool-13"),
    pytest.param(np.arange(25) % 3 == 0,
                 ("Tensor(shape=[25], dtype=Bool, value= [ True, False, False,  True, False, False,  True, False, False,  True, False, False, \n"
                  "  True, False, False,  True, False, False,  True, False, False,  True, False, False, \n"
                  "  True])"),
                 id="bool-25"),
    pytest.param((np.arange(30) * (1 + 1j)).astype(np.complex64),
                 ("Tensor(shape=[30], dtype=Complex64, value= [0+0j, 1+1j, 2+2j, 3+3j, 4+4j, 5+5j, 6+6j, 7+7j, 8+8j, 9+9j, 10+10j, 11+11j, 12+12j, 13+13j, 14+14j, 15+15j, 16+16j, 17+17j, 18+18j, 19+19j, 20+20j, 21+21j, 22+22j, 23+23j, \n"
                  " 24+24j, 25+25j, 26+26j, 27+27j, 28+28j, 29+29j])"),
                 id="complex64-30"),
])
def test_1d_line_feed_after_every_12th_float_or_24th_int(array, expected):
    assert repr(Tensor(array)) == expected


# -- rule 8: empty tensors ----------------------------------------------------

@pytest.mark.parametrize("array, expected", [
    pytest.param(np.zeros((0,), np.float32),
                 "Tensor(shape=[0], dtype=Float32, value= )",
                 id="f32-0"),
    pytest.param(np.zeros((0,), np.int32),
                 "Tensor(shape=[0], dtype=Int32, value= )",
                 id="int32-0"),
    pytest.param(np.zeros((2, 0), np.float32),
                 ("Tensor(shape=[2, 0], dtype=Float32, value=\n"
                  ")"),
                 id="f32-2x0"),
    pytest.param(np.zeros((0, 3), np.float32),
                 ("Tensor(shape=[0, 3], dtype=Float32, value=\n"
                  ")"),
                 id="f32-0x3"),
    pytest.param(np.zeros((3, 0, 2), np.float64),
                 ("Tensor(shape=[3, 0, 2], dtype=Float64, value=\n"
                  ")"),
                 id="f64-3x0x2"),
    pytest.param(np.zeros((0, 2, 2), bool),
                 ("Tensor(shape=[0, 2, 2], dtype=Bool, value=\n"
                  ")"),
                 id="bool-0x2x2"),
])
def test_empty_tensor_has_empty_body(array, expected):
    assert repr(Tensor(array)) == expected


# -- rule 9 and semantics 1.4: lazily initialised tensors ------------------

@pytest.mark.parametrize("shape, dtype, expected", [
    pytest.param((1, 2, 3), refms.float32,
                 ("Tensor(shape=[1, 2, 3], dtype=Float32, value=\n"
                  "[[[ 0.00000000e+00,  0.00000000e+00,  0.00000000e+00],\n"
                  "  [ 0.00000000e+00,  0.00000000e+00,  0.00000000e+00]]])"),
                 id="1x2x3-float32"),
    pytest.param((3,), refms.float32,
                 "Tensor(shape=[3], dtype=Float32, value= [ 0.00000000e+00,  0.00000000e+00,  0.00000000e+00])",
                 id="3-float32"),
    pytest.param((), refms.float32,
                 "Tensor(shape=[], dtype=Float32, value= 0)",
                 id="0d-float32"),
    pytest.param((2,), refms.int32,
                 "Tensor(shape=[2], dtype=Int32, value= [0, 0])",
                 id="2-int32"),
])
def test_lazy_tensor_repr_prints_zeros(shape, dtype, expected):
    tensor = Tensor(shape=shape, dtype=dtype, init=fill_with_ones)
    assert repr(tensor) == expected
    assert tensor.has_init


@pytest.mark.parametrize("shape, dtype, expected", [
    pytest.param((1, 2, 3), refms.float32,
                 ("Tensor(shape=[1, 2, 3], dtype=Float32, value=\n"
                  "<uninitialized>)"),
                 id="1x2x3-float32"),
    pytest.param((3,), refms.float32,
                 "Tensor(shape=[3], dtype=Float32, value=<uninitialized>)",
                 id="3-float32"),
    pytest.param((), refms.float32,
                 "Tensor(shape=[], dtype=Float32, value=<uninitialized>)",
                 id="0d-float32"),
    pytest.param((2,), refms.int32,
                 "Tensor(shape=[2], dtype=Int32, value=<uninitialized>)",
                 id="2-int32"),
])
def test_lazy_tensor_str_says_uninitialized(shape, dtype, expected):
    assert str(Tensor(shape=shape, dtype=dtype, init=fill_with_ones)) == expected


# -- semantics 1.4: str is numpy's ----------------------------------------

@pytest.mark.parametrize("array, expected", [
    pytest.param(np.array([4., 10., 18.], np.float32),
                 "[ 4. 10. 18.]",
                 id="f32-1d"),
    pytest.param(np.array([[1.5, 2, 3], [4, 5, 6]], np.float32),
                 ("[[1.5 2.  3. ]\n"
                  " [4.  5.  6. ]]"),
                 id="f32-2d"),
    pytest.param(np.array(1.0, np.float32),
                 "1.0",
                 id="f32-0d"),
    pytest.param(np.array(2.5, np.float32),
                 "2.5",
                 id="f32-0d-2.5"),
    pytest.param(np.array(1 / 3, np.float32),
                 "0.33333334",
                 id="f32-0d-third"),
    pytest.param(np.array(-0.0, np.float32),
                 "-0.0",
                 id="f32-0d-minus-zero"),
    pytest.param(np.array(7, np.float16),
                 "7.0",
                 id="f16-0d"),
    pytest.param(np.array(3, np.int64),
                 "3",
                 id="int64-0d"),
    pytest.param(np.array(True),
                 "True",
                 id="bool-0d"),
    pytest.param(np.array([1e-5, 1e5], np.float32),
                 "[1.e-05 1.e+05]",
                 id="scientific"),
    pytest.param(np.array([1, 1001], np.float32),
                 "[1.000e+00 1.001e+03]",
                 id="scientific-wide-range"),
    pytest.param(np.arange(2000, dtype=np.float32),
                 "[0.000e+00 1.000e+00 2.000e+00 ... 1.997e+03 1.998e+03 1.999e+03]",
                 id="summarised"),
    pytest.param(np.arange(8, dtype=np.float32).reshape(2, 2, 2),
                 ("[[[0. 1.]\n"
                  "  [2. 3.]]\n"
                  "\n"
                  " [[4. 5.]\n"
                  "  [6. 7.]]]"),
                 id="3d-blank-lines"),
    pytest.param(np.array([True, False]),
                 "[ True False]",
                 id="bool-1d"),
    pytest.param(np.array([[1, -2], [3, 4]], np.int32),
                 ("[[ 1 -2]\n"
                  " [ 3  4]]"),
                 id="int32-2d"),
])
def test_str_is_numpy_str(array, expected):
    tensor = Tensor(array)
    assert str(tensor) == expected
    assert str(tensor) == str(tensor.asnumpy())


@pytest.mark.parametrize("array, expected", [
    pytest.param(np.array(1.5, np.float32),
                 "1.500000",
                 id="0d"),
    pytest.param(np.array([1.5, 2.0], np.float32),
                 "[1.500000 2.000000]",
                 id="1d"),
    pytest.param(np.array([1e10, -1e-10, 3.14159, -2.5], np.float32),
                 "[9999220736.000000 -0.000000 3.140625 -2.500000]",
                 id="rounded-values"),
    pytest.param(np.array([nan, inf, -inf, -0.0], np.float32),
                 "[nan inf -inf -0.000000]",
                 id="nan-inf-minus-zero"),
    pytest.param(np.array([[1, 2], [3, 4]], np.float32),
                 ("[[1.000000 2.000000]\n"
                  " [3.000000 4.000000]]"),
                 id="2x2"),
    pytest.param(np.arange(24, dtype=np.float32).reshape(2, 3, 4),
                 ("[[[0.000000 1.000000 2.000000 3.000000]\n"
                  "  [4.000000 5.000000 6.000000 7.000000]\n"
                  "  [8.000000 9.000000 10.000000 11.000000]]\n"
                  "\n"
                  " [[12.000000 13.000000 14.000000 15.000000]\n"
                  "  [16.000000 17.000000 18.000000 19.000000]\n"
                  "  [20.000000 21.000000 22.000000 23.000000]]]"),
                 id="2x3x4"),
    pytest.param(np.arange(20, dtype=np.float32),
                 ("[0.000000 1.000000 2.000000 3.000000 4.000000 5.000000 6.000000 7.000000\n"
                  " 8.000000 9.000000 10.000000 11.000000 12.000000 13.000000 14.000000\n"
                  " 15.000000 16.000000 17.000000 18.000000 19.000000]"),
                 id="numpy-line-width"),
    pytest.param(np.arange(1500, dtype=np.float32),
                 "[0.000000 1.000000 2.000000 ... 1496.000000 1496.000000 1496.000000]",
                 id="summarised-1500"),
])
def test_bfloat16_str_prints_six_decimals(array, expected):
    assert str(bfloat16_tensor(array)) == expected


# -- containers print their tensors with repr ---------------------------------

def test_tuple_list_and_dict_use_repr():
    a = Tensor(np.array([1.0, 2.0], np.float32))
    b = Tensor(np.array(3, np.int32))
    c = Tensor(np.array([[True]]))
    assert repr((a, b)) == "(Tensor(shape=[2], dtype=Float32, value= [ 1.00000000e+00,  2.00000000e+00]), Tensor(shape=[], dtype=Int32, value= 3))"
    assert str([a]) == "[Tensor(shape=[2], dtype=Float32, value= [ 1.00000000e+00,  2.00000000e+00])]"
    assert str({"k": c}) == ("{'k': Tensor(shape=[1, 1], dtype=Bool, value=\n"
                             "[[ True]])}")
