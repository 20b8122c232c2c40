"""``nn.Dropout``: in training, zero each element with probability p and scale the rest by 1/(1 − p).

In inference mode (the default for Cells) it returns its input unchanged.
``Dropout(p=0.3)`` is the 2.x spelling; ``Dropout(keep_prob=0.7)`` the
deprecated 1.x one.  The primitive's seeds come from the global seed the way
MindSpore's ``_get_graph_seed(0, "dropout")`` does, so ``set_seed`` makes the
masks reproducible.
"""
from ... import seed as _seed
from ...ops.prims.random import Dropout as DropoutPrim
from ..cell import Cell

__all__ = ["Dropout"]


class Dropout(Cell):
    """Dropout(keep_prob=0.5, p=None)"""

    def __init__(self, keep_prob=0.5, p=None, dtype=None):
        super().__init__()
        if p is None:
            if isinstance(keep_prob, bool) or not isinstance(keep_prob, float):
                raise TypeError(f"For '{self.cls_name}', the 'keep_prob' must be float, but got "
                                f"{type(keep_prob).__name__}.")
            if not 0 < keep_prob <= 1:
                raise ValueError(f"For '{self.cls_name}', the 'keep_prob' must be a number in "
                                 f"range (0, 1], but got {keep_prob}.")
            keep = keep_prob
        else:
            if isinstance(p, bool) or not isinstance(p, (int, float)):
                raise TypeError(f"For '{self.cls_name}', the 'p' must be float or int, but got "
                                f"{type(p).__name__}.")
            if not 0 <= p < 1:
                raise ValueError(f"For '{self.cls_name}', the 'p' must be a number in range "
                                 f"[0, 1), but got {p}.")
            keep = 1.0 - p
        seed0, seed1 = _seed.op_seed_pair("dropout", 0) or (0, 0)
        self.dropout = DropoutPrim(keep, seed0, seed1)
        self.p = p
        self.keep_prob = keep_prob

    def construct(self, x):
        if not self.training or self.keep_prob == 1 or self.p == 0:
            return x
        out, _ = self.dropout(x)
        return out

    def extend_repr(self):
        return f"keep_prob={self.keep_prob}" if self.p is None else f"p={self.p}"
