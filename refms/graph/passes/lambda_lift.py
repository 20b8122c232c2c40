"""Closure conversion by lambda lifting: every graph's free variables become parameters.

Algorithm: Johnsson, "Lambda Lifting: Transforming Programs to Recursive
Equations" (1985); MindSpore runs the same step as ``cconv``.

Rationale: a closed graph (one that uses no node of another graph) can be
called from anywhere, run without a chain of environments, and — what graph
autodiff needs — differentiated on its own, because every value flowing in
is a parameter whose gradient it returns.

1. *Free variables*: a graph's direct free variables are the nodes of other
   graphs its cnodes use; a graph also needs those of the graphs it refers to
   (minus its own nodes).  Iterate to a fixpoint (loops refer to themselves).
2. *Groups*: the two branches of one ``Switch`` are called with the same
   arguments, so they get the union of their free variables (in one order).
3. *Rewrite*: each lifted graph gets one new parameter per free variable,
   placed before its own parameters, and drops its parent; each call site
   passes the free variables first.  A graph used as a value rather than
   called becomes ``Partial(@g, free variables…)``.

With ``lift_weights`` the weights (parameters with a default) count as free
variables too, so that a graph's gradient includes the weights'; the entry's
own free variables (a closure's, or weights) then become trailing parameters,
listed in ``entry.flags['lifted']`` for the caller to pass.  A parameter standing for a
weight is typed ``AbstractRef`` (:mod:`refms.graph.abstract`: the weight's state, a Tensor).
"""
from .. import abstract as A
from .. import graph_ops as G
from ..ir import CNode, Parameter, ValueNode, graphs_of, is_graph_value

NAME = "cconv"
RATIONALE = "closed graphs can be called from anywhere and differentiated on their own"


def _is_free_in(node, graph, lift_weights):
    if isinstance(node, Parameter):
        if node.default is not None:
            return lift_weights
        return node.graph is not graph
    if isinstance(node, CNode):
        return node.graph is not graph
    return False


def _switch_groups(graphs):
    """Union-find over graphs that are branches of one Switch."""
    parent = {}

    def find(g):
        while parent.get(id(g), g) is not g:
            g = parent[id(g)]
        return g

    for graph in graphs:
        for node in graph.order:
            head = node.inputs[0]
            if isinstance(head, ValueNode) and head.value is G.SWITCH:
                branches = [i.value for i in node.inputs[2:] if is_graph_value(i)]
                for other in branches[1:]:
                    a, b = find(branches[0]), find(other)
                    if a is not b:
                        parent[id(b)] = a
    return find


def free_variables(entry, lift_weights=False):
    """id(graph) -> ordered dict of its free variables (id -> node), at the fixpoint."""
    graphs = graphs_of(entry)
    free = {id(g): {} for g in graphs}
    for graph in graphs:
        for node in graph.order:
            for i in node.inputs:
                if _is_free_in(i, graph, lift_weights):
                    free[id(graph)].setdefault(id(i), i)
        if graph.output is not None and _is_free_in(graph.output, graph, lift_weights):
            free[id(graph)].setdefault(id(graph.output), graph.output)
    find = _switch_groups(graphs)
    changed = True
    while changed:
        changed = False
        for graph in graphs:
            mine = free[id(graph)]
            for node in graph.order:
                for i in node.inputs:
                    if is_graph_value(i) and id(i.value) in free:
                        for key, fv in list(free[id(i.value)].items()):
                            if key not in mine and _is_free_in(fv, graph, lift_weights):
                                mine[key] = fv
                                changed = True
            root = find(graph)
            if root is not graph:
                for key, fv in list(mine.items()):
                    if key not in free[id(root)]:
                        free[id(root)][key] = fv
                        changed = True
                for key, fv in list(free[id(root)].items()):
                    if key not in mine:
                        mine[key] = fv
                        changed = True
    for graph in graphs:                 # one order per Switch group: the branches' parameters
        free[id(graph)] = dict(free[id(find(graph))])     # must line up
    return free


def run(entry, lift_weights=False):
    """Lift every graph reachable from ``entry`` (and the entry's free variables when
    ``lift_weights``); returns the entry.  ``entry.flags['lifted']`` lists the
    free variables (weights, or nodes of an enclosing graph) appended to the entry's
    parameters."""
    graphs = graphs_of(entry)
    free = free_variables(entry, lift_weights)
    new_params = {}                      # id(graph) -> {id(free node): parameter}
    for graph in graphs:
        fvs = free[id(graph)]
        if graph is entry and not lift_weights:
            continue
        if not fvs:
            new_params[id(graph)] = {}
            continue
        added = {}
        for key, fv in fvs.items():
            abstract = fv.abstract
            if isinstance(fv, Parameter) and fv.default is not None:
                abstract = A.AbstractRef(fv.default)     # a Tensor: the weight's state
            name = fv.name if isinstance(fv, Parameter) else (fv.name or "fv")
            added[key] = Parameter(graph, name, abstract=abstract, loc=fv.loc)
        new_params[id(graph)] = added
        if graph is entry:
            graph.params = graph.params + list(added.values())
            graph.flags["lifted"] = list(fvs.values())
        else:
            graph.params = list(added.values()) + graph.params

    def local(graph, node):
        """What ``graph`` uses for ``node`` after lifting."""
        mine = new_params.get(id(graph), {})
        return mine.get(id(node), node)

    for graph in graphs:
        order = []
        for node in graph.order:
            node.inputs = [local(graph, i) for i in node.inputs]
            head = node.inputs[0]
            if is_graph_value(head) and free[id(head.value)]:
                extra = [local(graph, fv) for fv in free[id(head.value)].values()]
                node.inputs = [head] + extra + node.inputs[1:]
            elif isinstance(head, CNode) and _is_switch(head):
                branch = next(i.value for i in head.inputs[2:] if is_graph_value(i))
                extra = [local(graph, fv) for fv in free[id(branch)].values()]
                node.inputs = [head] + extra + node.inputs[1:]
            for k in range(1, len(node.inputs)):
                value = node.inputs[k]
                if is_graph_value(value) and free[id(value.value)] and not _is_switch(node):
                    extra = [local(graph, fv) for fv in free[id(value.value)].values()]
                    partial = CNode(graph, [ValueNode(G.PARTIAL), value] + extra,
                                    abstract=A.AbstractPartial(value.abstract, value, []),
                                    loc=node.loc)
                    order.append(partial)
                    node.inputs[k] = partial
            order.append(node)
        graph.order = order
        graph.output = local(graph, graph.output)
    for graph in graphs:
        if graph is not entry:
            graph.parent = None
    return entry


def _is_switch(node):
    head = node.inputs[0]
    return isinstance(head, ValueNode) and head.value is G.SWITCH
