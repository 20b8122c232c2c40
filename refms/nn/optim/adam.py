"""``Adam`` (Kingma & Ba 2015) and ``AdamWeightDecay`` (Loshchilov & Hutter 2019),
as MindSpore's ``Adam`` and ``AdamWeightDecay`` kernels compute them.

``Adam``, after the shared steps (weight decay *added to the gradient*,
loss-scale division), with β₁ᵗ, β₂ᵗ the running powers (``beta1_power``,
``beta2_power``, multiplied by β before each step) and m, v the moments
(``moment1.<name>``, ``moment2.<name>``)::

    lrₜ = lr · √(1 − β₂ᵗ) / (1 − β₁ᵗ)          (bias correction folded into the rate)
    m ← m + (g − m)(1 − β₁);   v ← v + (g² − v)(1 − β₂)
    p ← p − lrₜ · m / (√v + ε)                               (use_nesterov=False)
    p ← p − lrₜ · (β₁ · m + (1 − β₁) · g) / (√v + ε)          (use_nesterov=True)
    v̂ ← max(v̂, v);  p ← p − lrₜ · m / (√v̂ + ε)                 (use_amsgrad=True, Reddi et al.
                                                              2018; state ``vhat.<name>``)

``AdamWeightDecay`` decouples the decay and has no bias correction
(moments ``adam_m.<name>``, ``adam_v.<name>``; decay only where the name has
neither ``beta`` nor ``gamma``)::

    m ← β₁ · m + (1 − β₁) · g;   v ← β₂ · v + (1 − β₂) · g²
    p ← p − lr · (m / (√v + ε) + wd · p)
"""
from ... import dtype as mstype
from ...ops import functional as F
from ...parameter import Parameter
from ..._tensor import Tensor
from .optimizer import Optimizer

__all__ = ["Adam", "AdamWeightDecay"]


def _check_param_value(beta1, beta2, eps, cls_name):
    for name, value in (("beta1", beta1), ("beta2", beta2), ("eps", eps)):
        if not isinstance(value, float):
            raise TypeError(f"For '{cls_name}', the '{name}' must be float, but got "
                            f"{type(value).__name__}.")
    for name, value in (("beta1", beta1), ("beta2", beta2)):
        if not 0.0 < value < 1.0:
            raise ValueError(f"For '{cls_name}', the '{name}' must be in range (0.0, 1.0), but got "
                             f"{value}.")
    if eps <= 0:
        raise ValueError(f"For '{cls_name}', the 'eps' must be positive, but got {eps}.")


