"""BatchNorm: ``ops.BatchNorm(is_training=False, epsilon=1e-5, momentum=0.1, data_format="NCHW")``.

``BatchNorm(...)(x, scale, bias, mean, variance)`` returns five tensors
``(y, batch_mean, batch_variance, reserve_space_1, reserve_space_2)`` and
normalises per channel (axis 1) of an (N, C), (N, C, H) or (N, C, H, W) x:

    y = (x − μ) / √(σ² + ε) · scale + bias

* training: μ, σ² are the batch mean and the **biased** (1/n) batch variance;
  the ``mean`` and ``variance`` inputs (the moving statistics, usually
  Parameters) are **updated in place** with the **unbiased** (1/(n − 1))
  variance:  new = (1 − momentum)·old + momentum·batch  [ran 2.10].
  This primitive's momentum is the weight of the *new* value — the opposite
  of ``nn.BatchNorm2d``'s, which passes ``1 − momentum`` (semantics 8.3).
* inference: μ, σ² are the ``mean`` / ``variance`` inputs; nothing is written.

Outputs 1–4: in inference they are zeros, as MindSpore 2.10's CPU kernel
returns [ran 2.10]; in training (refms's choice, from the documented meanings)
(μ, unbiased σ², μ, biased σ²).  Gradients flow from ``y``
only (as MindSpore's bprop); ``mean`` / ``variance`` get zeros.
"""
import numpy as np

from ... import kernels
from ..primitive import F, Primitive, Abstract, register, functional, op_error
from ._base import FLOATS, grad_like, shape_str


def _check_number(op, name, value, low, high, low_open):
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating)):
        raise op_error(op, f"the '{name}' must be a float, but got {type(value).__name__}.")
    below = value <= low if low_open else value < low
    if below or value > high:
        bracket = "(" if low_open else "["
        raise op_error(op, f"the '{name}' must be in range {bracket}{low}, {high}], but got {value}.",
                       ValueError)
    return float(value)


