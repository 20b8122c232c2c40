"""``mindspore.common.api``: ``jit`` and ``ms_function`` (the graph compiler, :mod:`refms.graph`),
``jit_class``, and the compile hints ``lazy_inline`` / ``no_inline``."""
import functools

from ..graph import jit, ms_function

__all__ = ["jit", "ms_function", "jit_class", "lazy_inline", "no_inline"]


def lazy_inline(fn=None, attrs=None, policy=None):
    """Decorate a Cell's ``__init__`` (``@lazy_inline`` or ``@lazy_inline(policy=...)``): a hint
    that MindSpore may compile each call of such a Cell once as a reusable subgraph and inline
    it late, to cut the compile time of a network repeating one block many times.

    The hint changes no result.  refms compiles a network by tracing, with no inlining stage
    to delay, so the decorated ``__init__`` runs unchanged.
    """
    def decorate(init):
        @functools.wraps(init)
        def wrapper(self, *args, **kwargs):
            return init(self, *args, **kwargs)
        wrapper.lazy_inline = True
        return wrapper
    return decorate if fn is None else decorate(fn)


def no_inline(fn=None):
    """Decorate a function (``@no_inline``): a hint that MindSpore compiles it as a subgraph of
    its own that is never inlined into its callers.  The result is the same; refms returns
    the function itself, marked ``no_inline = True``."""
    def decorate(function):
        function.no_inline = True
        return function
    return decorate if fn is None else decorate(fn)


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
