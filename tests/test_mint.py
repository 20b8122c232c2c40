"""``refms.mint`` (``mindspore.mint``) against numpy / math references, in PyNative and graph
mode, with gradients checked by central differences in float64.

Each row: (name, call on refms Tensors, numpy reference on arrays, inputs).  The
references are written from the documented definitions (PyTorch-compatible, as
MindSpore's ``mint`` documents); MindSpore 2.10's own results for these functions
are replayed by ``tests/test_differential.py`` (the ``mint.*`` cases).
"""
import math

import numpy as np
import pytest
from scipy import special

import refms
from refms import Tensor, mint
from refms.mint.nn import functional as MF

RNG = np.random.default_rng(1234)


def randn(*shape):
    return RNG.standard_normal(shape)


def unit(*shape):
    return RNG.uniform(-0.9, 0.9, shape)


def positive(*shape):
    return RNG.uniform(0.5, 2.0, shape)


def log_softmax_np(x, axis):
    m = x.max(axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis, keepdims=True))


def erf_np(x):
    return special.erf(x)


#: (id, mint call, numpy reference, inputs, differentiable)
ROWS = [
    ("add-alpha", lambda x, y: mint.add(x, y, alpha=2), lambda x, y: x + 2 * y,
     [randn(2, 3), randn(3)], True),
    ("sub-alpha", lambda x, y: mint.sub(x, y, alpha=0.5), lambda x, y: x - 0.5 * y,
     [randn(2, 3), randn(2, 3)], True),
    ("mul", mint.mul, np.multiply, [randn(2, 3), randn(2, 3)], True),
    ("div", mint.div, np.divide, [randn(2, 3), positive(2, 3)], True),
    ("fmod", mint.fmod, np.fmod, [randn(4) * 3, np.array([1.5, -1.5, 2.0, -0.7])], False),
    ("remainder", mint.remainder, np.mod, [randn(4) * 3, np.array([1.5, -1.5, 2.0, -0.7])],
     False),
    ("exp2", mint.exp2, np.exp2, [randn(2, 3)], True),
    ("log2", mint.log2, np.log2, [positive(2, 3)], True),
    ("log10", mint.log10, np.log10, [positive(2, 3)], True),
    ("logaddexp", mint.logaddexp, np.logaddexp, [randn(5), randn(5)], True),
    ("logaddexp2", mint.logaddexp2, np.logaddexp2, [randn(5), randn(5)], True),
    ("tan", mint.tan, np.tan, [unit(2, 3)], True),
    ("asin", mint.asin, np.arcsin, [unit(2, 3)], True),
    ("acos", mint.acos, np.arccos, [unit(2, 3)], True),
    ("atan", mint.atan, np.arctan, [randn(2, 3)], True),
    ("atan2", mint.atan2, np.arctan2, [randn(6), randn(6)], True),
    ("atan2-axes", mint.atan2, np.arctan2,
     [np.array([0.0, 0.0, 1.0, -1.0, 0.0]), np.array([-2.0, 2.0, 0.0, 0.0, 0.0])], False),
    ("sinh", mint.sinh, np.sinh, [randn(2, 3)], True),
    ("cosh", mint.cosh, np.cosh, [randn(2, 3)], True),
    ("asinh", mint.asinh, np.arcsinh, [randn(2, 3) * 3], True),
    ("acosh", mint.acosh, np.arccosh, [positive(2, 3) + 1], True),
    ("atanh", mint.atanh, np.arctanh, [unit(2, 3)], True),
    ("sinc", mint.sinc, np.sinc, [np.array([0.0, 0.3, -1.2, 2.5])], False),
    ("erfc", mint.erfc, lambda x: 1 - erf_np(x), [randn(2, 3)], True),
    ("frac", mint.frac, lambda x: x - np.trunc(x), [randn(5) * 3], False),
    ("xlogy", mint.xlogy, lambda x, y: np.where(x == 0, 0.0, x * np.log(y)),
     [np.array([0.0, 1.0, 2.5]), positive(3)], False),
    ("lerp", mint.lerp, lambda a, b, w: a + w * (b - a), [randn(4), randn(4), unit(4)], True),
    ("addcmul", lambda x, a, b: mint.addcmul(x, a, b, value=0.5), lambda x, a, b: x + 0.5 * a * b,
     [randn(3), randn(3), randn(3)], True),
    ("addcdiv", lambda x, a, b: mint.addcdiv(x, a, b, value=2), lambda x, a, b: x + 2 * a / b,
     [randn(3), randn(3), positive(3)], True),
    ("logical_xor", mint.logical_xor, np.logical_xor,
     [np.array([0.0, 1.0, 2.0, 0.0]), np.array([0.0, 0.0, 1.0, 3.0])], False),
    ("isneginf", mint.isneginf, np.isneginf, [np.array([-np.inf, np.inf, 0.0, np.nan])], False),
    ("nan_to_num", lambda x: mint.nan_to_num(x, 0.5, 9.0, -9.0),
     lambda x: np.nan_to_num(x, nan=0.5, posinf=9.0, neginf=-9.0),
     [np.array([np.nan, np.inf, -np.inf, 1.5])], False),
    ("mean-dim", lambda x: mint.mean(x, 1, True), lambda x: x.mean(1, keepdims=True),
     [randn(2, 3)], True),
    ("sum-dims", lambda x: mint.sum(x, (0, 2)), lambda x: x.sum((0, 2)), [randn(2, 3, 4)], True),
    ("prod", lambda x: mint.prod(x, 1), lambda x: x.prod(1), [randn(2, 3)], True),
    ("nansum", mint.nansum, np.nansum, [np.array([1.0, np.nan, 2.5])], False),
    ("max-dim", lambda x: mint.max(x, 1), lambda x: (x.max(1), x.argmax(1)), [randn(3, 4)],
     False),
    ("min-all", mint.min, np.min, [randn(3, 4)], False),
    ("var", lambda x: mint.var(x, 1), lambda x: x.var(1, ddof=1), [randn(3, 4)], True),
    ("std-correction0", lambda x: mint.std(x, 0, correction=0, keepdim=True),
     lambda x: x.std(0, keepdims=True), [randn(3, 4)], True),
    ("logsumexp", lambda x: mint.logsumexp(x, 1),
     lambda x: np.log(np.exp(x).sum(1)), [randn(3, 4) * 5], True),
    ("cumprod", lambda x: mint.cumprod(x, 1), lambda x: np.cumprod(x, 1), [randn(2, 4)], True),
    ("count_nonzero", mint.count_nonzero, np.count_nonzero,
     [np.array([[0.0, 1.0], [2.0, 0.0]])], False),
    ("trace", mint.trace, np.trace, [randn(3, 3)], True),
    ("narrow", lambda x: mint.narrow(x, 1, 1, 2), lambda x: x[:, 1:3], [randn(3, 4)], True),
    ("select", lambda x: mint.select(x, 0, -1), lambda x: x[-1], [randn(3, 4)], True),
    ("transpose", lambda x: mint.transpose(x, 0, 2), lambda x: x.swapaxes(0, 2),
     [randn(2, 3, 4)], True),
    ("permute", lambda x: mint.permute(x, (2, 0, 1)), lambda x: x.transpose(2, 0, 1),
     [randn(2, 3, 4)], True),
    ("flatten", lambda x: mint.flatten(x, 1), lambda x: x.reshape(2, -1), [randn(2, 3, 4)],
     True),
    ("squeeze-dim", lambda x: mint.squeeze(x, (0, 1)), lambda x: x.squeeze(0),
     [randn(1, 3, 1)], True),
    ("roll", lambda x: mint.roll(x, (1, -2), (0, 1)), lambda x: np.roll(x, (1, -2), (0, 1)),
     [randn(3, 4)], True),
    ("roll-flat", lambda x: mint.roll(x, 2), lambda x: np.roll(x, 2), [randn(3, 4)], True),
    ("cat", lambda x, y: mint.cat((x, y), 1), lambda x, y: np.concatenate((x, y), 1),
     [randn(2, 3), randn(2, 1)], True),
    ("hstack", lambda x, y: mint.hstack((x, y)), lambda x, y: np.hstack((x, y)),
     [randn(2, 3), randn(2, 1)], True),
    ("dstack", lambda x, y: mint.dstack((x, y)), lambda x, y: np.dstack((x, y)),
     [randn(2, 3), randn(2, 3)], True),
    ("chunk", lambda x: mint.chunk(x, 3, 1), lambda x: tuple(np.split(x, [2, 4], 1)),
     [randn(2, 5)], True),
    ("tile", lambda x: mint.tile(x, (2,)), lambda x: np.tile(x, (2,)), [randn(2, 3)], True),
    ("index_select", lambda x: mint.index_select(x, 1, Tensor(np.array([2, 0], np.int32))),
     lambda x: x[:, [2, 0]], [randn(2, 3)], True),
    ("gather", lambda x: mint.gather(x, 1, Tensor(np.array([[0, 0], [1, 0]], np.int64))),
     lambda x: np.take_along_axis(x, np.array([[0, 0], [1, 0]]), 1), [randn(2, 2)], True),
    ("take", lambda x: mint.take(x, Tensor(np.array([5, 0], np.int32))),
     lambda x: x.reshape(-1)[[5, 0]], [randn(2, 3)], True),
    ("scatter_add", lambda x, s: mint.scatter_add(x, 0, Tensor(np.array([[1, 0, 1]], np.int64)), s),
     lambda x, s: x + np.array([[0, s[0, 1], 0], [s[0, 0], 0, s[0, 2]]]),
     [randn(2, 3), randn(1, 3)], True),
    ("index_add", lambda x, s: mint.index_add(x, 0, Tensor(np.array([1, 1], np.int32)), s,
                                             alpha=2),
     lambda x, s: x + np.array([np.zeros(3), 2 * (s[0] + s[1])]), [randn(2, 3), randn(2, 3)],
     True),
    ("tril", lambda x: mint.tril(x, -1), lambda x: np.tril(x, -1), [randn(3, 4)], True),
    ("triu", lambda x: mint.triu(x, 1), lambda x: np.triu(x, 1), [randn(3, 4)], True),
    ("diag-vector", lambda x: mint.diag(x, 1), lambda x: np.diag(x, 1), [randn(3)], True),
    ("diag-vector-below", lambda x: mint.diag(x, -2), lambda x: np.diag(x, -2), [randn(2)],
     True),
    ("diag-matrix", lambda x: mint.diag(x, 1), lambda x: np.diag(x, 1), [randn(3, 4)], True),
    ("diff", lambda x: mint.diff(x, 2, 1), lambda x: np.diff(x, 2, 1), [randn(2, 5)], True),
    ("outer", mint.outer, np.outer, [randn(3), randn(4)], True),
    ("dot", mint.dot, np.dot, [randn(4), randn(4)], True),
    ("mv", mint.mv, np.matmul, [randn(3, 4), randn(4)], True),
    ("addmm", lambda i, a, b: mint.addmm(i, a, b, beta=0.5, alpha=2),
     lambda i, a, b: 0.5 * i + 2 * a @ b, [randn(2, 4), randn(2, 3), randn(3, 4)], True),
    ("baddbmm", lambda i, a, b: mint.baddbmm(i, a, b, beta=2),
     lambda i, a, b: 2 * i + a @ b, [randn(2, 2, 4), randn(2, 2, 3), randn(2, 3, 4)], True),
    ("addbmm", mint.addbmm, lambda i, a, b: i + (a @ b).sum(0),
     [randn(2, 4), randn(2, 2, 3), randn(2, 3, 4)], True),
    ("cdist", mint.cdist,
     lambda a, b: np.sqrt(((a[:, None, :] - b[None, :, :]) ** 2).sum(-1)),
     [randn(3, 2), randn(4, 2)], True),
    ("linalg.vector_norm-3", lambda x: mint.linalg.vector_norm(x, 3, 1),
     lambda x: (np.abs(x) ** 3).sum(1) ** (1 / 3), [randn(2, 3)], True),
    ("linalg.matrix_norm-fro", mint.linalg.matrix_norm, lambda x: np.linalg.norm(x, "fro"),
     [randn(3, 4)], True),
    ("linalg.matrix_norm-1", lambda x: mint.linalg.matrix_norm(x, 1),
     lambda x: np.linalg.norm(x, 1), [randn(3, 4)], False),
    # nn.functional
    ("F.linear", MF.linear, lambda x, w, b: x @ w.T + b, [randn(2, 3), randn(4, 3), randn(4)],
     True),
    ("F.elu", MF.elu, lambda x: np.where(x > 0, x, np.expm1(x)), [randn(2, 3)], True),
    ("F.logsigmoid", MF.logsigmoid, lambda x: -np.logaddexp(0, -x), [randn(2, 3) * 10], True),
    ("F.glu", MF.glu, lambda x: x[:, :2] * special.expit(x[:, 2:]), [randn(2, 4)], True),
    ("F.hardtanh", MF.hardtanh, lambda x: np.clip(x, -1, 1), [randn(2, 3) * 2], False),
    ("F.layer_norm", lambda x, w, b: MF.layer_norm(x, (3,), w, b),
     lambda x, w, b: (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5)
     * w + b, [randn(2, 3), randn(3), randn(3)], True),
    ("F.group_norm", lambda x: MF.group_norm(x, 2),
     lambda x: ((x.reshape(2, 2, -1) - x.reshape(2, 2, -1).mean(-1, keepdims=True))
                / np.sqrt(x.reshape(2, 2, -1).var(-1, keepdims=True) + 1e-5)).reshape(x.shape),
     [randn(2, 4, 3)], True),
    ("F.normalize", MF.normalize, lambda x: x / np.linalg.norm(x, axis=1, keepdims=True),
     [randn(2, 3)], True),
    ("F.mse_loss", MF.mse_loss, lambda x, y: ((x - y) ** 2).mean(), [randn(2, 3), randn(2, 3)],
     True),
    ("F.cross_entropy", lambda x: MF.cross_entropy(x, Tensor(np.array([2, 0, 1], np.int32))),
     lambda x: -log_softmax_np(x, 1)[[0, 1, 2], [2, 0, 1]].mean(), [randn(3, 4)], True),
    ("F.cross_entropy-weight-ignore",
     lambda x, w: MF.cross_entropy(x, Tensor(np.array([2, -100, 1], np.int32)), w),
     lambda x, w: -(log_softmax_np(x, 1)[[0, 2], [2, 1]] * w[[2, 1]]).sum() / w[[2, 1]].sum(),
     [randn(3, 4), positive(4)], True),
    ("F.cross_entropy-probabilities", lambda x, t: MF.cross_entropy(x, t, reduction="sum"),
     lambda x, t: -(log_softmax_np(x, 1) * t).sum(), [randn(3, 4), positive(3, 4)], True),
    ("F.binary_cross_entropy_with_logits", MF.binary_cross_entropy_with_logits,
     lambda x, t: (np.maximum(x, 0) - x * t + np.log1p(np.exp(-np.abs(x)))).mean(),
     [randn(2, 3) * 3, RNG.uniform(0, 1, (2, 3))], True),
    ("F.binary_cross_entropy_with_logits-weights",
     lambda x, t, w, p: MF.binary_cross_entropy_with_logits(x, t, w, "sum", p),
     lambda x, t, w, p: (w * (-p * t * np.log(special.expit(x))
                              - (1 - t) * np.log(1 - special.expit(x)))).sum(),
     [randn(2, 3), RNG.uniform(0, 1, (2, 3)), positive(3), positive(3)], True),
    ("F.kl_div", lambda x, t: MF.kl_div(x, t, "batchmean"),
     lambda x, t: (t * (np.log(t) - x)).sum() / 2, [randn(2, 3), positive(2, 3)], True),
    ("F.soft_margin_loss", MF.soft_margin_loss, lambda x, y: np.log1p(np.exp(-x * y)).mean(),
     [randn(2, 3), np.sign(randn(2, 3))], True),
    ("F.pixel_shuffle", lambda x: MF.pixel_shuffle(x, 2),
     lambda x: x.reshape(1, 1, 2, 2, 2, 3).transpose(0, 1, 4, 2, 5, 3).reshape(1, 1, 4, 6),
     [randn(1, 4, 2, 3)], True),
    ("F.conv2d-padding", lambda x, w: MF.conv2d(x, w, None, 1, 1),
     lambda x, w: _conv2d_np(np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1))), w),
     [randn(1, 2, 4, 4), randn(3, 2, 3, 3)], True),
    ("kthvalue", lambda x: mint.kthvalue(x, 2, 1),
     lambda x: (np.sort(x, 1)[:, 1], np.argsort(x, 1)[:, 1]), [randn(3, 4)], False),
    ("median-dim", lambda x: mint.median(x, 0, True),
     lambda x: (np.sort(x, 0)[1:2], np.argsort(x, 0)[1:2]), [randn(4, 3)], False),
    ("median", mint.median, lambda x: np.sort(x.reshape(-1))[5], [randn(3, 4)], True),
    ("cummax", lambda x: mint.cummax(x, 1),
     lambda x: (np.maximum.accumulate(x, 1),
                np.array([[max(j for j in range(i + 1) if r[j] == r[:i + 1].max())
                           for i in range(len(r))] for r in x])),
     [np.array([[1.0, 3.0, 2.0, 3.0, 5.0], [0.0, -1.0, 0.0, 4.0, 4.0]])], False),
    ("cummin", lambda x: mint.cummin(x, 0)[0], lambda x: np.minimum.accumulate(x, 0),
     [randn(4, 3)], True),
    ("searchsorted", lambda s, v: mint.searchsorted(s, v),
     lambda s, v: np.searchsorted(s, v), [np.array([1.0, 2.0, 2.0, 5.0]),
                                          np.array([[0.5, 2.0], [2.5, 9.0]])], False),
    ("searchsorted-right", lambda s, v: mint.searchsorted(s, v, right=True),
     lambda s, v: np.searchsorted(s, v, side="right"), [np.array([1.0, 2.0, 2.0, 5.0]),
                                                        np.array([0.5, 2.0, 5.0])], False),
    ("repeat_interleave", lambda x: mint.repeat_interleave(x, 2, 1),
     lambda x: np.repeat(x, 2, 1), [randn(2, 3)], True),
    ("repeat_interleave-counts",
     lambda x: mint.repeat_interleave(x, Tensor(np.array([1, 0, 3], np.int64)), 0),
     lambda x: np.repeat(x, [1, 0, 3], 0), [randn(3, 2)], True),
    ("cross", lambda a, b: mint.cross(a, b, 1), lambda a, b: np.cross(a, b, axis=1),
     [randn(2, 3), randn(2, 3)], True),
    ("erfinv", mint.erfinv, special.erfinv, [unit(2, 3)], True),
    ("inverse", mint.inverse, np.linalg.inv, [randn(2, 3, 3) + 4 * np.eye(3)], True),
    ("linalg.inv", mint.linalg.inv, np.linalg.inv, [randn(3, 3) + 4 * np.eye(3)], True),
    ("F.conv1d", lambda x, w, b: MF.conv1d(x, w, b, 2, 1),
     lambda x, w, b: _conv2d_np(np.pad(x, ((0, 0), (0, 0), (1, 1)))[:, :, None, :],
                                w[:, :, None, :])[:, :, 0, ::2] + b[None, :, None],
     [randn(2, 3, 7), randn(4, 3, 3), randn(4)], True),
    ("F.avg_pool1d", lambda x: MF.avg_pool1d(x, 2),
     lambda x: x.reshape(2, 3, 3, 2).mean(-1), [randn(2, 3, 6)], True),
    ("F.avg_pool3d", lambda x: MF.avg_pool3d(x, 2),
     lambda x: x.reshape(1, 2, 2, 2, 1, 2, 2, 2).mean((3, 5, 7)), [randn(1, 2, 4, 2, 4)], True),
    ("F.adaptive_avg_pool1d", lambda x: MF.adaptive_avg_pool1d(x, 3),
     lambda x: x.reshape(2, 3, 3, 2).mean(-1), [randn(2, 3, 6)], True),
    ("F.softplus", MF.softplus, lambda x: np.log1p(np.exp(x)), [randn(2, 3)], True),
    ("F.softshrink", MF.softshrink,
     lambda x: np.where(x > 0.5, x - 0.5, np.where(x < -0.5, x + 0.5, 0)), [randn(2, 3) * 2],
     False),
    ("einsum-matmul", lambda a, b: mint.einsum("ij,jk->ik", a, b),
     lambda a, b: np.einsum("ij,jk->ik", a, b), [randn(2, 3), randn(3, 4)], True),
    ("einsum-batch-ellipsis", lambda a, b: mint.einsum("...ij,...jk", a, b),
     lambda a, b: np.einsum("...ij,...jk", a, b), [randn(2, 2, 3), randn(2, 3, 4)], True),
    ("einsum-trace-outer", lambda a, v: mint.einsum("ii,j->j", a, v),
     lambda a, v: np.einsum("ii,j->j", a, v), [randn(3, 3), randn(2)], True),
    ("einsum-transpose-sum", lambda a: mint.einsum("ijk->kj", a),
     lambda a: np.einsum("ijk->kj", a), [randn(2, 3, 4)], True),
    ("einsum-three", lambda a, b, c: mint.einsum("ab,bc,cd->ad", a, b, c),
     lambda a, b, c: np.einsum("ab,bc,cd->ad", a, b, c), [randn(2, 3), randn(3, 2), randn(2, 2)],
     True),
    ("special.log_softmax", lambda x: mint.special.log_softmax(x, 1),
     lambda x: log_softmax_np(x, 1), [randn(2, 3)], True),
]


