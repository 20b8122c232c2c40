"""``Adagrad`` (Duchi, Hazan & Singer, "Adaptive Subgradient Methods for Online Learning and
Stochastic Optimization", JMLR 2011), as MindSpore 2.10's ``ApplyAdagrad`` computes it.

After the shared steps of :class:`~refms.nn.optim.optimizer.Optimizer` (weight decay, loss
scale)::

    a ← a + g²            (``accum.<name>``, starting at ``accum``)
    p ← p − lr · g / √a

``update_slots=False`` is accepted and kept, but, as in MindSpore 2.10 on CPU
(measured), the accumulator still grows: its ``ApplyAdagrad`` kernel ignores the flag.
"""
from ...ops import functional as F
from .optimizer import Optimizer

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """Adagrad(params, accum=0.1, learning_rate=0.001, update_slots=True, loss_scale=1.0,
    weight_decay=0.0)"""

    def __init__(self, params, accum=0.1, learning_rate=0.001, update_slots=True, loss_scale=1.0,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if not isinstance(accum, float):
            raise TypeError(f"For '{self.cls_name}', the type of 'accum' should be 'float', but "
                            f"got '{type(accum).__name__}'.")
        if accum < 0:
            raise ValueError(f"For '{self.cls_name}', the 'accum' must be a non-negative float "
                             f"number, but got {accum}.")
        if not isinstance(update_slots, bool):
            raise TypeError(f"For '{self.cls_name}', the type of 'update_slots' should be 'bool', "
                            f"but got '{type(update_slots).__name__}'.")
        self.update_slots = update_slots
        self.accum = self._parameters.clone(prefix="accum", init=accum)

    def construct(self, grads):
        grads = self.decay_weight(grads)
        grads = self.gradients_centralization(grads)
        grads = self.scale_grad(grads)
        lr = self.get_lr()
        self.advance_global_step()
        success = ()
        for i in range(self.param_length):
            success += (self.apply_adagrad(self._parameters[i], self.accum[i], grads[i],
                                           self.lr_of(lr, i)),)
        return success

    def apply_adagrad(self, param, accum, grad, lr):
        """One parameter's update (``ApplyAdagrad``)."""
        new_accum = accum + grad * grad
        self.update_parameter(accum, new_accum)
        self.update_parameter(param, param - lr * grad / F.sqrt(new_accum))
        return True
