"""``refms.ops.composite`` mirrors ``mindspore.ops.composite`` (imported as ``C``).

Operations built from other operations: ``GradOperation`` (autodiff),
``MultitypeFuncGraph`` / ``HyperMap`` / ``Map`` (type dispatch and mapping
over tuples, :mod:`refms.ops.multitype`), ``clip_by_global_norm``.
"""
from ..autograd.grad import GradOperation, grad, value_and_grad
from .multitype import MultitypeFuncGraph, HyperMap, Map
from .clip import clip_by_global_norm
from .meta import partial

__all__ = ["GradOperation", "MultitypeFuncGraph", "HyperMap", "Map", "clip_by_global_norm",
           "grad", "value_and_grad", "partial"]
