"""``refms.ops.composite`` mirrors ``mindspore.ops.composite`` (imported as ``C``).

Operations built from other operations: ``GradOperation`` (autodiff),
``MultitypeFuncGraph`` / ``HyperMap`` / ``Map`` (type dispatch and mapping
over tuples, :mod:`refms.ops.multitype`), ``clip_by_global_norm``, and the
functional ops MindSpore also exports here (``clip_by_value``, ``matmul``...).
``ones_like`` / ``zeros_like`` map over (nested) tuples and lists of Tensors as
MindSpore's ``C.ones_like`` (a HyperMap) does; ``add_flags`` records graph flags
on a function (``fn._func_graph_flags``) and returns it.
"""
from ..autograd.grad import GradOperation, grad, value_and_grad
from .multitype import MultitypeFuncGraph, HyperMap, Map
from .clip import clip_by_global_norm
from .meta import partial
from . import functional as _F


def ones_like(x):
    """Ones shaped like ``x``, or a tuple of them for a (nested) tuple or list of Tensors."""
    if isinstance(x, (tuple, list)):
        return tuple(ones_like(item) for item in x)
    return _F.ones_like(x)


def zeros_like(x):
    """Zeros shaped like ``x``, or a tuple of them for a (nested) tuple or list of Tensors."""
    if isinstance(x, (tuple, list)):
        return tuple(zeros_like(item) for item in x)
    return _F.zeros_like(x)


def add_flags(fn=None, **flags):
    """``fn`` with ``flags`` added to its ``_func_graph_flags`` (as a decorator too)."""
    def apply(function):
        existing = getattr(function, "_func_graph_flags", {})
        function._func_graph_flags = dict(existing, **flags)
        return function
    return apply if fn is None else apply(fn)


clip_by_value = _F.clip_by_value
matmul = _F.matmul
tensor_dot = _F.tensor_dot
repeat_elements = _F.repeat_elements
uniform = _F.uniform

__all__ = ["GradOperation", "MultitypeFuncGraph", "HyperMap", "Map", "clip_by_global_norm",
           "grad", "value_and_grad", "partial", "ones_like", "zeros_like", "add_flags",
           "clip_by_value", "matmul", "tensor_dot", "repeat_elements", "uniform"]