def _conv2d_np(x, w):
    n, c, h, width = x.shape
    o, _, kh, kw = w.shape
    out = np.zeros((n, o, h - kh + 1, width - kw + 1))
    for i in range(out.shape[2]):
        for j in range(out.shape[3]):
            patch = x[:, :, i:i + kh, j:j + kw]
            out[:, :, i, j] = np.einsum("nchw,ochw->no", patch, w)
    return out


def _tensors(arrays, dtype=np.float32):
    return [Tensor(np.asarray(a, dtype)) for a in arrays]


def _check(out, want, rtol=1e-4, atol=1e-5):
    if isinstance(want, tuple):
        assert isinstance(out, (tuple, list)) and len(out) == len(want)
        for o, w in zip(out, want):
            _check(o, w, rtol, atol)
        return
    got = out.asnumpy() if isinstance(out, Tensor) else np.asarray(out)
    np.testing.assert_allclose(got.astype(np.float64), np.asarray(want, np.float64), rtol=rtol,
                               atol=atol)


@pytest.mark.parametrize("name,fn,ref,inputs,diff", ROWS, ids=[r[0] for r in ROWS])
def test_forward_pynative_and_graph(name, fn, ref, inputs, diff):
    want = ref(*[np.asarray(a, np.float32).astype(np.float64) for a in inputs])
    _check(fn(*_tensors(inputs)), want)

    def staged(*args):
        return fn(*args)
    _check(refms.jit(staged)(*_tensors(inputs)), want)


