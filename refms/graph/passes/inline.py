"""Inlining: replace a call of a graph by a copy of the graph's body.

Rationale: a graph call costs a frame at run time and hides the callee's
nodes from the other passes; after inlining, constant folding, CSE, DCE and
fusion see one straight-line graph.

A call ``%n = call @g(args)`` whose callee is a known, non-recursive graph is
replaced by ``g``'s cnodes copied into the caller (``refms.graph.clone.inline_body``);
in a big program a graph called from several places (the code after a run-time ``if``)
is copied only when it is small, so that the program stops growing exponentially
(``SHARED_INLINE_LIMIT``).
Graphs on a cycle of references (a loop's header and body) are kept, as are
the branches of a run-time ``Switch`` (they are not direct callees).  With
``keep_units``, graphs flagged as a unit of autodiff (``custom_bprop``,
``backward_hooks``: a Cell whose gradient is its own) stay whole so that graph
autodiff can find them.  Inlining and :mod:`~refms.graph.passes.simplify`
alternate until neither changes anything.
"""
from ..clone import NodeMapping, children_index, inline_body, replace_uses, scope_of
from ..ir import graphs_of, is_graph_value
from . import simplify

#: Flags of graphs that graph autodiff treats as one unit.
UNIT_FLAGS = ("custom_bprop", "backward_hooks")

NAME = "inline"
RATIONALE = "a graph call costs a frame and hides its body from the other passes"


def references(graph):
    """The graphs ``graph`` mentions as constants."""
    found = []
    for node in graph.order:
        for i in node.inputs:
            if is_graph_value(i):
                found.append(i.value)
    if is_graph_value(graph.output):
        found.append(graph.output.value)
    return found


def cyclic_graphs(graphs):
    """ids of the graphs that can reach themselves through references (recursion, loops):
    the graphs in a strongly connected component with a cycle (Tarjan's algorithm, iterative,
    linear in the number of references)."""
    edges = {id(g): [id(h) for h in references(g)] for g in graphs}
    index, low, on_stack, stack, cyclic = {}, {}, set(), [], set()
    counter = 0
    for graph in graphs:
        root = id(graph)
        if root in index:
            continue
        work = [(root, iter(edges.get(root, ())))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            advanced = False
            for succ in successors:
                if succ not in edges:
                    continue
                if succ not in index:
                    index[succ] = low[succ] = counter
                    counter += 1
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(edges[succ])))
                    advanced = True
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in edges.get(node, ()):
                    cyclic.update(component)
    return cyclic


#: In a program of more than SMALL_PROGRAM nodes, a graph called from several places (the
#: code after an ``if`` on a Tensor is called from both branches) is copied into each only
#: when it has at most SHARED_INLINE_LIMIT nodes: copying bigger ones into every caller
#: would grow the program exponentially (and so on for each ``if``).
SHARED_INLINE_LIMIT = 16
SMALL_PROGRAM = 1000


def reference_counts(graphs):
    """``id(graph) -> how many times it is mentioned`` over ``graphs``."""
    counts = {}
    for graph in graphs:
        for callee in references(graph):
            counts[id(callee)] = counts.get(id(callee), 0) + 1
    return counts


def _scope_size(graph, children):
    """The number of nodes a copy of ``graph`` makes: its own and its nested graphs'."""
    return sum(len(g.order) for g in scope_of(graph, children))


def _is_unit(graph):
    return any(graph.flags.get(flag) is not None for flag in UNIT_FLAGS)


def inline_once(entry, keep_units=False):
    graphs = graphs_of(entry)
    children = children_index(graphs)
    cyclic = cyclic_graphs(graphs)
    counts = reference_counts(graphs)
    small_program = sum(len(g.order) for g in graphs) <= SMALL_PROGRAM
    mapping = NodeMapping()
    changed = False
    modified = set()        # graphs changed this round: copied next round, once uses are redirected

    def final(node):
        while id(node) in mapping:
            node = mapping[id(node)]
        return node

    for graph in graphs:
        new_order = []
        for node in graph.order:
            callee = node.inputs[0]
            if (is_graph_value(callee) and id(callee.value) not in cyclic
                    and id(callee.value) not in modified and callee.value is not graph and len(node.inputs) - 1 == len(callee.value.params)
                    and not (keep_units and _is_unit(callee.value))
                    and (counts.get(id(callee.value), 0) <= 1 or small_program
                         or _scope_size(callee.value, children) <= SHARED_INLINE_LIMIT)):
                args = [final(i) for i in node.inputs[1:]]
                body, result = inline_body(callee.value, graph, args, mapping, children)
                new_order.extend(body)
                mapping.replace(node, result)
                modified.add(id(graph))
                changed = True
            else:
                new_order.append(node)
        graph.order = new_order
    replace_uses(graphs_of(entry), mapping)
    return changed


def run(entry, keep_units=False):
    while True:
        changed = inline_once(entry, keep_units)
        changed = simplify.rewrite(entry) or changed
        if not changed:
            return entry
