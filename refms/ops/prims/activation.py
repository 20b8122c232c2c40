"""Activations: ReLU (and its backward ReluGrad), Sigmoid, Tanh, GeLU, Softmax, LogSoftmax.

Elementwise activations keep the input's shape and dtype.  Sigmoid, Tanh,
GeLU, Softmax and LogSoftmax take floating inputs only; ReLU also takes
integers.  Each bprop is written with refms ops (higher-order gradients
work); where the derivative is a function of the output (σ' = σ(1 − σ),
tanh' = 1 − tanh²) the bprop uses ``out``.
"""
import math

import numpy as np

from ... import kernels
from ...kernels.elementwise import GELU_A, GELU_C
from .. import batching
from ..primitive import F, Primitive, Abstract, register, alias, functional, op_error
from ._base import FLOATS, shape_str

#: √(2/π) and the cubic coefficient of the tanh approximation of GeLU (Hendrycks & Gimpel 2016, §2).
_GELU_C, _GELU_A = GELU_C, GELU_A


def _check_float(op, x):
    if x.dtype not in FLOATS:
        raise op_error(op, f"the input argument[x] must be a type of {{BFloat16, Float16, Float32, "
                           f"Float64}}, but got {x.dtype}.")


class _Activation(Primitive):
    """Elementwise over a floating tensor: same shape and dtype."""
    elementwise = True
    infer_by_signature = True
    n_tensor_inputs = 1

    def infer(self, x):
        _check_float(self.name, x)
        return Abstract(x.shape, x.dtype)


@register
class ReLU(_Activation):
    """y = max(x, 0);  ∂y/∂x = 1 where x > 0, else 0 (0 at x = 0, semantics 4.8).

    Any real dtype, Bool included (then y = x) [ran 2.10].
    """

    def infer(self, x):
        if x.dtype.kind == "complex":
            raise op_error("ReLU", f"the dtype of 'input_x' should be a real number type, but got "
                                   f"{x.dtype}.")
        return Abstract(x.shape, x.dtype)

    def forward(self, x):
        return kernels.call("relu")(x)

    def bprop(self, x, out, dout):
        """dx = ReluGrad(dout, out): MindSpore's bprop, one fused kernel (out > 0 ⇔ x > 0)."""
        return (ReluGrad()(dout, out),)


#: Which dtype kinds ReluGrad takes together: both floating (of any widths), both integer
#: (signed or unsigned, any widths) or both Bool [ran 2.10].
_RELU_GRAD_FAMILY = {"float": "float", "int": "integer", "uint": "integer", "bool": "bool"}


@register
class ReluGrad(Primitive):
    """dx = dy where y > 0, else 0.  Inputs ``(y_backprop, x)``; ReLU's backward kernel.

    MindSpore's ``ops.operations._grad_ops.ReluGrad``: ReLU's bprop passes ReLU's *output*
    as ``x`` (grad_nn_ops.cc, ``ReluGrad(dout, out)``); the input gives the same mask.  The
    result has y_backprop's dtype.  Linear in dy and flat in x, so its own bprop is
    d(dy) = ReluGrad(d, x), d(x) = 0 (MindSpore's ReluGrad bprop) — second-order gradients
    of ReLU are exact almost everywhere.
    """
    elementwise = True
    infer_by_signature = True
    n_tensor_inputs = 2

    def infer(self, dy, x):
        dy_family = _RELU_GRAD_FAMILY.get(dy.dtype.kind)
        if dy_family is None or dy_family != _RELU_GRAD_FAMILY.get(x.dtype.kind):
            raise op_error("ReluGrad", f"'y_backprop' and 'x' must both be floating, both integer "
                                       f"or both Bool, but got {dy.dtype} and {x.dtype}.")
        if tuple(dy.shape) == tuple(x.shape):
            return Abstract(dy.shape, dy.dtype)
        # a dimension not known until run time (−1) agrees with any size
        if len(dy.shape) != len(x.shape) or any(a != b and a != -1 and b != -1
                                                for a, b in zip(dy.shape, x.shape)):
            raise op_error("ReluGrad", f"the shape of 'y_backprop' {shape_str(dy.shape)} and of 'x' "
                                       f"{shape_str(x.shape)} must be equal.", ValueError)
        return Abstract(tuple(b if a == -1 else a for a, b in zip(dy.shape, x.shape)), dy.dtype)

    def forward(self, dy, x):
        return kernels.call("relu_grad")(dy, x)

    def bprop(self, dy, x, out, dout):
        return ReluGrad()(dout, x), F.zeros_like(x)


@register
class Sigmoid(_Activation):
    """y = 1 / (1 + e⁻ˣ);  ∂y/∂x = y(1 − y).  Computed with ``scipy.special.expit``, which never overflows."""

    def forward(self, x):
        return kernels.call("sigmoid")(x)

    def bprop(self, x, out, dout):
        return (dout * out * (1 - out),)


@register
class Tanh(_Activation):
    """y = tanh x;  ∂y/∂x = 1 − y²."""

    def forward(self, x):
        return kernels.call("tanh")(x)

    def bprop(self, x, out, dout):
        return (dout * (1 - out * out),)