@pytest.mark.parametrize("name,fn,ref,inputs,diff", [r for r in ROWS if r[4]],
                         ids=[r[0] for r in ROWS if r[4]])
def test_gradient_central_differences(name, fn, ref, inputs, diff):
    """⟨u, J v⟩ by central differences in float64 equals ⟨∇(Σ u·f), v⟩ (random u, v)."""
    rng = np.random.default_rng(7)
    xs = [np.asarray(a, np.float64) for a in inputs]

    def outputs(*args):
        out = fn(*args)
        return tuple(out) if isinstance(out, (tuple, list)) else (out,)

    cot = [rng.standard_normal(tuple(o.shape)) for o in outputs(*_tensors(xs, np.float64))]

    def projected(*args):
        total = None
        for o, u in zip(outputs(*args), cot):
            term = (o * Tensor(u)).sum()
            total = term if total is None else total + term
        return total

    positions = tuple(range(len(xs)))
    grads = refms.grad(projected, grad_position=positions)(*_tensors(xs, np.float64))
    grads = grads if isinstance(grads, tuple) else (grads,)
    vs = [rng.standard_normal(x.shape) for x in xs]
    h = 1e-6
    plus = projected(*_tensors([x + h * v for x, v in zip(xs, vs)], np.float64)).asnumpy()
    minus = projected(*_tensors([x - h * v for x, v in zip(xs, vs)], np.float64)).asnumpy()
    numeric = (plus - minus) / (2 * h)
    analytic = sum(float((g.asnumpy() * v).sum()) for g, v in zip(grads, vs))
    assert math.isclose(analytic, float(numeric), rel_tol=1e-5, abs_tol=1e-6)


