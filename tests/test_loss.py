"""Losses: values against numpy formulas, MindSpore 2.10's printed figures, gradients, errors.

semantics 8.4 gives SoftmaxCrossEntropyWithLogits' figures; seed 003 gives
ClassLoss ``0.7207259``.  Numpy references are computed in float64.
"""
import json
import os
import sys

import numpy as np
import pytest

import refms as ms
from refms import Tensor, kernels, nn, ops

from conformance.cases import find
from seed_scripts import assert_prints, run_case_script

RNG = np.random.RandomState(7)
X = RNG.randn(4, 3).astype(np.float32)
Y = RNG.randn(4, 3).astype(np.float32)
LABELS = np.array([0, 2, 1, 2], np.int32)
PROBS = RNG.rand(4, 3).astype(np.float32)
PROBS /= PROBS.sum(1, keepdims=True)
WEIGHT = np.array([0.2, 1.0, 3.0], np.float32)


def log_softmax(x, axis=-1):
    x = x.astype(np.float64)
    z = x - x.max(axis, keepdims=True)
    return z - np.log(np.exp(z).sum(axis, keepdims=True))


def reduce(x, reduction):
    return {"none": x, "mean": np.mean(x), "sum": np.sum(x)}[reduction]


def check(actual, expected, tol=2e-6):
    actual = actual.asnumpy()
    assert actual.shape == np.shape(expected)
    np.testing.assert_allclose(actual, expected, rtol=tol, atol=tol)


# -- SoftmaxCrossEntropyWithLogits -----------------------------------------------------------

def test_semantics_figures_print_as_mindspore_2_10():
    """Logits [[1,2,3],[1,1,1]], labels [2,0]: [0.40760595 1.0986123], 0.75310886, 1.5062182."""
    logits = Tensor(np.array([[1, 2, 3], [1, 1, 1]], np.float32))
    labels = Tensor(np.array([2, 0], np.int32))
    assert str(nn.SoftmaxCrossEntropyWithLogits(sparse=True)(logits, labels)) == \
        "[0.40760595 1.0986123 ]"
    assert str(nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")(logits, labels)) \
        == "0.75310886"
    assert str(nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="sum")(logits, labels)) \
        == "1.5062182"


def test_default_reduction_is_none():
    assert nn.SoftmaxCrossEntropyWithLogits().reduction == "none"
    assert nn.SmoothL1Loss().reduction == "none"
    assert nn.MSELoss().reduction == "mean"


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_softmax_cross_entropy_dense_and_sparse(reduction):
    dense = nn.SoftmaxCrossEntropyWithLogits(reduction=reduction)(Tensor(X), Tensor(PROBS))
    check(dense, reduce(-(PROBS * log_softmax(X)).sum(-1), reduction))
    sparse = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction=reduction)(Tensor(X),
                                                                                Tensor(LABELS))
    check(sparse, reduce(-log_softmax(X)[np.arange(4), LABELS], reduction))


def test_large_logits_stay_finite():
    logits = Tensor(np.array([[1000.0, 0.0, -1000.0]], np.float32))
    labels = Tensor(np.array([2], np.int32))
    for reduction in ("none", "mean"):
        value = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction=reduction)(logits, labels)
        np.testing.assert_allclose(value.asnumpy().ravel(), [2000.0])


def test_sparse_mean_gradient_is_exact():
    """d/dx mean(−log softmax(x)[y]) = (softmax(x) − onehot(y)) / N, unaffected by the CPU rounding."""
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    grad = ms.grad(lambda x: loss(x, Tensor(LABELS)))(Tensor(X))
    expected = (np.exp(log_softmax(X)) - np.eye(3)[LABELS]) / 4
    check(grad, expected, 1e-6)


with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "recorders",
                       "cpu_cross_entropy.json")) as _f:
    CPU_RECORDED = json.load(_f)


def test_nnacl_exp_reproduces_the_cpu_polynomial():
    """MindSpore 2.10's CPU exp, bit for bit (tests/recorders/record_cpu_cross_entropy.py):
    exp(−1) = 0.36787882, not the correctly rounded 0.36787945; 0 below about −86.98."""
    from refms.kernels.softmax import nnacl_exp
    recorded = CPU_RECORDED["exp"]
    got = nnacl_exp(np.array(recorded["inputs"], np.float32))
    np.testing.assert_array_equal(got, np.array(recorded["outputs"], np.float32))
    x = np.linspace(-20, 0, 101).astype(np.float32)
    np.testing.assert_allclose(nnacl_exp(x), np.exp(x.astype(np.float64)), rtol=1e-5)


