"""Softmax cross-entropy losses: SoftmaxCrossEntropyWithLogits and SparseSoftmaxCrossEntropyWithLogits.

Both are computed through log-softmax with the maximum subtracted
(log-sum-exp), so large logits give finite losses.  (The 2.10 CPU kernel of
the sparse op is not stable: logits ``[1000, 0, −1000]``, label 2 gives
``inf`` there and ``2000`` here [ran 2.10].)

Gradients follow MindSpore's bprops [ran 2.10]: only the loss output
carries a gradient, to the logits; labels get zeros / none.  They are
written with ``softmax`` (not with the saved ``dlogits`` output), so
second derivatives are right.
"""
import numpy as np

from ... import dtype as mstype
from ... import kernels
from ..primitive import F, Primitive, Abstract, register, op_error
from ._base import FLOATS, shape_str


def _check_logits(op, logits):
    if logits.dtype not in FLOATS:
        raise op_error(op, f"the input argument[logits] must be a type of {{Tensor[Float16], "
                           f"Tensor[Float32], Tensor[Float64]}}, but got Tensor[{logits.dtype}].")


@register
class SoftmaxCrossEntropyWithLogits(Primitive):
    """lossₙ = −Σ_c labelsₙ꜀ log softmax(logits)ₙ꜀, dlogits = softmax(logits) − labels; (N, C) inputs.

    Returns ``(loss (N,), dlogits (N, C))``.  bprop: d logits = dloss[:, None]·(softmax − labels).
    """
    n_tensor_inputs = 2
    n_outputs = 2

    def infer(self, logits, labels):
        op = "SoftmaxCrossEntropyWithLogits"
        if len(logits.shape) != 2:
            raise op_error(op, f"the dimension of logits must be equal to 2, but got "
                               f"{len(logits.shape)} (logits shape {shape_str(logits.shape)}).",
                           ValueError)
        _check_logits(op, logits)
        if labels.dtype is not logits.dtype:
            raise op_error(op, f"the input type must be same, but got 'logits' Tensor[{logits.dtype}] "
                               f"and 'labels' Tensor[{labels.dtype}].")
        if tuple(labels.shape) != tuple(logits.shape):
            raise op_error(op, f"'label' shape must be consistent with 'logits' shape, but got "
                               f"'label' shape: {shape_str(labels.shape)}, 'logits' shape: "
                               f"{shape_str(logits.shape)}.", ValueError)
        return Abstract(logits.shape[:1], logits.dtype), Abstract(logits.shape, logits.dtype)

    def forward(self, logits, labels):
        return kernels.call("softmax_cross_entropy")(logits, labels)

    def bprop(self, logits, labels, out, dout):
        dlogits = (F.softmax(logits, -1) - labels) * F.expand_dims(dout[0], -1)
        return dlogits, F.zeros_like(labels)


@register
class SparseSoftmaxCrossEntropyWithLogits(Primitive):
    """loss = (1/N) Σₙ −log softmax(logits)ₙ,labelₙ — a 0-d mean over the N = labels.size samples.

    ``is_grad=True`` returns instead the gradient of that mean: (softmax(logits) − onehot(labels)) / N.
    ``logits`` has shape ``labels.shape + (C,)``; labels are Int32/Int64 in [0, C).  The float32
    mean is MindSpore 2.10's CPU value (nnacl's exp, float32 sums: 0.75310886 for the doc
    example, exactly 0.7531091), its gradient the exact one; forward and backward are one
    kernel pass each.
    """
    n_tensor_inputs = 2

    def __init__(self, is_grad=False):
        if not isinstance(is_grad, bool):
            raise op_error("SparseSoftmaxCrossEntropyWithLogits", f"the 'is_grad' must be a bool, "
                                                                  f"but got {type(is_grad).__name__}.")
        self.is_grad = is_grad
        self.sens = 1.0

    def infer(self, logits, labels):
        op = "SparseSoftmaxCrossEntropyWithLogits"
        _check_logits(op, logits)
        if labels.dtype not in (mstype.int32, mstype.int64):
            raise op_error(op, f"the input argument[labels] must be a type of {{Tensor[Int32], "
                               f"Tensor[Int64]}}, but got Tensor[{labels.dtype}].")
        if len(logits.shape) != len(labels.shape) + 1 or \
                tuple(logits.shape[:-1]) != tuple(labels.shape):
            raise op_error(op, f"the shape of 'labels' must equal the shape of 'logits' without its "
                               f"last dimension, but got logits shape {shape_str(logits.shape)} and "
                               f"labels shape {shape_str(labels.shape)}.", ValueError)
        if self.is_grad:
            return Abstract(logits.shape, logits.dtype)
        return Abstract((), logits.dtype)

    def forward(self, logits, labels):
        classes = logits.shape[-1]
        bad = kernels.call("first_outside")(labels, 0, classes)
        if bad is not None:
            (position, value), index = bad, 0
            for i, size in zip(position, labels.shape):        # the flat (row-major) index
                index = index * size + i
            raise op_error("SparseSoftmaxCrossEntropyWithLogits",
                           f"every label must be in [0, {classes}), but got label[{index}] = "
                           f"{value}.", RuntimeError)
        return kernels.call("sparse_softmax_cross_entropy")(logits, labels, self.is_grad)

    def bprop(self, logits, labels, out, dout):
        if not self.is_grad:
            return _SPARSE_GRAD(logits, labels) * dout, None
        # out = (p − onehot)/N is linear in p = softmax(logits): d logits = p ⊙ (v − Σ v ⊙ p) / N.
        p = F.softmax(logits, -1)
        along = F.reduce_sum(dout * p, (-1,), True)
        count = max(int(np.prod(labels.shape, dtype=np.int64)), 1)
        return p * (dout - along) / count, None


_SPARSE_GRAD = SparseSoftmaxCrossEntropyWithLogits(is_grad=True)
