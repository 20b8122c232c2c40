"""The registration seam of the autodiff layer: how a layer above takes a gradient over.

This package knows one way to differentiate: run the function on the PyNative
tape (:mod:`refms.autograd.tape`).  Graph mode (:mod:`refms.graph`) sits
above it and changes two decisions of :mod:`refms.autograd.grad`:

1. while a graph is being compiled, ``run_and_differentiate`` must *emit* the
   gradient (an IR → IR transform) instead of running a tape;
2. the gradient of compiled code (a ``jit`` function, a Cell in GRAPH_MODE)
   is itself compiled, as one graph.

So an upper layer registers an *interpreter* here once, when it is imported,
and ``grad.py`` asks the registered interpreters before falling back to the
tape.  This is the interpreter stack of JAX's autodidax
(``find_top_trace``) cut down to the two questions refms needs; the autodiff
layer never imports the layer that answers them.
"""

__all__ = ["Interpreter", "register", "tracing", "compiling"]


class Interpreter:
    """What a layer above supplies.  The defaults decline everything."""

    def is_tracing(self):
        """True while this interpreter is building a program (a gradient must be emitted)."""
        return False

    def run_and_differentiate(self, fn, args, sens, differentiate):
        """The emitted counterpart of ``refms.autograd.grad.run_and_differentiate``."""
        raise NotImplementedError

    def call_batched(self, fn, stand_ins):
        """Call ``fn`` on the batched stand-ins of ``vmap`` (:mod:`refms.autograd.vmap`) while
        this interpreter builds a program."""
        return fn(*stand_ins)

    def compiles(self, fn):
        """True when ``grad(fn)`` is to be compiled as a whole by this interpreter."""
        return False

    def call_compiled(self, impl, fn, key, args):
        """Run the gradient function ``impl`` of ``fn`` compiled (cached under ``key``)."""
        raise NotImplementedError


#: The registered interpreters, in registration order.
_INTERPRETERS = []


def register(interpreter):
    """Add ``interpreter`` (an :class:`Interpreter`); called once by the layer that defines it."""
    _INTERPRETERS.append(interpreter)
    return interpreter


def tracing():
    """The interpreter building a program now, or None (then the tape runs)."""
    for interpreter in _INTERPRETERS:
        if interpreter.is_tracing():
            return interpreter
    return None


def compiling(fn):
    """The interpreter that compiles ``grad(fn)`` as a whole, or None (outside any tracing)."""
    if tracing() is not None:
        return None
    for interpreter in _INTERPRETERS:
        if interpreter.compiles(fn):
            return interpreter
    return None
