"""``mindspore.common.api``: ``jit`` and ``ms_function`` (the graph compiler, :mod:`refms.graph`)."""
from ..graph import jit, ms_function

__all__ = ["jit", "ms_function", "jit_class"]


def jit_class(cls):
    """Mark a class whose instances graph-mode code may use; returns the class, marked
    ``__ms_class__ = True`` as MindSpore marks it.

    MindSpore needs the mark to compile attribute access and method calls of
    such objects; refms's graph compiler runs non-Cell Python objects on the
    traced values already, and reads the mark only to report a call of an object
    without ``__call__`` as MindSpore does (a ValueError).  A Cell is not a
    user-defined class in this sense: decorating one is a TypeError (MindSpore's
    ``jit_class`` docstring, "Raises").
    """
    from ..nn.cell import Cell
    if not isinstance(cls, type):
        raise TypeError(f"Decorator jit_class can only be used for class type, but got {cls}.")
    if issubclass(cls, Cell):
        raise TypeError(f"Decorator jit_class is used for user-defined classes and cannot be "
                        f"used for nn.Cell: {cls}.")
    cls.__ms_class__ = True
    return cls
