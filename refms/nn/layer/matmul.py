"""``nn.MatMul``: ``numpy.matmul`` of two Tensors, with optional transposes of the last two axes
(MindSpore 2.10 ``nn/layer/math.py``).

1-D operands are promoted as NumPy does (a row vector on the left, a column vector on the
right, the added axis removed again); batch axes broadcast.  ``transpose_x1``/``transpose_x2``
swap the last two axes of a 2-D or higher operand first.
"""
from ...ops import functional as F
from ..cell import Cell
from ._checks import check_bool

__all__ = ["MatMul"]


class MatMul(Cell):
    """MatMul(transpose_x1=False, transpose_x2=False)"""

    def __init__(self, transpose_x1=False, transpose_x2=False):
        super().__init__()
        self.transpose_x1 = check_bool(transpose_x1, "transpose_x1", self.cls_name)
        self.transpose_x2 = check_bool(transpose_x2, "transpose_x2", self.cls_name)

    def construct(self, x1, x2):
        if self.transpose_x1 and len(x1.shape) >= 2:
            x1 = F.swapaxes(x1, -1, -2)
        if self.transpose_x2 and len(x2.shape) >= 2:
            x2 = F.swapaxes(x2, -1, -2)
        if x1.shape[-1] != x2.shape[0 if len(x2.shape) == 1 else -2]:
            raise ValueError(f"For '{self.cls_name}', the contracted dimensions must be equal, "
                             f"but got x1 shape {tuple(x1.shape)} and x2 shape "
                             f"{tuple(x2.shape)} (after transposes).")
        return F.matmul(x1, x2)
