"""``AdaFactor`` (Shazeer & Stern, "Adafactor: Adaptive Learning Rates with Sublinear Memory
Cost", ICML 2018), as MindSpore 2.10's ``nn.AdaFactor`` computes it.

With t the step (state ``afactor_step``, counted from 1), g the gradient,
ε₁, ε₂ = ``eps``, d = ``clip_threshold``, RMS(u) = √mean(u²)::

    β₂ₜ = 1 − t^(−decay_rate)
    ρₜ = min(10⁻², 1/√t)  (relative_step; min(10⁻⁶·t, 1/√t) with warmup_init), else lr
    αₜ = ρₜ · max(ε₂, RMS(p))                                   (scale_parameter; else ρₜ)
    p of rank ≥ 2 (factored second moment over the last two axes):
        R ← β₂ₜ R + (1 − β₂ₜ) mean_last(g² + ε₁)        (``exp_avg_sq_row_<name>``, p.shape[:-1])
        C ← β₂ₜ C + (1 − β₂ₜ) mean_second_last(g² + ε₁) (``exp_avg_sq_col_<name>``)
        u = g / (√(R / mean_last(R)) ⊗ √C)
    p of rank 1:
        V ← β₂ₜ V + (1 − β₂ₜ)(g² + ε₁);   u = g / √V      (``exp_avg_sq_<name>``)
    u ← αₜ · u / max(RMS(u) / d, 1)                             (update clipping)
    m ← β₁ m + (1 − β₁) u;  u = m                   (β₁ > 0; ``exp_avg.<name>``)
    p ← p − αₜ · weight_decay · p − u

As in MindSpore, the loss scale is not divided out of the gradients (its
``construct`` does not call ``scale_grad``), and a learning rate that is not a
number (a schedule, a list) turns ``scale_parameter`` off.  MindSpore's CPU
kernel (``FusedAdaFactor``) additionally clamps the running averages at 10⁻³⁰;
only gradients of that size tell the two apart.
"""
from ... import dtype as mstype
from ...initializer import initializer
from ...ops import functional as F
from ...parameter import Parameter, ParameterTuple
from ..._tensor import Tensor
from .optimizer import Optimizer

__all__ = ["AdaFactor"]


def _rms(x):
    return F.sqrt(F.reduce_mean(F.square(x)))


def _approx_sq_grad(row, col):
    """1 / (√(R / mean_last(R)) ⊗ √C): the factored estimate of 1/√E[g²]."""
    r_factor = 1.0 / F.sqrt(row / F.reduce_mean(row, -1, True))
    c_factor = 1.0 / F.sqrt(F.expand_dims(col, -2))
    return F.expand_dims(r_factor, -1) * c_factor


def _check_float(value, name, cls_name):
    if not isinstance(value, float):
        raise TypeError(f"For '{cls_name}', the type of '{name}' should be 'float', but got "
                        f"'{type(value).__name__}'.")


