"""The mint names that needed new primitives: ``mint.unique``/``unique_consecutive``/``histc``
(refms/ops/prims/unique.py), ``mint.nn.functional.unfold``/``fold`` and ``mint.nn.Unfold``/
``Fold`` (refms/ops/prims/im2col.py), ``mint.nn.functional.grid_sample``
(refms/mint/nn/_grid_sample.py), ``mint.nn.functional.adaptive_max_pool1d/2d`` and their Cells
(refms/mint/nn/_adaptive_max_pool.py).

* grid_sample, adaptive_max_pool2d and unique_consecutive: outputs, gradients and exception types recorded on
  MindSpore 2.10 (``tests/recorders/record_mint_gaps.py`` -> ``mint_gaps.json``), replayed in
  PyNative and GRAPH_MODE; gradients also against float64 central differences.
* unique, histc, unfold, fold, adaptive_max_pool1d: MindSpore 2.10 has no CPU kernel for them ("The kernel Unique2
  unregistered"), so values come from numpy (``np.unique``, ``np.histogram``) and from the
  definition of im2col written as explicit loops; their bad-input exception types are
  MindSpore's (its shape rules reject them before a kernel is looked up).
"""

import numpy as np
import pytest

import refms
from recorded_op_cases import (load_recorded, case_inputs, as_tuple, check_outputs, calling,
                               central_difference_check, check_recorded_gradient,
                               check_numerical_gradient, check_raises)
from refms import Tensor, mint

record_mint_gaps, RECORDED, CASES, ERRORS = load_recorded("mint_gaps")
F = mint.nn.functional


RECORDED_CASES = sorted(CASES)


@pytest.mark.parametrize("name", RECORDED_CASES)
def test_forward_matches_mindspore(name):
    fn, _ = CASES[name]
    check_outputs(name, as_tuple(fn(*case_inputs(RECORDED[name]))), RECORDED[name])


@pytest.mark.parametrize("name", RECORDED_CASES)
def test_graph_mode_matches_mindspore(name):
    fn, _ = CASES[name]
    refms.set_context(mode=refms.GRAPH_MODE)
    run = fn if name.startswith("nn.") else refms.jit(calling(fn))   # a Cell compiles itself
    check_outputs(name, as_tuple(run(*case_inputs(RECORDED[name]))), RECORDED[name])


@pytest.mark.parametrize("name", sorted(n for n in CASES if "grads" in RECORDED[n]))
def test_gradient_matches_mindspore(name):
    check_recorded_gradient(name, RECORDED[name], CASES[name][0])


@pytest.mark.parametrize("name", sorted(n for n in CASES if CASES[n][1]))
def test_gradient_numerically_float64(name):
    check_numerical_gradient(RECORDED[name], CASES[name][0])


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_bad_input_raises_mindspore_exception_type(name):
    check_raises(name, RECORDED[name]["error"], ERRORS[name])


def test_every_case_is_recorded():
    missing = sorted(set(CASES) - set(RECORDED)) + sorted(set(ERRORS) - set(RECORDED))
    assert not missing, f"run tests/recorders/record_mint_gaps.py for: {missing}"


# -- unique and histc against numpy (no MindSpore 2.10 CPU kernel) ---------------------------

MODES = ["pynative", "graph"]


def _run(fn, mode, *args):
    if mode == "graph":
        return refms.jit(calling(fn))(*args)
    return fn(*args)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("values", [
    np.array([3, 1, 2, 3, 1, 5], np.int32),
    np.array([[2.5, -1.0, 2.5], [0.0, -1.0, 7.0]], np.float32),
    np.array([True, False, True]),
])
def test_unique_is_numpy_unique(values, mode):
    want, inverse, counts = np.unique(values, return_inverse=True, return_counts=True)
    out = _run(lambda x: mint.unique(x, return_inverse=True, return_counts=True), mode,
               Tensor(values))
    assert [str(o.dtype) for o in out[1:]] == ["Int64", "Int64"]
    np.testing.assert_array_equal(out[0].asnumpy(), want)
    np.testing.assert_array_equal(out[1].asnumpy(), inverse.reshape(values.shape))
    np.testing.assert_array_equal(out[2].asnumpy(), counts)
    alone = _run(lambda x: mint.unique(x), mode, Tensor(values))
    np.testing.assert_array_equal(alone.asnumpy(), want)


