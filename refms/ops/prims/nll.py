"""NLLLoss: ``ops.NLLLoss(reduction="mean", ignore_index=-100)(logits, labels, weight)``.

For log-probabilities ``logits`` (N, C), class indices ``labels`` (N,) and class
weights ``weight`` (C,), returns ``(loss, total_weight)`` [ran 2.10]::

    lossₙ = −w[yₙ] · logitsₙ,yₙ      (0 where yₙ = ignore_index)
    total_weight = Σₙ w[yₙ]          (over the samples not ignored)
    'mean': Σₙ lossₙ / total_weight;  'sum': Σₙ lossₙ;  'none': the (N,) losses

A label outside [0, C) that is not ``ignore_index`` raises ValueError, a
logits rank other than 2 or mismatched shapes RuntimeError (MindSpore's CPU
kernel's checks); every sample ignored under 'mean' gives NaN (0 / 0), as on
MindSpore 2.10.  'none' gives 0 for an ignored sample (MindSpore 2.10's CPU
kernel leaves that element unwritten: 0 in a fresh buffer, stale values on
later calls [ran 2.10]).  Forward
and backward are one kernel pass each (``refms/kernels/nll.py``).  Only the
loss carries a gradient, to the logits (MindSpore's bprop): labels get none,
the weights zeros.
"""
from ... import dtype as mstype
from ... import kernels
from ..primitive import F, Primitive, Abstract, register, op_error
from ._base import FLOATS, shape_str

_REDUCTIONS = ("none", "mean", "sum")


class _NLLAttrs(Primitive):
    """The attributes both primitives share: ``reduction`` and ``ignore_index``."""

    def __init__(self, reduction="mean", ignore_index=-100):
        if reduction not in _REDUCTIONS:
            raise op_error(self.name, f"the 'reduction' must be in {list(_REDUCTIONS)}, but got "
                                      f"{reduction!r}.", ValueError)
        if isinstance(ignore_index, bool) or not isinstance(ignore_index, int):
            raise op_error(self.name, f"the 'ignore_index' must be int, but got "
                                      f"{type(ignore_index).__name__}.")
        self.reduction = reduction
        self.ignore_index = ignore_index

    def loss_shape(self, logits):
        return tuple(logits.shape[:1]) if self.reduction == "none" else ()


@register
class NLLLoss(_NLLAttrs):
    """(loss, total_weight): lossₙ = −w[yₙ]·logitsₙ,yₙ reduced by 'none' / 'sum' / 'mean' (÷ Σ w[yₙ])."""
    n_tensor_inputs = 3
    n_outputs = 2

    def infer(self, logits, labels, weight):
        if len(logits.shape) != 2:
            raise op_error("NLLLoss", f"the dimension of 'logits' should be 2 (N, C), but got logits "
                                      f"shape {shape_str(logits.shape)}.", RuntimeError)
        if logits.dtype not in FLOATS or weight.dtype not in FLOATS:
            raise op_error("NLLLoss", f"'logits' and 'weight' must be float tensors, but got "
                                      f"Tensor[{logits.dtype}] and Tensor[{weight.dtype}].")
        if labels.dtype not in (mstype.int32, mstype.int64):
            raise op_error("NLLLoss", f"the 'labels' must be Tensor[Int32] or Tensor[Int64], but got "
                                      f"Tensor[{labels.dtype}].")
        if tuple(labels.shape) != tuple(logits.shape[:1]) or \
                tuple(weight.shape) != tuple(logits.shape[1:]):
            raise op_error("NLLLoss", f"for logits shape {shape_str(logits.shape)} the 'labels' must "
                                      f"have shape (N,) and 'weight' (C,), but got "
                                      f"{shape_str(labels.shape)} and {shape_str(weight.shape)}.",
                           RuntimeError)
        return Abstract(self.loss_shape(logits), logits.dtype), Abstract((), weight.dtype)

    def forward(self, logits, labels, weight):
        classes = logits.shape[1]
        ignored = kernels.call("equal")(labels, kernels.call("full_like")(labels, self.ignore_index))
        checked = kernels.call("where")(ignored, kernels.call("full_like")(labels, 0), labels)
        bad = kernels.call("first_outside")(checked, 0, classes)
        if bad is not None:
            raise op_error("NLLLoss", f"the label must in scope[0, {classes - 1}], but got "
                                      f"{bad[1]}.", ValueError)
        return kernels.call("nll_loss")(logits, labels, weight, self.reduction, self.ignore_index)

    def bprop(self, logits, labels, weight, out, dout):
        dlogits = NLLLossGrad(self.reduction, self.ignore_index)(logits, dout[0], labels, weight,
                                                                  out[1])
        return dlogits, None, F.zeros_like(weight)


@register
class NLLLossGrad(_NLLAttrs):
    """d logits of NLLLoss: zero but at (n, yₙ), −w[yₙ]·dloss (÷ total_weight for 'mean').

    Inputs ``(logits, dloss, labels, weight, total_weight)``.  Linear in dloss, and its adjoint
    is NLLLoss itself: d(dloss) = NLLLoss(ddx, labels, weight)[0].
    """
    n_tensor_inputs = 5

    def infer(self, logits, dloss, labels, weight, total_weight):
        if tuple(dloss.shape) != self.loss_shape(logits):
            raise op_error("NLLLossGrad", f"the 'loss_grad' must have shape "
                                          f"{shape_str(self.loss_shape(logits))}, but got "
                                          f"{shape_str(dloss.shape)}.", ValueError)
        return Abstract(logits.shape, logits.dtype)

    def forward(self, logits, dloss, labels, weight, total_weight):
        return kernels.call("nll_loss_grad")(dloss, labels, weight, total_weight, logits.shape,
                                             self.reduction, self.ignore_index)

    def bprop(self, logits, dloss, labels, weight, total_weight, out, dout):
        ddloss = NLLLoss(self.reduction, self.ignore_index)(dout, labels, weight)[0]
        return (F.zeros_like(logits), ddloss, None, F.zeros_like(weight),
                F.zeros_like(total_weight))
