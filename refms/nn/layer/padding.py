"""``nn.Pad``: pad a tensor per axis in 'CONSTANT', 'REFLECT' or 'SYMMETRIC' mode.

``paddings[i] = (before_i, after_i)`` for each axis; the arithmetic is
``refms.ops.composites.padding.pad_axes`` (see its docstring for the modes).
"""
from ...ops.composites.padding import pad_axes
from ..cell import Cell

__all__ = ["Pad"]


class Pad(Cell):
    """Pad(paddings, mode='CONSTANT')"""

    def __init__(self, paddings, mode="CONSTANT"):
        super().__init__()
        if not isinstance(paddings, (tuple, list)):
            raise TypeError(f"For 'Pad', the 'paddings' should be a tuple, but got "
                            f"{type(paddings).__name__}.")
        if mode not in ("CONSTANT", "REFLECT", "SYMMETRIC"):
            raise ValueError(f"For 'Pad', the 'mode' should be one of ['CONSTANT', 'REFLECT', "
                             f"'SYMMETRIC'], but got {mode!r}.")
        self.paddings = tuple(tuple(p) for p in paddings)
        self.mode = mode

    def construct(self, x):
        return pad_axes("Pad", x, self.paddings, self.mode)
