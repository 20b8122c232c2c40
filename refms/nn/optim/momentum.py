"""``Momentum``: SGD with momentum (MindSpore ``nn.Momentum``; the ``ApplyMomentum`` kernel).

After the shared steps of :class:`~refms.nn.optim.optimizer.Optimizer` (weight
decay, loss-scale division), for every parameter p with gradient g and
accumulation v (``moments.<name>``, initially 0)::

    v ← momentum · v + g
    p ← p − lr · v                                 (use_nesterov=False)
    p ← p − (lr · g + lr · momentum · v)           (use_nesterov=True, the documented formula)

semantics 8.4: MindSpore 2.10's CPU kernel ignores ``use_nesterov`` (it
gives plain momentum); refms implements the documented Nesterov update.
Worked example [ran 2.10]: w = [1, 2], g = [0.5, −1], lr 0.1, momentum 0.9
gives w = [0.95, 2.1], [0.855, 2.29], [0.7195, 2.561] over three steps.
"""
from ... import dtype as mstype
from ...parameter import Parameter
from ..._tensor import Tensor
from ...ops.prims.optimizer_updates import ApplyMomentum
from .optimizer import Optimizer

__all__ = ["Momentum"]


class Momentum(Optimizer):
    """Momentum(params, learning_rate, momentum, weight_decay=0.0, loss_scale=1.0, use_nesterov=False)"""

    def __init__(self, params, learning_rate, momentum, weight_decay=0.0, loss_scale=1.0,
                 use_nesterov=False):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if isinstance(momentum, bool) or not isinstance(momentum, float):
            raise TypeError(f"For 'Momentum', the 'momentum' must be float, but got "
                            f"{type(momentum).__name__}.")
        if momentum < 0.0:
            raise ValueError(f"For 'Momentum', the argument 'momentum' must be at least 0.0, but "
                             f"got {momentum}")
        if not isinstance(use_nesterov, bool):
            raise TypeError(f"For 'Momentum', the 'use_nesterov' must be bool, but got "
                            f"{type(use_nesterov).__name__}.")
        self.momentum = Parameter(Tensor(momentum, mstype.float32), name="momentum")
        self.params = self._parameters
        self.use_nesterov = use_nesterov
        self.moments = self.params.clone(prefix="moments", init="zeros")
        self._apply_momentum = ApplyMomentum(use_nesterov=use_nesterov)

    def construct(self, gradients):
        params = self.params
        moments = self.moments
        gradients = self.decay_weight(gradients)
        gradients = self.gradients_centralization(gradients)
        gradients = self.scale_grad(gradients)
        lr = self.get_lr()
        self.advance_global_step()
        success = ()
        for i in range(self.param_length):
            success += (self.apply_momentum(params[i], moments[i], gradients[i],
                                            self.lr_of(lr, i)),)
        return success

    def apply_momentum(self, param, moment, grad, lr):
        """One parameter's update: the ``ApplyMomentum`` primitive when every operand has the
        parameter's float dtype (one in-place op), else the same arithmetic op by op."""
        operands = (moment, grad, lr, self.momentum)
        if (param.dtype in (mstype.float32, mstype.float64)
                and all(isinstance(t, Tensor) and t.dtype is param.dtype for t in operands)
                and len(lr.shape) == 0):
            self._apply_momentum(param, moment, lr, grad, self.momentum)
            return True
        new_moment = moment * self.momentum + grad
        if self.use_nesterov:
            new_param = param - (grad * lr + new_moment * self.momentum * lr)
        else:
            new_param = param - new_moment * lr
        self.update_parameter(moment, new_moment)
        self.update_parameter(param, new_param)
        return True
