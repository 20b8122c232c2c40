"""mint names whose MindSpore 2.10 kernels exist only on Ascend ("The kernel Conv3DExt
unregistered" on CPU): ``mint.nn.functional.conv3d`` / ``mint.nn.Conv3d``,
``adaptive_avg_pool3d`` / ``AdaptiveAvgPool3d``, ``max_unpool2d`` / ``MaxUnpool2d``, and
``mint.nn.SyncBatchNorm``.  Values come from their definitions written as explicit loops
over numpy arrays (an independent reference); gradients from float64 central differences.
"""
import numpy as np
import pytest

import refms
from recorded_op_cases import calling, central_difference_check
from refms import Tensor, mint

F = mint.nn.functional
MODES = ["pynative", "graph"]


def _run(fn, mode, *args):
    if mode == "graph":
        return refms.jit(calling(fn))(*args)
    return fn(*args)


# -- conv3d ------------------------------------------------------------------------------------

def conv3d_by_loops(x, w, bias, stride, padding, dilation, groups):
    """out[n, o, a, b, c] = Σ x_pad[n, g·Cg + ci, a·s + i·d, b·s + j·d, c·s + k·d]·w[o, ci, i, j, k]."""
    n, c_in, *_ = x.shape
    c_out, per_group, kd, kh, kw = w.shape
    (pd, ph, pw), (sd, sh, sw), (dd, dh, dw) = padding, stride, dilation
    xp = np.pad(x, ((0, 0), (0, 0), (pd, pd), (ph, ph), (pw, pw)))
    sizes = [(xp.shape[2 + a] - d * (k - 1) - 1) // s + 1 for a, k, s, d in
             zip(range(3), (kd, kh, kw), (sd, sh, sw), (dd, dh, dw))]
    out = np.zeros((n, c_out) + tuple(sizes))
    outs_per_group = c_out // groups
    for o in range(c_out):
        g = o // outs_per_group
        for a, b, c in np.ndindex(*sizes):
            total = np.zeros(n)
            for ci, i, j, k in np.ndindex(per_group, kd, kh, kw):
                total += xp[:, g * per_group + ci, a * sd + i * dd, b * sh + j * dh,
                            c * sw + k * dw] * w[o, ci, i, j, k]
            out[:, o, a, b, c] = total + (bias[o] if bias is not None else 0)
    return out


CONVS = [   # (x shape, w shape, stride, padding, dilation, groups)
    ((1, 2, 3, 4, 4), (3, 2, 2, 2, 3), (1, 1, 1), (0, 0, 0), (1, 1, 1), 1),
    ((2, 4, 4, 3, 5), (4, 2, 2, 1, 2), (2, 1, 2), (1, 0, 1), (1, 1, 2), 2),
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("xs,ws,stride,padding,dilation,groups", CONVS)
def test_conv3d_follows_the_definition(xs, ws, stride, padding, dilation, groups, mode):
    rng = np.random.default_rng(31)
    x, w, bias = rng.standard_normal(xs), rng.standard_normal(ws), rng.standard_normal(ws[0])

    def call(a, b, c):
        return F.conv3d(a, b, c, stride, padding, dilation, groups)
    out = _run(call, mode, *[Tensor(v.astype(np.float32)) for v in (x, w, bias)])
    want = conv3d_by_loops(x, w, bias, stride, padding, dilation, groups)
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-4, atol=1e-4)
    central_difference_check(call, [Tensor(x), Tensor(w), Tensor(bias)], [0, 1, 2],
                             [rng.standard_normal(want.shape)])