def test_unique_along_a_dim_is_numpy_unique_along_an_axis():
    rows = np.array([[1, 2], [3, 4], [1, 2], [0, 9]], np.int32)
    want, inverse, counts = np.unique(rows, return_inverse=True, return_counts=True, axis=0)
    out = mint.unique(Tensor(rows), return_inverse=True, return_counts=True, dim=0)
    np.testing.assert_array_equal(out[0].asnumpy(), want)
    np.testing.assert_array_equal(out[1].asnumpy(), inverse.reshape(-1))
    np.testing.assert_array_equal(out[2].asnumpy(), counts)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("values,bins,low,high", [
    (np.array([1.0, 2.0, 1.0, 4.0, 2.5, -3.0, 9.0], np.float32), 4, 0, 4),
    (np.random.default_rng(5).standard_normal(200).astype(np.float32), 7, -1.5, 2.0),
    (np.random.default_rng(6).standard_normal(50).astype(np.float32), 10, 0, 0),
])
def test_histc_is_numpy_histogram(values, bins, low, high, mode):
    """np.histogram's bins are half-open but the last, which holds ``high``: torch.histc's."""
    data = values.astype(np.float64)
    lo, hi = (low, high) if low != high else (data.min(), data.max())
    inside = data[(data >= lo) & (data <= hi)]
    want, _ = np.histogram(inside, bins=bins, range=(lo, hi))
    out = _run(lambda x: mint.histc(x, bins, low, high), mode, Tensor(values))
    assert out.dtype == refms.float32 and out.shape == (bins,)
    np.testing.assert_array_equal(out.asnumpy(), want)


def test_unique_and_histc_have_no_gradient():
    from refms.ops.primitive import NON_DIFFERENTIABLE
    assert {"Unique2", "UniqueDim", "UniqueConsecutive", "HistcExt"} <= NON_DIFFERENTIABLE


# -- unfold / fold against the definition of im2col ------------------------------------------

