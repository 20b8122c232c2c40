"""``RMSProp`` (Tieleman & Hinton, Coursera "Neural Networks for Machine Learning", lecture 6.5;
the centered form: Graves 2013, "Generating Sequences With Recurrent Neural Networks", eq. 38-45),
as MindSpore 2.10's ``ApplyRMSProp`` / ``ApplyCenteredRMSProp`` compute it.

After the shared steps of :class:`~refms.nn.optim.optimizer.Optimizer` (weight decay, loss
scale), with ρ = ``decay``, β = ``momentum``, ε = ``epsilon``::

    s ← ρ s + (1 − ρ) g²                         (``mean_square.<name>``, starts at **1**)
    ḡ ← ρ ḡ + (1 − ρ) g                          (centered only; ``mean_grad.<name>``, starts at 0)
    m ← β m + lr · g / √(s + ε)                  (``moment.<name>``; centered: √(s − ḡ² + ε))
    p ← p − m
"""
from ...ops import functional as F
from .optimizer import Optimizer

__all__ = ["RMSProp"]


def _check_float(value, name, cls_name, positive=False):
    if not isinstance(value, float):
        raise TypeError(f"For '{cls_name}', the type of '{name}' should be 'float', but got "
                        f"'{type(value).__name__}'.")
    if value < 0 or (positive and value == 0):
        kind = "positive float number" if positive else "non-negative float number"
        raise ValueError(f"For '{cls_name}', the '{name}' must be a {kind}, but got {value}.")


class RMSProp(Optimizer):
    """RMSProp(params, learning_rate=0.1, decay=0.9, momentum=0.0, epsilon=1e-10,
    use_locking=False, centered=False, loss_scale=1.0, weight_decay=0.0)"""

    def __init__(self, params, learning_rate=0.1, decay=0.9, momentum=0.0, epsilon=1e-10,
                 use_locking=False, centered=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        name = self.cls_name
        _check_float(decay, "decay", name)
        _check_float(momentum, "momentum", name)
        _check_float(epsilon, "epsilon", name, positive=True)
        for arg, value in (("use_locking", use_locking), ("centered", centered)):
            if not isinstance(value, bool):
                raise TypeError(f"For '{name}', the type of '{arg}' should be 'bool', but got "
                                f"'{type(value).__name__}'.")
        self.centered = centered
        if centered:
            self.mg = self._parameters.clone(prefix="mean_grad", init="zeros")
        self.momentum = momentum
        self.ms = self._parameters.clone(prefix="mean_square", init="ones")
        self.moment = self._parameters.clone(prefix="moment", init="zeros")
        self.epsilon = epsilon
        self.decay = decay
        self.use_locking = use_locking

    def construct(self, gradients):
        gradients = self.decay_weight(gradients)
        gradients = self.gradients_centralization(gradients)
        gradients = self.scale_grad(gradients)
        lr = self.get_lr()
        self.advance_global_step()
        success = ()
        for i in range(self.param_length):
            mean_grad = self.mg[i] if self.centered else None
            success += (self.apply_rmsprop(self._parameters[i], mean_grad, self.ms[i],
                                           self.moment[i], gradients[i], self.lr_of(lr, i)),)
        return success

    def apply_rmsprop(self, param, mean_grad, mean_square, moment, grad, lr):
        """One parameter's update (``ApplyRMSProp``, or ``ApplyCenteredRMSProp`` with
        ``mean_grad``)."""
        lr = F.cast(lr, grad.dtype)
        new_ms = mean_square * self.decay + grad * grad * (1.0 - self.decay)
        denominator = new_ms + self.epsilon
        if mean_grad is not None:
            new_mg = mean_grad * self.decay + grad * (1.0 - self.decay)
            denominator = denominator - new_mg * new_mg
            self.update_parameter(mean_grad, new_mg)
        new_moment = moment * self.momentum + lr * grad / F.sqrt(denominator)
        self.update_parameter(mean_square, new_ms)
        self.update_parameter(moment, new_moment)
        self.update_parameter(param, param - new_moment)
        return True
