"""Copying graphs: the primitive step of inlining and of preparing a graph for autodiff.

A graph owns its *scope*: the graphs nested in it (whose parent chain reaches
it) refer to its nodes as free variables, so a copy must copy them too and
redirect those references (MindSpore's ``Cloner``).  Two uses:

* ``clone_graph`` — an independent copy of a top-level graph and its scope;
* ``inline_body`` — a graph's cnodes copied *into* another graph at a call
  site, its parameters replaced by the call's arguments; the graphs nested in
  it are copied with the host graph as their new parent.
"""
from . import abstract as A
from .ir import CNode, FuncGraph, ValueNode, graphs_of

__all__ = ["clone_graph", "clone_program", "inline_body", "scope_of", "children_index", "replace_uses",
           "NodeMapping"]


def scope_of(root, children=None):
    """``root`` and the graphs nested in it (directly or deeper), root first.

    ``children``: an index ``id(graph) -> graphs whose parent it is`` (see
    :func:`children_index`); with it the cost is the size of the scope, without it a walk
    of the whole program."""
    if children is None:
        return [g for g in graphs_of(root) if g.is_inside(root)]
    result, stack, seen = [], [root], set()
    while stack:
        graph = stack.pop()
        if id(graph) in seen:
            continue
        seen.add(id(graph))
        result.append(graph)
        stack.extend(reversed(children.get(id(graph), ())))
    return result


def children_index(graphs):
    """``id(graph) -> [graphs whose parent it is]`` over ``graphs``."""
    children = {}
    for graph in graphs:
        if graph.parent is not None:
            children.setdefault(id(graph.parent), []).append(graph)
    return children


class _Cloner:
    def __init__(self, pending=None):
        self.nodes = {}
        self.graphs = {}
        self.pending = pending or {}     # replacements a pass has decided but not yet applied

    def node(self, node):
        seen = 0
        while id(node) in self.pending and seen < 1000:
            node = self.pending[id(node)]
            seen += 1
        if isinstance(node, ValueNode) and isinstance(node.value, FuncGraph):
            target = self.graphs.get(id(node.value))
            if target is not None:
                return ValueNode(target, abstract=_retarget(node.abstract, target), loc=node.loc)
            return node
        return self.nodes.get(id(node), node)

    def copy_graphs(self, graphs, host=None, root=None):
        """Create the copies (parameters and cnodes) of ``graphs``; ``root``'s cnodes go into
        ``host`` when inlining."""
        for graph in graphs:
            if graph is root and host is not None:
                continue
            copy = FuncGraph(graph.name, parent=None, loc=graph.loc)
            copy.flags = dict(graph.flags)
            copy.signature = graph.signature
            self.graphs[id(graph)] = copy
        for graph in graphs:
            if graph is root and host is not None:
                continue
            copy = self.graphs[id(graph)]
            if graph.parent is not None:
                if graph.parent is root and host is not None:
                    copy.parent = host
                else:
                    copy.parent = self.graphs.get(id(graph.parent), graph.parent)
            for param in graph.params:
                self.nodes[id(param)] = copy.add_param(param.name, param.abstract, param.loc)
        created = []
        for graph in graphs:
            target = host if (graph is root and host is not None) else self.graphs[id(graph)]
            for node in graph.order:
                copy = CNode(target, node.inputs, node.name, node.abstract, node.loc)
                self.nodes[id(node)] = copy
                created.append((graph, copy))
        for graph, copy in created:
            copy.inputs = [self.node(i) for i in copy.inputs]
        for graph in graphs:
            if graph is root and host is not None:
                continue
            target = self.graphs[id(graph)]
            target.order = [self.nodes[id(n)] for n in graph.order]
            target.output = self.node(graph.output)
        return created


def _retarget(abstract, graph):
    if isinstance(abstract, A.AbstractGraph):
        return A.AbstractGraph(graph)
    return abstract


def clone_graph(root):
    """An independent copy of the top-level graph ``root`` and of its scope; returns
    (copy, mapping id(old graph) -> new graph)."""
    cloner = _Cloner()
    cloner.copy_graphs(scope_of(root))
    return cloner.graphs[id(root)], cloner.graphs


def _referenced(root):
    """``root`` and the graphs it mentions as constants, theirs, and so on (not the parents
    of those graphs: an enclosing graph is not part of a program that only reads its nodes)."""
    seen, result, stack = set(), [], [root]
    while stack:
        graph = stack.pop()
        if id(graph) in seen:
            continue
        seen.add(id(graph))
        result.append(graph)
        for node in graph.order + [graph.output]:
            inputs = node.inputs if isinstance(node, CNode) else [node]
            stack.extend(i.value for i in inputs
                         if isinstance(i, ValueNode) and isinstance(i.value, FuncGraph))
    return result


def clone_program(root):
    """An independent copy of ``root`` and of every graph it reaches (the graphs it calls,
    theirs, and so on, not only its scope): passes may then rewrite the copy in place without
    touching graphs that other programs share (a Cell's specialized ``construct`` called both
    directly and under a gradient).  A copied closure of a graph outside the copy keeps
    that graph as its parent.  Returns the copy of ``root``."""
    cloner = _Cloner()
    cloner.copy_graphs(_referenced(root))
    return cloner.graphs[id(root)]


def inline_body(callee, host, args, pending=None, children=None):
    """Copy ``callee``'s cnodes into ``host`` with its parameters bound to ``args`` (nodes of
    ``host``); returns (the new cnodes in order, the node standing for the call's result).
    ``pending``: the replacements (``id(node) -> node``) the caller has decided but not yet
    applied to the graphs; the copies use the replacements.  ``children``: the index of
    nested graphs (:func:`children_index`), updated with the copies."""
    cloner = _Cloner(pending)
    for param, arg in zip(callee.params, args):
        cloner.nodes[id(param)] = arg
    cloner.copy_graphs(scope_of(callee, children), host=host, root=callee)
    if children is not None:
        for copy in cloner.graphs.values():
            children.setdefault(id(copy.parent), []).append(copy)
    body = [cloner.nodes[id(n)] for n in callee.order]
    return body, cloner.node(callee.output)


class NodeMapping(dict):
    """``id(node) -> replacement`` for :func:`replace_uses`, keeping each replaced node alive:
    a node dropped from its graph and used nowhere else would otherwise be freed, and a node
    created later could get its id — and be redirected by mistake."""

    def __init__(self):
        super().__init__()
        self._replaced = []

    def replace(self, node, replacement):
        self[id(node)] = replacement
        self._replaced.append(node)


def replace_uses(graphs, mapping):
    """Redirect every use of a node in ``mapping`` (id -> replacement), following chains."""
    if not mapping:
        return

    def final(node):
        seen = 0
        while id(node) in mapping and seen < 1000:
            node = mapping[id(node)]
            seen += 1
        return node
    for graph in graphs:
        for node in graph.order:
            node.inputs = [final(i) for i in node.inputs]
        graph.output = final(graph.output)

