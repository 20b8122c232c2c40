"""Gradient clipping by norm: ``clip_by_global_norm`` and ``clip_by_norm``.

``clip_by_global_norm(xs, c)`` scales every tensor of ``xs`` by the same factor

    g = sqrt(Σᵢ ‖xᵢ‖²),   xᵢ ← xᵢ · c / max(g, c)

so that their joint L2 norm is at most ``c`` (Pascanu et al. 2013).
``clip_by_norm(x, c, axis)`` does the same for one tensor, with the norm
taken over ``axis`` (all axes by default): x · c / max(‖x‖, c).
Both are compositions of differentiable refms ops.
"""
import numbers

from .. import dtype as mstype
from .._tensor import Tensor
from . import functional as F

__all__ = ["clip_by_global_norm", "clip_by_norm"]


def _check_clip_norm(op, clip_norm):
    if isinstance(clip_norm, bool) or not isinstance(clip_norm, (numbers.Real, Tensor)):
        raise TypeError(f"For '{op}', the 'clip_norm' should be float or Tensor, but got "
                        f"{type(clip_norm).__name__}.")
    if isinstance(clip_norm, numbers.Real) and clip_norm <= 0:
        raise ValueError(f"For '{op}', the 'clip_norm' should be greater than 0, but got "
                         f"{clip_norm}.")


def clip_by_global_norm(x, clip_norm=1.0, use_norm=None):
    """Scale the tensors of the tuple ``x`` so that their global L2 norm is ≤ ``clip_norm``."""
    if not isinstance(x, (tuple, list)) or not all(isinstance(t, Tensor) for t in x):
        raise TypeError("For 'clip_by_global_norm', the 'x' should be a tuple or list of Tensors.")
    _check_clip_norm("clip_by_global_norm", clip_norm)
    if use_norm is None:
        squares = [F.reduce_sum(F.square(F.cast(t, mstype.float32)), (), False) for t in x]
        global_norm = F.sqrt(F.addn(squares) if len(squares) > 1 else squares[0])
    else:
        global_norm = F.cast(use_norm, mstype.float32) if isinstance(use_norm, Tensor) \
            else Tensor(float(use_norm), mstype.float32)
    clip = Tensor(float(clip_norm), mstype.float32) if not isinstance(clip_norm, Tensor) \
        else F.cast(clip_norm, mstype.float32)
    scale = clip / F.maximum(global_norm, clip)
    result = [F.cast(t * scale, t.dtype) for t in x]
    return tuple(result) if isinstance(x, tuple) else result


def clip_by_norm(x, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """Scale the tensor (or tensors) ``x`` so that the L2 norm is ≤ ``max_norm`` (``ops.clip_by_norm``)."""
    if isinstance(x, Tensor):
        return clip_by_global_norm((x,), max_norm)[0]
    return clip_by_global_norm(x, max_norm)
