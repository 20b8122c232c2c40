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

The value of sparse ``'mean'`` in float32 is MindSpore's CPU value, which
the primitive's kernel reproduces (``refms/kernels/softmax.py``
``mindspore_cpu_mean``: nnacl's exp polynomial, float32 sums): logits
``[[1, 2, 3], [1, 1, 1]]``, labels ``[2, 0]`` print ``0.75310886`` on 2.10 where
the exact value rounds to ``0.7531091``.  Its gradient is the exact one.
"""
from ... import dtype as mstype
from ...ops import functional as F
from ...ops.prims.loss import SparseSoftmaxCrossEntropyWithLogits as SparseSoftmaxCrossEntropyPrim
from ..._tensor import Tensor
from .loss_base import LossBase, check_tensor

__all__ = ["SoftmaxCrossEntropyWithLogits", "dense_cross_entropy"]


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
                return self.sparse_softmax_cross_entropy(logits, labels)
            labels = F.one_hot(labels, logits.shape[-1], self.on_value, self.off_value)
            labels = F.cast(labels, logits.dtype)
        _check_dense(logits, labels)
        return self.get_loss(dense_cross_entropy(logits, labels))

    def extend_repr(self):
        return ""
