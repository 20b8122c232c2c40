"""``mindspore.common.api``: ``jit`` and ``ms_function`` (the graph compiler, :mod:`refms.graph`)."""
from ..graph import jit, ms_function

__all__ = ["jit", "ms_function", "jit_class"]


def jit_class(cls):
    """Mark a class whose instances graph-mode code may use; returns the class itself.

    MindSpore needs the mark to compile attribute access and method calls of
    such objects; refms's graph compiler runs non-Cell Python objects on the
    traced values already, so nothing more is needed.
    """
    if not isinstance(cls, type):
        raise TypeError(f"Decorator jit_class can only be used for class type, but got {cls}.")
    return cls