@register
class BatchNorm(Primitive):
    """y = (x − μ) / √(σ² + ε) · γ + β per channel; training also updates the moving statistics in place.

    Numerical safety: σ² is the mean of squared deviations (two passes), not E[x²] − E[x]².
    """
    n_tensor_inputs = 5
    n_outputs = 5
    #: Writes its ``mean`` / ``variance`` inputs (MindSpore's ``side_effect_mem``); graph passes must keep it.
    side_effect_mem = True

    def __init__(self, is_training=False, epsilon=1e-5, momentum=0.1, data_format="NCHW"):
        if not isinstance(is_training, bool):
            raise op_error("BatchNorm", f"the 'is_training' must be a bool, but got "
                                        f"{type(is_training).__name__}.")
        if data_format != "NCHW":
            raise op_error("BatchNorm", f"the 'data_format' must be 'NCHW' (refms runs on CPU; "
                                        f"'NHWC' is only supported in GPU target), but got "
                                        f"{data_format!r}.", ValueError)
        self.is_training = is_training
        self.epsilon = _check_number("BatchNorm", "epsilon", epsilon, 0, 1, True)
        self.momentum = _check_number("BatchNorm", "momentum", momentum, 0, 1, False)
        self.data_format = data_format

    def infer(self, x, scale, bias, mean, variance):
        if not 2 <= len(x.shape) <= 4:
            raise op_error("BatchNorm", f"the rank of images must be in [2,4], but got "
                                        f"{len(x.shape)} (input_x shape {shape_str(x.shape)}).",
                           ValueError)
        named = (("input_x", x), ("scale", scale), ("bias", bias), ("mean", mean),
                 ("variance", variance))
        for name, value in named:
            if value.dtype not in FLOATS:
                raise op_error("BatchNorm", f"the input argument[{name}] must be a type of "
                                            f"{{Tensor[Float16], Tensor[Float32], Tensor[Float64]}}, "
                                            f"but got Tensor[{value.dtype}].")
        for (a, va), (b, vb) in (named[1:3], named[3:5]):
            if va.dtype is not vb.dtype:
                raise op_error("BatchNorm", f"the '{b}' should have the same dtype as '{a}', but got "
                                            f"{vb.dtype} and {va.dtype}.")
        channels = x.shape[1]
        for name, value in named[1:]:
            if tuple(value.shape) != (channels,):
                raise op_error("BatchNorm", f"the shape of '{name}' must be (C,) = ({channels},) for "
                                            f"input_x shape {shape_str(x.shape)}, but got "
                                            f"{shape_str(value.shape)}.", ValueError)
        stat = Abstract((channels,), scale.dtype)
        return (Abstract(x.shape, x.dtype),) + (stat,) * 4

    def forward(self, x, scale, bias, mean, variance):
        normalize = kernels.call("batch_norm")
        if not self.is_training:
            y = normalize(x, scale, bias, mean, variance, self.epsilon)
            zeros = kernels.call("full_like")
            return y, zeros(mean, 0), zeros(variance, 0), zeros(mean, 0), zeros(variance, 0)
        batch_mean, batch_var = kernels.call("batch_norm_statistics")(x)
        y = normalize(x, scale, bias, batch_mean, batch_var, self.epsilon)
        unbiased = kernels.call("batch_norm_unbiased")(batch_var, x.size // x.shape[1])
        self._update_moving(mean, batch_mean, "mean")
        self._update_moving(variance, unbiased, "variance")
        return y, batch_mean, unbiased, batch_mean, batch_var

    def _update_moving(self, moving, batch, name):
        """moving ← (1 − momentum)·moving + momentum·batch, written into the input's own array."""
        if not kernels.call("writable")(moving):
            raise op_error("BatchNorm", f"the '{name}' input must be writable in training mode (it is "
                                        f"updated in place).", RuntimeError)
        kernels.call("moving_average")(moving, batch, self.momentum)

    def bprop(self, x, scale, bias, mean, variance, out, dout):
        """dγ = Σ dy·x̂, dβ = Σ dy; dx = γ/√(σ²+ε) · (dy − mean(dy) − x̂·mean(dy·x̂)) in training
        (μ and σ² depend on x), dx = γ·dy/√(σ²+ε) in inference (Ioffe & Szegedy 2015, §3)."""
        dy = dout[0]
        ndim = len(x.shape)
        axes = (0,) + tuple(range(2, ndim))
        per_channel = (1, x.shape[1]) + (1,) * (ndim - 2)
        if self.is_training:
            mu = F.reduce_mean(x, axes, True)
            centered = x - mu
            var = F.reduce_mean(centered * centered, axes, True)
        else:
            centered = x - F.cast(F.reshape(mean, per_channel), x.dtype)
            var = F.cast(F.reshape(variance, per_channel), x.dtype)
        inv_std = F.rsqrt(var + self.epsilon)
        x_hat = centered * inv_std
        gamma = F.cast(F.reshape(scale, per_channel), x.dtype)
        # Σ dy and Σ dy·x̂ serve both dβ, dγ and the two means of dx (each sum is one
        # reduction over the non-channel axes, the costly part of this backward).
        sum_dy = F.reduce_sum(dy, axes, True)
        sum_dy_xhat = F.reduce_sum(dy * x_hat, axes, True)
        if self.is_training:
            count = 1
            for axis in axes:
                count *= x.shape[axis]
            if count > 0:
                mean_dy, mean_dy_xhat = sum_dy / count, sum_dy_xhat / count
            else:       # a dimension known only at run time (graph mode): means as reductions
                mean_dy = F.reduce_mean(dy, axes, True)
                mean_dy_xhat = F.reduce_mean(dy * x_hat, axes, True)
            dx = gamma * inv_std * (dy - mean_dy - x_hat * mean_dy_xhat)
        else:
            dx = dy * gamma * inv_std
        dscale = F.reshape(sum_dy_xhat, (x.shape[1],))
        dbias = F.reshape(sum_dy, (x.shape[1],))
        return (grad_like(dx, x), grad_like(dscale, scale), grad_like(dbias, bias),
                F.zeros_like(mean), F.zeros_like(variance))


def batch_norm(input_x, running_mean, running_var, weight, bias, training=False, momentum=0.1,
               eps=1e-5):
    """ops.batch_norm: ``BatchNorm(training, eps, momentum)(input_x, weight, bias, running_mean,
    running_var)[0]`` (the running statistics are updated in place when training)."""
    return BatchNorm(training, eps, momentum)(input_x, weight, bias, running_mean, running_var)[0]


functional("batch_norm", batch_norm)
