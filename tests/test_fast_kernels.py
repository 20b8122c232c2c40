"""Every fast twin (refms/_fast, Cython) equals its reference kernel (refms/kernels, numpy).

The twin has the reference's signature and is tested equal
to it — same dtype, same shape, same kind of result (array or numpy scalar),
values within rtol 1e-5 (float32) or 1e-12 (float64); inputs the twin hands
to the reference (other dtypes, empty arrays) give exactly the reference's
answer or error.

The twins are not listed here: :func:`refms._fast.twins.twin_kernels` finds
them from ``refms/_fast/*.pyx`` (as ``setup.py`` and the dispatcher do), and
every twin found must have an entry in ``EXAMPLES`` (one typical call) on top
of the detailed cases below.

A twin that was not built is skipped, and the skip names what is missing.
Under ``REFMS_STRICT_BUILD=1`` (CI) ``test_fast_kernels_are_built`` fails
instead, so a broken build cannot pass silently.
"""
import math
import os

import numpy as np
import pytest

from refms import kernels
from refms._fast.twins import twin_kernels

TWINS = tuple(twin_kernels())
REDUCTIONS = ("reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod")
RTOL = {np.float32: 1e-5, np.float64: 1e-12}
FLOATS = (np.float32, np.float64)
TRANSPOSES = ((False, False), (True, False), (False, True), (True, True))


def twin_and_reference(name):
    """(fast, reference) kernels of ``name``; skip, saying why, when the twin is not built."""
    fast = kernels.fast_kernel(name)
    if fast is None:
        pytest.skip(f"the fast twin of {name!r} is not built: {kernels.why_fast_unavailable()}")
    return fast, kernels.reference_kernel(name)


def assert_same(got, expected, dtype):
    """Same kind, dtype and shape; values equal within the dtype's tolerance.

    The absolute tolerance scales with the largest magnitude of the answer,
    so sums whose terms cancel are judged relative to their terms.
    """
    assert type(got) is type(expected), (type(got), type(expected))
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert np.shape(got) == np.shape(expected), (np.shape(got), np.shape(expected))
    rtol = RTOL[dtype]
    finite = np.abs(expected[np.isfinite(expected)]) if np.ndim(expected) else np.abs(expected)
    scale = max(float(np.max(finite, initial=0.0)), 1.0)
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol * scale)


def random(shape, dtype, seed, low=-1.0, high=1.0):
    return np.random.default_rng(seed).uniform(low, high, size=shape).astype(dtype)


def operand(shape, dtype, transposed, seed, layout="C"):
    """A matrix whose op(·) has ``shape``: stored transposed when ``transposed``.

    layout ``C`` is C-ordered; ``F`` a transposed view of a C-ordered array
    (F-ordered); ``strided`` every other column of a wider array.
    """
    stored = shape[::-1] if transposed else shape
    if layout == "F":
        return random(stored[::-1], dtype, seed).T
    if layout == "strided":
        return random((stored[0], 2 * stored[1]), dtype, seed)[:, ::2]
    return random(stored, dtype, seed)


def test_fast_kernels_are_built():
    """Fails under REFMS_STRICT_BUILD=1 when any twin is missing; otherwise skips then."""
    missing = [name for name in TWINS if kernels.fast_kernel(name) is None]
    if missing and os.environ.get("REFMS_STRICT_BUILD", "").strip() != "1":
        pytest.skip(f"fast kernels {missing} are not built: {kernels.why_fast_unavailable()}")
    assert not missing, (f"REFMS_STRICT_BUILD=1 but the fast kernels {missing} are unavailable: "
                         f"{kernels.why_fast_unavailable()}")
    assert kernels.why_fast_unavailable() is None


# --------------------------------------------------------------------------- matmul

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("m, k, n", [(1, 1, 1), (3, 5, 4), (64, 33, 17), (130, 257, 65)])
@pytest.mark.parametrize("transpose_a, transpose_b", TRANSPOSES)
def test_matmul(dtype, m, k, n, transpose_a, transpose_b):
    fast, reference = twin_and_reference("matmul")
    a = operand((m, k), dtype, transpose_a, seed=1)
    b = operand((k, n), dtype, transpose_b, seed=2)
    assert_same(fast(a, b, transpose_a, transpose_b), reference(a, b, transpose_a, transpose_b),
                dtype)


@pytest.mark.parametrize("layout", ["F", "strided"])
@pytest.mark.parametrize("transpose_a, transpose_b", TRANSPOSES)
def test_matmul_any_memory_layout(layout, transpose_a, transpose_b):
    fast, reference = twin_and_reference("matmul")
    a = operand((9, 7), np.float32, transpose_a, seed=3, layout=layout)
    b = operand((7, 5), np.float32, transpose_b, seed=4, layout=layout)
    assert_same(fast(a, b, transpose_a, transpose_b), reference(a, b, transpose_a, transpose_b),
                np.float32)


def test_matmul_default_flags():
    fast, reference = twin_and_reference("matmul")
    a, b = random((4, 3), np.float64, 5), random((3, 2), np.float64, 6)
    assert_same(fast(a, b), reference(a, b), np.float64)


@pytest.mark.parametrize("a, b", [
    (np.arange(6, dtype=np.int32).reshape(2, 3), np.arange(12, dtype=np.int32).reshape(3, 4)),
    (np.ones((2, 3), np.float16), np.ones((3, 4), np.float16)),
    (np.ones((2, 3), np.float32), np.ones((3, 4), np.float64)),
    (np.ones((0, 3), np.float32), np.ones((3, 4), np.float32)),
    (np.ones((2, 0), np.float32), np.ones((0, 4), np.float32)),
], ids=["int32", "float16", "mixed", "empty-rows", "empty-inner"])
def test_matmul_reference_cases(a, b):
    """Inputs BLAS does not take give exactly the reference's answer."""
    fast, reference = twin_and_reference("matmul")
    got, expected = fast(a, b, False, False), reference(a, b, False, False)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


