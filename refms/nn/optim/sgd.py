"""``SGD``: stochastic gradient descent with optional momentum, dampening and Nesterov
(MindSpore ``nn.SGD``; the ``SGD`` kernel, Sutskever et al. 2013 for Nesterov).

After the shared steps (weight decay, loss-scale division), with accumulation a
(``accum.<name>``, 0) and a first-step flag s (``stat.<name>``, 1)::

    if momentum > 0:
        a ← g                                    on the first step (s = 1)
        a ← momentum · a + (1 − dampening) · g   afterwards
        d ← g + momentum · a   (nesterov)   or   a
    else:
        d ← g
    p ← p − lr · d;   s ← 0
"""
from ... import dtype as mstype
from ...ops import functional as F
from ...parameter import Parameter
from ..._tensor import Tensor
from .optimizer import Optimizer

__all__ = ["SGD"]


def _float_arg(value, name):
    if isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, float):
        raise TypeError(f"For 'SGD', the argument '{name}' must be float type, but got "
                        f"{type(value)}.")
    if value < 0.0:
        raise ValueError(f"For 'SGD', the argument '{name}' must be at least 0.0, but got {value}.")
    return value


class SGD(Optimizer):
    """SGD(params, learning_rate=0.1, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False,
    loss_scale=1.0)"""

    def __init__(self, params, learning_rate=0.1, momentum=0.0, dampening=0.0, weight_decay=0.0,
                 nesterov=False, loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        momentum = _float_arg(momentum, "momentum")
        self.dampening = _float_arg(dampening, "dampening")
        if not isinstance(nesterov, bool):
            raise TypeError(f"For 'SGD', the 'nesterov' must be bool, but got "
                            f"{type(nesterov).__name__}.")
        if nesterov and (momentum <= 0.0 or dampening != 0.0):
            raise ValueError(f"For 'SGD', if 'nesterov' is true, 'momentum' must be > 0.0 and "
                             f"'dampening' must equal to 0.0, but got 'momentum' {momentum}, "
                             f"'dampening' {dampening}.")
        self.nesterov = nesterov
        self.use_momentum = momentum > 0.0
        self.momentum = Parameter(Tensor(momentum, mstype.float32), name="momentum")
        self.accum = self._parameters.clone(prefix="accum", init="zeros")
        self.stat = self._parameters.clone(prefix="stat", init="ones")

    def construct(self, gradients):
        params = self._parameters
        gradients = self.decay_weight(gradients)
        gradients = self.gradients_centralization(gradients)
        gradients = self.scale_grad(gradients)
        lr = self.get_lr()
        self.advance_global_step()
        success = ()
        for i in range(self.param_length):
            success += (self.apply_sgd(params[i], self.accum[i], self.stat[i], gradients[i],
                                       self.lr_of(lr, i)),)
        return success

    def apply_sgd(self, param, accum, stat, grad, lr):
        """One parameter's update (the ``SGD`` primitive's arithmetic)."""
        direction = grad
        if self.use_momentum:
            later = accum * self.momentum + grad * (1.0 - self.dampening)
            new_accum = F.select(stat > 0, grad, later)
            self.update_parameter(accum, new_accum)
            if self.nesterov:
                direction = grad + new_accum * self.momentum
            else:
                direction = new_accum
        self.update_parameter(param, param - direction * lr)
        self.update_parameter(stat, F.zeros_like(stat))
        return True
