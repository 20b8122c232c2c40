"""Graph errors as a user sees them: the user's frames and source line, not the compiler's.

An error raised while a graph compiles or runs travels through dozens of the
compiler's own frames (inference recursion, passes, the executor).  At the
entries a user calls — a ``jit`` function, a Cell in GRAPH_MODE, a compiled
gradient — ``for_user`` takes refms's frames out of its traceback, as
MindSpore's errors show the user's script and not its C++ compiler.  The error
keeps its type, its message and its note naming the user's source,
``In file script.py:8:9: z = y.foo_bar()`` (file, line, column:
:func:`refms.graph.errors.note_location`).  ``REFMS_DEBUG=1`` keeps every frame.
"""
import os
import types

__all__ = ["for_user", "internal_file"]

#: The folder of the refms package: frames of files inside it are refms's internals.
PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def internal_file(filename):
    """Whether a frame of ``filename`` is refms's own (or the import machinery's)."""
    return (os.path.abspath(filename).startswith(PACKAGE_DIR + os.sep)
            or filename.startswith("<frozen"))


def for_user(error):
    """``error`` with only the user's frames left in its traceback (returned, to raise)."""
    if os.environ.get("REFMS_DEBUG"):
        return error
    kept = []
    tb = error.__traceback__
    while tb is not None:
        if not internal_file(tb.tb_frame.f_code.co_filename):
            kept.append(tb)
        tb = tb.tb_next
    filtered = None
    for tb in reversed(kept):
        filtered = types.TracebackType(filtered, tb.tb_frame, tb.tb_lasti, tb.tb_lineno)
    return error.with_traceback(filtered)