def test_data_dependent_shapes_in_pynative():
    x = Tensor(np.array([[0.0, 1.5], [2.0, 0.0]], np.float32))
    np.testing.assert_array_equal(mint.nonzero(x).asnumpy(), np.argwhere(x.asnumpy()))
    rows, cols = mint.nonzero(x, as_tuple=True)
    assert rows.asnumpy().tolist() == [0, 1] and cols.asnumpy().tolist() == [1, 0]
    i = Tensor(np.array([1, 3, 1, 0], np.int64))
    assert mint.bincount(i).asnumpy().tolist() == [1, 2, 0, 1]
    w = Tensor(np.array([0.5, 1.0, 2.0, 4.0], np.float32))
    np.testing.assert_allclose(mint.bincount(i, w, minlength=6).asnumpy(),
                               np.bincount([1, 3, 1, 0], [0.5, 1.0, 2.0, 4.0], 6))


def test_mindspore_import_path():
    """``from mindspore import mint`` resolves to refms.mint through refms.alias."""
    from refms.alias import install, uninstall
    import sys
    finder = install()
    try:
        import mindspore                             # noqa: F401
        from mindspore import mint as aliased
        from mindspore.mint.nn import functional
        assert aliased is mint and functional is MF
    finally:
        uninstall(finder)
        for name in [n for n in sys.modules if n == "mindspore" or n.startswith("mindspore.")]:
            del sys.modules[name]


