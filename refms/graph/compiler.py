"""The compiler driver: parse → resolve → specialize → passes → validate → execute.

``compile_call`` turns "call ``fn`` on arguments like these" into a
``Compiled`` program by running one named function per stage, in this
order; each stage's output is what its dump shows (the files ``save_graphs``
writes, named after MindSpore's ``NN_<stage>_NNNN.ir``)::

    00_parse            parse_and_resolve  the parsed user function (untyped, names unresolved)
    01_resolve                             names replaced by the objects they denote
    02_type_inference   specialize         the specialized, typed program (refms.graph.infer)
    03_… passes         optimize           one dump per pass of refms.graph.passes.PIPELINE
    NN_validate         validate           the final program: well formed, types re-checked
                        Compiled.run       the executor (refms.graph.executor)

Every stage is checked by :func:`refms.graph.ir.verify`; after inference and
after the last pass the types are re-checked against the primitives' shape
rules too (:func:`refms.graph.ir.verify_types`).  The user function is parsed
once (``refms.graph.resolve.front_end`` caches it), never again for a dump.

``refms.graph.ir_text(fn, *args)`` returns the same text without writing files.
"""
import inspect
import os
import sys
import threading
import types

import numpy as np

from .. import compat as _compat
from .. import kernels
from .. import context as _context
from .._tensor import Tensor
from . import abstract as A
from . import autodiff
from . import passes as _passes
from .dot import format_dot
from .errors import GraphCompileError
from .executor import run_graph
from .flat import plan as flat_plan
from .cells import call_rule_for
from .attributes import RestartInference, runtime_abstract
from .infer import Specializer, is_user_function
from .jit_function import JitTarget
from .ir import ValueNode, verify, verify_types
from .printer import format_program
from .resolve import front_end

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

    def __init__(self, entry, stages, name, graphs=None, guards=()):
        self.entry = entry
        #: (object, attribute name, key of its abstract) of each attribute the program reads
        #: at run time, typed by the value it had when compiled (refms.graph.attributes)
        self.guards = list(guards)
        self.stages = stages           # list of (stage name, entry graph text)
        self.name = name
        self.graphs = graphs or {}     # stage name -> entry graph, for Graphviz output
        #: The entry as a flat list of kernel calls (:mod:`refms.graph.flat`); None until the
        #: first run, False when the entry is not straight-line code (the interpreter runs it).
        self.flat = None

    def run(self, args):
        if self.flat is None:                     # planned on the first run
            self.flat = flat_plan(self.entry) or False
        if self.flat:
            return python_numbers(self.flat.run(tuple(args)))
        with deep_recursion():
            return python_numbers(parameters_copied(run_graph(self.entry, tuple(args))))

    def guards_hold(self):
        """Whether each attribute the program reads at run time still holds the kind of value
        (number type, Tensor shape and dtype) the program was compiled for."""
        return all(A.key_of(runtime_abstract(getattr(obj, name, None))) == key
                   for obj, name, key in self.guards)

    def text(self, stage=None):
        """The dump of ``stage`` (a name like ``'type_inference'``; default: the last)."""
        if stage is None:
            return self.stages[-1][1]
        for name, text in self.stages:
            if name == stage or name.endswith("_" + stage):
                return text
        raise KeyError(f"no stage {stage!r}; stages: {[n for n, _ in self.stages]}")


def parameters_copied(value):
    """A program's output with each Parameter in it (a weight the program returns) replaced
    by a Tensor holding its value now: MindSpore 2.10 returns ``self.w`` from a graph as a
    Tensor, not the Parameter (observed, tests/graph_assign_programs.py)."""
    if isinstance(value, Tensor) and value._is_param:
        return Tensor._make(kernels.call("copy")(value._value()), value.dtype)
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        copied = tuple(parameters_copied(v) for v in value)
        return value if all(c is v for c, v in zip(copied, value)) else copied
    return value