def test_matmul_shape_mismatch_raises_like_reference():
    fast, reference = twin_and_reference("matmul")
    a, b = np.ones((2, 3), np.float32), np.ones((4, 5), np.float32)
    with pytest.raises(ValueError):
        reference(a, b, False, False)
    with pytest.raises(ValueError):
        fast(a, b, False, False)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("a_shape, b_shape", [
    ((2, 3, 4), (2, 4, 5)),
    ((2, 3, 4, 5), (2, 3, 5, 6)),
    ((4, 5), (7, 5, 6)),              # a broadcast over b's batch
    ((7, 4, 5), (5, 6)),              # b broadcast over a's batch
    ((2, 1, 4, 5), (3, 5, 6)),        # both broadcast
    ((6, 8), (8, 3)),                 # no batch at all
])
@pytest.mark.parametrize("transpose_a, transpose_b", TRANSPOSES)
def test_batch_matmul(dtype, a_shape, b_shape, transpose_a, transpose_b):
    fast, reference = twin_and_reference("batch_matmul")
    a = random(a_shape, dtype, 7)
    b = random(b_shape, dtype, 8)
    if transpose_a:
        a = np.ascontiguousarray(np.swapaxes(a, -1, -2))
    if transpose_b:
        b = np.swapaxes(b, -1, -2)          # a view: not C-ordered
    assert_same(fast(a, b, transpose_a, transpose_b), reference(a, b, transpose_a, transpose_b),
                dtype)


@pytest.mark.parametrize("a, b", [
    (np.ones((2, 3, 4), np.int64), np.ones((2, 4, 5), np.int64)),
    (np.ones((0, 3, 4), np.float32), np.ones((0, 4, 5), np.float32)),
    (np.ones((2, 3, 0), np.float64), np.ones((2, 0, 5), np.float64)),
], ids=["int64", "empty-batch", "empty-inner"])
def test_batch_matmul_reference_cases(a, b):
    fast, reference = twin_and_reference("batch_matmul")
    got, expected = fast(a, b, False, False), reference(a, b, False, False)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


def test_batch_matmul_batch_mismatch_raises_like_reference():
    fast, reference = twin_and_reference("batch_matmul")
    a, b = np.ones((2, 3, 4), np.float32), np.ones((3, 4, 5), np.float32)
    with pytest.raises(ValueError):
        reference(a, b, False, False)
    with pytest.raises(ValueError):
        fast(a, b, False, False)


# --------------------------------------------------------------------------- reductions

REDUCE_CASES = [
    ((7,), ()), ((7,), (0,)),
    ((1000,), (0,)),                              # pairwise summation over several blocks
    ((4, 5), ()), ((4, 5), (0,)), ((4, 5), (1,)), ((4, 5), (0, 1)),
    ((3, 4, 5), (1,)), ((3, 4, 5), (0, 2)),       # non-adjacent axes: moved last
    ((3, 4, 5), (1, 2)), ((3, 4, 5), (0, 1)),
    ((2, 3, 4, 5), (0, 2)), ((2, 3, 4, 5), (1, 3)), ((2, 3, 4, 5), (0, 1, 3)),
    ((300, 257), (0,)), ((300, 257), (1,)), ((1, 1), (0,)),
    ((3, 4500), (0,)),                            # wider than one block of sum accumulators
]


def reduce_input(name, shape, dtype, seed):
    """Random input; products use factors near 1 so they neither overflow nor vanish."""
    if name == "reduce_prod":
        return random(shape, dtype, seed, low=0.9, high=1.1)
    return random(shape, dtype, seed)


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape, axis", REDUCE_CASES)
@pytest.mark.parametrize("keepdims", [False, True])
def test_reduction(name, dtype, shape, axis, keepdims):
    fast, reference = twin_and_reference(name)
    x = reduce_input(name, shape, dtype, seed=len(shape) + sum(axis))
    assert_same(fast(x, axis, keepdims), reference(x, axis, keepdims), dtype)


@pytest.mark.parametrize("name", ["reduce_sum", "reduce_mean"])
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape, axis", [((300_001,), ()), ((3, 200_003), (1,)),
                                         ((512, 513), ())])
def test_long_row_sums_in_pieces(name, dtype, shape, axis):
    """Rows of 2·65536 elements or more are summed in pieces on several threads; the
    result still equals the reference's (and an offset keeps cancellation out of it)."""
    fast, reference = twin_and_reference(name)
    x = random(shape, dtype, 37) + dtype(0.25)
    assert_same(fast(x, axis, False), reference(x, axis, False), dtype)


@pytest.mark.parametrize("n", [127, 128 * 1000 + 77, 3 * 65536 + 5])
def test_float32_sum_is_at_least_as_accurate_as_numpy(n):
    """float32 rows are summed in float32 leaves of 128 whose totals add in float64: the
    error against the exact sum (math.fsum) is no larger than numpy's float32 sum's."""
    fast, _ = twin_and_reference("reduce_sum")
    x = random((n,), np.float32, 41) + np.float32(10.0)     # a large mean makes rounding show
    exact = math.fsum(x.astype(np.float64))
    ulp = float(np.spacing(np.float32(exact)))
    assert abs(float(fast(x, (), False)) - exact) <= abs(float(np.sum(x)) - exact) + ulp


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("layout", ["F", "strided"])
@pytest.mark.parametrize("axis", [(0,), (1,), ()])
def test_reduction_any_memory_layout(name, layout, axis):
    fast, reference = twin_and_reference(name)
    base = reduce_input(name, (12, 10), np.float32, seed=11)
    x = base.T if layout == "F" else base[:, ::2]
    assert_same(fast(x, axis, False), reference(x, axis, False), np.float32)


@pytest.mark.parametrize("axis", [(2, 0), (np.int64(1),), (-1,), (0, -1)],
                         ids=["unsorted", "numpy-int", "negative", "mixed-sign"])