class Adam(Optimizer):
    """Adam(params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, use_locking=False,
    use_nesterov=False, weight_decay=0.0, loss_scale=1.0, use_amsgrad=False, ``**kwargs``)

    ``kwargs`` may hold ``use_lazy`` (update only the rows a sparse gradient touches) and
    ``use_offload`` (run the update on the host), as in MindSpore 2.10.  With the dense
    gradients refms computes, both give the plain Adam update, which is what refms runs."""

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
                 use_locking=False, use_nesterov=False, weight_decay=0.0, loss_scale=1.0,
                 use_amsgrad=False, **kwargs):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if set(kwargs) - {"use_lazy", "use_offload"}:
            raise KeyError(f"For 'Adam', invalid keys are passed as kwargs, supported keys are "
                           f"'use_lazy' and 'use_offload', but got {sorted(kwargs)}.")
        use_lazy = kwargs.get("use_lazy", False)
        use_offload = kwargs.get("use_offload", False)
        _check_param_value(beta1, beta2, eps, self.cls_name)
        for name, value in (("use_locking", use_locking), ("use_nesterov", use_nesterov),
                            ("use_amsgrad", use_amsgrad), ("use_lazy", use_lazy),
                            ("use_offload", use_offload)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'Adam', the '{name}' must be bool, but got "
                                f"{type(value).__name__}.")
        if use_amsgrad and use_nesterov:
            raise ValueError("For 'Adam', 'use_amsgrad' and 'use_nesterov' cannot both be True.")
        if use_lazy and use_offload:
            raise ValueError("For 'Adam', 'use_lazy' and 'use_offload' can not both be True.")
        if use_amsgrad and (use_lazy or use_offload):
            raise ValueError("For lazy Adam and Adam with offload, there is no parameter named "
                             "'use_amsgrad', but got 'use_amsgrad'=True.")
        self.use_lazy, self.use_offload = use_lazy, use_offload
        self.use_amsgrad = use_amsgrad
        self.beta1 = Tensor(beta1, mstype.float32)
        self.beta2 = Tensor(beta2, mstype.float32)
        self.beta1_power = Parameter(Tensor(1.0, mstype.float32), name="beta1_power")
        self.beta2_power = Parameter(Tensor(1.0, mstype.float32), name="beta2_power")
        self.eps = Tensor(eps, mstype.float32)
        self.use_nesterov = use_nesterov
        self.use_locking = use_locking
        self.moment1 = self._parameters.clone(prefix="moment1", init="zeros")
        self.moment2 = self._parameters.clone(prefix="moment2", init="zeros")
        if use_amsgrad:
            self.vhat = self._parameters.clone(prefix="vhat", init="zeros")

    def construct(self, gradients):
        params = self._parameters
        gradients = self.decay_weight(gradients)
        gradients = self.gradients_centralization(gradients)
        gradients = self.scale_grad(gradients)
        lr = self.get_lr()
        self.advance_global_step()
        beta1_power = self.beta1_power * self.beta1
        F.assign(self.beta1_power, beta1_power)
        beta2_power = self.beta2_power * self.beta2
        F.assign(self.beta2_power, beta2_power)
        success = ()
        for i in range(self.param_length):
            vhat = self.vhat[i] if self.use_amsgrad else None
            success += (self.apply_adam(params[i], self.moment1[i], self.moment2[i], gradients[i],
                                        self.lr_of(lr, i), beta1_power, beta2_power, vhat),)
        return success

    def apply_adam(self, param, m, v, grad, lr, beta1_power, beta2_power, vhat=None):
        """One parameter's update (the ``Adam`` primitive's arithmetic; with ``vhat`` the
        AMSGrad variant, ``ApplyAdamWithAmsgrad``)."""
        lr_t = lr * F.sqrt(1.0 - beta2_power) / (1.0 - beta1_power)
        new_m = m + (grad - m) * (1.0 - self.beta1)
        new_v = v + (grad * grad - v) * (1.0 - self.beta2)
        if self.use_nesterov:
            direction = new_m * self.beta1 + grad * (1.0 - self.beta1)
        else:
            direction = new_m
        denominator = new_v
        if vhat is not None:
            denominator = F.maximum(vhat, new_v)
            self.update_parameter(vhat, denominator)
        new_param = param - lr_t * direction / (F.sqrt(denominator) + self.eps)
        self.update_parameter(m, new_m)
        self.update_parameter(v, new_v)
        self.update_parameter(param, new_param)
        return True


class AdamWeightDecay(Optimizer):
    """AdamWeightDecay(params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0)"""

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-6,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        _check_param_value(beta1, beta2, eps, self.cls_name)
        self.beta1 = Tensor(beta1, mstype.float32)
        self.beta2 = Tensor(beta2, mstype.float32)
        self.eps = Tensor(eps, mstype.float32)
        self.moments1 = self._parameters.clone(prefix="adam_m", init="zeros")
        self.moments2 = self._parameters.clone(prefix="adam_v", init="zeros")

    def construct(self, gradients):
        lr = self.get_lr()
        self.advance_global_step()
        success = ()
        for i in range(self.param_length):
            decay = self.decay_of(i)
            if not self.decay_flags[i]:
                decay = 0.0
            success += (self.apply_adam_weight_decay(self._parameters[i], self.moments1[i],
                                                     self.moments2[i], gradients[i],
                                                     self.lr_of(lr, i), decay),)
        return success

    def apply_adam_weight_decay(self, param, m, v, grad, lr, decay):
        """One parameter's update (the fused ``AdamWeightDecay`` primitive's arithmetic)."""
        grad = F.cast(grad, param.dtype)
        new_m = m + (grad - m) * (1.0 - self.beta1)
        new_v = v + (grad * grad - v) * (1.0 - self.beta2)
        update = new_m / (F.sqrt(new_v) + self.eps)
        if decay > 0.0:
            update = update + param * decay
        self.update_parameter(m, new_m)
        self.update_parameter(v, new_v)
        self.update_parameter(param, param - lr * update)
        return True
