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
        (μ and σ² depend on x), dx = γ·dy/√(σ²+ε) in inference (Ioffe & Szegedy 2015, §3):
        one :class:`BatchNormGrad`, given the statistics the forward normalised with
        (outputs 3 and 4 in training, the moving ones in inference)."""
        if self.is_training:
            mean, variance = out[3], out[4]
        dx, dscale, dbias = BatchNormGrad(self.is_training, self.epsilon)(dout[0], x, scale, mean,
                                                                          variance)
        return dx, dscale, dbias, F.zeros_like(mean), F.zeros_like(variance)


@register
class BatchNormGrad(Primitive):
    """(dx, dγ, dβ) of BatchNorm in one kernel, from (dy, x, scale, mean, variance).

    With s = 1/√(σ² + ε), x̂ = (x − μ)·s and M the count per channel:
    dβ = Σ dy, dγ = Σ dy·x̂, and dx = γs·(dy − dβ/M − x̂·dγ/M) in training (μ, σ²: the batch
    statistics of x, so dx has their derivative too) or dx = γs·dy in inference (μ, σ²: the
    moving statistics, constants).  ``mean`` / ``variance`` are what the forward normalised
    with (MindSpore's reserve spaces); they receive zero gradients.
    """
    n_tensor_inputs = 5
    n_outputs = 3

    def __init__(self, is_training=False, epsilon=1e-5):
        self.is_training = bool(is_training)
        self.epsilon = float(epsilon)

    def infer(self, dy, x, scale, mean, variance):
        if tuple(dy.shape) != tuple(x.shape) or dy.dtype is not x.dtype:
            raise op_error("BatchNormGrad", f"the 'dy' must have the shape and dtype of 'x' "
                                            f"{shape_str(x.shape)} {x.dtype}, but got "
                                            f"{shape_str(dy.shape)} {dy.dtype}.", ValueError)
        per_channel = Abstract((x.shape[1],), scale.dtype)
        return Abstract(x.shape, x.dtype), per_channel, per_channel

    def forward(self, dy, x, scale, mean, variance):
        return kernels.call("batch_norm_grad")(dy, x, scale, mean, variance, self.epsilon,
                                               self.is_training)

    def bprop(self, dy, x, scale, mean, variance, out, dout):
        """The second derivative, for cotangents (a, b, c) of (dx, dγ, dβ), per channel
        (means over the M values; core = dy − mean(dy) − x̂·mean(dy·x̂), so dx = γs·core):

        training:  d dy = γs·(a − mean(a) − x̂·mean(a·x̂)) + b·x̂ + c,   dγ = s·Σ a·core,
                   G = b·dy − γs·(a·mean(dy·x̂) + dy·mean(a·x̂)),
                   dx = s·(G − mean(G) − x̂·mean(G·x̂)) − γs²·mean(a·core)·x̂;
        inference: d dy = γs·a + b·x̂ + c,   dγ = s·Σ a·dy,   dx = b·s·dy.
        """
        ndim = len(x.shape)
        axes = (0,) + tuple(range(2, ndim))
        per_channel = (1, x.shape[1]) + (1,) * (ndim - 2)

        def channel(v):
            return F.cast(F.reshape(v, per_channel), x.dtype)

        def mean_of(v):
            return F.reduce_mean(v, axes, True)

        a, b, c = dout[0], channel(dout[1]), channel(dout[2])
        s = F.rsqrt(channel(variance) + self.epsilon)
        x_hat = (x - channel(mean)) * s
        gamma = channel(scale)
        if self.is_training:
            mean_dy_xhat, mean_a_xhat = mean_of(dy * x_hat), mean_of(a * x_hat)
            core = dy - mean_of(dy) - x_hat * mean_dy_xhat
            d_dy = gamma * s * (a - mean_of(a) - x_hat * mean_a_xhat) + b * x_hat + c
            a_core = a * core
            dscale = s * F.reduce_sum(a_core, axes, True)
            g = b * dy - gamma * s * (a * mean_dy_xhat + dy * mean_a_xhat)
            dx = s * (g - mean_of(g) - x_hat * mean_of(g * x_hat)) \
                - gamma * s * s * mean_of(a_core) * x_hat
        else:
            d_dy = gamma * s * a + b * x_hat + c
            dscale = s * F.reduce_sum(a * dy, axes, True)
            dx = b * s * dy
        dscale = F.reshape(dscale, (x.shape[1],))
        return (grad_like(d_dy, dy), grad_like(dx, x), grad_like(dscale, scale),
                F.zeros_like(mean), F.zeros_like(variance))


def batch_norm(input_x, running_mean, running_var, weight, bias, training=False, momentum=0.1,
               eps=1e-5):
    """ops.batch_norm: ``BatchNorm(training, eps, momentum)(input_x, weight, bias, running_mean,
    running_var)[0]`` (the running statistics are updated in place when training)."""
    return BatchNorm(training, eps, momentum)(input_x, weight, bias, running_mean, running_var)[0]


functional("batch_norm", batch_norm)
