"""The convolution, pooling, softmax and batch-norm kernels against independent definitions.

The references are direct loops over output positions and window taps
(``conformance/optable/rows_nn.py``), sharing no code with the im2col / strided-slice
kernels of ``refms/kernels``.  Each test runs on the reference kernel and on
whatever the dispatcher picks (a fast twin, once one is built), so a twin is
held to the same definition.  Besides values, the convolution kernels must be
each other's adjoints: ⟨conv(x, w), d⟩ = ⟨x, dx(d, w)⟩ = ⟨w, dw(d, x)⟩.
"""
import numpy as np
import pytest

import refms
from refms import kernels

from conformance import optable

optable.load(refms, areas=["nn"])    # the rows module reads the implementation at import
from conformance.optable.rows_nn import (  # noqa: E402
    conv_pads, naive_avg_pool, naive_avg_pool_grad, naive_conv2d, naive_conv2d_backprop_filter,
    naive_conv2d_backprop_input, naive_max_pool, naive_max_pool_grad, same_pads)

IMPLEMENTATIONS = ("reference", "dispatched")


def kernel(name, implementation):
    if implementation == "reference":
        return kernels.reference_kernel(name)
    return kernels.call(name)


# (x shape, w shape, pad_mode, pad, stride, dilation, groups)
CONV_CASES = [
    ((2, 3, 6, 5), (4, 3, 3, 3), "valid", 0, (1, 1), (1, 1), 1),
    ((2, 3, 5, 6), (4, 3, 3, 3), "same", 0, (1, 1), (1, 1), 1),
    ((1, 3, 6, 7), (2, 3, 3, 3), "same", 0, (2, 2), (1, 1), 1),
    ((1, 2, 7, 6), (4, 2, 2, 3), "same", 0, (2, 1), (2, 2), 1),
    ((2, 3, 6, 6), (4, 3, 3, 3), "pad", (1, 0, 2, 1), (2, 1), (1, 2), 1),
    ((2, 4, 7, 6), (6, 2, 3, 3), "pad", (1, 0, 0, 2), (1, 2), (2, 1), 2),
    ((1, 6, 5, 5), (6, 1, 3, 3), "pad", 1, (1, 1), (1, 1), 6),          # depthwise
    ((3, 1, 4, 4), (2, 1, 1, 1), "valid", 0, (1, 1), (1, 1), 1),         # 1×1 kernel
]


def conv_case(case, dtype=np.float64, seed=0):
    x_shape, w_shape, pad_mode, pad, stride, dilation, groups = case
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(x_shape).astype(dtype)
    w = rng.standard_normal(w_shape).astype(dtype)
    pads = conv_pads(x_shape, w_shape, pad_mode, pad, stride, dilation)
    return x, w, pads, stride, dilation, groups


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@pytest.mark.parametrize("case", CONV_CASES, ids=lambda case: f"{case[0]}x{case[1]}-{case[2]}")
def test_conv2d_matches_direct_loops(case, implementation):
    x, w, pads, stride, dilation, groups = conv_case(case)
    got = kernel("conv2d", implementation)(x, w, stride, pads, dilation, groups)
    want = naive_conv2d(x, w, stride, pads, dilation, groups)
    assert got.dtype == x.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@pytest.mark.parametrize("case", CONV_CASES, ids=lambda case: f"{case[0]}x{case[1]}-{case[2]}")
def test_conv2d_backprops_match_direct_loops(case, implementation):
    x, w, pads, stride, dilation, groups = conv_case(case)
    out_shape = naive_conv2d(x, w, stride, pads, dilation, groups).shape
    dout = np.random.default_rng(1).standard_normal(out_shape)
    dx = kernel("conv2d_backprop_input", implementation)(dout, w, x.shape, stride, pads,
                                                         dilation, groups)
    dw = kernel("conv2d_backprop_filter", implementation)(dout, x, w.shape, stride, pads,
                                                          dilation, groups)
    np.testing.assert_allclose(dx, naive_conv2d_backprop_input(dout, w, x.shape, stride, pads,
                                                               dilation, groups), atol=1e-12)
    np.testing.assert_allclose(dw, naive_conv2d_backprop_filter(dout, x, w.shape, stride, pads,
                                                                dilation, groups), atol=1e-12)


@pytest.mark.parametrize("case", CONV_CASES, ids=lambda case: f"{case[0]}x{case[1]}-{case[2]}")
def test_conv2d_backprops_are_adjoints(case):
    x, w, pads, stride, dilation, groups = conv_case(case)
    y = kernels.call("conv2d")(x, w, stride, pads, dilation, groups)
    d = np.random.default_rng(2).standard_normal(y.shape)
    dx = kernels.call("conv2d_backprop_input")(d, w, x.shape, stride, pads, dilation, groups)
    dw = kernels.call("conv2d_backprop_filter")(d, x, w.shape, stride, pads, dilation, groups)
    assert np.isclose(np.sum(y * d), np.sum(x * dx), rtol=1e-12)
    assert np.isclose(np.sum(y * d), np.sum(w * dw), rtol=1e-12)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_conv2d_keeps_float32(implementation):
    x, w, pads, stride, dilation, groups = conv_case(CONV_CASES[1], np.float32)
    got = kernel("conv2d", implementation)(x, w, stride, pads, dilation, groups)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, naive_conv2d(x, w, stride, pads, dilation, groups),
                               rtol=1e-5, atol=1e-5)


