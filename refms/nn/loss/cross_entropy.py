"""``NLLLoss`` and ``CrossEntropyLoss`` (MindSpore 2.10 ``ops.nll_loss`` / ``ops.cross_entropy``).

Inputs are ``(N, C)``, ``(N, C, d₁, …)`` or ``(C,)``; the class axis is 1 (0 for 1-D).
With class-index targets yₙ, class weights w (default 1) and label smoothing ε::

    lₙ = −w[yₙ] · xₙ,yₙ                    (xₙ,꜀: log-probabilities)
    sₙ = −Σ꜀ w꜀ · xₙ,꜀                      (the smoothing term)
    'mean': (1 − ε) · Σₙ lₙ / Σₙ w[yₙ]  +  (ε / C) · Σₙ sₙ / Σₙ w[yₙ]
    'sum' : (1 − ε) · Σₙ lₙ + (ε / C) · Σₙ sₙ;     'none': per element

Targets equal to ``ignore_index`` contribute 0 and leave the weight sum.
``CrossEntropyLoss`` applies ``log_softmax`` over the class axis first — computed
as (x − max) − log Σ exp(x − max), never log(softmax(x)), so it stays finite.
With probability targets (a float tensor shaped like the input), target
smoothing is y·(1 − ε) + ε/C and::

    loss = −Σ w꜀ · yₙ,꜀ · log_softmax(x)ₙ,꜀     ('mean' divides by the number of samples)
"""
from ... import dtype as mstype
from ...ops import functional as F
from ...ops.prims.nll import NLLLoss as NLLLossPrim
from ..._tensor import Tensor
from .loss_base import LossBase, check_tensor

__all__ = ["NLLLoss", "CrossEntropyLoss", "nll_loss", "cross_entropy"]


def _class_axis(x):
    return 0 if len(x.shape) == 1 else 1


def _weight_along_classes(weight, x):
    """``weight`` (C,) reshaped to broadcast along x's class axis."""
    if len(x.shape) <= 2:
        return weight
    return F.reshape(weight, (weight.shape[0],) + (1,) * (len(x.shape) - 2))


def nll_loss(inputs, target, weight=None, ignore_index=-100, reduction="mean",
             label_smoothing=0.0):
    """The negative log-likelihood of class-index ``target`` under log-probabilities ``inputs``.

    (N, C) inputs without smoothing run the fused ``NLLLoss`` primitive (one kernel pass forward
    and one backward); other shapes and label smoothing, the composite below.
    """
    if len(inputs.shape) == 2 and label_smoothing == 0.0:
        if weight is None:
            weight = F.ones((inputs.shape[1],), inputs.dtype)
        return NLLLossPrim(reduction, ignore_index)(inputs, target, weight)[0]
    axis = _class_axis(inputs)
    target = F.expand_dims(target, axis)
    ignored = F.equal(target, ignore_index)
    target = F.select(ignored, F.zeros_like(target), target)
    if weight is None:
        weighted = inputs
        loss_weights = F.ones_like(F.cast(target, inputs.dtype))
    else:
        weighted = inputs * _weight_along_classes(weight, inputs)
        loss_weights = F.reshape(F.gather(weight, F.reshape(target, (-1,)), 0), target.shape)
    loss = -F.gather_d(weighted, axis, target)
    smooth = -F.reduce_sum(weighted, (axis,), True)
    zero = F.zeros_like(loss)
    loss = F.select(ignored, zero, loss)
    loss_weights = F.select(ignored, F.zeros_like(loss_weights), loss_weights)
    smooth = F.select(ignored, zero, smooth)
    loss = F.squeeze(loss, axis)
    smooth = F.squeeze(smooth, axis)
    if reduction == "sum":
        loss = F.reduce_sum(loss, (), False)
        smooth = F.reduce_sum(smooth, (), False)
    elif reduction == "mean":
        total = F.reduce_sum(loss_weights, (), False)
        loss = F.reduce_sum(loss, (), False) / total
        smooth = F.reduce_sum(smooth, (), False) / total
    if label_smoothing == 0.0:
        return loss
    eps = label_smoothing / inputs.shape[axis]
    return (1.0 - label_smoothing) * loss + eps * smooth


def _cross_entropy_probabilities(inputs, target, weight, reduction, label_smoothing):
    axis = _class_axis(inputs)
    classes = inputs.shape[axis]
    log_p = F.log_softmax(inputs, axis)
    if label_smoothing > 0.0:
        target = target * (1 - label_smoothing) + label_smoothing / classes
    product = log_p * target
    if weight is not None:
        product = product * _weight_along_classes(weight, inputs)
    if reduction == "mean":
        return -F.reduce_sum(product, (), False) / (inputs.size / classes)
    if reduction == "sum":
        return -F.reduce_sum(product, (), False)
    return -F.reduce_sum(product, (axis,), False)


