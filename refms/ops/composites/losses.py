"""SigmoidCrossEntropyWithLogits: element-wise binary cross-entropy on logits::

    loss = −z·log σ(x) − (1−z)·log(1−σ(x)) = max(x, 0) − x·z + log(1 + e^{−|x|})

(the right-hand form never overflows).  As in MindSpore, only the logits
``x`` get a gradient, σ(x) − z; the labels ``z`` are constants to autodiff.
"""
from ._common import CompositeOp, check_tensor
from ..primitive import F, op_error

__all__ = ["SigmoidCrossEntropyWithLogits", "binary_cross_entropy_with_logits", "SmoothL1Loss",
           "smooth_l1_loss", "binary_cross_entropy", "BinaryCrossEntropy"]


def _sigmoid_cross_entropy(logits, label):
    check_tensor("SigmoidCrossEntropyWithLogits", "logits", logits)
    check_tensor("SigmoidCrossEntropyWithLogits", "label", label)
    if tuple(logits.shape) != tuple(label.shape):
        raise op_error("SigmoidCrossEntropyWithLogits",
                       f"the shape of 'logits' and 'label' should be the same, but got "
                       f"{tuple(logits.shape)} and {tuple(label.shape)}.", ValueError)
    if logits.dtype.kind != "float" or label.dtype is not logits.dtype:
        raise op_error("SigmoidCrossEntropyWithLogits",
                       f"the dtypes of 'logits' and 'label' should be the same float type, but "
                       f"got {logits.dtype} and {label.dtype}.")
    z = F.stop_gradient(label)
    return F.maximum(logits, 0.0) - logits * z + F.log1p(F.exp(-F.abs(logits)))


class SigmoidCrossEntropyWithLogits(CompositeOp):
    """``SigmoidCrossEntropyWithLogits()(logits, label)``: the element-wise loss, no reduction."""

    def __call__(self, logits, label):
        return _sigmoid_cross_entropy(logits, label)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None,  # noqa: A002
                                     reduction="mean"):
    """Sigmoid cross-entropy reduced by ``reduction`` ('mean', 'sum', 'none'), optionally weighted.

    With ``pos_weight`` p: loss = (1 − z)·x + (1 + (p − 1)·z)·(log(1 + e^{−|x|}) + max(−x, 0)),
    differentiable in the target z as well; ``weight`` and ``pos_weight`` get no gradient
    (MindSpore 2.10's gradients, recorded).
    """
    logits, label = input, target
    if pos_weight is None:
        loss = _sigmoid_cross_entropy(logits, label)
    else:
        z = label
        log_weight = (F.stop_gradient(pos_weight) - 1.0) * z + 1.0
        loss = (1.0 - z) * logits + log_weight * (F.log1p(F.exp(-F.abs(logits)))
                                                  + F.maximum(-logits, 0.0))
    if weight is not None:
        loss = loss * F.stop_gradient(weight)
    if reduction == "mean":
        return F.reduce_mean(loss, (), False)
    if reduction == "sum":
        return F.reduce_sum(loss, (), False)
    if reduction == "none":
        return loss
    raise op_error("binary_cross_entropy_with_logits", f"the 'reduction' should be 'mean', "
                                                       f"'sum' or 'none', but got {reduction!r}.",
                   ValueError)


def smooth_l1_loss(input, target, beta=1.0, reduction="none"):  # noqa: A002
    """``ops.smooth_l1_loss``: ½d²/β for |d| < β, |d| − ½β otherwise (d = input − target)."""
    check_tensor("SmoothL1Loss", "input", input)
    check_tensor("SmoothL1Loss", "target", target)
    if beta <= 0:
        raise op_error("SmoothL1Loss", f"the 'beta' should be greater than 0, but got {beta}.",
                       ValueError)
    d = F.abs(input - target)
    loss = F.select(d < beta, 0.5 * F.square(d) / beta, d - 0.5 * beta)
    return _reduce("SmoothL1Loss", loss, reduction)


def _reduce(op, loss, reduction):
    if reduction == "mean":
        return F.reduce_mean(loss, (), False)
    if reduction == "sum":
        return F.reduce_sum(loss, (), False)
    if reduction == "none":
        return loss
    raise op_error(op, f"the 'reduction' should be 'mean', 'sum' or 'none', but got "
                       f"{reduction!r}.", ValueError)


class SmoothL1Loss(CompositeOp):
    """``SmoothL1Loss(beta=1.0, reduction='none')(logits, labels)`` = :func:`smooth_l1_loss`."""

    def __init__(self, beta=1.0, reduction="none"):
        self.beta = beta
        self.reduction = reduction

    def __call__(self, logits, labels):
        return smooth_l1_loss(logits, labels, self.beta, self.reduction)


def binary_cross_entropy(logits, labels, weight=None, reduction="mean"):
    """−w·(y·log x + (1 − y)·log(1 − x)); the logs are of max(·, 1e-12) so 0·log 0 = 0.

    The weight w gets no gradient (MindSpore 2.10's BinaryCrossEntropy bprop returns zeros
    for it, recorded).
    """
    check_tensor("BinaryCrossEntropy", "logits", logits)
    check_tensor("BinaryCrossEntropy", "labels", labels)
    eps = 1e-12
    loss = -(labels * F.log(F.maximum(logits, eps))
             + (1.0 - labels) * F.log(F.maximum(1.0 - logits, eps)))
    if weight is not None:          # MindSpore 2.10 gives the weight a zero gradient (recorded)
        loss = loss * F.stop_gradient(weight)
    return _reduce("BinaryCrossEntropy", loss, reduction)


class BinaryCrossEntropy(CompositeOp):
    """``BinaryCrossEntropy(reduction='mean')(logits, labels, weight=None)`` =
    :func:`binary_cross_entropy`."""

    def __init__(self, reduction="mean"):
        if reduction not in ("none", "mean", "sum"):
            raise op_error("BinaryCrossEntropy", f"the 'reduction' must be in ['none', 'mean', "
                                                 f"'sum'], but got {reduction!r}.", ValueError)
        self.reduction = reduction

    def __call__(self, logits, labels, weight=None):
        return binary_cross_entropy(logits, labels, weight, self.reduction)