class AdaFactor(Optimizer):
    """AdaFactor(params, learning_rate=None, eps=(1e-30, 1e-3), clip_threshold=1.0,
    decay_rate=0.8, beta1=0.9, weight_decay=0.0, scale_parameter=True, relative_step=True,
    warmup_init=False, compression=False, loss_scale=1.0)"""

    def __init__(self, params, learning_rate=None, eps=(1e-30, 1e-3), clip_threshold=1.0,
                 decay_rate=0.8, beta1=0.9, weight_decay=0.0, scale_parameter=True,
                 relative_step=True, warmup_init=False, compression=False, loss_scale=1.0):
        if learning_rate is not None and relative_step:
            raise ValueError("Cannot combine manual lr and relative_step options", learning_rate)
        if warmup_init and not relative_step:
            raise ValueError("warmup_init requires relative_step=True")
        if learning_rate is None and not relative_step:
            raise ValueError("Cannot learning_rate is None and relative_step=False")
        if learning_rate is None:
            learning_rate = 0.0
        if beta1 is None:
            beta1 = 0.0
        self_scale_lr = isinstance(learning_rate, (float, int))
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        name = self.cls_name
        if not isinstance(eps, (list, tuple)):
            raise TypeError(f"For '{name}', the type of 'eps' should be one of ['list', "
                            f"'tuple'], but got '{type(eps).__name__}'.")
        if len(eps) != 2:
            raise ValueError("eps must have 2 value: (eps1, eps2).")
        for i, value in enumerate(eps):
            _check_float(value, f"eps{i}", name)
            if value < 0:
                raise ValueError(f"For '{name}', the 'eps{i}' must be non-negative, but got "
                                 f"{value}.")
        _check_float(clip_threshold, "clip_threshold", name)
        if clip_threshold < 0:
            raise ValueError(f"For '{name}', the 'clip_threshold' must be non-negative, but got "
                             f"{clip_threshold}.")
        _check_float(decay_rate, "decay_rate", name)
        if not 0 < decay_rate < 1:
            raise ValueError(f"For '{name}', the 'decay_rate' must be in range (0, 1), but got "
                             f"{decay_rate}.")
        if not 0 <= weight_decay < 1:
            raise ValueError(f"For '{name}', the 'weight_decay' must be in range [0, 1), but got "
                             f"{weight_decay}.")
        for arg, value in (("scale_parameter", scale_parameter), ("relative_step", relative_step),
                           ("compression", compression)):
            if not isinstance(value, bool):
                raise TypeError(f"For '{name}', the type of '{arg}' should be 'bool', but got "
                                f"'{type(value).__name__}'.")
        if isinstance(beta1, bool) or not isinstance(beta1, (int, float)):
            raise TypeError(f"For '{name}', the type of 'beta1' should be one of ['int', "
                            f"'float'], but got '{type(beta1).__name__}'.")
        if beta1 < 0:
            raise ValueError(f"For '{name}', the 'beta1' must be non-negative, but got {beta1}.")
        self.scale_lr = self_scale_lr
        self.eps = tuple(Tensor(v, mstype.float32) for v in eps)
        self.clip_threshold = Tensor(clip_threshold, mstype.float32)
        self.decay_rate = Tensor(-decay_rate, mstype.float32)
        self.beta1 = Tensor(beta1, mstype.float32)
        self.adafactor_weight_decay = Tensor(weight_decay, mstype.float32)
        self.weight_decay_flag = bool(weight_decay)
        self.scale_parameter = scale_parameter and self.scale_lr
        self.relative_step = relative_step
        self.warmup_init = warmup_init
        self.compression = compression
        self._init_state(beta1)
        self.step = Parameter(initializer(0, [1], mstype.float32), name="afactor_step")

    def _init_state(self, beta1):
        """The running averages, named as MindSpore names them."""
        self.use_first_moment = beta1 > 0
        if self.use_first_moment:
            self.exp_avg = self._parameters.clone(prefix="exp_avg", init="zeros")
        else:                           # one shared placeholder, as in MindSpore
            self.exp_avg = ParameterTuple([Parameter(Tensor(0.0))] * len(self._parameters))
        rows, cols, squares = [], [], []
        for param in self._parameters:
            shape, dtype = tuple(param.shape), param.dtype
            if len(shape) > 1:
                row_shape, col_shape, sq_shape = shape[:-1], shape[:-2] + shape[-1:], (1,)
            else:
                row_shape, col_shape, sq_shape = (1,), (1,), shape
            sq_dtype = mstype.float16 if (self.compression and len(shape) <= 1) else dtype
            rows.append(Parameter(initializer(0, row_shape, dtype),
                                  name=f"exp_avg_sq_row_{param.name}"))
            cols.append(Parameter(initializer(0, col_shape, dtype),
                                  name=f"exp_avg_sq_col_{param.name}"))
            squares.append(Parameter(initializer(0, sq_shape, sq_dtype),
                                     name=f"exp_avg_sq_{param.name}"))
        self.exp_avg_sq_row = ParameterTuple(rows)
        self.exp_avg_sq_col = ParameterTuple(cols)
        self.exp_avg_sq = ParameterTuple(squares)

    def construct(self, gradients):
        lr = self.get_lr()
        self.advance_global_step()
        step = self.step + 1.0
        F.assign(self.step, step)
        if self.scale_lr and self.relative_step:
            min_step = step * 1e-6 if self.warmup_init else 1e-2
            lr = F.minimum(min_step, 1.0 / F.sqrt(step))
        beta2t = 1.0 - F.pow(step, self.decay_rate)
        success = ()
        for i in range(self.param_length):
            success += (self.apply_adafactor(gradients[i], self._parameters[i], self.exp_avg[i],
                                             self.exp_avg_sq_row[i], self.exp_avg_sq_col[i],
                                             self.exp_avg_sq[i], self.lr_of(lr, i), beta2t),)
        return success

    def apply_adafactor(self, grad, param, exp_avg, row, col, square, lr, beta2t):
        """One parameter's update (MindSpore's ``_run_opt_with_one_number``)."""
        grad_dtype = grad.dtype
        if grad_dtype == mstype.float16:
            grad = F.cast(grad, mstype.float32)
        p = F.cast(param, mstype.float32) if param.dtype == mstype.float16 else param
        if self.scale_parameter:
            lr = lr * F.maximum(self.eps[1], _rms(p))
        update = grad * grad + self.eps[0]
        if len(grad.shape) >= 2:
            new_row = F.cast(row, grad.dtype) * beta2t + F.reduce_mean(update, -1) * (1.0 - beta2t)
            new_col = F.cast(col, grad.dtype) * beta2t + F.reduce_mean(update, -2) * (1.0 - beta2t)
            self.update_parameter(row, new_row)
            self.update_parameter(col, new_col)
            update = _approx_sq_grad(new_row, new_col) * grad
        else:
            new_square = F.cast(square, grad.dtype) * beta2t + update * (1.0 - beta2t)
            self.update_parameter(square, new_square)
            update = grad / F.sqrt(new_square)
        update = update / F.maximum(_rms(update) / self.clip_threshold, 1.0) * lr
        if self.use_first_moment:
            update = exp_avg * self.beta1 + update * (1.0 - self.beta1)
            self.update_parameter(exp_avg, update)
        if self.weight_decay_flag:
            p = p - p * self.adafactor_weight_decay * lr
        self.update_parameter(param, p - update)
        return True
