"""A Cell's own ``bprop``: the whole cell becomes one differentiable unit (semantics 6).

``def bprop(self, *inputs, out, dout)`` uses the same convention as every
primitive's backward, so it is recorded on the PyNative tape with
the same :func:`refms.autograd.tape.record` call a primitive uses
(MindSpore ``Cell._call_custom_bprop``):

1. ``construct`` runs under :class:`~refms.autograd.tape.no_grad`, so nothing
   inside is recorded — Parameters used inside get **zero** gradients (6.2);
2. one tape entry is appended whose inputs are the positional inputs (defaults
   of ``construct`` bound in) and whose bprop calls the user's ``bprop``.

The user's return value is checked when the backward runs (6.1, observed on 2.10):
a bare Tensor counts as a 1-tuple; fewer entries than inputs is an error,
extra entries are ignored; ``None`` as the whole result is an error, ``None``
as one entry means "no gradient" (zeros); each gradient is cast to its
input's dtype and a broadcast-shaped one is sum-reduced to the input's shape.
"""
import inspect

import numpy as np

from ..autograd import tape as _tape
from ..ops import functional as F
from ..ops.prims._base import sum_to
from .._tensor import Tensor

__all__ = ["call_custom_bprop", "UserBprop", "check_bprop_grads"]


def _alias_leaves(value):
    """Fresh Tensor objects (sharing values) for every Tensor in a nested output."""
    if isinstance(value, Tensor):
        return Tensor._make(value._value(), value.dtype)
    if isinstance(value, (tuple, list)):
        return tuple(_alias_leaves(v) for v in value)
    return value


def _bind_inputs(cell, args, kwargs):
    """The positional inputs with ``construct``'s defaults bound in (``bprop(x, y=2.0, ...)``)."""
    try:
        bound = inspect.signature(cell.construct).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return tuple(args)
    bound.apply_defaults()
    return tuple(bound.args)


def call_custom_bprop(cell, args, kwargs):
    """Run ``cell.construct`` unrecorded and record ``cell.bprop`` as its backward."""
    with _tape.no_grad():
        output = cell.construct(*args, **kwargs)
    inputs = _bind_inputs(cell, args, kwargs)
    output = _alias_leaves(output)
    _tape.record(UserBprop(cell), inputs, output, f"{cell.cls_name}.bprop")
    return output


class UserBprop:
    """The tape entry's bprop: call ``cell.bprop(*inputs, out, dout)`` and check what it returns."""

    def __init__(self, cell):
        self.cell = cell
        self.label = f"Cell<{cell.cls_name}>"        # how IR dumps name it

    def __call__(self, *args):
        inputs, out, dout = args[:-2], args[-2], args[-1]
        grads = self.cell.bprop(*inputs, out, dout)
        return check_bprop_grads(self.cell.cls_name, inputs, grads)


def _shapes(values):
    return [tuple(v.shape) if isinstance(v, Tensor) else type(v).__name__ for v in values]


def _reducible(grad_shape, input_shape):
    """True when ``input_shape`` broadcasts to ``grad_shape`` (so summing recovers it)."""
    if len(input_shape) > len(grad_shape):
        return False
    tail = grad_shape[len(grad_shape) - len(input_shape):]
    return all(x == g or x == 1 for x, g in zip(input_shape, tail))


def check_bprop_grads(cell_name, inputs, grads):
    """Normalise a user bprop's result to one gradient (or None) per input; errors name the cell."""
    if grads is None:
        raise TypeError(f"The python function output is none: the 'bprop' of cell '{cell_name}' "
                        f"must return one gradient per input (input shapes {_shapes(inputs)}).")
    if not isinstance(grads, (tuple, list)):
        grads = (grads,)
    if len(grads) < len(inputs):
        raise RuntimeError(f"Grad size should lager than forward inputs, but got {len(grads)} vs "
                           f"{len(inputs)}: the 'bprop' of cell '{cell_name}' returned "
                           f"{len(grads)} gradient(s) for {len(inputs)} input(s) (input shapes "
                           f"{_shapes(inputs)}).")
    result = []
    for index, (x, g) in enumerate(zip(inputs, grads)):
        if not isinstance(x, Tensor) or g is None:
            result.append(None)
            continue
        if not isinstance(g, Tensor):
            g = Tensor(np.asarray(g), x.dtype)
        if g.dtype is not x.dtype:
            g = F.cast(g, x.dtype)
        if tuple(g.shape) != tuple(x.shape):
            if not _reducible(tuple(g.shape), tuple(x.shape)):
                raise RuntimeError(f"For the 'bprop' of cell '{cell_name}', the gradient of input "
                                   f"{index} has shape {tuple(g.shape)}, which cannot be reduced "
                                   f"to the input's shape {tuple(x.shape)}: the grad tensor should "
                                   f"be broadcast to expected shape.")
            g = sum_to(g, tuple(x.shape))
        result.append(g)
    return tuple(result)
