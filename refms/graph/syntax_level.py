"""MindSpore's JIT syntax levels, and which one is in force.

The level decides what graph mode does with Python code it cannot compile:

* ``STRICT`` (0): only the static-graph syntax; anything else is a compile error;
* ``COMPATIBLE`` (1): also Python evaluated at compile time (JIT Fallback on constants);
* ``LAX`` (2, the default): also Python run on the host *when the graph runs*
  (:mod:`refms.graph.fallback`).
"""
import os

__all__ = ["STRICT", "COMPATIBLE", "LAX", "syntax_level", "runtime_fallback"]

#: The syntax levels, as MindSpore numbers them.
STRICT, COMPATIBLE, LAX = 0, 1, 2


def syntax_level():
    """The level in force: STRICT, COMPATIBLE or LAX.

    MindSpore 2.10 reads the level from the environment variable
    ``MS_DEV_JIT_SYNTAX_LEVEL`` (default 2, LAX) when a function is compiled; its
    ``set_context(jit_syntax_level=...)`` no longer changes it (observed:
    ``tests/recorders/record_graph_fallback.py``), and neither does refms's."""
    level = os.environ.get("MS_DEV_JIT_SYNTAX_LEVEL", str(LAX)).strip()
    return {str(STRICT): STRICT, str(COMPATIBLE): COMPATIBLE}.get(level, LAX)


def runtime_fallback():
    """True when code needing a run-time value runs on the host: the syntax level is LAX."""
    return syntax_level() == LAX