def test_creation_and_random_shapes():
    assert mint.zeros(2, 3).shape == (2, 3) and mint.zeros((2, 3)).dtype == refms.float32
    assert mint.ones(4, dtype=refms.int32).asnumpy().tolist() == [1, 1, 1, 1]
    assert mint.full((2,), 7).asnumpy().tolist() == [7, 7]
    np.testing.assert_allclose(mint.linspace(0, 1, 5).asnumpy(), np.linspace(0, 1, 5))
    np.testing.assert_array_equal(mint.arange(1, 7, 2).asnumpy(), [1, 3, 5])
    np.testing.assert_array_equal(mint.eye(2, 3).asnumpy(), np.eye(2, 3))
    r = mint.rand(3, 4)
    assert r.shape == (3, 4) and ((r.asnumpy() >= 0) & (r.asnumpy() < 1)).all()
    i = mint.randint(2, 5, (100,))
    assert i.dtype == refms.int64 and set(i.asnumpy().tolist()) <= {2, 3, 4}
    assert sorted(mint.randperm(6).asnumpy().tolist()) == list(range(6))
    assert mint.equal(Tensor([1.0, 2.0]), Tensor([1.0, 2.0])) is True
    assert mint.allclose(Tensor([1.0]), Tensor([1.0 + 1e-9])) is True


