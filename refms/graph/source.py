"""Finding a function's Python source and its ``ast`` (for the parser).

``inspect.getsource`` returns whole lines; a ``def`` is dedented and parsed
directly, a ``lambda`` is cut out of its line (it may sit inside a call that
spans several lines, and its body may go on over several lines) by parsing the
shortest text from ``lambda`` that is a whole lambda reaching the end of its
body, which the code object's source positions give.  Line and column numbers
are mapped back to the file, so every node's
:class:`~refms.graph.errors.Location` points at the real source.
"""
import ast
import inspect
import linecache
import textwrap
import weakref

from .errors import Location

__all__ = ["FunctionSource", "function_source", "check_entry_lambda"]


class FunctionSource:
    """The ``ast`` of one function plus what is needed to locate its nodes in the file."""

    def __init__(self, tree, filename, line_offset, col_offset):
        self.tree = tree                      # ast.FunctionDef or ast.Lambda
        self.filename = filename
        self.line_offset = line_offset        # file line = ast line + line_offset
        self.col_offset = col_offset          # file column = ast column + col_offset: the
                                              # dedent width of a def, 0 for a lambda

    def location(self, node):
        line = getattr(node, "lineno", None)
        if line is None:
            return None
        file_line = line + self.line_offset
        end_line = (getattr(node, "end_lineno", None) or line) + self.line_offset
        col = getattr(node, "col_offset", 0) + self.col_offset
        end_col = (getattr(node, "end_col_offset", None) or col) + self.col_offset
        text = linecache.getline(self.filename, file_line).rstrip("\n")
        return Location(self.filename, file_line, col, end_line, end_col, text)


def _body_end(code, lines, start):
    """Where the lambda's body ends at the latest, as (index into ``lines``, column in
    characters): the furthest end of its instructions' source positions (Python 3.11
    ``co_positions``, whose columns count UTF-8 bytes); None when they are not recorded."""
    ends = [(end_line, end_col) for _, end_line, _, end_col in code.co_positions()
            if end_line is not None and end_col is not None]
    if not ends:
        return None
    end_line, end_col = max(ends)
    row = end_line - start
    if not 0 <= row < len(lines):
        return None
    return row, len(lines[row].encode("utf-8")[:end_col].decode("utf-8", errors="ignore"))


def _is_lambda_of(tree, names):
    """Whether ``tree`` is a lambda with the parameters ``names``."""
    if not isinstance(tree, ast.Lambda):
        return False
    args = tree.args
    return tuple(a.arg for a in args.posonlyargs + args.args + args.kwonlyargs) == tuple(names)


def _lambda_source(fn, lines, start):
    """Cut the lambda defined at ``fn.__code__.co_firstlineno`` out of ``lines``: from a
    ``lambda`` on that line, the shortest text that is a whole lambda with ``fn``'s
    parameters and reaches the end of its body (which may be on a later line).  None
    without source positions (``python -X no_debug_ranges``): the lambda is then run on
    stand-ins instead of being parsed."""
    code = fn.__code__
    names = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    first = code.co_firstlineno
    text_lines = lines[first - start:first - start + 20]
    body_end = _body_end(code, text_lines, first)
    if body_end is None:
        return None
    row, col = body_end
    head = text_lines[0]
    column = head.find("lambda")
    while column != -1:
        rest = head[column:] + "".join(text_lines[1:])
        shortest = (col - column if row == 0
                    else len(head) - column + sum(len(t) for t in text_lines[1:row]) + col)
        for end in range(max(shortest, 1), len(rest) + 1):
            try:
                # in parentheses: the body may go on over the next lines, as inside a call
                tree = ast.parse("(" + rest[:end] + "\n)", mode="eval").body
            except SyntaxError:
                continue
            if _is_lambda_of(tree, names):
                return _file_columns(tree, column), first - 1, 0
            break                             # from this "lambda" on is another expression
        column = head.find("lambda", column + 1)
    return None


def _file_columns(tree, column):
    """Make the columns of a lambda parsed as ``"(" + text`` columns of the file, ``text``
    starting at ``column`` of its first line (later lines were parsed whole)."""
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) == 1:
            node.col_offset += column - 1
        if getattr(node, "end_lineno", None) == 1:
            node.end_col_offset += column - 1
    return tree


def function_source(fn):
    """The :class:`FunctionSource` of a Python function, or None when its source is not
    available (built in the interpreter, ``exec``)."""
    try:
        lines, start = inspect.getsourcelines(fn)
        filename = inspect.getsourcefile(fn) or fn.__code__.co_filename
    except (OSError, TypeError):
        return None
    if fn.__name__ == "<lambda>":
        found = _lambda_source(fn, lines, start)
        if found is None:
            return None
        tree, line_offset, col_offset = found
        return FunctionSource(tree, filename, line_offset, col_offset)
    text = "".join(lines)
    dedented = textwrap.dedent(text)
    indent = len(lines[0]) - len(lines[0].lstrip()) if lines[0].strip() else 0
    try:
        module = ast.parse(dedented)
    except SyntaxError:
        return None
    for node in module.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == fn.__name__:
            return FunctionSource(node, filename, start - 1, indent)
    return None


#: Code objects of lambdas that ``check_entry_lambda`` accepted (weakly held).
_LAMBDAS_ON_THEIR_OWN_LINE = weakref.WeakSet()


def check_entry_lambda(fn):
    """Refuse a ``lambda`` compiled as a program of its own (``jit(lambda x: ...)``, a
    GRAPH_MODE gradient of one called at top level) unless it is defined on a line of its
    own, as MindSpore 2.10 does: its parser reads the lambda's source lines as a statement
    and wants the lambda to be that statement's value (``f = lambda x: ...``); one written
    inside a call (``jit(lambda x: x * 2)``) or a tuple is a ``TypeError``, and one starting
    inside an open bracket that closes on a later line does not parse (``SyntaxError``).
    Lambdas inside a compiled function are parsed with it and are not concerned; nor is a
    lambda whose source cannot be read.  refms itself could compile them all.

    A lambda that passed is remembered (by its code object), so that calling a jitted
    lambda does not read and parse its source file again on every call."""
    if getattr(fn, "__name__", None) != "<lambda>":
        return
    code = getattr(fn, "__code__", None)
    if code in _LAMBDAS_ON_THEIR_OWN_LINE:
        return
    try:
        text = textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError):
        return
    statement = ast.parse(text).body[0]      # a SyntaxError is what MindSpore raises too
    value = getattr(statement, "value", statement)
    if not isinstance(value, ast.Lambda):
        raise TypeError(
            f"cannot compile this lambda as a function of its own: a lambda compiled by itself "
            f"(passed to jit, or differentiated in GRAPH_MODE) must be defined on a line of "
            f"its own, as 'f = lambda ...', but its line holds a "
            f"{type(value).__name__} expression ({text.strip()[:80]!r}). Assign the lambda to "
            f"a name first, or use a def.")
    if code is not None:
        _LAMBDAS_ON_THEIR_OWN_LINE.add(code)
