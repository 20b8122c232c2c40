"""Layers that move values without computing: ``Flatten`` and ``Identity``."""
from ...ops import functional as F
from ..cell import Cell

__all__ = ["Flatten", "Identity"]


class Flatten(Cell):
    """Flatten(start_dim=1, end_dim=-1)

    Merges the axes start_dim..end_dim into one; by default a ``(N, ...)`` input becomes ``(N, -1)``.
    """

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def construct(self, x):
        ndim = max(len(x.shape), 1)
        for axis in (self.start_dim, self.end_dim):
            if not -ndim <= axis < ndim:
                raise ValueError(f"For 'Flatten', 'start_dim' or 'end_dim' out of range: got "
                                 f"start_dim={self.start_dim}, end_dim={self.end_dim} for an input "
                                 f"of shape {tuple(x.shape)}.")
        return F.flatten(x, start_dim=self.start_dim, end_dim=self.end_dim)


class Identity(Cell):
    """``Identity(*args, **kwargs)``: returns its input unchanged (arguments are ignored)."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def construct(self, x):
        return x