def test_reduction_axis_spellings(axis):
    """Axes beyond the contract (the primitives pass sorted non-negative ints) still agree."""
    fast, reference = twin_and_reference("reduce_sum")
    x = random((3, 4, 5), np.float64, 12)
    assert_same(fast(x, axis, False), reference(x, axis, False), np.float64)


@pytest.mark.parametrize("name", ["reduce_max", "reduce_min"])
@pytest.mark.parametrize("axis", [(0,), (1,), ()])
def test_extrema_propagate_nan(name, axis):
    fast, reference = twin_and_reference(name)
    x = random((5, 6), np.float32, 13)
    x[2, 3] = np.nan
    x[0, 0] = np.nan
    got, expected = fast(x, axis, False), reference(x, axis, False)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(expected))
    assert_same(got, expected, np.float32)


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("x, axis", [
    (np.arange(12, dtype=np.int32).reshape(3, 4), (1,)),
    (np.linspace(-1, 1, 12).astype(np.float16).reshape(3, 4), (0,)),
    (np.array(2.5, dtype=np.float32), ()),
    (np.ones((3, 0), np.float64), (0,)),
], ids=["int32", "float16", "0-d", "empty"])
def test_reduction_reference_cases(name, x, axis):
    """Inputs the loops do not take give exactly the reference's answer."""
    fast, reference = twin_and_reference(name)
    got, expected = fast(x, axis, True), reference(x, axis, True)
    assert type(got) is type(expected)
    assert got.dtype == expected.dtype and np.shape(got) == np.shape(expected)
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("name", ["reduce_max", "reduce_min"])
def test_extremum_of_empty_raises_like_reference(name):
    fast, reference = twin_and_reference(name)
    x = np.ones((0, 3), np.float32)
    with pytest.raises(ValueError):
        reference(x, (0,), False)
    with pytest.raises(ValueError):
        fast(x, (0,), False)


# -- pooling -------------------------------------------------------------------------------

#: (input shape, kernel, stride, pad (top, bottom, left, right))
POOL_CASES = [
    ((2, 3, 8, 8), (2, 2), (2, 2), (0, 0, 0, 0)),      # LeNet's non-overlapping windows
    ((1, 2, 7, 7), (3, 3), (2, 2), (0, 0, 0, 0)),      # overlapping, remainder dropped
    ((1, 1, 7, 6), (3, 2), (2, 1), (1, 1, 0, 1)),      # 'same'-style asymmetric padding
    ((2, 1, 5, 5), (5, 5), (1, 1), (2, 2, 2, 2)),      # windows mostly padding
    ((2, 2, 9, 11), (2, 2), (2, 2), (1, 0, 1, 0)),     # short rows, clipped at the edge
    ((2, 2, 6, 36), (2, 2), (2, 2), (1, 0, 1, 0)),     # 2×2 rows in chunks of 8, the last moved back
    ((1, 2, 5, 140), (2, 2), (2, 2), (0, 0, 0, 0)),    # 2×2 rows in the compiler's vector loop
    ((1, 3, 7, 40), (3, 3), (2, 2), (1, 1, 0, 1)),     # 3×3 stride 2 rows, 'same' padding
]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape, kernel, stride, pad", POOL_CASES)
def test_max_pool2d(dtype, shape, kernel, stride, pad):
    fast, reference = twin_and_reference("max_pool2d")
    x = random(shape, dtype, seed=7)
    x[..., 1, 1] = x[..., 1, 2]                         # ties: the first maximum wins
    got, expected = fast(x, kernel, stride, pad), reference(x, kernel, stride, pad)
    assert_same(got[0], expected[0], dtype)
    np.testing.assert_array_equal(got[1], expected[1])


def test_max_pool2d_nan_wins_like_reference():
    fast, reference = twin_and_reference("max_pool2d")
    x = random((1, 1, 4, 4), np.float32, seed=3)
    x[0, 0, 2, 3] = np.nan
    got, expected = fast(x, (2, 2), (2, 2), (0, 0, 0, 0)), reference(x, (2, 2), (2, 2), (0, 0, 0, 0))
    np.testing.assert_array_equal(got[0], expected[0])
    np.testing.assert_array_equal(got[1], expected[1])


def test_max_pool2d_random_geometry_ties_and_nan_like_reference():
    """Every path of the twin (unrolled 2×2 and 3×3 windows, the general scan, windows clipped
    by padding or wholly in it) on small integer samples full of ties, NaN in one cell of ten,
    float32 and float64, contiguous or not: the same maxima and argmax as the reference."""
    fast, reference = twin_and_reference("max_pool2d")
    rng = np.random.default_rng(1)
    checked = 0
    while checked < 120:
        kh, kw = (int(v) for v in rng.integers(1, 5, 2))
        sh, sw = (int(v) for v in rng.integers(1, 4, 2))
        if checked % 3 == 0:
            kh = kw = int(rng.choice([2, 3]))
            sw = 2
        h = int(rng.integers(1, 12))
        w = int(rng.integers(1, 12 if checked % 2 else 48))
        pad = tuple(int(v) for v in rng.integers(0, 3, 4))
        if h + pad[0] + pad[1] < kh or w + pad[2] + pad[3] < kw:
            continue
        x = rng.integers(-3, 4, (2, 3, h, w)).astype(FLOATS[checked % 2])
        x[rng.random(x.shape) < 0.1] = np.nan
        if checked % 4 == 0:
            x = x[:, :, ::-1]
        args = ((kh, kw), (sh, sw), pad)
        got, expected = fast(x, *args), reference(x, *args)
        for g, e in zip(got, expected):
            assert g.dtype == e.dtype
            np.testing.assert_array_equal(g, e, err_msg=str(args))
        checked += 1


