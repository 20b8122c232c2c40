"""Optimizer updates as single in-place primitives: ApplyMomentum.

An optimizer step written with elementwise ops costs five or six ops per
parameter (``v * momentum + g``, ``p - v * lr``, two Assigns); the fused
primitive is one op that writes both buffers, as MindSpore's CPU kernel
does.  It is not differentiable (an update is a state change, like Assign).
"""
from ... import kernels
from ..primitive import Primitive, Abstract, register, op_error
from ._base import shape_str


@register
class ApplyMomentum(Primitive):
    """v ← momentum·v + g;  p ← p − lr·v  (``use_nesterov``: p ← p − (lr·g + lr·momentum·v)).

    Inputs ``(variable, accumulation, learning_rate, gradient, momentum)`` in MindSpore's
    order: variable, accumulation and gradient of one shape and float dtype, learning rate and
    momentum 0-d of that dtype.  Writes ``variable`` and ``accumulation`` in place and returns
    the updated variable (a new Tensor, as Assign does).
    """
    n_tensor_inputs = 5
    #: Writes its ``variable`` and ``accumulation`` inputs (MindSpore's ``side_effect_mem``).
    side_effect_mem = True

    def __init__(self, use_nesterov=False, use_locking=False, gradient_scale=1.0):
        self.use_nesterov = bool(use_nesterov)
        self.use_locking = bool(use_locking)
        self.gradient_scale = float(gradient_scale)

    def infer(self, variable, accumulation, learning_rate, gradient, momentum):
        named = [("variable", variable), ("accumulation", accumulation),
                 ("learning_rate", learning_rate), ("gradient", gradient),
                 ("momentum", momentum)]
        for name, value in named:
            if value.dtype.kind != "float" or value.dtype is not variable.dtype:
                raise op_error(self.name, f"the '{name}' must be a float Tensor of the variable's "
                                          f"dtype {variable.dtype}, but got {value.dtype}.")
        for name, value in (("accumulation", accumulation), ("gradient", gradient)):
            if tuple(value.shape) != tuple(variable.shape):
                raise op_error(self.name, f"the shape of '{name}' must be the variable's "
                                          f"{shape_str(variable.shape)}, but got "
                                          f"{shape_str(value.shape)}.", ValueError)
        for name, value in (("learning_rate", learning_rate), ("momentum", momentum)):
            if len(value.shape) != 0:
                raise op_error(self.name, f"the '{name}' must be 0-d, but got shape "
                                          f"{shape_str(value.shape)}.", ValueError)
        return Abstract(tuple(variable.shape), variable.dtype)

    def forward(self, variable, accumulation, learning_rate, gradient, momentum):
        if self.gradient_scale != 1.0:
            gradient = kernels.call("mul")(gradient, gradient.dtype.type(self.gradient_scale))
        kernels.call("apply_momentum")(variable, accumulation, gradient, learning_rate, momentum,
                                       self.use_nesterov)
        return kernels.call("copy")(variable)
