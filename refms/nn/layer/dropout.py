"""``nn.Dropout``: in training, zero each element with probability p and scale the rest by 1/(1 − p).

In inference mode (the default for Cells) it returns its input unchanged.
``Dropout(p=0.3)`` is the 2.x spelling; ``Dropout(keep_prob=0.7)`` the
deprecated 1.x one.  The primitive's seeds come from the global seed the way
MindSpore's ``_get_graph_seed(0, "dropout")`` does, so ``set_seed`` makes the
masks reproducible.

``Dropout1d``/``Dropout2d``/``Dropout3d`` drop whole channels (one draw per
sample and channel, :mod:`refms.ops.prims.channel_dropout`).  Their ``p`` must
be a float in [0, 1]; like MindSpore 2.10, ``Dropout2d``/``Dropout3d`` print
the *keep* probability as ``p`` (``Dropout2d(p=0.8)`` for ``p=0.2``).
"""
from ... import seed as _seed
from ...ops.prims.channel_dropout import Dropout2D, Dropout3D, dropout1d
from ...ops.prims.random import Dropout as DropoutPrim
from ..cell import Cell

__all__ = ["Dropout", "Dropout1d", "Dropout2d", "Dropout3d"]


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


def _check_p(p, cls_name):
    if not isinstance(p, float):
        raise TypeError(f"For '{cls_name}', the type of 'p' should be 'float', but got type "
                        f"'{type(p).__name__}'.")
    if p < 0 or p > 1:
        raise ValueError(f"For '{cls_name}', the 'p' must be a number in range [0, 1], but got "
                         f"{p}.")
    return p


class Dropout1d(Cell):
    """Dropout1d(p=0.5): in training, zero whole channels of an (N, C, L) or (C, L) input."""

    def __init__(self, p=0.5):
        super().__init__()
        self.prob = _check_p(p, self.cls_name)

    def construct(self, x):
        if not self.training or self.prob == 0:
            return x
        return dropout1d(x, self.prob)


class Dropout2d(Cell):
    """Dropout2d(p=0.5): in training, zero whole channels of an (N, C, H, W) input."""

    def __init__(self, p=0.5):
        super().__init__()
        self.keep_prob = 1.0 - _check_p(p, self.cls_name)
        self.dropout2d = Dropout2D(self.keep_prob)

    def construct(self, x):
        if not self.training or self.keep_prob == 1:
            return x
        out, _ = self.dropout2d(x)
        return out

    def extend_repr(self):
        return f"p={self.keep_prob}"


class Dropout3d(Cell):
    """Dropout3d(p=0.5): in training, zero whole channels of an (N, C, D, H, W) input."""

    def __init__(self, p=0.5):
        super().__init__()
        self.keep_prob = 1.0 - _check_p(p, self.cls_name)
        self.dropout3d = Dropout3D(self.keep_prob)

    def construct(self, x):
        if not self.training or self.keep_prob == 1:
            return x
        out, _ = self.dropout3d(x)
        return out

    def extend_repr(self):
        return f"p={self.keep_prob}"