def test_layers():
    refms.set_seed(1)
    linear = mint.nn.Linear(3, 2)
    assert linear.weight.shape == (2, 3) and linear.bias.shape == (2,)
    x = Tensor(randn(4, 3).astype(np.float32))
    want = x.asnumpy() @ linear.weight.asnumpy().T + linear.bias.asnumpy()
    np.testing.assert_allclose(linear(x).asnumpy(), want, rtol=1e-5, atol=1e-6)
    conv = mint.nn.Conv2d(2, 3, 3, padding=1)
    assert conv(Tensor(randn(1, 2, 5, 5).astype(np.float32))).shape == (1, 3, 5, 5)
    bn = mint.nn.BatchNorm2d(3)
    bn.set_train(False)
    y = Tensor(randn(2, 3, 2, 2).astype(np.float32))
    np.testing.assert_allclose(bn(y).asnumpy(), y.asnumpy() / np.sqrt(1 + 1e-5), rtol=1e-5)
    pad = mint.nn.ZeroPad2d((1, 0, 0, 2))
    assert pad(y).shape == (2, 3, 4, 3)
    layer_norm = mint.nn.LayerNorm(3)
    z = Tensor(randn(2, 3).astype(np.float32))
    want = (z.asnumpy() - z.asnumpy().mean(-1, keepdims=True)) / np.sqrt(
        z.asnumpy().var(-1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(layer_norm(z).asnumpy(), want, rtol=1e-4, atol=1e-5)
    embedding = mint.nn.Embedding(5, 2, padding_idx=0)
    picked = embedding(Tensor(np.array([0, 3], np.int32))).asnumpy()
    assert picked[0].tolist() == [0.0, 0.0]
    np.testing.assert_array_equal(picked[1], embedding.weight.asnumpy()[3])
    dropout = mint.nn.Dropout(0.5)
    dropout.set_train(False)
    np.testing.assert_array_equal(dropout(z).asnumpy(), z.asnumpy())
    assert mint.nn.MaxPool2d(2)(y).shape == (2, 3, 1, 1)
    assert mint.nn.Conv1d(3, 4, 3)(Tensor(randn(2, 3, 7).astype(np.float32))).shape == (2, 4, 5)
    logits = Tensor(randn(3, 4).astype(np.float32))
    target = Tensor(np.array([1, 0, 3], np.int32))
    want = -log_softmax_np(logits.asnumpy().astype(np.float64), 1)[[0, 1, 2], [1, 0, 3]].mean()
    np.testing.assert_allclose(mint.nn.CrossEntropyLoss()(logits, target).asnumpy(), want,
                               rtol=1e-5)
    small = Tensor(np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2))
    np.testing.assert_array_equal(mint.nn.UpsamplingNearest2d(scale_factor=2)(small).asnumpy(),
                                  np.kron(small.asnumpy(), np.ones((1, 1, 2, 2))))
    corners = mint.nn.UpsamplingBilinear2d(size=(3, 3))(small).asnumpy()[0, 0]
    np.testing.assert_allclose(corners, [[0, 0.5, 1], [1, 1.5, 2], [2, 2.5, 3]], rtol=1e-6)
    loss = mint.nn.SmoothL1Loss(beta=0.5)
    d = np.array([0.2, -1.0], np.float32)
    want = np.where(np.abs(d) < 0.5, 0.5 * d * d / 0.5, np.abs(d) - 0.25).mean()
    np.testing.assert_allclose(loss(Tensor(d), Tensor(np.zeros(2, np.float32))).asnumpy(), want,
                               rtol=1e-6)


W0 = np.array([1.0, -2.0, 0.5])
GRADS = [np.array([0.3, -1.0, 2.0]), np.array([0.1, 0.4, -0.5]), np.array([-0.2, 0.0, 1.5])]


def sgd_reference(lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False):
    """torch.optim.SGD's documented algorithm, in numpy."""
    p, b, out = W0.copy(), None, []
    for g in GRADS:
        g = g + weight_decay * p
        if momentum:
            b = g.copy() if b is None else momentum * b + (1 - dampening) * g
            g = g + momentum * b if nesterov else b
        p = p - lr * g
        out.append(p)
    return out


def adam_reference(lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, amsgrad=False,
                   decoupled=False):
    """torch.optim.Adam / AdamW's documented algorithm, in numpy."""
    p, m, v, vmax, out = W0.copy(), np.zeros(3), np.zeros(3), np.zeros(3), []
    for t, g in enumerate(GRADS, 1):
        if decoupled:
            p = p * (1 - lr * weight_decay)
        else:
            g = g + weight_decay * p
        m = betas[0] * m + (1 - betas[0]) * g
        v = betas[1] * v + (1 - betas[1]) * g * g
        vmax = np.maximum(vmax, v)
        vhat = (vmax if amsgrad else v) / (1 - betas[1] ** t)
        p = p - lr * (m / (1 - betas[0] ** t)) / (np.sqrt(vhat) + eps)
        out.append(p)
    return out


@pytest.mark.parametrize("cls,kwargs,want", [
    ("SGD", {"lr": 0.1}, sgd_reference(0.1)),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "weight_decay": 0.01, "dampening": 0.2},
     sgd_reference(0.1, 0.9, 0.2, 0.01)),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True}, sgd_reference(0.1, 0.9, nesterov=True)),
    ("Adam", {"lr": 0.1}, adam_reference(0.1)),
    ("Adam", {"lr": 0.05, "betas": (0.8, 0.9), "weight_decay": 0.1},
     adam_reference(0.05, (0.8, 0.9), weight_decay=0.1)),
    ("Adam", {"lr": 0.1, "amsgrad": True}, adam_reference(0.1, amsgrad=True)),
    ("AdamW", {"lr": 0.1}, adam_reference(0.1, weight_decay=1e-2, decoupled=True)),
    ("AdamW", {"lr": 0.05, "weight_decay": 0.2, "eps": 1e-3},
     adam_reference(0.05, eps=1e-3, weight_decay=0.2, decoupled=True)),
    ("FusedAdamW", {"lr": 0.1, "amsgrad": True},
     adam_reference(0.1, weight_decay=1e-2, amsgrad=True, decoupled=True)),
])
@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_optimizers_follow_the_documented_algorithms(cls, kwargs, want, mode):
    w = refms.Parameter(Tensor(W0.astype(np.float32)), name="w")
    optimizer = getattr(mint.optim, cls)([w], **kwargs)
    if mode == "graph":
        optimizer.construct = refms.jit(optimizer.construct)
    for g, expected in zip(GRADS, want):
        optimizer((Tensor(g.astype(np.float32)),))
        np.testing.assert_allclose(w.asnumpy(), expected, rtol=1e-5, atol=1e-6)