@register
class GeLU(_Activation):
    """y = ½x(1 + tanh(√(2/π)(x + 0.044715x³))) — the tanh approximation, as MindSpore's GeLU [ran 2.10].

    ∂y/∂x = ½(1 + t) + ½x(1 − t²)·√(2/π)(1 + 3·0.044715x²),  t = tanh(√(2/π)(x + 0.044715x³)).
    """
    elementwise = False

    def batch(self, batched, x):
        """vmap: pointwise, so the batch passes straight through."""
        return self(x)

    def forward(self, x):
        return kernels.call("gelu")(x)

    def bprop(self, x, out, dout):
        t = _TANH(x * (x * x * (_GELU_C * _GELU_A) + _GELU_C))
        slope = (1 - t * t) * (x * x * (3 * _GELU_C * _GELU_A) + _GELU_C)
        return (dout * ((1 + t) * 0.5 + x * slope * 0.5),)


def _softmax_axes(op, axis, shape):
    """``axis`` (int, or tuple/list of ints) as a tuple of non-negative ints, checked against ``shape``."""
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    ndim = len(shape)
    result = []
    for a in axes:
        if isinstance(a, bool) or not isinstance(a, (int, np.integer)):
            raise op_error(op, f"the type of 'axis' should be int or a tuple of ints, but got "
                               f"{axis!r}.")
        if not -ndim <= a < ndim:
            raise op_error(op, f"the axis must be in [{-ndim},{ndim}), but got {a} (input shape "
                               f"{shape_str(shape)}).", ValueError)
        result.append(int(a) % ndim)
    if len(set(result)) != len(result):
        raise op_error(op, f"the 'axis' must not repeat an axis, but got {axis!r}.", ValueError)
    return tuple(result)


class _SoftmaxBase(Primitive):
    n_tensor_inputs = 1

    def __init__(self, axis=-1):
        self.axis = axis

    def infer(self, x):
        _check_float(self.name, x)
        _softmax_axes(self.name, self.axis, x.shape)
        return Abstract(x.shape, x.dtype)

    def axes(self, x):
        return _softmax_axes(self.name, self.axis, x.shape)

    def batch(self, batched, x):
        """vmap: the same op along the per-example axes shifted past the batch axis."""
        rank = len(x.shape) - 1
        axes = self.axis if isinstance(self.axis, (tuple, list)) else (self.axis,)
        shifted = tuple(batching.batch_axis(a, rank) for a in axes)
        return type(self)(shifted if isinstance(self.axis, (tuple, list)) else shifted[0])(x)



@register
class Softmax(_SoftmaxBase):
    """yᵢ = exp(xᵢ) / Σⱼ exp(xⱼ) along ``axis``;  dx = y ⊙ (dy − Σ dy ⊙ y).

    Numerically safe: the kernel subtracts max x before exponentiating.
    """

    def __init__(self, axis=-1):
        if isinstance(axis, (int, np.integer)) and not isinstance(axis, bool):
            axis = (int(axis),)
        super().__init__(tuple(axis) if isinstance(axis, list) else axis)

    def forward(self, x):
        return kernels.call("softmax")(x, self.axes(x))

    def bprop(self, x, out, dout):
        along = F.reduce_sum(dout * out, self.axes(x), True)
        return (out * (dout - along),)


@register
class LogSoftmax(_SoftmaxBase):
    """yᵢ = xᵢ − log Σⱼ exp(xⱼ) along ``axis``;  dx = dy − exp(y) · Σ dy.

    Numerically safe: computed as (x − m) − log Σ exp(x − m), m = max x, never as log(softmax(x)).
    """

    def __init__(self, axis=-1):
        if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
            raise op_error("LogSoftmax", f"the type of 'axis' should be int, but got "
                                         f"{type(axis).__name__}.")
        super().__init__(int(axis))

    def forward(self, x):
        return kernels.call("log_softmax")(x, self.axes(x))

    def bprop(self, x, out, dout):
        total = F.reduce_sum(dout, self.axes(x), True)
        return (dout - F.exp(out) * total,)


_RELU, _SIGMOID, _TANH, _GELU = ReLU(), Sigmoid(), Tanh(), GeLU()
sigmoid = alias("sigmoid", _SIGMOID)
tanh = alias("tanh", _TANH)


def relu(input, inplace=False):
    """ops.relu(input, inplace=False); ``inplace=True`` also writes the result into ``input``."""
    out = _RELU(input)
    if inplace:
        input.assign_value(out)
    return out


def softmax(input, axis=-1, *, dtype=None):
    """ops.softmax(input, axis=-1, *, dtype=None): ``dtype`` casts the input first."""
    if dtype is not None:
        input = F.cast(input, dtype)
    return Softmax(axis)(input)


def log_softmax(logits, axis=-1):
    """ops.log_softmax(logits, axis=-1)."""
    return LogSoftmax(axis)(logits)


def gelu(input, approximate="none"):
    """ops.gelu(input, approximate='none'): 'none' is the exact x·Φ(x) = ½x(1 + erf(x/√2));
    'tanh' is the primitive :class:`GeLU` [ran 2.10: the two differ by up to 4e-4]."""
    if approximate not in ("none", "tanh"):
        raise ValueError("For ops.gelu, approximate value should be either 'none' or 'tanh'.")
    if approximate == "tanh":
        return _GELU(input)
    _check_float("gelu", input)
    return input * (F.erf(input * (1 / math.sqrt(2.0))) + 1) * 0.5


for _fn in (relu, softmax, log_softmax, gelu):
    functional(_fn.__name__, _fn)