def unfold_by_loops(x, kernel, dilation, padding, stride):
    """cols[n, c·kh·kw + i·kw + j, a·ow + b] = x_pad[n, c, a·sh + i·dh, b·sw + j·dw]."""
    n, c, h, w = x.shape
    (kh, kw), (dh, dw), (ph, pw), (sh, sw) = kernel, dilation, padding, stride
    oh = (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    ow = (w + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    padded = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    cols = np.zeros((n, c * kh * kw, oh * ow), x.dtype)
    for ch in range(c):
        for i in range(kh):
            for j in range(kw):
                for a in range(oh):
                    for b in range(ow):
                        cols[:, ch * kh * kw + i * kw + j, a * ow + b] = \
                            padded[:, ch, a * sh + i * dh, b * sw + j * dw]
    return cols


def fold_by_loops(cols, output_size, kernel, dilation, padding, stride):
    """The adjoint of unfold_by_loops: each column entry added to the pixel it was read from."""
    (h, w), (kh, kw), (dh, dw), (ph, pw), (sh, sw) = output_size, kernel, dilation, padding, stride
    n, rows, _ = cols.shape
    c = rows // (kh * kw)
    oh = (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    ow = (w + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    padded = np.zeros((n, c, h + 2 * ph, w + 2 * pw), cols.dtype)
    for ch in range(c):
        for i in range(kh):
            for j in range(kw):
                for a in range(oh):
                    for b in range(ow):
                        padded[:, ch, a * sh + i * dh, b * sw + j * dw] += \
                            cols[:, ch * kh * kw + i * kw + j, a * ow + b]
    return padded[:, :, ph:ph + h, pw:pw + w]


BLOCKS = [   # (x shape, kernel, dilation, padding, stride)
    ((2, 3, 4, 5), (2, 2), (1, 1), (0, 0), (1, 1)),
    ((1, 2, 6, 7), (3, 2), (1, 2), (1, 0), (2, 1)),
    ((2, 1, 5, 5), (2, 3), (2, 1), (1, 2), (1, 3)),
]


def _pairs(kernel, dilation, padding, stride):
    return dict(kernel_size=kernel, dilation=dilation, padding=padding, stride=stride)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("shape,kernel,dilation,padding,stride", BLOCKS)
def test_unfold_and_fold_follow_the_definition(shape, kernel, dilation, padding, stride, mode):
    rng = np.random.default_rng(11)
    x = rng.standard_normal(shape).astype(np.float32)
    kw = _pairs(kernel, dilation, padding, stride)
    cols = _run(lambda t: F.unfold(t, **kw), mode, Tensor(x))
    want = unfold_by_loops(x, kernel, dilation, padding, stride)
    np.testing.assert_allclose(cols.asnumpy(), want, rtol=1e-6)
    c = rng.standard_normal(want.shape).astype(np.float32)
    back = _run(lambda t: F.fold(t, shape[2:], **kw), mode, Tensor(c))
    np.testing.assert_allclose(back.asnumpy(), fold_by_loops(c, shape[2:], kernel, dilation,
                                                             padding, stride), rtol=1e-5,
                               atol=1e-6)


@pytest.mark.parametrize("shape,kernel,dilation,padding,stride", BLOCKS)
def test_unfold_and_fold_gradients_float64(shape, kernel, dilation, padding, stride):
    rng = np.random.default_rng(12)
    kw = _pairs(kernel, dilation, padding, stride)
    x = Tensor(rng.standard_normal(shape))
    u = [unfold_by_loops(rng.standard_normal(shape), kernel, dilation, padding, stride)]
    central_difference_check(lambda t: F.unfold(t, **kw), [x], [0], u)
    cols = Tensor(rng.standard_normal(u[0].shape))
    central_difference_check(lambda t: F.fold(t, shape[2:], **kw), [cols], [0],
                             [rng.standard_normal(shape)])


@pytest.mark.parametrize("mode", MODES)
def test_unfold_and_fold_cells(mode):
    """mint.nn.Fold(Unfold(x)) multiplies each pixel by the number of blocks that cover it."""
    if mode == "graph":
        refms.set_context(mode=refms.GRAPH_MODE)
    x = np.arange(1 * 2 * 4 * 4, dtype=np.float32).reshape(1, 2, 4, 4)
    cols = mint.nn.Unfold(kernel_size=2)(Tensor(x))
    back = mint.nn.Fold(output_size=(4, 4), kernel_size=2)(cols)
    cover = fold_by_loops(unfold_by_loops(np.ones_like(x), (2, 2), (1, 1), (0, 0), (1, 1)),
                          (4, 4), (2, 2), (1, 1), (0, 0), (1, 1))
    np.testing.assert_allclose(back.asnumpy(), x * cover)


# -- adaptive_max_pool1d against its bins (no MindSpore 2.10 CPU kernel) ----------------------

@pytest.mark.parametrize("mode", MODES)
def test_adaptive_max_pool1d_takes_the_maximum_of_each_bin(mode):
    """Bin i covers ⌊i·L/out⌋ … ⌈(i+1)·L/out⌉ − 1; the index is the maximum's position in L."""
    x = np.random.default_rng(4).standard_normal((2, 3, 7)).astype(np.float32)
    values, index = _run(lambda t: F.adaptive_max_pool1d(t, 3, True), mode, Tensor(x))
    for i, (start, end) in enumerate([(0, 3), (2, 5), (4, 7)]):
        np.testing.assert_array_equal(values.asnumpy()[..., i], x[..., start:end].max(-1))
        np.testing.assert_array_equal(index.asnumpy()[..., i], start + x[..., start:end].argmax(-1))
    assert index.dtype == refms.int64
    out = mint.nn.AdaptiveMaxPool1d(3)(Tensor(x[0]))
    np.testing.assert_array_equal(out.asnumpy(), values.asnumpy()[0])
    rng = np.random.default_rng(8)
    central_difference_check(lambda t: F.adaptive_max_pool1d(t, 3), [Tensor(x.astype(np.float64))],
                             [0], [rng.standard_normal((2, 3, 3))])


# -- conv_transpose2d against its scatter definition (no MindSpore 2.10 CPU kernel) ------------

def conv_transpose_by_loops(x, w, stride, padding, output_padding, groups, dilation):
    """out[n, g·Cg + o, i·s − p + a·d, j·s − p + b·d] += x[n, c, i, j]·w[c, o, a, b]."""
    (sh, sw), (ph, pw), (oph, opw), (dh, dw) = stride, padding, output_padding, dilation
    n, c_in, h, wd = x.shape
    _, per_group, kh, kw = w.shape
    out_h = (h - 1) * sh - 2 * ph + dh * (kh - 1) + oph + 1
    out_w = (wd - 1) * sw - 2 * pw + dw * (kw - 1) + opw + 1
    full = np.zeros((n, per_group * groups, out_h + 2 * ph, out_w + 2 * pw))
    in_per_group = c_in // groups
    for c in range(c_in):
        g = c // in_per_group
        for o in range(per_group):
            for a in range(kh):
                for b in range(kw):
                    for i in range(h):
                        for j in range(wd):
                            full[:, g * per_group + o, i * sh + a * dh, j * sw + b * dw] += \
                                x[:, c, i, j] * w[c, o, a, b]
    return full[:, :, ph:ph + out_h, pw:pw + out_w]


TRANSPOSED = [   # (x shape, w shape, stride, padding, output_padding, groups, dilation)
    ((2, 3, 3, 4), (3, 2, 3, 3), (1, 1), (0, 0), (0, 0), 1, (1, 1)),
    ((1, 4, 3, 3), (4, 2, 3, 2), (2, 2), (1, 0), (1, 1), 1, (1, 1)),
    ((1, 4, 2, 3), (4, 1, 2, 2), (2, 3), (0, 1), (0, 2), 2, (2, 1)),
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("xs,ws,stride,padding,output_padding,groups,dilation", TRANSPOSED)
def test_conv_transpose2d_follows_the_definition(xs, ws, stride, padding, output_padding, groups,
                                                 dilation, mode):
    rng = np.random.default_rng(21)
    x, w = rng.standard_normal(xs), rng.standard_normal(ws)
    bias = rng.standard_normal(ws[1] * groups)
    want = conv_transpose_by_loops(x, w, stride, padding, output_padding, groups, dilation)
    want = want + bias.reshape(1, -1, 1, 1)

    def call(a, b, c):
        return F.conv_transpose2d(a, b, c, stride, padding, output_padding, groups, dilation)
    out = _run(call, mode, *[Tensor(v.astype(np.float32)) for v in (x, w, bias)])
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-5, atol=1e-5)
    central_difference_check(call, [Tensor(x), Tensor(w), Tensor(bias)], [0, 1, 2],
                             [rng.standard_normal(want.shape)])


def test_conv_transpose2d_cell_and_bad_input():
    net = mint.nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2)
    assert tuple(net.weight.shape) == (4, 3, 3, 3) and tuple(net.bias.shape) == (6,)
    x = np.random.default_rng(2).standard_normal((1, 4, 3, 3)).astype(np.float32)
    out = net(Tensor(x))
    want = conv_transpose_by_loops(x, net.weight.asnumpy(), (2, 2), (1, 1), (1, 1), 2, (1, 1))
    np.testing.assert_allclose(out.asnumpy(), want + net.bias.asnumpy().reshape(1, -1, 1, 1),
                               rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError):
        F.conv_transpose2d(Tensor(x), net.weight, output_padding=2, stride=2)
    with pytest.raises(ValueError):
        F.conv_transpose2d(Tensor(x[:, :3]), net.weight)
