"""``mindspore.common.api``: ``jit`` and ``ms_function`` (the graph compiler, :mod:`refms.graph`)."""
from ..graph import jit, ms_function

__all__ = ["jit", "ms_function"]
