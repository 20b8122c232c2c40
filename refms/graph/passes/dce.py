"""Dead-code elimination: drop nodes whose value no one uses and that have no effect.

Rationale: after inlining and folding, many nodes (unused tuple items, the
forward values a gradient did not need) compute results nobody reads.

Algorithm: mark and sweep per graph.  Roots are the graph's output and its
effect nodes (prints, raises, Parameter writes, random draws); walking the
order backwards, a live node makes its inputs live — and a live node that
mentions a nested graph makes that graph's free variables live.  Graphs no
longer reachable from the entry disappear with the nodes that mentioned them.
"""
from ..clone import children_index, scope_of
from ..ir import CNode, graphs_of, is_graph_value
from ._util import effectful_graphs, has_effect

NAME = "dce"
RATIONALE = "a node whose value no one uses, and that has no effect, need not run"


def _outer_uses(graph, children):
    """Nodes of other graphs used by ``graph`` or the graphs nested in it."""
    used = []
    scope = scope_of(graph, children)
    for g in scope:
        for node in g.order:
            for i in node.inputs:
                if isinstance(i, CNode) and not i.graph.is_inside(graph):
                    used.append(i)
        out = g.output
        if isinstance(out, CNode) and not out.graph.is_inside(graph):
            used.append(out)
    return used


def run(entry):
    changed = True
    while changed:
        changed = False
        graphs = graphs_of(entry)
        children = children_index(graphs)
        effects = effectful_graphs(graphs)
        nested_uses = {}
        live = set()
        for graph in graphs:
            if isinstance(graph.output, CNode):
                live.add(id(graph.output))
        # a node is live when used by a live node of any graph: iterate over all graphs
        # until no new node becomes live
        growing = True
        while growing:
            growing = False
            for graph in graphs:
                for node in reversed(graph.order):
                    if id(node) not in live and not has_effect(node, effects=effects):
                        continue
                    if id(node) not in live:
                        live.add(id(node))
                        growing = True
                    for i in node.inputs:
                        if isinstance(i, CNode) and id(i) not in live:
                            live.add(id(i))
                            growing = True
                        if is_graph_value(i):
                            uses = nested_uses.get(id(i.value))
                            if uses is None:
                                uses = nested_uses[id(i.value)] = _outer_uses(i.value, children)
                            for used in uses:
                                if id(used) not in live:
                                    live.add(id(used))
                                    growing = True
        for graph in graphs:
            kept = [n for n in graph.order if id(n) in live]
            if len(kept) != len(graph.order):
                graph.order = kept
                changed = True
    return entry
