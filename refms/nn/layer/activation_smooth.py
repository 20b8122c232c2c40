"""``nn.ELU``, ``nn.HSwish``, ``nn.HSigmoid`` and ``nn.SiLU`` as Cells
(the arithmetic: :mod:`refms.ops.composites.activations_smooth`)."""
from ...ops.composites.activations_smooth import elu, hardswish, hardsigmoid, silu
from ..cell import Cell

__all__ = ["ELU", "HSwish", "HSigmoid", "SiLU"]


class ELU(Cell):
    """ELU(alpha=1.0): x for x > 0, α(eˣ − 1) otherwise (MindSpore 2.10 accepts α = 1.0 only)."""

    def __init__(self, alpha=1.0):
        super().__init__()
        if alpha != 1.0:
            raise ValueError(f"For 'Elu', the 'alpha' must be 1.0, but got {alpha}.")
        self.alpha = alpha

    def construct(self, x):
        return elu(x, self.alpha)


class HSwish(Cell):
    """HSwish(): x · relu6(x + 3) / 6."""

    def construct(self, x):
        return hardswish(x)


class HSigmoid(Cell):
    """HSigmoid(): relu6(x + 3) / 6."""

    def construct(self, x):
        return hardsigmoid(x)


class SiLU(Cell):
    """SiLU(inplace=False): x · σ(x) (``inplace``, MindSpore 2.10's ``mint.nn.SiLU``
    argument, gives the same values; refms returns a new tensor)."""

    def __init__(self, inplace=False):
        super().__init__()
        if not isinstance(inplace, bool):
            raise TypeError(f"For 'SiLU', the 'inplace' must be bool, but got "
                            f"{type(inplace).__name__}.")
        self.inplace = inplace

    def construct(self, x):
        return silu(x)
