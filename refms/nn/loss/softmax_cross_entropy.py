"""``SoftmaxCrossEntropyWithLogits(sparse=False, reduction='none')`` (semantics 8.4).

For logits x (N, C) and one-hot or probability labels y::

    lossₙ = −Σ꜀ yₙ꜀ · log_softmax(x)ₙ꜀,   log_softmax(x) = (x − m) − log Σ exp(x − m),  m = max x

(the maximum is subtracted before exponentiating, so large logits stay finite).
``sparse=True`` takes class indices (Int32/Int64) and one-hot encodes them;
the default reduction is ``'none'`` (a per-sample vector).  Construction
follows MindSpore ``nn/loss/loss.py``: sparse with ``'mean'`` runs the
``SparseSoftmaxCrossEntropyWithLogits`` primitive; everything else computes
the formula above in the logits' dtype as MindSpore's CPU kernel does
(``dense_cross_entropy``: ``[0.40760595 1.0986123]``, sum ``1.5062182``)
and reduces with ``LossBase.get_loss``.

The value of sparse ``'mean'`` in float32 reproduces MindSpore's CPU kernel,
which evaluates exp with nnacl's polynomial (``nnacl/fp32/exp_fp32.h``,
relative error ~1e-6) and accumulates −log p in float32: logits
``[[1, 2, 3], [1, 1, 1]]``, labels ``[2, 0]`` print ``0.75310886`` on 2.10 where
the exact value rounds to ``0.7531091``.  The gradient is the exact one: the
loss is ``exact + stop_gradient(cpu_value − exact)``.
"""
from ... import dtype as mstype
from ...ops import functional as F
from ...ops.prims.loss import SparseSoftmaxCrossEntropyWithLogits as SparseSoftmaxCrossEntropyPrim
from ..._tensor import Tensor
from .loss_base import LossBase, check_tensor

__all__ = ["SoftmaxCrossEntropyWithLogits", "dense_cross_entropy", "nnacl_exp", "cpu_sparse_mean_value"]

#: Coefficients of nnacl's ``simd_exp32_f32``: x = n·ln2 + r, exp(r) ≈ Σ rᵏ/k! up to k = 5.
_LN2 = 0.693147
_LOG2E = 1.44269504088896341
_EXP_MIN, _EXP_MAX = -87.3365478515625, 88.72283935546875


def nnacl_exp(x):
    """exp(x) as MindSpore's CPU kernels compute it: 2ⁿ · P₅(r), n = ⌊x·log₂e + ½⌋, r = x − n·ln2.

    P₅(r) = 1 + r(1 + r(½ + r(⅙ + r(1/24 + r/120)))), all in float32; x is clamped to
    [log FLT_MIN, log FLT_MAX].
    """
    x = F.clamp(x, _EXP_MIN, _EXP_MAX)
    n = F.floor(x * _LOG2E + 0.5)
    r = x - n * _LN2
    poly = 1.0 + r * (1.0 + r * (0.5 + r * (1.0 / 6 + r * (1.0 / 24 + r * (1.0 / 120)))))
    return F.pow(F.fill(mstype.float32, x.shape, 2.0), n) * poly


def cpu_sparse_mean_value(logits, labels):
    """Σₙ −log pₙ,yₙ / N with p = softmax computed through :func:`nnacl_exp` (no gradient).

    Where the label's shifted logit z is below −80, exp(z) underflows in float32 (MindSpore
    then returns inf); the exact log Σ exp − z is used there instead.
    """
    logits = F.stop_gradient(logits)
    shifted = logits - F.reduce_max(logits, (-1,), True)
    e = nnacl_exp(shifted)
    total = F.reduce_sum(e, (-1,), True)
    index = F.expand_dims(labels, -1)
    picked = F.gather_d(e, -1, index)
    z = F.gather_d(shifted, -1, index)
    representable = z > -80.0
    safe = F.select(representable, picked, F.ones_like(picked))
    loss = F.select(representable, -F.log(safe / total), F.log(total) - z)
    return F.reduce_sum(loss, (), False) / labels.size


def _check_dense(logits, labels):
    """The dense primitive's input rules: (N, C) float logits, labels of the same shape and dtype."""
    if len(logits.shape) != 2:
        raise ValueError(f"For 'SoftmaxCrossEntropyWithLogits', the dimension of logits must be equal "
                         f"to 2, but got {len(logits.shape)} (logits shape {tuple(logits.shape)}).")
    if logits.dtype.kind != "float" or labels.dtype is not logits.dtype:
        raise TypeError(f"For 'SoftmaxCrossEntropyWithLogits', 'logits' and 'labels' must be float "
                        f"tensors of one dtype, but got {logits.dtype} and {labels.dtype}.")
    if tuple(labels.shape) != tuple(logits.shape):
        raise ValueError(f"For 'SoftmaxCrossEntropyWithLogits', 'label' shape must be consistent with "
                         f"'logits' shape, but got 'label' shape: {tuple(labels.shape)}, 'logits' "
                         f"shape: {tuple(logits.shape)}.")


def dense_cross_entropy(logits, labels):
    """lossₙ = Σ꜀ yₙ꜀ · (lseₙ − zₙ꜀), z = x − max x, lse = log Σ꜀ exp z (the shift keeps exp ≤ 1).

    The log of the sum is taken in float64 and rounded once, which is what a correctly rounded
    ``logf`` gives; numpy's float32 log is off by an ulp at 1.5032147 and would print
    0.407606 instead of MindSpore's 0.40760595 (semantics 8.4).  The labels get no gradient
    (MindSpore 2.10's kernel returns zeros for them, recorded).
    """
    labels = F.stop_gradient(labels)
    z = logits - F.stop_gradient(F.reduce_max(logits, (-1,), True))
    total = F.reduce_sum(F.exp(z), (-1,), True)
    lse = F.cast(F.log(F.cast(total, mstype.float64)), logits.dtype)
    return F.reduce_sum(labels * (lse - z), (-1,), False)


class SoftmaxCrossEntropyWithLogits(LossBase):
    """SoftmaxCrossEntropyWithLogits(sparse=False, reduction='none')"""

    def __init__(self, sparse=False, reduction="none"):
        super().__init__(reduction)
        if not isinstance(sparse, bool):
            raise TypeError(f"For '{self.cls_name}', the 'sparse' must be bool, but got "
                            f"{type(sparse).__name__}.")
        self.sparse = sparse
        self.sparse_softmax_cross_entropy = SparseSoftmaxCrossEntropyPrim()
        self.on_value = Tensor(1.0, mstype.float32)
        self.off_value = Tensor(0.0, mstype.float32)

    def construct(self, logits, labels):
        check_tensor(self.cls_name, "logits", logits)
        check_tensor(self.cls_name, "labels", labels)
        if self.sparse:
            if self.reduction == "mean":
                exact = self.sparse_softmax_cross_entropy(logits, labels)
                if logits.dtype is not mstype.float32:
                    return exact
                cpu_value = cpu_sparse_mean_value(logits, labels)
                return exact + F.stop_gradient(cpu_value - exact)
            labels = F.one_hot(labels, logits.shape[-1], self.on_value, self.off_value)
            labels = F.cast(labels, logits.dtype)
        _check_dense(logits, labels)
        return self.get_loss(dense_cross_entropy(logits, labels))

    def extend_repr(self):
        return ""