def test_conv3d_same_unbatched_and_cell():
    rng = np.random.default_rng(32)
    x = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
    w = rng.standard_normal((3, 2, 3, 3, 3)).astype(np.float32)
    out = F.conv3d(Tensor(x), Tensor(w), padding="same")
    np.testing.assert_allclose(out.asnumpy(), conv3d_by_loops(x[None], w, None, (1,) * 3,
                                                              (1,) * 3, (1,) * 3, 1)[0],
                               rtol=1e-4, atol=1e-4)
    net = mint.nn.Conv3d(2, 4, (1, 2, 3), stride=(1, 2, 1), padding=1)
    assert tuple(net.weight.shape) == (4, 2, 1, 2, 3) and tuple(net.bias.shape) == (4,)
    bound = 1 / np.sqrt(2 * 1 * 2 * 3)
    assert np.abs(net.bias.asnumpy()).max() <= bound
    got = net(Tensor(x[None])).asnumpy()
    want = conv3d_by_loops(x[None], net.weight.asnumpy(), net.bias.asnumpy(), (1, 2, 1),
                           (1, 1, 1), (1, 1, 1), 1)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    with pytest.raises(ValueError):
        F.conv3d(Tensor(x[None]), Tensor(w[:, :1]))      # 2 input channels, weight wants 1


# -- adaptive_avg_pool3d -----------------------------------------------------------------------

