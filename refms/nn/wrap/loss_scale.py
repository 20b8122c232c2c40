"""Loss scaling for float16 training (MindSpore ``nn/wrap/loss_scale.py``; Micikevicius et al. 2018).

Gradients of a float16 network underflow to zero; multiplying the loss by a
scale S before differentiating (and dividing the gradients by S after) keeps
them representable.  ``TrainOneStepWithLossScaleCell`` does one step::

    loss  = network(*inputs)
    grads = ∂(S · loss)/∂weights / S
    overflow = any gradient is inf or nan
    update S (the update cell), and skip the optimizer when overflow
    return (loss, overflow, S)

``DynamicLossScaleUpdateCell(S₀, factor, window)``: on overflow S ← max(S / factor, 1);
after ``window`` steps without overflow S ← S · factor.  ``FixedLossScaleUpdateCell``
keeps S.
"""
from ... import dtype as mstype
from ...ops import functional as F
from ...parameter import Parameter
from ..._tensor import Tensor
from ...graph.infer import parsed_in_graph
from ...ops.multitype import HyperMap
from ..cell import Cell
from .cell_wrapper import TrainOneStepCell

__all__ = ["DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell",
           "TrainOneStepWithLossScaleCell"]


class DynamicLossScaleUpdateCell(Cell):
    """DynamicLossScaleUpdateCell(loss_scale_value, scale_factor, scale_window)"""

    def __init__(self, loss_scale_value, scale_factor, scale_window):
        super().__init__()
        self.scale_window = Tensor(scale_window, mstype.int32)
        self.scale_factor = Tensor(scale_factor, mstype.float32)
        self.loss_scale_value = loss_scale_value
        self.cur_iter = Parameter(Tensor(1, mstype.int32), name="current_iterator_step")
        self.last_overflow_iter = Parameter(Tensor(0, mstype.int32),
                                            name="last_overflow_iterator_step")
        self.minimum_loss_scale = Tensor(1.0, mstype.float32)

    def get_loss_scale(self):
        return self.loss_scale_value

    def construct(self, loss_scale, overflow):
        on_overflow = F.select(overflow, F.maximum(loss_scale / self.scale_factor,
                                                   self.minimum_loss_scale), loss_scale)
        should_inc = F.less_equal(self.scale_window, self.cur_iter - self.last_overflow_iter)
        last_iter_cond = F.logical_or(overflow, should_inc)
        F.assign(self.last_overflow_iter,
                 F.select(last_iter_cond, self.cur_iter, self.last_overflow_iter))
        grow = F.logical_and(should_inc, F.logical_not(overflow))
        F.assign(loss_scale, F.select(grow, on_overflow * self.scale_factor, on_overflow))
        F.assign(self.cur_iter, self.cur_iter + 1)
        return overflow


class FixedLossScaleUpdateCell(Cell):
    """FixedLossScaleUpdateCell(loss_scale_value): the scale never changes."""

    def __init__(self, loss_scale_value):
        super().__init__()
        self.loss_scale_value = loss_scale_value

    def get_loss_scale(self):
        return self.loss_scale_value

    def construct(self, loss_scale, overflow):
        return overflow


def _unscale(grads, scaling_sens):
    """Each gradient divided by the loss scale (in its own dtype)."""
    unscaled = ()
    for grad in grads:
        unscaled += (grad * F.cast(1.0 / scaling_sens, F.dtype(grad)),)
    return unscaled


class TrainOneStepWithLossScaleCell(TrainOneStepCell):
    """TrainOneStepWithLossScaleCell(network, optimizer, scale_sense): returns (loss, overflow, scale)."""

    def __init__(self, network, optimizer, scale_sense):
        super().__init__(network, optimizer, sens=None)
        self.loss_scaling_manager = None
        if isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            self.scale_sense = Parameter(Tensor(scale_sense.get_loss_scale(), mstype.float32),
                                         name="scale_sense")
        elif isinstance(scale_sense, Tensor):
            if tuple(scale_sense.shape) not in ((1,), ()):
                raise ValueError(f"For 'TrainOneStepWithLossScaleCell', the shape of 'scale_sense' "
                                 f"must be (1,) or (), but got {tuple(scale_sense.shape)}.")
            self.scale_sense = Parameter(scale_sense, name="scale_sense")
        else:
            raise TypeError(f"For 'TrainOneStepWithLossScaleCell', the 'scale_sense' must be Cell "
                            f"or Tensor, but got 'scale_sense' type: {type(scale_sense)}.")
        # Names subclasses written for MindSpore use: the gradient map, the device flags (no
        # Ascend here: overflow is read from the gradients, as on GPU).
        self.hyper_map = HyperMap()
        self.is_distributed = False
        self.gpu_target = False
        self.ascend_910a_target = False
        self.ascend_910b_target = False
        self.enable_tuple_broaden = True

    @parsed_in_graph          # `if not overflow:` is a run-time condition in graph mode
    def construct(self, *inputs):
        loss = self.network(*inputs)
        scaling_sens = self.scale_sense
        status, scaling_sens = self.start_overflow_check(loss, scaling_sens)
        filled = F.ones_like(loss) * F.cast(scaling_sens, F.dtype(loss))
        grads = self.grad(self.network, self.weights)(*inputs, filled)
        grads = self.grad_reducer(_unscale(grads, scaling_sens))
        cond = self.get_overflow_status(status, grads)
        overflow = self.process_loss_scale(cond)
        if not overflow:
            self.optimizer(grads)
        return loss, cond, scaling_sens

    def start_overflow_check(self, pre_cond, compute_input):
        """Begin watching for overflow before ``compute_input`` is used: returns
        ``(status, compute_input)``.  ``status`` is the float-status buffer an Ascend chip
        clears here; refms checks the gradients themselves (as MindSpore does on GPU), so
        it is a zero buffer that only orders the check after ``pre_cond``."""
        status = F.depend(Tensor([0] * 8, mstype.int32), pre_cond)
        return status, compute_input

    def get_overflow_status(self, status, compute_output):
        """A Bool 0-d tensor: True when any Tensor in ``compute_output`` (the gradients)
        holds an inf or a nan.  ``status``: from :meth:`start_overflow_check`."""
        finite = Tensor(True, mstype.bool_)
        for grad in compute_output:
            finite = F.logical_and(finite, F.reduce_all(F.isfinite(grad), (), False))
        return F.depend(F.logical_not(finite), status)

    def process_loss_scale(self, overflow):
        if self.loss_scaling_manager is None:
            return overflow
        return self.loss_scaling_manager(self.scale_sense, overflow)

    def set_sense_scale(self, sens):
        if not isinstance(sens, Tensor):
            raise TypeError(f"For 'TrainOneStepWithLossScaleCell', the type of 'sens' must be "
                            f"Tensor, but got {type(sens)}")
        self.scale_sense.set_data(sens)
