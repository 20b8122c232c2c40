"""Finding a function's Python source and its ``ast`` (for the parser).

``inspect.getsource`` returns whole lines; a ``def`` is dedented and parsed
directly, a ``lambda`` is cut out of its line (it may sit inside a call that
spans several lines) by parsing the shortest text from ``lambda`` that is a
complete expression.  Line and column numbers are mapped back to the file, so
every node's :class:`~refms.graph.errors.Location` points at the real source.
"""
import ast
import inspect
import linecache
import textwrap

from .errors import Location

__all__ = ["FunctionSource", "function_source"]


class FunctionSource:
    """The ``ast`` of one function plus what is needed to locate its nodes in the file."""

    def __init__(self, tree, filename, line_offset, col_offset):
        self.tree = tree                      # ast.FunctionDef or ast.Lambda
        self.filename = filename
        self.line_offset = line_offset        # file line = ast line + line_offset
        self.col_offset = col_offset          # file column = ast column + col_offset (first line
                                              # of a lambda) or + dedent width (a def)

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


def _lambda_source(fn, lines, start):
    """Cut the lambda defined at ``fn.__code__.co_firstlineno`` out of ``lines``."""
    code = fn.__code__
    names = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    first = code.co_firstlineno
    text_lines = lines[first - start:]
    head = text_lines[0]
    column = head.find("lambda")
    while column != -1:
        rest = head[column:] + "".join(text_lines[1:20])
        for end in range(len(rest), 0, -1):
            try:
                tree = ast.parse(rest[:end], mode="eval")
            except SyntaxError:
                continue
            if isinstance(tree.body, ast.Lambda):
                args = tree.body.args
                found = tuple(a.arg for a in args.posonlyargs + args.args + args.kwonlyargs)
                if found == tuple(names):
                    return tree.body, first - 1, column
            break
        column = head.find("lambda", column + 1)
    return None


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
