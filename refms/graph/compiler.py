"""The compiler driver: parse → resolve → infer → passes → validate, with a dump per stage.

:func:`compile_call` turns "call ``fn`` on arguments like these" into a
:class:`Compiled` program.  The stages, in the order of the dump files
``save_graphs`` writes (names after MindSpore's ``NN_<stage>_NNNN.ir``)::

    00_parse            the parsed user function (untyped, free names unresolved)
    01_resolve          names replaced by the objects they denote
    02_type_inference   the specialized, typed program (refms.graph.infer)
    03_… passes         one file per pass of refms.graph.passes.PIPELINE
    NN_validate         the final program, after verify()

``refms.graph.ir_text(fn, *args)`` returns the same text without writing files.
"""
import os
import sys
import threading

from .. import context as _context
from . import abstract as A
from . import passes as _passes
from .dot import format_dot
from .executor import run_graph
from .infer import Specializer
from .ir import ValueNode, verify
from .printer import format_program

__all__ = ["Compiled", "compile_call", "deep_recursion", "signature_key", "observe"]

_DUMP_SERIAL = [0]
#: Callables told of every compiled program (``python -m refms ir``).
_OBSERVERS = []


class observe:
    """Context manager: call ``callback(compiled)`` for every program compiled inside (with
    the text of every stage kept)."""

    def __init__(self, callback):
        self.callback = callback

    def __enter__(self):
        _OBSERVERS.append(self.callback)
        return self

    def __exit__(self, *exc):
        _OBSERVERS.remove(self.callback)
        return False


class deep_recursion:
    """Raise Python's recursion limit while compiling or running a graph: unrolled loops
    and nested graph calls recurse deeper than ordinary Python code.  The limit is one per
    process: it is raised by the first thread to enter and restored when the last leaves."""

    LIMIT = 100000
    _lock = threading.Lock()
    _inside = [0]
    _previous = [None]

    def __enter__(self):
        with self._lock:
            if self._inside[0] == 0:
                self._previous[0] = sys.getrecursionlimit()
                if self._previous[0] < self.LIMIT:
                    sys.setrecursionlimit(self.LIMIT)
            self._inside[0] += 1
        return self

    def __exit__(self, *exc):
        with self._lock:
            self._inside[0] -= 1
            if self._inside[0] == 0:
                sys.setrecursionlimit(self._previous[0])
        return False


class Compiled:
    """A compiled program: the optimized entry graph and the text of every stage."""

    def __init__(self, entry, stages, name, graphs=None):
        self.entry = entry
        self.stages = stages           # list of (stage name, entry graph text)
        self.name = name
        self.graphs = graphs or {}     # stage name -> entry graph, for Graphviz output

    def run(self, args):
        with deep_recursion():
            return run_graph(self.entry, tuple(args))

    def text(self, stage=None):
        """The dump of ``stage`` (a name like ``'type_inference'``; default: the last)."""
        if stage is None:
            return self.stages[-1][1]
        for name, text in self.stages:
            if name == stage or name.endswith("_" + stage):
                return text
        raise KeyError(f"no stage {stage!r}; stages: {[n for n, _ in self.stages]}")


def signature_key(args):
    """The compile key of run-time arguments: shapes and dtypes of Tensors, values of the rest."""
    return tuple(A.key_of(A.abstract_of(a)) for a in args)


def _dump(stages, graphs_by_stage, name):
    path = _context.get_context("save_graphs_path") or "."
    os.makedirs(path, exist_ok=True)
    for index, (stage, text) in enumerate(stages):
        _DUMP_SERIAL[0] += 1
        base = os.path.join(path, f"{index:02d}_{stage}_{_DUMP_SERIAL[0]:04d}")
        with open(base + ".ir", "w", encoding="utf-8") as handle:
            handle.write(text)
        graph = graphs_by_stage.get(stage)
        if graph is not None:
            with open(base + ".dot", "w", encoding="utf-8") as handle:
                handle.write(format_dot(graph, f"{name}: {stage}"))