def test_max_pool2d_other_dtypes_fall_back():
    fast, reference = twin_and_reference("max_pool2d")
    x = np.arange(32, dtype=np.int32).reshape(1, 2, 4, 4)
    for got, expected in zip(fast(x, (2, 2), (2, 2), (0, 0, 0, 0)),
                             reference(x, (2, 2), (2, 2), (0, 0, 0, 0))):
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape, kernel, stride, pad", POOL_CASES)
def test_max_pool2d_grad_and_grad_grad(dtype, shape, kernel, stride, pad):
    """Scatter to the argmax (overlapping windows add up) and its adjoint, the gather."""
    _, argmax = kernels.reference_kernel("max_pool2d")(random(shape, dtype, 8), kernel, stride, pad)
    dout = random(argmax.shape, dtype, 9)
    fast, reference = twin_and_reference("max_pool2d_grad")
    assert_same(fast(dout, argmax, shape), reference(dout, argmax, shape), dtype)
    fast, reference = twin_and_reference("max_pool2d_grad_grad")
    ddx = random(shape, dtype, 10)
    assert_same(fast(ddx, argmax), reference(ddx, argmax), dtype)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape, kernel, stride, pad", POOL_CASES)
@pytest.mark.parametrize("divisor", ["real-cells", "scalar", "array"])
def test_avg_pool2d_and_grad(dtype, shape, kernel, stride, pad, divisor):
    oh = (shape[2] + pad[0] + pad[1] - kernel[0]) // stride[0] + 1
    ow = (shape[3] + pad[2] + pad[3] - kernel[1]) // stride[1] + 1
    div = {"real-cells": None, "scalar": 9.0,
           "array": np.arange(1, oh * ow + 1, dtype=np.float64).reshape(oh, ow)}[divisor]
    fast, reference = twin_and_reference("avg_pool2d")
    x = random(shape, dtype, 11)
    assert_same(fast(x, kernel, stride, pad, div), reference(x, kernel, stride, pad, div), dtype)
    fast, reference = twin_and_reference("avg_pool2d_grad")
    dout = random((shape[0], shape[1], oh, ow), dtype, 12)
    assert_same(fast(dout, shape, kernel, stride, pad, div),
                reference(dout, shape, kernel, stride, pad, div), dtype)


def test_pool_gradients_other_dtypes_fall_back():
    x = np.arange(32, dtype=np.float16).reshape(1, 2, 4, 4)
    argmax = kernels.reference_kernel("max_pool2d")(x, (2, 2), (2, 2), (0, 0, 0, 0))[1]
    for name, args in [("max_pool2d_grad", (np.ones((1, 2, 2, 2), np.float16), argmax, x.shape)),
                       ("max_pool2d_grad_grad", (x, argmax)),
                       ("avg_pool2d", (x, (2, 2), (2, 2), (0, 0, 0, 0))),
                       ("avg_pool2d_grad", (np.ones((1, 2, 2, 2), np.float16), x.shape, (2, 2),
                                            (2, 2), (0, 0, 0, 0)))]:
        fast, reference = twin_and_reference(name)
        got, expected = fast(*args), reference(*args)
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)


# -- ReLU and its backward ------------------------------------------------------------------

def _relu_sample(shape, dtype, seed):
    """Random values with exact zeros of both signs, NaN and ±inf mixed in."""
    x = random(shape, dtype, seed)
    flat = x.reshape(-1)
    flat[::7] = 0.0
    flat[3::11] = -0.0
    flat[5::13] = np.nan
    flat[1::17] = np.inf
    flat[2::19] = -np.inf
    return x


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(1,), (7,), (3, 5, 2), (128, 6, 28, 28)])
def test_relu_and_relu_grad(dtype, shape):
    """x > 0 ? x : 0 and dy where y > 0: NaN and zeros of either sign give 0, bit for bit."""
    x = _relu_sample(shape, dtype, 31)
    fast, reference = twin_and_reference("relu")
    got, expected = fast(x), reference(x)
    assert got.dtype == expected.dtype == dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)
    assert not np.isnan(got).any() and not np.signbit(got[got == 0]).any()
    dy = random(shape, dtype, 32)
    fast, reference = twin_and_reference("relu_grad")
    got, expected = fast(dy, x), reference(dy, x)
    assert got.dtype == expected.dtype == dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(got, np.where(x > 0, dy, 0).astype(dtype))


@pytest.mark.parametrize("dtype", FLOATS)
def test_relu_and_relu_grad_non_contiguous(dtype):
    x = _relu_sample((6, 9, 4), dtype, 33).transpose(2, 0, 1)[:, ::2]
    dy = random((9, 4, 6), dtype, 34)[:, :, ::-2].transpose(1, 2, 0)
    assert dy.shape == x.shape and not x.flags.c_contiguous and not dy.flags.c_contiguous
    for name, args in [("relu", (x,)), ("relu_grad", (dy, x))]:
        fast, reference = twin_and_reference(name)
        np.testing.assert_array_equal(fast(*args), reference(*args))


def test_relu_and_relu_grad_other_inputs_go_to_the_reference():
    """Other dtypes, mixed dtypes, 0-d and empty arrays: exactly the reference's answer."""
    cases = [("relu", (np.array([-2, 0, 3], np.int32),)),
             ("relu", (np.array([-1.5, 2.0], np.float16),)),
             ("relu", (np.float32(-2.0) * np.ones((), np.float32),)),
             ("relu", (np.ones((0, 3), np.float32),)),
             ("relu_grad", (np.ones(3, np.float16), np.array([1.0, -1.0, 0.0], np.float32))),
             ("relu_grad", (np.array([5, 6, 7], np.int32), np.array([1, -1, 0], np.int64))),
             ("relu_grad", (np.ones((), np.float64), np.ones((), np.float64)))]
    for name, args in cases:
        fast, reference = twin_and_reference(name)
        got, expected = fast(*args), reference(*args)
        assert got.dtype == expected.dtype and got.shape == expected.shape
        np.testing.assert_array_equal(got, expected)


# -- convolution ---------------------------------------------------------------------------

def _same_pads(shape, kernel, stride, dilation):
    from refms.ops.prims.conv import same_padding
    return (same_padding(shape[2], kernel[0], stride[0], dilation[0])
            + same_padding(shape[3], kernel[1], stride[1], dilation[1]))