def test_same_padding_puts_the_odd_cell_after():
    # semantics 8.1: 2×2 all-ones kernel on a 3×3 arange [ran 2.10].
    x = np.arange(9, dtype=np.float64).reshape(1, 1, 3, 3)
    pads = same_pads(3, 2, 1) + same_pads(3, 2, 1)
    assert pads == (0, 1, 0, 1)
    y = kernels.call("conv2d")(x, np.ones((1, 1, 2, 2)), (1, 1), pads, (1, 1), 1)
    np.testing.assert_array_equal(y[0, 0], [[8, 12, 7], [20, 24, 13], [13, 15, 8]])


# -- pooling ------------------------------------------------------------------------------------

# (x shape, kernel, stride, pads)
POOL_CASES = [
    ((2, 3, 6, 5), (2, 2), (2, 2), (0, 0, 0, 0)),
    ((2, 3, 7, 6), (3, 3), (2, 2), same_pads(7, 3, 2) + same_pads(6, 3, 2)),
    ((1, 2, 5, 5), (3, 2), (1, 2), same_pads(5, 3, 1) + same_pads(5, 2, 2)),
    ((1, 2, 6, 7), (3, 3), (2, 2), (1, 2, 1, 1)),          # padding + ceil-mode overhang
    ((1, 1, 4, 4), (1, 1), (1, 1), (0, 0, 0, 0)),
]


def pool_input(shape, seed=0):
    """Distinct values (no ties), shuffled."""
    n = int(np.prod(shape))
    return np.random.default_rng(seed).permutation(n).reshape(shape).astype(np.float64) - n / 2


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@pytest.mark.parametrize("case", POOL_CASES, ids=lambda case: f"{case[0]}-k{case[1]}-s{case[2]}")
def test_max_pool_matches_direct_loops(case, implementation):
    shape, kernel_hw, stride, pads = case
    x = pool_input(shape)
    y, argmax = kernel("max_pool2d", implementation)(x, kernel_hw, stride, pads)
    want_y, want_arg = naive_max_pool(x, kernel_hw, stride, pads)
    np.testing.assert_array_equal(y, want_y)
    np.testing.assert_array_equal(argmax, want_arg)
    assert argmax.dtype == np.int64
    dout = np.random.default_rng(1).standard_normal(y.shape)
    dx = kernel("max_pool2d_grad", implementation)(dout, argmax, x.shape)
    np.testing.assert_allclose(dx, naive_max_pool_grad(x, dout, kernel_hw, stride, pads),
                               atol=1e-12)
    ddx = np.random.default_rng(2).standard_normal(x.shape)
    ddy = kernel("max_pool2d_grad_grad", implementation)(ddx, argmax)
    assert np.isclose(np.sum(ddy * dout), np.sum(ddx * dx), rtol=1e-12)      # adjoint pair


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_max_pool_ties_go_to_the_first_maximum(implementation):
    # Row-major first maximum per window [ran 2.10: MaxPool(2, 1) gradient].
    x = np.array([[[[1.0, 2.0, 2.0], [0.0, 2.0, 1.0], [2.0, 0.0, 0.0]]]])
    y, argmax = kernel("max_pool2d", implementation)(x, (2, 2), (1, 1), (0, 0, 0, 0))
    np.testing.assert_array_equal(argmax[0, 0], [[1, 1], [4, 4]])
    dx = kernel("max_pool2d_grad", implementation)(np.ones_like(y), argmax, x.shape)
    np.testing.assert_array_equal(dx[0, 0], [[0, 2, 0], [0, 2, 0], [0, 0, 0]])