def user_function(fn):
    """The Python function the parser reads for ``fn`` (a Cell's ``construct``, the function
    behind ``jit``), or None for refms library code."""
    import types
    from .api import JitFunction
    from .infer import is_user_function
    from ..nn.cell import Cell
    if isinstance(fn, Cell):
        fn = type(fn).construct
    if isinstance(fn, JitFunction):
        fn = fn.fn
    if isinstance(fn, types.MethodType):
        fn = fn.__func__
    if isinstance(fn, JitFunction):
        fn = fn.fn
    return fn if is_user_function(fn) else None


def _parse_stages(fn, stages, graphs):
    """00_parse and 01_resolve of the user function behind ``fn`` (a fresh parse)."""
    from .parser import parse_function
    from .resolve import resolve
    target = user_function(fn)
    graph = parse_function(target) if target is not None else None
    if graph is None:
        return
    stages.append(("parse", format_program(graph)))
    graphs["parse"] = graph
    resolve(graph)
    stages.append(("resolve", format_program(graph)))
    graphs["resolve"] = graph


def _check_output(abstract, name):
    """A compiled program returns data: functions stay inside the graph."""
    if isinstance(abstract, A.FUNCTION_ABSTRACTS):
        from .errors import GraphCompileError
        raise GraphCompileError(f"'{name}' returns a function: a compiled program returns "
                                f"Tensors, numbers, strings, None and tuples, lists or dicts of "
                                f"them; call the function inside instead")
    if isinstance(abstract, A.AbstractTuple):
        for item in abstract.items:
            _check_output(item, name)


def _verify(entry, stage):
    """Every stage must leave well-formed IR; a failure names the stage that broke it."""
    try:
        verify(entry)
    except Exception as error:
        error.add_note(f"(after the '{stage}' stage)")
        raise


def compile_call(fn, args, kwargs=None, name=None, names=None, keep_stages=None):
    """Compile the call ``fn(*args, **kwargs)`` for arguments like ``args``.

    ``fn``: a Cell, a jit function, a parsed user function or refms library code.
    The entry graph's parameters are the positional arguments followed by the
    keyword arguments (in the order given).
    """
    kwargs = kwargs or {}
    name = name or getattr(fn, "__name__", None) or type(fn).__name__
    dump = bool(_context.get_context("save_graphs"))
    keep = (dump or bool(_OBSERVERS)) if keep_stages is None else keep_stages
    stages, graphs = [], {}
    with deep_recursion():
        if keep:
            _parse_stages(fn, stages, graphs)
        spec = Specializer()
        abstracts = [A.abstract_of(a) for a in list(args) + list(kwargs.values())]
        recorded = getattr(fn, "recorded_target", None)
        target = fn if recorded is None else recorded
        entry = spec.graph_for_call(A.Const(target), ValueNode(target), abstracts, name,
                                    names=names, kw_names=list(kwargs))
        if recorded is None:
            _check_output(entry.output.abstract, name)
        if recorded is not None:                 # J(fn): returns (output, backpropagator)
            from ..autograd import graph_grad
            prepared, lifted = graph_grad.prepare(entry)
            entry = graph_grad.Transform(spec).J(prepared)
            entry.flags["recorded_weights"] = [node.default for node in lifted]
        if keep:
            stages.append(("type_inference", format_program(entry)))
            graphs["type_inference"] = entry
        _verify(entry, "type_inference")
        for pass_ in _passes.PIPELINE:
            entry = pass_.run(entry)
            _verify(entry, pass_.NAME)
            if keep:
                stages.append((pass_.NAME, format_program(entry)))
                graphs[pass_.NAME] = entry
        verify(entry)
        if keep:
            stages.append(("validate", format_program(entry)))
            graphs["validate"] = entry
    compiled = Compiled(entry, stages, name, graphs)
    for callback in list(_OBSERVERS):
        callback(compiled)
    if dump:
        _dump([(f"{stage}", text) for stage, text in stages], graphs, name)
    return compiled
