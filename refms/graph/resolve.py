"""Name resolution: replace every ``resolve(namespace, name)`` by the object it names.

The parser leaves each free name of a function as ``resolve(NameSpace, Symbol)``
(MindSpore prints the same node in ``00_bootstrap``).  This pass looks each one
up the way Python would at the call — the function's closure cells, then its
module's globals, then builtins — and puts the object in a ValueNode:
sub-cells, Primitives, functions, modules such as ``numpy``.  A few builtins
have a graph meaning and are swapped for it (``refms.graph.builtins.GRAPH_BUILTINS``:
``print`` becomes the Print op, ``max`` of Tensors a ``Maximum``…).

JIT Fallback then needs nothing special: ``np.array([1, 2, 3])`` is a call of a
resolved numpy function on constants, which inference evaluates at compile
time (semantics 7.3).

``front_end`` parses and resolves a function once and caches the result — the
resolved graph inference reads, and a copy of the graph as parsed, for the ``parse``
stage of the dumps (the compiler never parses a function a second time to show it).
"""
import builtins as _builtins
import threading
import weakref

from . import graph_ops as G
from .builtins import graph_version
from .clone import clone_graph
from .errors import note_location
from .ir import CNode, ValueNode, graphs_of
from .parser import parse_function

__all__ = ["resolve", "lookup", "front_end", "parsed_graph", "FrontEnd", "clear_cache"]

_MISSING = object()

#: function -> resolved graph, under a weak reference to the function: a dropped function
#: (a closure and whatever it captured) is not kept alive by having been compiled.
_CACHE = weakref.WeakKeyDictionary()
#: Functions that cannot be weakly referenced: id -> (function, graph), kept alive.
_STRONG = {}
_LOCK = threading.Lock()


def lookup(namespace, name):
    """The object ``name`` denotes for the parsed function (closure, globals, builtins)."""
    cell = namespace.closure.get(name)
    if cell is not None:
        try:
            return cell.cell_contents
        except ValueError:
            raise NameError(f"free variable '{name}' referenced before assignment in "
                            f"enclosing scope") from None
    value = namespace.globals.get(name, _MISSING)
    if value is _MISSING:
        value = getattr(_builtins, name, _MISSING)
    if value is _MISSING:
        raise NameError(f"name '{name}' is not defined")
    return graph_version(value)


def _is_resolve(node):
    return (isinstance(node, CNode) and isinstance(node.inputs[0], ValueNode)
            and node.inputs[0].value is G.RESOLVE)


def resolve(entry):
    """Replace the ``resolve`` cnodes of every graph reachable from ``entry``, in place."""
    graphs = graphs_of(entry)
    replaced = {}
    for graph in graphs:
        kept = []
        for node in graph.order:
            if _is_resolve(node):
                namespace, symbol = node.inputs[1].value, node.inputs[2].value
                try:
                    value = lookup(namespace, symbol.name)
                except NameError as error:
                    note_location(error, node.loc)
                    raise
                replaced[id(node)] = ValueNode(value, loc=node.loc)
            else:
                kept.append(node)
        graph.order = kept
    for graph in graphs:
        for node in graph.order:
            node.inputs = [replaced.get(id(i), i) for i in node.inputs]
        graph.output = replaced.get(id(graph.output), graph.output)
        if graph.signature is not None:
            sig = graph.signature
            sig.defaults = [(k, replaced.get(id(v), v) if k == "node" else v)
                            for k, v in sig.defaults]
            sig.kw_defaults = {name: (k, replaced.get(id(v), v) if k == "node" else v)
                               for name, (k, v) in sig.kw_defaults.items()}
    return entry


class FrontEnd:
    """A user function after the compiler's front end: ``parsed`` (a copy of the graph as
    the parser left it, for the dumps) and ``resolved`` (what inference reads)."""

    __slots__ = ("parsed", "resolved")

    def __init__(self, parsed, resolved):
        self.parsed = parsed
        self.resolved = resolved


_NOT_PARSED = FrontEnd(None, None)


def front_end(fn):
    """Parse and resolve the user function ``fn`` once (cached); a :class:`FrontEnd` whose
    graphs are None when its source is not available."""
    with _LOCK:
        try:
            if fn in _CACHE:
                return _CACHE[fn]
            weak = True
        except TypeError:                     # not weakly referenceable
            weak = False
            cached = _STRONG.get(id(fn))
            if cached is not None and cached[0] is fn:
                return cached[1]
    graph = parse_function(fn)
    if graph is None:
        record = _NOT_PARSED
    else:
        parsed, _ = clone_graph(graph)
        record = FrontEnd(parsed, resolve(graph))
    with _LOCK:
        if weak:
            record = _CACHE.setdefault(fn, record)
        else:
            _STRONG[id(fn)] = (fn, record)
    return record


def parsed_graph(fn):
    """The parsed and resolved graph of the user function ``fn`` (cached); None when its
    source is not available."""
    return front_end(fn).resolved


def clear_cache():
    with _LOCK:
        _CACHE.clear()
        _STRONG.clear()