@pytest.mark.parametrize("name", sorted(CPU_RECORDED["sparse"]))
def test_sparse_mean_is_mindspore_cpu_value(name):
    """The float32 mean of ``SparseSoftmaxCrossEntropyWithLogits`` and of the sparse 'mean'
    layer: MindSpore 2.10's CPU values bit for bit, from the reference kernel and the twin."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "recorders"))
    from record_cpu_cross_entropy import crc, sparse_cases
    logits, labels = sparse_cases()[name]
    recorded = CPU_RECORDED["sparse"][name]
    assert crc(logits, labels) == recorded["crc"], "the recorded inputs could not be rebuilt"
    expected = np.float32(recorded["primitive"])
    assert np.float32(recorded["layer"]) == expected
    assert kernels.reference_kernel("sparse_softmax_cross_entropy")(logits, labels, False) == expected
    assert ops.SparseSoftmaxCrossEntropyWithLogits()(Tensor(logits), Tensor(labels)).asnumpy() \
        == expected
    layer = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    assert layer(Tensor(logits), Tensor(labels)).asnumpy() == expected


def test_seed003_class_loss_under_2_10():
    """Seed 003 "动态shape": ClassLoss_ms on numpy's seed(1) stream prints 0.7207259 under 2.10
    too (case network_20.topk_by_sort checks it under the page's 2.0)."""
    case = find("network_20.topk_by_sort")
    printed, _ = run_case_script(case, compat="2.10")
    assert_prints(printed, case.expected)


# -- regression losses -------------------------------------------------------------------------

@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_l1_mse_smooth_l1(reduction):
    d = X.astype(np.float64) - Y
    check(nn.L1Loss(reduction)(Tensor(X), Tensor(Y)), reduce(np.abs(d), reduction))
    check(nn.MSELoss(reduction)(Tensor(X), Tensor(Y)), reduce(d * d, reduction))
    beta = 0.5
    smooth = np.where(np.abs(d) < beta, 0.5 * d * d / beta, np.abs(d) - 0.5 * beta)
    check(nn.SmoothL1Loss(beta, reduction)(Tensor(X), Tensor(Y)), reduce(smooth, reduction))


def test_float16_losses_reduce_in_float32_and_return_float16():
    value = nn.MSELoss()(Tensor(X.astype(np.float16)), Tensor(Y.astype(np.float16)))
    assert value.dtype is ms.float16
    d = X.astype(np.float16).astype(np.float64) - Y.astype(np.float16)
    np.testing.assert_allclose(float(value), np.mean(d * d), rtol=2e-3)


# -- BCEWithLogitsLoss ---------------------------------------------------------------------------

def _bce_reference(x, y, weight=1.0, pos_weight=1.0):
    x = x.astype(np.float64)
    sig = 1 / (1 + np.exp(-x))
    return -weight * (pos_weight * y * np.log(sig) + (1 - y) * np.log(1 - sig))


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_bce_with_logits(reduction):
    target = (Y > 0).astype(np.float32)
    check(nn.BCEWithLogitsLoss(reduction)(Tensor(X), Tensor(target)),
          reduce(_bce_reference(X, target), reduction))
    weight = np.array([1.0, 2.0, 3.0], np.float32)
    pos_weight = np.array([0.5, 1.0, 4.0], np.float32)
    loss = nn.BCEWithLogitsLoss(reduction, Tensor(weight), Tensor(pos_weight))
    check(loss(Tensor(X), Tensor(target)),
          reduce(_bce_reference(X, target, weight, pos_weight), reduction))


def test_bce_with_large_logits_is_finite():
    x = Tensor(np.array([-200.0, 200.0, 0.0], np.float32))
    y = Tensor(np.array([1.0, 0.0, 1.0], np.float32))
    np.testing.assert_allclose(nn.BCEWithLogitsLoss("none")(x, y).asnumpy(),
                               [200.0, 200.0, np.log(2)], rtol=1e-6)


# -- NLLLoss and CrossEntropyLoss -----------------------------------------------------------

def _nll_reference(logp, labels, weight, ignore_index, reduction, smoothing=0.0):
    n, classes = logp.shape
    w = np.ones(classes) if weight is None else weight.astype(np.float64)
    keep = labels != ignore_index
    safe = np.where(keep, labels, 0)
    loss = np.where(keep, -w[safe] * logp[np.arange(n), safe], 0.0)
    smooth = np.where(keep, -(w * logp).sum(1), 0.0)
    total = np.where(keep, w[safe], 0.0).sum()
    if reduction == "mean":
        loss, smooth = loss.sum() / total, smooth.sum() / total
    elif reduction == "sum":
        loss, smooth = loss.sum(), smooth.sum()
    return (1 - smoothing) * loss + smoothing / classes * smooth


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_nll_loss(reduction):
    logp = log_softmax(X).astype(np.float32)
    check(nn.NLLLoss(reduction=reduction)(Tensor(logp), Tensor(LABELS)),
          _nll_reference(logp.astype(np.float64), LABELS, None, -100, reduction))
    check(nn.NLLLoss(Tensor(WEIGHT), ignore_index=1, reduction=reduction)(Tensor(logp),
                                                                          Tensor(LABELS)),
          _nll_reference(logp.astype(np.float64), LABELS, WEIGHT, 1, reduction))


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_cross_entropy_with_indices_weights_ignore_and_smoothing(reduction):
    check(nn.CrossEntropyLoss(reduction=reduction)(Tensor(X), Tensor(LABELS)),
          _nll_reference(log_softmax(X), LABELS, None, -100, reduction))
    loss = nn.CrossEntropyLoss(Tensor(WEIGHT), ignore_index=2, reduction=reduction,
                               label_smoothing=0.2)
    check(loss(Tensor(X), Tensor(LABELS)),
          _nll_reference(log_softmax(X), LABELS, WEIGHT, 2, reduction, 0.2))


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_cross_entropy_with_probabilities(reduction):
    target = PROBS * 0.9 + 0.1 / 3
    per_sample = -(log_softmax(X) * target * WEIGHT).sum(1)
    expected = {"none": per_sample, "mean": per_sample.sum() / 4, "sum": per_sample.sum()}
    loss = nn.CrossEntropyLoss(Tensor(WEIGHT), reduction=reduction, label_smoothing=0.1)
    check(loss(Tensor(X), Tensor(PROBS)), expected[reduction])


def test_cross_entropy_on_images():
    """(N, C, H, W) logits with (N, H, W) labels: classes along axis 1."""
    x = RNG.randn(2, 3, 2, 2).astype(np.float32)
    labels = RNG.randint(0, 3, (2, 2, 2)).astype(np.int32)
    logp = log_softmax(x, 1)
    picked = np.take_along_axis(logp, labels[:, None], 1)[:, 0]
    expected = -(WEIGHT[labels] * picked).sum() / WEIGHT[labels].sum()
    check(nn.CrossEntropyLoss(Tensor(WEIGHT))(Tensor(x), Tensor(labels)), expected)


def test_cross_entropy_gradient():
    grad = ms.grad(lambda x: nn.CrossEntropyLoss()(x, Tensor(LABELS)))(Tensor(X))
    check(grad, (np.exp(log_softmax(X)) - np.eye(3)[LABELS]) / 4, 1e-6)


# -- errors -----------------------------------------------------------------------------------

def test_loss_errors():
    with pytest.raises(ValueError, match="'reduction' must be in"):
        nn.MSELoss("avg")
    with pytest.raises(TypeError, match="must be 'Tensor'"):
        nn.MSELoss()(np.ones(2), Tensor(np.ones(2)))
    with pytest.raises(TypeError, match="'labels'"):
        nn.CrossEntropyLoss()(Tensor(X), Tensor(LABELS.astype(np.int64)))
    with pytest.raises(ValueError, match="'labels' should be \\(N, d_0"):
        nn.NLLLoss()(Tensor(X), Tensor(LABELS[:2]))
    with pytest.raises(ValueError, match="label_smoothing"):
        nn.CrossEntropyLoss(label_smoothing=1.5)
    with pytest.raises(TypeError, match="can not be a Parameter"):
        nn.BCEWithLogitsLoss(weight=ms.Parameter(Tensor([1.0]), name="w"))
    with pytest.raises(ValueError, match="dimension of logits must be equal to 2"):
        nn.SoftmaxCrossEntropyWithLogits()(Tensor(np.ones(3, np.float32)),
                                           Tensor(np.ones(3, np.float32)))


def _sparse_case():
    rng = np.random.default_rng(41)
    logits = rng.standard_normal((6, 5)).astype(np.float32)
    labels = np.array([0, 4, 2, 1, 3, 0], np.int32)
    return logits, labels


def test_sparse_mean_gradient_seeded_with_one_is_the_kernels_gradient_exactly():
    """PyNative: the gradient of the sparse cross-entropy mean is (softmax − onehot)/N from
    the gradient kernel, bit for bit (its product with the seed 1 changes nothing); another
    sensitivity multiplies it in float32."""
    logits, labels = _sparse_case()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    expected = kernels.call("sparse_softmax_cross_entropy")(logits, labels, True)
    got = ops.GradOperation()(loss)(Tensor(logits), Tensor(labels))
    np.testing.assert_array_equal(got.asnumpy(), expected)
    sens = Tensor(np.float32(2.5))
    got = ops.GradOperation(sens_param=True)(loss)(Tensor(logits), Tensor(labels), sens)
    np.testing.assert_array_equal(got.asnumpy(), expected * np.float32(2.5))


def test_sparse_mean_gradient_differentiated_with_respect_to_its_sensitivity():
    """Higher order: d/ds Σ (grad_logits(s) · v) = Σ grad_logits(1) · v — at s = 1 too (the
    product with the sensitivity is what the outer tape differentiates)."""
    logits, labels = _sparse_case()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    v = np.random.default_rng(42).standard_normal(logits.shape).astype(np.float32)
    inner = ops.GradOperation(sens_param=True)(loss)

    def projected(s):
        return ops.ReduceSum()(inner(Tensor(logits), Tensor(labels), s) * Tensor(v))
    got = ms.grad(projected)(Tensor(np.float32(1.0)))
    g = kernels.call("sparse_softmax_cross_entropy")(logits, labels, True)
    np.testing.assert_allclose(got.asnumpy(), (g.astype(np.float64) * v).sum(), rtol=1e-5)
