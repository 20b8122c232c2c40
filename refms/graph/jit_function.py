"""What the compiler reads of a ``jit`` function: the Python function and the object it is bound to.

:class:`refms.graph.api.JitFunction` (what ``@jit`` returns) is a subclass
that adds calling — compile on the first call per input signature, then run,
with a cache of compiled programs.  Inference, the compile driver and
gradient dispatch only need to *recognise* a jit function and look through
it, so they import this module, which depends on nothing, instead of the
entry points, which depend on them.
"""

__all__ = ["JitTarget"]


class JitTarget:
    """A function marked for compilation: ``fn``, and ``obj`` when it is a bound method
    (both set by the subclass)."""

    fn = None
    obj = None

    def call_unparsed(self, *args, **kwargs):
        """Run the undecorated function (with its bound object) — inside a compilation."""
        if self.obj is not None:
            return self.fn(self.obj, *args, **kwargs)
        return self.fn(*args, **kwargs)