#: (x shape, w shape, stride, pad mode or explicit pad, dilation, groups)
CONV_CASES = [
    ((2, 3, 7, 9), (4, 3, 3, 2), (1, 1), "valid", (1, 1), 1),
    ((2, 3, 7, 9), (4, 3, 3, 2), (1, 1), "same", (1, 1), 1),
    ((3, 4, 9, 8), (6, 2, 3, 3), (2, 1), (1, 2, 0, 1), (1, 2), 2),     # groups, asymmetric pad
    ((2, 5, 11, 10), (4, 5, 3, 3), (2, 2), "same", (2, 2), 1),         # stride and dilation
    ((1, 1, 5, 5), (2, 1, 5, 5), (3, 3), (2, 2, 2, 2), (1, 1), 1),     # windows mostly padding
    ((40, 6, 14, 14), (16, 6, 5, 5), (1, 1), "valid", (1, 1), 1),      # several samples a chunk
    ((2, 4, 8, 7), (4, 1, 3, 3), (1, 1), "same", (1, 1), 4),           # depthwise
    ((2, 4, 8, 7), (8, 1, 3, 2), (2, 1), (1, 0, 2, 1), (2, 1), 4),     # depthwise, multiplier 2
    ((2, 3, 6, 6), (3, 1, 1, 1), (2, 2), "valid", (1, 1), 3),          # depthwise 1×1, stride 2
    # one input channel (LeNet's first layer), small products: one sample a task
    ((5, 1, 12, 11), (3, 1, 5, 5), (1, 1), "valid", (1, 1), 1),
    ((4, 1, 9, 10), (2, 1, 3, 3), (2, 2), (1, 1, 1, 1), (1, 1), 1),
    ((3, 1, 10, 9), (4, 1, 3, 2), (1, 2), "same", (2, 1), 1),
    ((32, 4, 13, 12), (6, 2, 3, 3), (2, 1), (1, 2, 0, 1), (1, 2), 2),  # several threads
    ((4, 4, 11, 12), (6, 2, 3, 2), (1, 1), "valid", (2, 3), 2),        # wide columns, dilated
    ((3, 2, 5, 9), (4, 2, 5, 2), (1, 1), "valid", (1, 1), 1),          # wide, one output row
    ((3, 2, 6, 5), (4, 2, 3, 1), (1, 1), "valid", (1, 1), 1),          # wide, no junk columns
    ((6, 3, 11, 10), (4, 3, 3, 3), (2, 1), "valid", (1, 1), 1),        # compact, no padding
    ((96, 2, 22, 22), (4, 2, 5, 5), (1, 1), "valid", (1, 1), 1),       # filter: 2 GEMMs a block
    # large products: chunks of several samples, multithreaded GEMMs
    ((3, 8, 20, 20), (32, 8, 3, 3), (1, 1), "same", (1, 1), 1),
    ((3, 8, 21, 19), (34, 8, 3, 3), (1, 1), "valid", (1, 1), 1),
    ((3, 16, 30, 29), (64, 8, 3, 3), (2, 1), (1, 2, 0, 1), (2, 1), 2),
    ((2, 9, 33, 31), (40, 9, 3, 3), (2, 2), "same", (2, 2), 1),
]


def _conv_case(case, dtype):
    x_shape, w_shape, stride, pad, dilation, groups = case
    if pad == "valid":
        pad = (0, 0, 0, 0)
    elif pad == "same":
        pad = _same_pads(x_shape, w_shape[2:], stride, dilation)
    x = random(x_shape, dtype, 13)
    w = random(w_shape, dtype, 14)
    return x, w, (stride, pad, dilation, groups)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("case", CONV_CASES, ids=lambda case: f"{case[0]}-{case[1]}-{case[3]}")
def test_conv2d_and_backprops(dtype, case):
    x, w, args = _conv_case(case, dtype)
    fast, reference = twin_and_reference("conv2d")
    y = reference(x, w, *args)
    assert_same(fast(x, w, *args), y, dtype)
    dout = random(y.shape, dtype, 15)
    fast, reference = twin_and_reference("conv2d_backprop_input")
    assert_same(fast(dout, w, x.shape, *args), reference(dout, w, x.shape, *args), dtype)
    fast, reference = twin_and_reference("conv2d_backprop_filter")
    assert_same(fast(dout, x, w.shape, *args), reference(dout, x, w.shape, *args), dtype)


def test_conv_cases_cover_every_algorithm():
    """The table reaches each of the twin's algorithms: small products one sample a task, with
    compact columns (each with padding, stride, dilation and groups) or wide ones (stride 1, no
    padding: with dilation and groups), and large products a chunk of samples a GEMM."""
    conv = pytest.importorskip("refms._fast.conv", reason="the conv twin is not built")
    seen = {"compact": set(), "wide": set(), "chunks": set()}
    for case in CONV_CASES:
        x, w, (stride, pad, dilation, groups) = _conv_case(case, np.float32)
        geometry = conv._geometry(x.shape, w.shape, stride, pad, dilation, groups)
        if groups == x.shape[1]:
            continue                                        # depthwise: direct loops
        features = {"pad" if any(pad) else "valid", "stride" if max(stride) > 1 else "",
                    "dilation" if max(dilation) > 1 else "", "groups" if groups > 1 else ""}
        if not geometry.by_sample:
            seen["chunks"] |= features
            assert geometry.nb > 1 or x.shape[0] == 1, case
        else:
            seen["wide" if geometry.wide else "compact"] |= features
    assert {"pad", "valid", "stride", "dilation", "groups"} <= seen["compact"]
    assert {"pad", "valid", "stride", "dilation", "groups"} <= seen["chunks"]
    assert {"valid", "dilation", "groups"} <= seen["wide"]