def test_max_pool_never_picks_padding_and_scans_nan_as_mindspore():
    x = np.full((1, 1, 2, 2), -np.inf)
    y, argmax = kernels.call("max_pool2d")(x, (2, 2), (1, 1), (1, 1, 1, 1))
    assert np.all(argmax >= 0) and np.all(y == -np.inf)
    # MindSpore 2.10's MaxPool (tests/recorders/differential.json.gz): a NaN after the
    # window's first cell never wins; a NaN in the first cell stays
    x = np.array([[[[1.0, np.nan], [3.0, 2.0]]]])
    y, argmax = kernels.call("max_pool2d")(x, (2, 2), (2, 2), (0, 0, 0, 0))
    assert y[0, 0, 0, 0] == 3.0 and argmax[0, 0, 0, 0] == 2
    x = np.array([[[[np.nan, -1.0], [-2.0, np.nan]]]])
    y, argmax = kernels.call("max_pool2d")(x, (2, 2), (2, 2), (0, 0, 0, 0))
    assert np.isnan(y[0, 0, 0, 0]) and argmax[0, 0, 0, 0] == 0


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@pytest.mark.parametrize("case", POOL_CASES, ids=lambda case: f"{case[0]}-k{case[1]}-s{case[2]}")
def test_avg_pool_matches_direct_loops(case, implementation):
    shape, kernel_hw, stride, pads = case
    x = np.random.default_rng(0).standard_normal(shape)
    y = kernel("avg_pool2d", implementation)(x, kernel_hw, stride, pads)
    np.testing.assert_allclose(y, naive_avg_pool(x, kernel_hw, stride, pads), atol=1e-12)
    dout = np.random.default_rng(1).standard_normal(y.shape)
    dx = kernel("avg_pool2d_grad", implementation)(dout, x.shape, kernel_hw, stride, pads)
    np.testing.assert_allclose(dx, naive_avg_pool_grad(x.shape, dout, kernel_hw, stride, pads),
                               atol=1e-12)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_avg_pool_divisor(implementation):
    x = np.random.default_rng(0).standard_normal((1, 2, 4, 5))
    pads = (1, 1, 1, 1)
    y = kernel("avg_pool2d", implementation)(x, (2, 2), (2, 2), pads, 3.0)
    window_sums = naive_avg_pool(x, (2, 2), (2, 2), pads, lambda *window: 1)
    np.testing.assert_allclose(y, window_sums / 3, atol=1e-12)
    dout = np.random.default_rng(1).standard_normal(y.shape)
    dx = kernel("avg_pool2d_grad", implementation)(dout, x.shape, (2, 2), (2, 2), pads, 3.0)
    assert np.isclose(np.sum(y * dout), np.sum(x * dx), rtol=1e-12)         # adjoint pair


# -- softmax and batch norm ------------------------------------------------------------------------

@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_softmax_kernels_are_stable(implementation):
    x = np.array([[1000.0, 0.0, -1000.0], [1.0, 2.0, 3.0]], np.float32)
    p = kernel("softmax", implementation)(x, -1)
    log_p = kernel("log_softmax", implementation)(x, -1)
    assert p.dtype == log_p.dtype == np.float32
    assert np.all(np.isfinite(log_p))
    np.testing.assert_allclose(p.sum(axis=-1), 1, rtol=1e-6)
    np.testing.assert_allclose(log_p[0], [0, -1000, -2000])
    e = np.exp(np.float64(x[1]))
    np.testing.assert_allclose(log_p[1], np.log(e / e.sum()), rtol=1e-6)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_cross_entropy_kernels(implementation):
    logits = np.array([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]], np.float32)
    loss, dlogits = kernel("softmax_cross_entropy", implementation)(
        logits, np.array([[0, 0, 1], [1, 0, 0]], np.float32))
    np.testing.assert_allclose(loss, [0.40760596, 1.0986123], rtol=1e-7)    # [ran 2.10]
    np.testing.assert_allclose(dlogits.sum(axis=-1), 0, atol=1e-7)
    mean = kernel("sparse_softmax_cross_entropy", implementation)(logits, np.array([2, 0]), False)
    assert mean.shape == () and np.isclose(mean, (0.40760596 + 1.0986123) / 2)
    big = kernel("sparse_softmax_cross_entropy", implementation)(
        np.array([[1000.0, 0.0, -1000.0]], np.float32), np.array([2]), False)
    assert big == 2000.0


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_batch_norm_statistics_are_two_pass(implementation):
    # Mean 1e4, spread 1: E[x²] − E[x]² in float32 would lose every digit of the variance.
    rng = np.random.default_rng(0)
    x = (1e4 + rng.standard_normal((8, 3, 4, 4))).astype(np.float32)
    mean, var = kernel("batch_norm_statistics", implementation)(x)
    x64 = x.astype(np.float64)
    np.testing.assert_allclose(mean, x64.mean(axis=(0, 2, 3)), rtol=1e-6)
    np.testing.assert_allclose(var, x64.var(axis=(0, 2, 3)), rtol=1e-3)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@pytest.mark.parametrize("shape", [(6, 3), (4, 3, 5), (2, 3, 4, 5)])
def test_batch_norm_normalises_per_channel(shape, implementation):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape) * 3 + 2
    scale, bias = rng.standard_normal(3), rng.standard_normal(3)
    mean, var = kernel("batch_norm_statistics", implementation)(x)
    y = kernel("batch_norm", implementation)(x, scale, bias, mean, var, 1e-5)
    axes = (0,) + tuple(range(2, len(shape)))
    standard = (y - bias.reshape((1, 3) + (1,) * (len(shape) - 2))) / \
        scale.reshape((1, 3) + (1,) * (len(shape) - 2))
    np.testing.assert_allclose(standard.mean(axis=axes), 0, atol=1e-10)
    np.testing.assert_allclose(standard.var(axis=axes), var / (var + 1e-5), rtol=1e-10)
