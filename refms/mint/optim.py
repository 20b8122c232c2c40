"""``mint.optim``: SGD, Adam, AdamW and FusedAdamW with PyTorch's arguments and update rules,
called as MindSpore's optimizers are: ``optimizer(gradients)`` (a tuple, one per parameter).

The rules are PyTorch's documented algorithms (``torch.optim.SGD`` / ``Adam`` /
``AdamW``), which ``mindspore.mint.optim`` documents as its own.  (MindSpore 2.10's
CPU backend has no kernels for them: there ``SGD`` and ``Adam`` leave the parameters
unchanged and ``AdamW`` raises "The kernel AdamW unregistered".)
"""
from .. import dtype as mstype
from .._tensor import Tensor
from ..nn.optim.optimizer import Optimizer
from ..ops import functional as F
from ..parameter import Parameter

__all__ = ["SGD", "Adam", "AdamW", "FusedAdamW"]


def _check(cls_name, lr, weight_decay, eps=0.0, betas=(0.0, 0.0)):
    if lr < 0.0:
        raise ValueError(f"For '{cls_name}', invalid learning rate: {lr}.")
    if weight_decay < 0.0:
        raise ValueError(f"For '{cls_name}', invalid weight_decay value: {weight_decay}.")
    if eps < 0.0:
        raise ValueError(f"For '{cls_name}', invalid epsilon value: {eps}.")
    for k, beta in enumerate(betas):
        if not 0.0 <= beta < 1.0:
            raise ValueError(f"For '{cls_name}', invalid beta parameter at index {k}: {beta}.")


class SGD(Optimizer):
    """``SGD(params, lr, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
    maximize=False)``

    g ← ∇ + weight_decay·p;  b ← g at the first step, then momentum·b + (1 − dampening)·g;
    g ← g + momentum·b (nesterov) or b;  p ← p − lr·g  (``maximize``: ascend).
    """

    def __init__(self, params, lr, momentum=0.0, dampening=0.0, weight_decay=0.0,
                 nesterov=False, *, maximize=False):
        _check("SGD", lr, weight_decay)
        if nesterov and (momentum <= 0.0 or dampening != 0.0):
            raise ValueError("For 'SGD', nesterov momentum requires a momentum and zero "
                             "dampening.")
        super().__init__(float(lr), params)
        self.momentum, self.dampening = float(momentum), float(dampening)
        self.decay, self.nesterov, self.maximize = float(weight_decay), nesterov, maximize
        self.buffers = self._parameters.clone(prefix="momentum_buffer", init="zeros")
        self.steps = Parameter(Tensor(0, mstype.int32), name="steps", requires_grad=False)

    def construct(self, gradients):
        lr = self.get_lr()
        first = F.equal(self.steps, 0)
        F.assign(self.steps, self.steps + 1)
        for i in range(len(self._parameters)):
            param, grad = self._parameters[i], F.cast(gradients[i], self._parameters[i].dtype)
            if self.maximize:
                grad = -grad
            if self.decay != 0.0:
                grad = grad + param * self.decay
            if self.momentum != 0.0:
                buffer = self.buffers[i]
                running = buffer * self.momentum + grad * (1.0 - self.dampening)
                new_buffer = F.select(F.broadcast_to(first, grad.shape), grad, running)
                self.update_parameter(buffer, new_buffer)
                grad = grad + new_buffer * self.momentum if self.nesterov else new_buffer
            self.update_parameter(param, param - grad * self.lr_of(lr, i))
        return True


class AdamW(Optimizer):
    """``AdamW(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False,
    *, maximize=False)`` — Loshchilov & Hutter (2019), decoupled weight decay:

    p ← p·(1 − lr·weight_decay);  m ← β₁m + (1 − β₁)g;  v ← β₂v + (1 − β₂)g²;
    p ← p − lr·(m / (1 − β₁ᵗ)) / (√(v̂ / (1 − β₂ᵗ)) + eps), v̂ = v (amsgrad: max of all v).
    """

    #: decoupled (AdamW) or L2 (Adam: weight_decay·p added to the gradient)
    decoupled = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False):
        _check(type(self).__name__, lr, weight_decay, eps, betas)
        super().__init__(float(lr), params)
        self.beta1, self.beta2 = float(betas[0]), float(betas[1])
        self.eps, self.decay = float(eps), float(weight_decay)
        self.amsgrad, self.maximize = amsgrad, maximize
        self.exp_avg = self._parameters.clone(prefix="exp_avg", init="zeros")
        self.exp_avg_sq = self._parameters.clone(prefix="exp_avg_sq", init="zeros")
        self.max_exp_avg_sq = self._parameters.clone(prefix="max_exp_avg_sq", init="zeros")
        self.steps = Parameter(Tensor(0.0, mstype.float32), name="steps", requires_grad=False)

    def construct(self, gradients):
        lr = self.get_lr()
        step = self.steps + 1.0
        F.assign(self.steps, step)
        correction1 = 1.0 - F.pow(Tensor(self.beta1, mstype.float32), step)
        correction2 = 1.0 - F.pow(Tensor(self.beta2, mstype.float32), step)
        for i in range(len(self._parameters)):
            param, grad = self._parameters[i], F.cast(gradients[i], self._parameters[i].dtype)
            lr_i = self.lr_of(lr, i)
            if self.maximize:
                grad = -grad
            if self.decay != 0.0:
                if self.decoupled:
                    param = param * (1.0 - lr_i * self.decay)
                else:
                    grad = grad + param * self.decay
            m = self.exp_avg[i] * self.beta1 + grad * (1.0 - self.beta1)
            v = self.exp_avg_sq[i] * self.beta2 + grad * grad * (1.0 - self.beta2)
            self.update_parameter(self.exp_avg[i], m)
            self.update_parameter(self.exp_avg_sq[i], v)
            if self.amsgrad:
                v = F.maximum(self.max_exp_avg_sq[i], v)
                self.update_parameter(self.max_exp_avg_sq[i], v)
            denominator = F.sqrt(v / correction2) + self.eps
            self.update_parameter(self._parameters[i],
                                  param - (m / correction1) / denominator * lr_i)
        return True


class Adam(AdamW):
    """``Adam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, amsgrad=False,
    *, maximize=False)`` — Kingma & Ba (2015): AdamW's rule with the weight decay added to the
    gradient (g ← ∇ + weight_decay·p) instead of decoupled."""

    decoupled = False

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
                 amsgrad=False, *, maximize=False):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)


class FusedAdamW(AdamW):
    """AdamW computed as one fused kernel on Ascend; the same update."""