def test_conv2d_backprop_filter_is_reproducible():
    """The filter gradient sums fixed runs of samples in a fixed order, whichever thread runs
    which run: repeated calls give the same bits."""
    fast, _ = twin_and_reference("conv2d_backprop_filter")
    x = random((64, 6, 14, 14), np.float32, 18)
    dout = random((64, 16, 10, 10), np.float32, 19)
    args = ((16, 6, 5, 5), (1, 1), (0, 0, 0, 0), (1, 1), 1)
    first = fast(dout, x, *args)
    for _ in range(5):
        np.testing.assert_array_equal(fast(dout, x, *args), first)


def test_conv2d_non_contiguous_and_other_dtypes():
    fast, reference = twin_and_reference("conv2d")
    x = random((2, 3, 8, 12), np.float32, 16)[:, :, :, ::2]
    w = random((4, 3, 3, 3), np.float32, 17)
    args = ((1, 1), (1, 1, 1, 1), (1, 1), 1)
    assert_same(fast(x, w, *args), reference(x, w, *args), np.float32)
    x16, w16 = x.astype(np.float16), w.astype(np.float16)
    got, expected = fast(x16, w16, *args), reference(x16, w16, *args)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


# -- softmax and cross-entropy ---------------------------------------------------------------

SOFTMAX_CASES = [((7,), -1), ((4, 10), -1), ((4, 10), 0), ((3, 5, 4), 1), ((2, 3, 4), (2,)),
                 ((2, 3, 4), (0, 2))]          # the last: several axes go to the reference


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape, axis", SOFTMAX_CASES)
def test_softmax(name, dtype, shape, axis):
    fast, reference = twin_and_reference(name)
    x = random(shape, dtype, 18, low=-5, high=5)
    assert_same(fast(x, axis), reference(x, axis), dtype)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax_large_logits_and_nan(name):
    fast, reference = twin_and_reference(name)
    x = np.array([[1000.0, 0.0, -1000.0], [np.nan, 1.0, 2.0]], np.float32)
    got, expected = fast(x, -1), reference(x, -1)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(expected))
    np.testing.assert_allclose(got, expected, rtol=1e-6)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("rows, classes", [(1, 1), (5, 3), (32, 10), (7, 1001)])
def test_softmax_cross_entropy(dtype, rows, classes):
    fast, reference = twin_and_reference("softmax_cross_entropy")
    logits = random((rows, classes), dtype, 19, low=-20, high=20)
    labels = random((rows, classes), dtype, 20, low=0, high=1)
    labels /= labels.sum(axis=1, keepdims=True)
    for got, expected in zip(fast(logits, labels), reference(logits, labels)):
        assert_same(got, expected, dtype)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("label_shape, classes", [((1,), 1), ((6,), 4), ((32,), 10), ((2, 3), 5),
                                                  ((3,), 300), ((16,), 1000)])
@pytest.mark.parametrize("label_dtype", [np.int32, np.int64])
@pytest.mark.parametrize("is_grad", [False, True])
def test_sparse_softmax_cross_entropy(dtype, label_shape, classes, label_dtype, is_grad):
    fast, reference = twin_and_reference("sparse_softmax_cross_entropy")
    logits = random(label_shape + (classes,), dtype, 21, low=-20, high=20)
    labels = np.random.default_rng(22).integers(0, classes, size=label_shape).astype(label_dtype)
    assert_same(fast(logits, labels, is_grad), reference(logits, labels, is_grad), dtype)


@pytest.mark.parametrize("is_grad", [False, True])
def test_sparse_softmax_cross_entropy_extreme_logits(is_grad):
    """The float32 SIMD exp: far below the maximum (exp underflows to 0) and a spread of
    ±80 around it agree with the reference; rows with −inf or NaN (which the twin hands to
    the reference, for MindSpore's rule on non-finite lines) too."""
    fast, reference = twin_and_reference("sparse_softmax_cross_entropy")
    logits = random((4, 257), np.float32, 23, low=-80, high=80)
    logits[0, :100] = -1e30
    logits[1, 5] = -np.inf
    logits[2, 7] = np.nan
    labels = np.array([150, 0, 3, 256], np.int32)
    with np.errstate(all="ignore"):
        got, expected = fast(logits, labels, is_grad), reference(logits, labels, is_grad)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(expected))
    finite = ~np.isnan(expected)
    np.testing.assert_allclose(got[finite], expected[finite], rtol=1e-5, atol=1e-7)
    if not is_grad:
        return
    rows = [0, 1, 3]
    clean = logits[rows]
    assert_same(fast(clean, labels[rows], True), reference(clean, labels[rows], True), np.float32)


@pytest.mark.parametrize("bad", [np.inf, -np.inf, np.nan])
@pytest.mark.parametrize("is_grad", [False, True])
def test_sparse_softmax_cross_entropy_float32_non_finite_logits_take_the_reference(bad, is_grad):
    """The float32 twin finds inf/NaN in its first pass over each row (the maximum), not in a
    separate scan; a logit of inf, −inf or NaN anywhere (here in the last of 300 rows, which
    another thread may handle) gives exactly the reference's answer."""
    fast, reference = twin_and_reference("sparse_softmax_cross_entropy")
    logits = random((300, 257), np.float32, 24, low=-5, high=5)
    logits[299, 100] = bad
    labels = np.random.default_rng(25).integers(0, 257, size=300).astype(np.int32)
    with np.errstate(all="ignore"):
        got, expected = fast(logits, labels, is_grad), reference(logits, labels, is_grad)
    np.testing.assert_array_equal(got, expected)        # NaN where the reference has NaN
    assert got.dtype == expected.dtype


# -- optimizer updates -----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(1,), (7,), (6, 16, 5, 5), (300, 401)])
@pytest.mark.parametrize("nesterov", [False, True])
def test_apply_momentum_in_place(dtype, shape, nesterov):
    """Both buffers written in place, equal to the reference's; the gradient untouched."""
    fast, reference = twin_and_reference("apply_momentum")
    p, v, g = (random(shape, dtype, seed) for seed in (31, 32, 33))
    lr, momentum = dtype(0.01), dtype(0.9)
    p_ref, v_ref, g_before = p.copy(), v.copy(), g.copy()
    fast(p, v, g, lr, momentum, nesterov)
    reference(p_ref, v_ref, g, lr, momentum, nesterov)
    assert_same(v, v_ref, dtype)
    assert_same(p, p_ref, dtype)
    np.testing.assert_array_equal(g, g_before)