def python_numbers(value):
    """A program's output with numpy numbers made Python numbers (in tuples, lists and dicts
    too): a graph has no numpy scalar type, so MindSpore returns ``tuple(np.array([1, 2]))``
    computed in a graph as ``(1, 2)`` (MindSpore 2.10, observed).  A container with no numpy
    number is returned as it is, so a global list a program returns is that very list."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (tuple, list)) and not hasattr(value, "_fields"):
        converted = [python_numbers(v) for v in value]
        if all(c is v for c, v in zip(converted, value)):
            return value                # the same object: a global list changed in place
        return converted if isinstance(value, list) else tuple(converted)
    if isinstance(value, dict):
        converted = {k: python_numbers(v) for k, v in value.items()}
        if all(converted[k] is v for k, v in value.items()):
            return value
        return converted
    return value


def signature_key(args):
    """The compile key of run-time arguments: shapes and dtypes of Tensors, values of the rest
    (a Tensor's key is built directly: ``key_of(abstract_of(t))`` without the Abstract)."""
    return tuple(("T", tuple(a.shape), a.dtype.name, bool(a.weak)) if isinstance(a, Tensor)
                 else A.key_of(A.abstract_of(a)) for a in args)


def _dump(stages, graphs_by_stage, name):
    """Write one ``.ir`` and one ``.dot`` file per stage into ``save_graphs_path``."""
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
    rule = call_rule_for(fn)
    if rule is not None:
        fn = rule.source_function(fn)
    if isinstance(fn, JitTarget):
        fn = fn.fn
    if isinstance(fn, types.MethodType):
        fn = fn.__func__
    if isinstance(fn, JitTarget):
        fn = fn.fn
    return fn if is_user_function(fn) else None


def _check_output(abstract, name):
    """A compiled program returns data: functions stay inside the graph."""
    if isinstance(abstract, A.FUNCTION_ABSTRACTS):
        raise GraphCompileError(f"'{name}' returns a function: a compiled program returns "
                                f"Tensors, numbers, strings, None and tuples, lists or dicts of "
                                f"them; call the function inside instead")
    if isinstance(abstract, A.AbstractTuple):
        for item in abstract.items:
            _check_output(item, name)


class StageLog:
    """The dumps of one compilation: ``(stage, text)`` pairs and the graph of each stage
    (for the ``.dot`` files), recorded only when someone will read them."""

    def __init__(self, keep):
        self.keep = keep
        self.stages = []
        self.graphs = {}

    def record(self, stage, graph):
        if self.keep and graph is not None:
            self.stages.append((stage, format_program(graph)))
            self.graphs[stage] = graph


# -- the stages, in order ---------------------------------------------------------------------

def parse_and_resolve(fn, log):
    """Stages ``parse`` and ``resolve``: the user function behind ``fn`` as IR, its free
    names replaced by the objects they denote (``refms.graph.resolve.front_end``, which
    parses each function once; inference reads the same resolved graph).  refms's own code
    is not parsed: inference runs it on stand-ins."""
    target = user_function(fn)
    if target is None:
        return
    front = front_end(target)
    log.record("parse", front.parsed)
    log.record("resolve", front.resolved)


def specialize(fn, args, kwargs, name, names, log):
    """Stage ``type_inference``: the typed entry graph of the call ``fn(*args, **kwargs)``
    (:class:`refms.graph.infer.Specializer`, started again when it finds an attribute the
    program sets after reading it: :mod:`refms.graph.attributes`); for a call recorded on a
    PyNative tape, the program ``J(fn)`` returning the output and the backpropagator
    (:mod:`refms.graph.autodiff`).  Also returns the guards of the attributes the program
    reads at run time."""
    abstracts = [A.abstract_of(a) for a in list(args) + list(kwargs.values())]
    recorded = getattr(fn, "recorded_target", None)
    target = fn if recorded is None else recorded
    runtime_attributes = set()
    while True:                 # once more per attribute found to be program state
        spec = Specializer(runtime_attributes=runtime_attributes)
        try:
            entry = spec.graph_for_call(A.Const(target), ValueNode(target), abstracts, name,
                                        names=names, kw_names=list(kwargs))
            break
        except RestartInference as restart:
            runtime_attributes.add(restart.key)
    guards = list(spec.attribute_guards.values())
    if recorded is None:
        _check_output(entry.output.abstract, name)
    else:                                        # J(fn): returns (output, backpropagator)
        prepared, lifted = autodiff.prepare(entry)
        entry = autodiff.Transform(spec).J(prepared)
        entry.flags["recorded_weights"] = [node.default for node in lifted]
    log.record("type_inference", entry)
    check(entry, "type_inference", types=True)
    return entry, guards


def optimize(entry, log):
    """One stage per pass of :data:`refms.graph.passes.PIPELINE`, each leaving well-formed IR."""
    for pass_ in _passes.PIPELINE:
        entry = pass_.run(entry)
        check(entry, pass_.NAME)
        log.record(pass_.NAME, entry)
    return entry


def validate(entry, log):
    """Stage ``validate``: the final program is well formed and its types still agree with
    the primitives' shape rules after every pass (:func:`refms.graph.ir.verify_types`)."""
    check(entry, "validate", types=True)
    log.record("validate", entry)
    return entry


def check(entry, stage, types=False):
    """:func:`~refms.graph.ir.verify` (and, with ``types``, :func:`~refms.graph.ir.verify_types`);
    a failure names the stage that broke the IR."""
    try:
        verify(entry)
        if types:
            verify_types(entry)
    except Exception as error:
        error.add_note(f"(after the '{stage}' stage)")
        raise


def compile_call(fn, args, kwargs=None, name=None, names=None, keep_stages=None):
    """Compile the call ``fn(*args, **kwargs)`` for arguments like ``args``: the stages
    above, in order; the program runs with :meth:`Compiled.run` (the executor).

    ``fn``: a Cell, a jit function, a parsed user function or refms library code.
    The entry graph's parameters are the positional arguments followed by the
    keyword arguments (in the order given).
    """
    kwargs = kwargs or {}
    name = name or getattr(fn, "__name__", None) or type(fn).__name__
    dump = bool(_context.get_context("save_graphs"))
    log = StageLog((dump or bool(_OBSERVERS)) if keep_stages is None else keep_stages)
    with deep_recursion():
        parse_and_resolve(fn, log)
        entry, guards = specialize(fn, args, kwargs, name, names, log)
        entry = optimize(entry, log)
        entry = validate(entry, log)
    compiled = Compiled(entry, log.stages, name, log.graphs, guards)
    for callback in list(_OBSERVERS):
        callback(compiled)
    if dump:
        _dump(log.stages, log.graphs, name)
    return compiled


def parameter_names(fn, count):
    try:
        target = fn.construct if hasattr(fn, "construct") and hasattr(fn, "cls_name") else fn
        names = [p for p in inspect.signature(target).parameters]
    except (TypeError, ValueError):
        return None
    return names[:count]


def cache_key(args, kwargs, extra=()):
    return (signature_key(args), tuple(kwargs), signature_key(tuple(kwargs.values())),
            _compat.get_compat()) + tuple(extra)


def compile_for(fn, cache, args, kwargs, extra_key=()):
    """The compiled program of ``fn`` for these arguments (from ``cache`` when compiled)."""
    key = cache_key(args, kwargs, extra_key)
    compiled = cache.get(key)
    if compiled is None or not compiled.guards_hold():
        compiled = compile_call(fn, args, kwargs, names=parameter_names(fn, len(args)))
        cache[key] = compiled
    return compiled
