"""Errors of the graph compiler, and the source locations they carry.

Every IR node remembers where in the user's Python source it came from
(:class:`Location`).  Two kinds of error use it:

* :class:`GraphSyntaxError` — the parser met Python syntax that MindSpore's
  static-graph mode does not support (``try``, ``while … else``, ``global``…).
  The message names the construct, the file, the line and the column, like
  MindSpore's ``RuntimeError: Unsupported statement 'Try'``.
* Errors raised while a graph is *inferred* (a bad shape, an unknown
  attribute) keep their own type (``TypeError``, ``ValueError``…, as PyNative
  raises them) and get a note naming the graph node and its source line —
  :func:`note_location`.
"""
import os

__all__ = ["Location", "GraphSyntaxError", "GraphSyntaxTypeError", "GraphCompileError",
           "NeedsValue", "note_location", "relative_path"]


def relative_path(filename):
    """``filename`` relative to the working directory, or its base name: dumps never show
    absolute paths (they would differ between machines and leak user directories)."""
    if not filename or filename.startswith("<"):
        return filename or "<unknown>"
    try:
        rel = os.path.relpath(filename)
    except ValueError:                      # another drive on Windows
        return os.path.basename(filename)
    if rel.startswith(".."):
        return os.path.basename(filename)
    return rel


class Location:
    """Where a node comes from: file, line, column range and the text of the line."""

    __slots__ = ("filename", "line", "col", "end_line", "end_col", "text")

    def __init__(self, filename, line, col=0, end_line=None, end_col=None, text=""):
        self.filename = filename
        self.line = line
        self.col = col
        self.end_line = line if end_line is None else end_line
        self.end_col = col if end_col is None else end_col
        self.text = text

    def __str__(self):
        return f"{relative_path(self.filename)}:{self.line}"

    def describe(self):
        """``file.py:7, 8~13/    a = x - 1/`` — the form of MindSpore's ``# In file`` lines."""
        lines = (f"{self.line}" if self.end_line == self.line
                 else f"{self.line}~{self.end_line}")
        return f"{relative_path(self.filename)}:{lines}, {self.col}~{self.end_col}/{self.text}/"


class GraphSyntaxError(SyntaxError, RuntimeError):
    """Python syntax outside MindSpore's static-graph subset.

    ``construct`` is the name of the unsupported construct (``'Try'``,
    ``'while...else'``); ``filename``, ``lineno`` and ``offset`` are the
    standard :class:`SyntaxError` fields, so tools show the spot.  It is also a
    :class:`RuntimeError`, the type MindSpore raises for a statement its parser
    rejects (``RuntimeError: Unsupported statement 'Try'.``), so code written
    against MindSpore catches it.
    """

    def __init__(self, construct, location, detail=""):
        self.construct = construct
        self.location = location
        where = f"{relative_path(location.filename)}:{location.line}:{location.col + 1}"
        message = f"Unsupported syntax '{construct}' in graph mode at {where}"
        if detail:
            message += f": {detail}"
        if location.text:
            message += f"\n    {location.text.strip()}"
        super().__init__(message)
        self.filename = location.filename
        self.lineno = location.line
        self.offset = location.col + 1
        self.text = location.text
        self.msg = message

    def __str__(self):
        return self.msg


class GraphSyntaxTypeError(GraphSyntaxError, TypeError):
    """Unsupported syntax MindSpore reports as a :class:`TypeError`: a comprehension with
    several ``for`` clauses ("The 'generators' supports 1 'comprehension'…")."""


class GraphCompileError(RuntimeError):
    """A program the graph compiler cannot compile although its syntax is supported
    (a Tensor's value needed at compile time, a loop whose types change…)."""


class NeedsValue(GraphCompileError):
    """Python code run during inference asked a stand-in for a value that exists only when
    the graph runs.  At the LAX syntax level (MindSpore's default) the call that asked runs
    at run time instead (:mod:`refms.graph.fallback`); otherwise this is the error the user
    sees."""


def note_location(error, location, node_text=""):
    """Add one note ``In file x.py:7:5: text`` (file, line, column counted from 1, as
    editors count) to ``error``, once per error and place."""
    if location is None:
        return error
    notes = getattr(error, "__notes__", [])
    where = f"{location}:{location.col + 1}"
    text = f"In graph node {node_text} at {where}" if node_text else f"In file {where}"
    if location.text:
        text += f": {location.text.strip()}"
    if text not in notes:
        error.add_note(text)
    return error
