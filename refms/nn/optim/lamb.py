"""``Lamb`` (You et al., "Large Batch Optimization for Deep Learning: Training BERT in 76
Minutes", ICLR 2020, Algorithm 2 with φ = identity), as MindSpore 2.10's ``nn.Lamb`` computes it.

With t the step (``global_step`` after its increment), per parameter w::

    m ← β₁ m + (1 − β₁) g;   v ← β₂ v + (1 − β₂) g²        (``lamb_m.<name>``, ``lamb_v.<name>``)
    r = (m / (1 − β₁ᵗ)) / (√(v / (1 − β₂ᵗ)) + ε) + λ w     (λ = weight_decay where the name has
                                                          neither ``beta`` nor ``gamma``, else 0)
    w ← w − lr · (‖w‖ / ‖r‖) · r                          (the trust ratio is 1 when a norm is 0)

No loss-scale division (``nn.Lamb`` has no ``loss_scale`` argument).
"""
from ... import dtype as mstype
from ...ops import functional as F
from ..._tensor import Tensor
from .adam import _check_param_value
from .optimizer import Optimizer

__all__ = ["Lamb"]


class Lamb(Optimizer):
    """Lamb(params, learning_rate, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0)"""

    def __init__(self, params, learning_rate, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        _check_param_value(beta1, beta2, eps, self.cls_name)
        self.beta1 = Tensor(beta1, mstype.float32)
        self.beta2 = Tensor(beta2, mstype.float32)
        self.eps = Tensor(eps, mstype.float32)
        self.params = self._parameters
        self.moments1 = self.params.clone(prefix="lamb_m", init="zeros")
        self.moments2 = self.params.clone(prefix="lamb_v", init="zeros")

    def construct(self, gradients):
        lr = self.get_lr()
        self.advance_global_step()
        gradients = self.gradients_centralization(gradients)
        step = F.cast(self.global_step, mstype.float32)
        success = ()
        for i in range(self.param_length):
            decay = self.decay_of(i)
            if not self.decay_flags[i]:
                decay = 0.0
            success += (self.apply_lamb(self._parameters[i], self.moments1[i], self.moments2[i],
                                        gradients[i], self.lr_of(lr, i), decay, step),)
        return success

    def apply_lamb(self, param, m, v, grad, lr, decay, step):
        """One parameter's update (the ``Lamb`` kernel's arithmetic)."""
        new_m = m * self.beta1 + grad * (1.0 - self.beta1)
        new_v = v * self.beta2 + grad * grad * (1.0 - self.beta2)
        m_hat = new_m / (1.0 - F.pow(self.beta1, step))
        v_hat = new_v / (1.0 - F.pow(self.beta2, step))
        update = m_hat / (F.sqrt(v_hat) + self.eps)
        if decay > 0.0:
            update = update + param * decay
        w_norm = F.sqrt(F.reduce_sum(param * param))
        g_norm = F.sqrt(F.reduce_sum(update * update))
        usable = F.logical_and(w_norm > 0.0, g_norm > 0.0)
        trust = F.select(usable, w_norm / F.select(usable, g_norm, F.ones_like(g_norm)),
                         F.ones_like(w_norm))
        self.update_parameter(m, new_m)
        self.update_parameter(v, new_v)
        self.update_parameter(param, param - lr * trust * update)
        return True