def test_apply_momentum_odd_operands_go_to_the_reference():
    """A non-contiguous gradient and a float64 learning rate on float32 buffers."""
    fast, reference = twin_and_reference("apply_momentum")
    p, v = random((4, 6), np.float32, 34), random((4, 6), np.float32, 35)
    g = random((6, 4), np.float32, 36).T
    p_ref, v_ref = p.copy(), v.copy()
    fast(p, v, g, np.float64(0.1), np.float32(0.5), False)
    reference(p_ref, v_ref, g, np.float64(0.1), np.float32(0.5), False)
    np.testing.assert_array_equal(p, p_ref)
    np.testing.assert_array_equal(v, v_ref)


# -- batch normalisation ---------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(5, 3), (4, 3, 7), (2, 3, 5, 6), (1, 1, 1, 1), (8, 16, 9, 9)])
def test_batch_norm_statistics_and_normalize(dtype, shape):
    fast, reference = twin_and_reference("batch_norm_statistics")
    x = random(shape, dtype, 23, low=-2, high=3)
    stats = fast(x)
    for got, expected in zip(stats, reference(x)):
        assert_same(got, expected, dtype)
    fast, reference = twin_and_reference("batch_norm")
    channels = shape[1]
    scale, bias = random((channels,), dtype, 24), random((channels,), dtype, 25)
    mean, variance = random((channels,), dtype, 26), random((channels,), dtype, 27, 0.1, 2.0)
    assert_same(fast(x, scale, bias, mean, variance, 1e-5),
                reference(x, scale, bias, mean, variance, 1e-5), dtype)


@pytest.mark.parametrize("dtype", FLOATS)
def test_batch_norm_statistics_one_pass_is_stable(dtype):
    """|mean| ≫ std: the shifted one-pass sums keep the variance's digits."""
    x = (1e4 + random((16, 2, 8, 8), dtype, 28)).astype(dtype)
    fast, reference = twin_and_reference("batch_norm_statistics")
    mean, variance = fast(x)
    exact = x.astype(np.float64)
    np.testing.assert_allclose(variance, exact.var(axis=(0, 2, 3)), rtol=1e-5)
    np.testing.assert_allclose(mean, exact.mean(axis=(0, 2, 3)), rtol=1e-6)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("shape", [(5, 3), (4, 3, 7), (2, 3, 5, 6), (1, 1, 1, 1), (8, 16, 9, 9),
                                   (3, 70, 17, 19)])
def test_batch_norm_grad(dtype, training, shape):
    fast, reference = twin_and_reference("batch_norm_grad")
    x, dy = random(shape, dtype, 31, low=-2, high=3), random(shape, dtype, 32)
    channels = shape[1]
    scale = random((channels,), dtype, 33)
    if training:
        mean, variance = kernels.reference_kernel("batch_norm_statistics")(x)
    else:
        mean, variance = random((channels,), dtype, 34), random((channels,), dtype, 35, 0.1, 2.0)
    args = (dy, x, scale, mean, variance, 1e-5, training)
    for got, expected in zip(fast(*args), reference(*args)):
        assert_same(got, expected, dtype)


@pytest.mark.parametrize("dtype", FLOATS)
def test_batch_norm_grad_large_mean(dtype):
    """|mean| ≫ std: dx is computed from x − μ, so the centred values keep their digits."""
    x = (1e4 + random((16, 2, 8, 8), dtype, 36)).astype(dtype)
    dy = random(x.shape, dtype, 37)
    mean, variance = kernels.reference_kernel("batch_norm_statistics")(x)
    scale = np.ones(2, dtype)
    fast, reference = twin_and_reference("batch_norm_grad")
    for got, expected in zip(fast(dy, x, scale, mean, variance, 1e-5, True),
                             reference(dy, x, scale, mean, variance, 1e-5, True)):
        assert_same(got, expected, dtype)


def test_batch_norm_other_dtypes_fall_back():
    x = random((4, 3, 2, 2), np.float16, 29)
    params = [random((3,), np.float32, 30 + i, 0.5, 1.5) for i in range(4)]
    for name, args in [("batch_norm_statistics", (x,)),
                       ("batch_norm", (x, *params, 1e-5)),
                       ("batch_norm_grad", (x, x, params[0], params[1], params[2], 1e-5, True))]:
        fast, reference = twin_and_reference(name)
        got, expected = fast(*args), reference(*args)
        for g, e in zip(got if isinstance(got, tuple) else (got,),
                        expected if isinstance(expected, tuple) else (expected,)):
            assert g.dtype == e.dtype
            np.testing.assert_array_equal(g, e)


def test_build_info_describes_the_build():
    info = kernels.build_info()
    assert info["fast_available"] is kernels.fast_available()
    assert set(info) >= {"compile_flags", "openmp", "openmp_threads", "kernel_blas", "numpy_blas",
                         "one_blas"}
    if not info["fast_available"]:
        pytest.skip(f"fast kernels are not built: {kernels.why_fast_unavailable()}")
    assert info["openmp"] == ("-fopenmp" in info["compile_flags"])
    assert (info["openmp_threads"] > 0) == info["openmp"]


def test_one_blas_the_fast_gemm_is_numpys_own():
    """When the fast kernels call numpy's BLAS, a GEMM gives numpy's ``@`` bit for bit (the same
    library runs the same routine); build_info says so, and says why when it is not so."""
    info = kernels.build_info()
    if not info["fast_available"]:
        pytest.skip(f"fast kernels are not built: {kernels.why_fast_unavailable()}")
    assert info["one_blas"] == (info["why_not_one_blas"] is None)
    if not info["one_blas"]:
        pytest.skip(f"the fast kernels use scipy's BLAS here: {info['why_not_one_blas']}")
    fast, _ = twin_and_reference("matmul")
    for dtype in (np.float32, np.float64):
        a, b = random((67, 45), dtype, 1), random((45, 31), dtype, 2)
        np.testing.assert_array_equal(fast(a, b, False, False), a @ b)
        np.testing.assert_array_equal(fast(b, a, True, True), (a @ b).T)


