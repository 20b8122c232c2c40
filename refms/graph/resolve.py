"""Name resolution: replace every ``resolve(namespace, name)`` by the object it names.

The parser leaves each free name of a function as ``resolve(NameSpace, Symbol)``
(MindSpore prints the same node in ``00_bootstrap``).  This pass looks each one
up the way Python would at the call — the function's closure cells, then its
module's globals, then builtins — and puts the object in a ValueNode:
sub-cells, Primitives, functions, modules such as ``numpy``.  A few builtins
have a graph meaning and are swapped for it (:data:`refms.graph.builtins.GRAPH_BUILTINS`:
``print`` becomes the Print op, ``max`` of Tensors a ``Maximum``…).

JIT Fallback then needs nothing special: ``np.array([1, 2, 3])`` is a call of a
resolved numpy function on constants, which inference evaluates at compile
time (SEMANTICS.md 7.3).

:func:`parsed_graph` parses and resolves a function once and caches the result.
"""
import builtins as _builtins
import threading
import weakref

from . import graph_ops as G
from .builtins import graph_version
from .ir import CNode, ValueNode, graphs_of

__all__ = ["resolve", "lookup", "parsed_graph", "clear_cache"]

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
    from .errors import note_location
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


def parsed_graph(fn):
    """The parsed and resolved graph of the user function ``fn`` (cached); None when its
    source is not available."""
    from .parser import parse_function
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
    if graph is not None:
        resolve(graph)
    with _LOCK:
        if weak:
            graph = _CACHE.setdefault(fn, graph)
        else:
            _STRONG[id(fn)] = (fn, graph)
    return graph


def clear_cache():
    with _LOCK:
        _CACHE.clear()
        _STRONG.clear()