def cross_entropy(inputs, target, weight=None, ignore_index=-100, reduction="mean",
                  label_smoothing=0.0):
    """Softmax cross-entropy of logits ``inputs`` against class indices or class probabilities."""
    if target.dtype in (mstype.float16, mstype.float32):
        return _cross_entropy_probabilities(inputs, target, weight, reduction, label_smoothing)
    return nll_loss(F.log_softmax(inputs, _class_axis(inputs)), target, weight, ignore_index,
                    reduction, label_smoothing)


def _check_weight(cls_name, weight):
    if weight is None:
        return None
    if not isinstance(weight, Tensor):
        raise TypeError(f"For '{cls_name}', the 'weight' must be a Tensor, but got "
                        f"{type(weight).__name__}.")
    if weight.dtype not in (mstype.float16, mstype.float32):
        raise TypeError(f"For '{cls_name}', the 'weight' must be Float16 or Float32, but got "
                        f"{weight.dtype}.")
    return weight


def _check_index_target(cls_name, inputs, target, allowed):
    if target.dtype not in allowed:
        names = ", ".join(str(d) for d in allowed)
        raise TypeError(f"For '{cls_name}', the dtype of 'labels' (class indices) must be in "
                        f"[{names}], but got {target.dtype}.")
    expected = () if len(inputs.shape) == 1 else (inputs.shape[0],) + tuple(inputs.shape[2:])
    if tuple(target.shape) != expected:
        raise ValueError(f"For '{cls_name}', the shape of 'logits' should be (N, C, d_0, d_1, ...), "
                         f"and the shape of 'labels' should be (N, d_0, d_1, ...), but get 'logits' "
                         f"shape: {tuple(inputs.shape)} and 'labels' shape: {tuple(target.shape)}.")


class NLLLoss(LossBase):
    """NLLLoss(weight=None, ignore_index=-100, reduction='mean'): logits are log-probabilities."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__(reduction)
        if isinstance(ignore_index, bool) or not isinstance(ignore_index, int):
            raise TypeError(f"For '{self.cls_name}', the 'ignore_index' must be int, but got "
                            f"{type(ignore_index).__name__}.")
        self.weight = _check_weight(self.cls_name, weight)
        self.ignore_index = ignore_index

    def construct(self, logits, labels):
        check_tensor(self.cls_name, "logits", logits)
        check_tensor(self.cls_name, "labels", labels)
        _check_index_target(self.cls_name, logits, labels, (mstype.int32, mstype.int64))
        return nll_loss(logits, labels, self.weight, self.ignore_index, self.reduction)


class CrossEntropyLoss(LossBase):
    """CrossEntropyLoss(weight=None, ignore_index=-100, reduction='mean', label_smoothing=0.0)

    ``labels``: Int32 class indices shaped ``(N, d…)``, or Float16/Float32 probabilities
    shaped like the logits.
    """

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__(reduction)
        if isinstance(ignore_index, bool) or not isinstance(ignore_index, int):
            raise TypeError(f"For '{self.cls_name}', the 'ignore_index' must be int, but got "
                            f"{type(ignore_index).__name__}.")
        if not isinstance(label_smoothing, float):
            raise TypeError(f"For '{self.cls_name}', the 'label_smoothing' must be float, but got "
                            f"{type(label_smoothing).__name__}.")
        if not 0.0 <= label_smoothing <= 1.0:
            raise ValueError(f"For '{self.cls_name}', the 'label_smoothing' must be in range [0.0, "
                             f"1.0], but got {label_smoothing}.")
        self.weight = _check_weight(self.cls_name, weight)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def construct(self, logits, labels):
        check_tensor(self.cls_name, "logits", logits)
        check_tensor(self.cls_name, "labels", labels)
        if logits.dtype not in (mstype.float16, mstype.float32):
            raise TypeError(f"For '{self.cls_name}', the dtype of 'logits' must be Float16 or "
                            f"Float32, but got {logits.dtype}.")
        if len(labels.shape) == len(logits.shape):
            if labels.dtype not in (mstype.float16, mstype.float32) or \
                    tuple(labels.shape) != tuple(logits.shape):
                raise ValueError(f"For '{self.cls_name}', probability 'labels' must be Float16 or "
                                 f"Float32 shaped like 'logits' (N, C, d_0, ...), but got "
                                 f"{labels.dtype} {tuple(labels.shape)} for logits "
                                 f"{tuple(logits.shape)}.")
        else:
            _check_index_target(self.cls_name, logits, labels, (mstype.int32,))
        return cross_entropy(logits, labels, self.weight, self.ignore_index, self.reduction,
                             self.label_smoothing)