def test_refms_blas_scipy_keeps_scipys_blas():
    """``REFMS_BLAS=scipy``: the GEMMs run in scipy's BLAS, still equal to the reference."""
    if not kernels.fast_available():
        pytest.skip(f"fast kernels are not built: {kernels.why_fast_unavailable()}")
    import subprocess
    import sys
    code = ("import numpy as np; from refms import kernels; info = kernels.build_info(); "
            "from refms._fast import matmul; a = np.arange(12, dtype=np.float32).reshape(3, 4); "
            "print(info['one_blas'], info['why_not_one_blas']); "
            "print(np.array_equal(matmul.matmul(a, a, False, True), a @ a.T))")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, REFMS_BLAS="scipy", PYTHONPATH=root)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out == ["False REFMS_BLAS=scipy asks for scipy's BLAS", "True"]


# -- every twin found: one typical call each ------------------------------------------------

def _x(shape, seed=21):
    return random(shape, np.float32, seed)


#: kernel -> its arguments in one typical call; a twin found in refms/_fast needs an entry.
EXAMPLES = {
    "matmul": lambda: (_x((5, 4)), _x((3, 4), 22), False, True),
    "batch_matmul": lambda: (_x((2, 5, 4)), _x((2, 4, 3), 22), False, False),
    "reduce_sum": lambda: (_x((4, 5)), (1,), False),
    "reduce_mean": lambda: (_x((4, 5)), (0,), True),
    "reduce_max": lambda: (_x((4, 5)), (), False),
    "reduce_min": lambda: (_x((4, 5)), (1,), False),
    "reduce_prod": lambda: (random((4, 5), np.float32, 23, 0.9, 1.1), (0,), False),
    "max_pool2d": lambda: (_x((1, 2, 6, 6)), (2, 2), (2, 2), (0, 0, 0, 0)),
    "max_pool2d_grad": lambda: (_x((1, 2, 3, 3)), np.arange(18, dtype=np.int64).reshape(1, 2, 3, 3)
                                % 36, (1, 2, 6, 6)),
    "max_pool2d_grad_grad": lambda: (_x((1, 2, 6, 6)),
                                     np.arange(18, dtype=np.int64).reshape(1, 2, 3, 3) * 2),
    "avg_pool2d": lambda: (_x((1, 2, 6, 6)), (3, 3), (2, 2), (1, 1, 1, 1)),
    "avg_pool2d_grad": lambda: (_x((1, 2, 3, 3)), (1, 2, 6, 6), (3, 3), (2, 2), (1, 1, 1, 1)),
    "conv2d": lambda: (_x((2, 3, 6, 6)), _x((4, 3, 3, 3), 22), (1, 1), (1, 1, 1, 1), (1, 1), 1),
    "conv2d_backprop_input": lambda: (_x((2, 4, 6, 6)), _x((4, 3, 3, 3), 22), (2, 3, 6, 6),
                                      (1, 1), (1, 1, 1, 1), (1, 1), 1),
    "conv2d_backprop_filter": lambda: (_x((2, 4, 6, 6)), _x((2, 3, 6, 6), 22), (4, 3, 3, 3),
                                       (1, 1), (1, 1, 1, 1), (1, 1), 1),
    "softmax": lambda: (_x((4, 5)), (1,)),
    "log_softmax": lambda: (_x((4, 5)), (1,)),
    "softmax_cross_entropy": lambda: (_x((4, 5)), np.full((4, 5), 0.2, np.float32)),
    "sparse_softmax_cross_entropy": lambda: (_x((4, 5)), np.array([0, 4, 2, 1], np.int32), True),
    "batch_norm_statistics": lambda: (_x((4, 3, 2, 2)),),
    "batch_norm": lambda: (_x((4, 3, 2, 2)), _x((3,), 22), _x((3,), 23), _x((3,), 24),
                           random((3,), np.float32, 25, 0.5, 1.5), 1e-5),
    "batch_norm_grad": lambda: (_x((4, 3, 2, 2), 26), _x((4, 3, 2, 2)), _x((3,), 22), _x((3,), 24),
                                random((3,), np.float32, 25, 0.5, 1.5), 1e-5, True),
    "relu": lambda: (_x((4, 5)),),
    "relu_grad": lambda: (_x((4, 5)), _x((4, 5), 22)),
    "apply_momentum": lambda: (_x((4, 5)), _x((4, 5), 22), _x((4, 5), 23), np.float32(0.1),
                               np.float32(0.9), False),
}


def test_the_twins_are_found_from_the_pyx_sources():
    assert set(TWINS) >= {"matmul", "reduce_sum", "max_pool2d"}
    if kernels.fast_available():
        assert set(kernels.fast_kernel_names()) == set(TWINS)


@pytest.mark.parametrize("name", TWINS)
def test_every_twin_found_equals_its_reference(name):
    assert name in EXAMPLES, f"the fast twin {name!r} has no entry in EXAMPLES"
    assert name in kernels.kernel_names(), f"the fast twin {name!r} has no reference kernel"
    fast, reference = twin_and_reference(name)
    args = EXAMPLES[name]()
    if name in kernels.INPLACE:               # compare what each wrote into its inputs
        fast_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        assert fast(*fast_args) is None and reference(*args) is None
        got = tuple(a for a in fast_args if isinstance(a, np.ndarray))
        expected = tuple(a for a in args if isinstance(a, np.ndarray))
    else:
        got, expected = fast(*args), reference(*args)
    if not isinstance(expected, tuple):
        got, expected = (got,), (expected,)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        if np.issubdtype(e.dtype, np.floating):
            assert_same(g, e, np.float32)
        else:
            np.testing.assert_array_equal(g, e)