def adaptive_avg_by_loops(x, out):
    """cell (a, b, c) = mean of the box ⌊a·D/oD⌋ … ⌈(a+1)·D/oD⌉ − 1 (likewise H, W)."""
    sizes = x.shape[-3:]
    result = np.zeros(x.shape[:-3] + tuple(out))
    for cell in np.ndindex(*out):
        box = tuple(slice(i * n // o, -(-(i + 1) * n // o)) for i, n, o in zip(cell, sizes, out))
        result[(Ellipsis,) + cell] = x[(Ellipsis,) + box].mean(axis=(-3, -2, -1))
    return result


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("shape,output_size,resolved", [
    ((2, 3, 5, 7, 4), (2, 3, 3), (2, 3, 3)),
    ((3, 4, 6, 5), 3, (3, 3, 3)),
    ((1, 2, 3, 5, 4), (None, 2, 4), (3, 2, 4)),
])
def test_adaptive_avg_pool3d_is_the_mean_of_each_bin(shape, output_size, resolved, mode):
    rng = np.random.default_rng(33)
    x = rng.standard_normal(shape)
    out = _run(lambda t: F.adaptive_avg_pool3d(t, output_size), mode, Tensor(x.astype(np.float32)))
    want = adaptive_avg_by_loops(x, resolved)
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-5, atol=1e-6)
    cell = mint.nn.AdaptiveAvgPool3d(output_size)(Tensor(x.astype(np.float32)))
    np.testing.assert_allclose(cell.asnumpy(), want, rtol=1e-5, atol=1e-6)
    central_difference_check(lambda t: F.adaptive_avg_pool3d(t, output_size), [Tensor(x)], [0],
                             [rng.standard_normal(want.shape)])


def test_adaptive_avg_pool3d_bad_input():
    with pytest.raises(ValueError):
        F.adaptive_avg_pool3d(Tensor(np.ones((2, 3, 4), np.float32)), 2)
    with pytest.raises(ValueError):
        F.adaptive_avg_pool3d(Tensor(np.ones((1, 2, 3, 4), np.float32)), (0, 1, 1))


# -- max_unpool2d ------------------------------------------------------------------------------

def unpool_by_loops(values, indices, height, width):
    out = np.zeros(values.shape[:-2] + (height * width,))
    for lead in np.ndindex(*values.shape[:-2]):
        for i, j in np.ndindex(*values.shape[-2:]):
            out[lead + (indices[lead + (i, j)],)] = values[lead + (i, j)]
    return out.reshape(values.shape[:-2] + (height, width))


@pytest.mark.parametrize("mode", MODES)
def test_max_unpool2d_puts_each_maximum_back(mode):
    """max_unpool2d(max_pool2d(x, return_indices)) keeps each window's maximum in place."""
    rng = np.random.default_rng(34)
    x = rng.standard_normal((2, 3, 4, 6)).astype(np.float32)
    values, indices = F.max_pool2d(Tensor(x), 2, return_indices=True)
    out = _run(lambda v, i: F.max_unpool2d(v, i, 2), mode, values, indices)
    want = unpool_by_loops(values.asnumpy(), indices.asnumpy(), 4, 6)
    np.testing.assert_array_equal(out.asnumpy(), want)
    kept = want != 0
    np.testing.assert_array_equal(out.asnumpy()[kept], x[kept])
    assert kept.reshape(2, 3, 2, 2, 3, 2).sum(axis=(3, 5)).max() == 1   # one per window


def test_max_unpool2d_output_size_stride_padding_cell_and_gradient():
    rng = np.random.default_rng(35)
    values = rng.standard_normal((3, 2, 3))                  # unbatched (C, H, W)
    indices = np.stack([rng.permutation(5 * 7)[:6].reshape(2, 3) for _ in range(3)])
    out = mint.nn.MaxUnpool2d(3, stride=2, padding=1)(Tensor(values.astype(np.float32)),
                                                       Tensor(indices), (5, 7))
    np.testing.assert_array_equal(out.asnumpy(), unpool_by_loops(values, indices, 5, 7)
                                  .astype(np.float32))
    default = F.max_unpool2d(Tensor(values.astype(np.float32)), Tensor(indices % 9), 3, 2, 1)
    assert default.shape == (3, (2 - 1) * 2 - 2 + 3, (3 - 1) * 2 - 2 + 3)
    central_difference_check(lambda v: F.max_unpool2d(v, Tensor(indices), 3, 2, 1, (5, 7)),
                             [Tensor(values)], [0], [rng.standard_normal((3, 5, 7))])
    with pytest.raises(ValueError):
        F.max_unpool2d(Tensor(values.astype(np.float32)), Tensor(indices[:, :1]), 2)


# -- SyncBatchNorm -----------------------------------------------------------------------------

@pytest.mark.parametrize("training", [True, False])
def test_sync_batch_norm_on_one_device_is_batch_norm(training):
    """On one device the whole batch is the device's batch: BatchNorm2d's outputs and running
    statistics, for a 4-D and a 3-D input."""
    rng = np.random.default_rng(36)
    for shape, plain_cls in (((4, 3, 2, 5), mint.nn.BatchNorm2d), ((4, 3, 6), mint.nn.BatchNorm1d)):
        x = Tensor(rng.standard_normal(shape).astype(np.float32))
        sync = mint.nn.SyncBatchNorm(3, momentum=0.3, process_group="group0")
        plain = plain_cls(3, momentum=0.3)
        sync.set_train(training)
        plain.set_train(training)
        np.testing.assert_allclose(sync(x).asnumpy(), plain(x).asnumpy(), rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(sync.running_mean.asnumpy(), plain.running_mean.asnumpy())
        np.testing.assert_allclose(sync.running_var.asnumpy(), plain.running_var.asnumpy())
    assert sync.process_group == "group0"


# -- multinomial (random: its rules and its distribution) -------------------------------------

def _chi_square_p(counts, probabilities):
    from scipy.stats import chisquare
    expected = np.asarray(probabilities) * counts.sum()
    keep = expected > 0
    assert counts[~keep].sum() == 0, "a category of probability 0 was drawn"
    return chisquare(counts[keep], expected[keep]).pvalue


@pytest.mark.parametrize("mode", MODES)
def test_multinomial_shapes_dtype_and_range(mode):
    weights = np.array([[1.0, 0.0, 3.0, 2.0], [0.0, 5.0, 0.0, 1.0]], np.float32)
    refms.set_seed(3)
    with_replacement = _run(lambda w: mint.multinomial(w, 6, True), mode, Tensor(weights))
    without = _run(lambda w: mint.multinomial(w, 2), mode, Tensor(weights))
    single = _run(lambda w: mint.multinomial(w, 3), mode, Tensor(weights[0]))
    assert with_replacement.shape == (2, 6) and without.shape == (2, 2) and single.shape == (3,)
    for out in (with_replacement, without, single):
        assert out.dtype == refms.int64
    for row, drawn in zip(weights, with_replacement.asnumpy()):
        assert (row[drawn] > 0).all()                    # only categories of positive weight
    for drawn in list(without.asnumpy()) + [single.asnumpy()]:
        assert len(set(drawn.tolist())) == len(drawn)    # no category twice
    np.testing.assert_array_equal(np.sort(without.asnumpy()[1]), [1, 3])   # the only two


def test_multinomial_with_replacement_follows_the_weights():
    """Chi-square goodness of fit of 20000 draws (fixed seed) to w / Σw, integer weights too."""
    refms.set_seed(11)
    for weights in ([0.2, 0.0, 0.3, 0.5], [3, 1, 0, 4, 2]):
        w = np.array(weights, np.float32 if isinstance(weights[0], float) else np.int32)
        draws = mint.multinomial(Tensor(w), 20000, True).asnumpy()
        counts = np.bincount(draws, minlength=len(w))
        assert _chi_square_p(counts, w / w.sum()) > 1e-3, counts


def test_multinomial_without_replacement_draws_successively():
    """Without replacement the first draw is w/Σw and the second, given the first i, is
    w_j / (Σw − w_i): the pair (i, j) has probability w_i/Σw · w_j/(Σw − w_i)."""
    refms.set_seed(12)
    w = np.array([0.2, 0.0, 0.3, 0.5])
    rows = np.repeat(w[None].astype(np.float32), 4000, axis=0)   # one distribution per row
    pairs = mint.multinomial(Tensor(rows), 2).asnumpy()
    assert (pairs[:, 0] != pairs[:, 1]).all()
    counts = np.bincount(pairs[:, 0] * 4 + pairs[:, 1], minlength=16)
    expected = np.array([w[i] / w.sum() * (w[j] / (w.sum() - w[i]) if i != j else 0.0)
                         for i in range(4) for j in range(4)])
    assert _chi_square_p(counts, expected) > 1e-3, counts


def test_multinomial_seed_and_bad_input():
    w = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    refms.set_seed(7)
    first = mint.multinomial(w, 5, True).asnumpy()
    refms.set_seed(7)
    np.testing.assert_array_equal(mint.multinomial(w, 5, True).asnumpy(), first)
    # (a float count and a 3-D input: tests/test_api_gaps.py, types recorded on MindSpore)
    with pytest.raises(RuntimeError):                # MindSpore 2.10 documents RuntimeError
        mint.multinomial(w, 0)
    with pytest.raises(RuntimeError):
        mint.multinomial(w, 4)


# -- triangular_solve and linalg.qr ------------------------------------------------------------

def _triangle(a, upper, unitriangular):
    t = np.triu(a) if upper else np.tril(a)
    if unitriangular:
        t = t.copy()
        n = a.shape[-1]
        t[..., range(n), range(n)] = 1.0
    return t


FLAGS = [(u, t, d) for u in (True, False) for t in (False, True) for d in (False, True)]


@pytest.mark.parametrize("upper,transpose,unitriangular", FLAGS)
def test_triangular_solve_is_numpy_solve_of_the_triangle(upper, transpose, unitriangular):
    """X = op(T)⁻¹·b with numpy's LU solver (np.linalg.solve) as the reference; batch dims of
    A (2, n, n) and b (n, k) broadcast; the second output is A itself."""
    rng = np.random.default_rng(41)
    a = rng.standard_normal((2, 4, 4)) + 4 * np.eye(4)
    b = rng.standard_normal((4, 3))
    t = _triangle(a, upper, unitriangular)
    op_t = np.swapaxes(t, -1, -2) if transpose else t
    want = np.linalg.solve(op_t, np.broadcast_to(b, (2, 4, 3)))
    x, clone = mint.triangular_solve(Tensor(b.astype(np.float32)), Tensor(a.astype(np.float32)),
                                     upper, transpose, unitriangular)
    np.testing.assert_allclose(x.asnumpy(), want, rtol=1e-4, atol=1e-5)
    np.testing.assert_array_equal(clone.asnumpy(), a.astype(np.float32))

    def solve(bb, aa):
        return mint.triangular_solve(bb, aa, upper, transpose, unitriangular)
    central_difference_check(solve, [Tensor(b), Tensor(a)], [0, 1],
                             [rng.standard_normal((2, 4, 3)), rng.standard_normal((2, 4, 4))])


def test_triangular_solve_graph_mode_and_bad_input():
    rng = np.random.default_rng(42)
    a = Tensor((np.triu(rng.standard_normal((3, 3))) + 3 * np.eye(3)).astype(np.float32))
    b = Tensor(rng.standard_normal((3, 2)).astype(np.float32))
    eager = mint.triangular_solve(b, a)[0].asnumpy()
    graph = _run(lambda bb, aa: mint.triangular_solve(bb, aa)[0], "graph", b, a).asnumpy()
    np.testing.assert_allclose(graph, eager, rtol=1e-6)
    with pytest.raises(ValueError):
        mint.triangular_solve(b, Tensor(np.ones((3, 2), np.float32)))    # A not square
    with pytest.raises(ValueError):
        mint.triangular_solve(Tensor(np.ones((2, 2), np.float32)), a)    # rows of b ≠ n


def gram_schmidt(a):
    """The QR factorization whose R has a positive diagonal, by classical Gram–Schmidt."""
    m, n = a.shape
    q, r = np.zeros((m, n)), np.zeros((n, n))
    for j in range(n):
        v = a[:, j].copy()
        for i in range(j):
            r[i, j] = q[:, i] @ a[:, j]
            v -= r[i, j] * q[:, i]
        r[j, j] = np.linalg.norm(v)
        q[:, j] = v / r[j, j]
    return q, r


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("shape", [(5, 3), (4, 4), (2, 6, 4)])
def test_qr_is_gram_schmidt_up_to_column_signs(shape, mode):
    """A full-rank A has one QR with a positive diagonal of R: refms's Q·D and D·R, D the signs
    of R's diagonal, are that one (Gram–Schmidt, an independent algorithm)."""
    rng = np.random.default_rng(43)
    a = rng.standard_normal(shape)
    q, r = _run(lambda t: mint.linalg.qr(t), mode, Tensor(a))
    q, r = q.asnumpy(), r.asnumpy()
    for k in np.ndindex(*shape[:-2]):
        signs = np.sign(np.diag(r[k]))
        want_q, want_r = gram_schmidt(a[k])
        np.testing.assert_allclose(q[k] * signs, want_q, atol=1e-10)
        np.testing.assert_allclose(signs[:, None] * r[k], want_r, atol=1e-10)
        np.testing.assert_allclose(r[k], np.triu(r[k]))
    central_difference_check(lambda t: mint.linalg.qr(t), [Tensor(a)], [0],
                             [rng.standard_normal(q.shape), rng.standard_normal(r.shape)])


def test_qr_modes_and_bad_input():
    rng = np.random.default_rng(44)
    a = rng.standard_normal((5, 3)).astype(np.float32)
    q, r = mint.linalg.qr(Tensor(a), mode="complete")
    assert q.shape == (5, 5) and r.shape == (5, 3)
    np.testing.assert_allclose(q.asnumpy() @ r.asnumpy(), a, atol=1e-5)
    np.testing.assert_allclose(q.asnumpy().T @ q.asnumpy(), np.eye(5), atol=1e-5)
    q, r = mint.linalg.qr(Tensor(a), mode="r")
    assert q.shape == (0,) and r.shape == (3, 3)
    with pytest.raises(ValueError):
        mint.linalg.qr(Tensor(a), mode="full")
    wide = Tensor(rng.standard_normal((2, 4)))
    with pytest.raises(NotImplementedError):
        refms.grad(lambda t: mint.linalg.qr(t)[1].sum())(wide)
