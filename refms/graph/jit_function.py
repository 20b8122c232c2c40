"""What the compiler reads of a ``jit`` function: the Python function and the object it is bound to.

:class:`refms.graph.api.JitFunction` (what ``@jit`` returns) adds calling —
compile on the first call per input signature, then run — to this class.
Inference, the compile driver and gradient dispatch only need to *recognise*
a jit function and look through it, so they import this module, which
depends on nothing, instead of the entry points that depend on them.
"""
import functools

__all__ = ["JitTarget"]


class JitTarget:
    """A function (or method, when ``obj`` is set) marked for compilation."""

    def __init__(self, fn, obj=None, cache=None):
        self.fn = fn
        self.obj = obj
        self._cache = {} if cache is None else cache
        functools.update_wrapper(self, fn)

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return type(self)(self.fn, obj, self._cache)

    def call_unparsed(self, *args, **kwargs):
        """Run the undecorated function (with its bound object) — inside a compilation."""
        if self.obj is not None:
            return self.fn(self.obj, *args, **kwargs)
        return self.fn(*args, **kwargs)