def test_inplace_on_a_view_result_is_rejected_in_graph_mode():
    """MindSpore 2.10 (CPU) raises RuntimeError: its in-place kernels take no view input."""
    @refms.jit
    def f(x):
        y = mint.select(x, 0, 0)
        y.add_(1.0)
        return x

    with pytest.raises(RuntimeError, match="view"):
        f(Tensor(np.ones((2, 2), np.float32)))


# -- coverage of MindSpore 2.10's mint (tests/recorders/mint_names.json, record_mint_names.py) --

#: MindSpore mint names refms does not provide, each with what is missing.
NOT_PROVIDED = {
    "mint": {
        "real": "no complex dtypes in refms's kernels",
        "imag": "no complex dtypes in refms's kernels",
        "polar": "no complex dtypes in refms's kernels",
    },
}


def _recorded_names():
    import json
    import os
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "recorders",
                        "mint_names.json")
    with open(path, encoding="utf-8") as f:
        return json.load(f)["names"]


def test_every_recorded_name_is_provided_or_listed():
    import importlib
    for module_name, names in _recorded_names().items():
        module = importlib.import_module("refms." + module_name)
        missing = {n for n in names if not hasattr(module, n)}
        assert missing == set(NOT_PROVIDED.get(module_name, {})), module_name


def test_refms_mint_invents_no_names():
    """Every public function or class of refms.mint is a name MindSpore's mint has."""
    import importlib
    import types
    recorded = _recorded_names()
    for module_name in recorded:
        module = importlib.import_module("refms." + module_name)
        ours = {n for n in getattr(module, "__all__", dir(module)) if not n.startswith("_")
                and not isinstance(getattr(module, n), types.ModuleType)}
        extra = ours - set(recorded[module_name]) - {"Tensor"}
        assert not extra, f"{module_name}: {sorted(extra)}"
