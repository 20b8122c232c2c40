"""Every fast twin (refms/_fast, Cython) equals its reference kernel (refms/kernels, numpy).

STYLE.md item 7: the twin has the reference's signature and is tested equal
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


def test_max_pool2d_other_dtypes_fall_back():
    fast, reference = twin_and_reference("max_pool2d")
    x = np.arange(32, dtype=np.int32).reshape(1, 2, 4, 4)
    for got, expected in zip(fast(x, (2, 2), (2, 2), (0, 0, 0, 0)),
                             reference(x, (2, 2), (2, 2), (0, 0, 0, 0))):
        np.testing.assert_array_equal(got, expected)


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
    got, expected = fast(*args), reference(*args)
    if not isinstance(expected, tuple):
        got, expected = (got,), (expected,)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        if np.issubdtype(e.dtype, np.floating):
            assert_same(g, e, np.float32)
        else:
            np.testing.assert_array_equal(g, e)
