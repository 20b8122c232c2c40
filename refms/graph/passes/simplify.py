"""Algebraic simplification of the graph ops: take apart what was just built.

Rationale: a tuple built and at once indexed (``TupleGetItem(MakeTuple(a, b), 0)``),
or a function bound and at once called (``Partial(f, a)(b)``), costs nodes and
hides the data flow from the other passes (MindSpore's ``tuple_getitem``
and ``partial`` eliminators in ``opt_a``).

Rules:

* ``TupleGetItem(MakeTuple(x0, …, xn), i)`` → ``xi`` (also ``getitem`` of a list);
* ``TupleGetItem(constant tuple, i)`` → the constant ``value[i]``;
* ``Partial(f, a…)(b…)`` → ``f(a…, b…)``.
"""
from .. import abstract as A
from .. import graph_ops as G
from ..clone import NodeMapping, replace_uses
from ..ir import CNode, ValueNode, graphs_of

NAME = "simplify"
RATIONALE = "a tuple built and at once taken apart costs nodes and hides the data flow"


def _callee(node):
    head = node.inputs[0]
    return head.value if isinstance(head, ValueNode) else None


def _getitem_source(node):
    """The element a TupleGetItem picks, when it can be known statically."""
    if _callee(node) is not G.TUPLE_GETITEM:
        return None
    source, index = node.inputs[1], node.inputs[2]
    if not isinstance(index, ValueNode) or not isinstance(index.value, int):
        return None
    k = index.value
    if isinstance(source, CNode) and _callee(source) in (G.MAKE_TUPLE, G.MAKE_LIST):
        return source.inputs[1 + k]
    if isinstance(source, CNode) and _callee(source) is G.MAKE_DICT:
        half = (len(source.inputs) - 1) // 2
        return source.inputs[1 + half + k]
    if isinstance(source, ValueNode) and isinstance(source.value, (tuple, list)):
        value = source.value[k]
        return ValueNode(value, abstract=A.Const(value), loc=node.loc)
    return None


def rewrite(entry):
    """Apply the rules once everywhere; True when something changed."""
    graphs = graphs_of(entry)
    mapping = NodeMapping()
    changed = False
    for graph in graphs:
        kept = []
        for node in graph.order:
            for k, i in enumerate(node.inputs):
                while id(i) in mapping:
                    i = mapping[id(i)]
                node.inputs[k] = i
            element = _getitem_source(node)
            if element is not None:
                mapping.replace(node, element)
                changed = True
                continue
            head = node.inputs[0]
            if isinstance(head, CNode) and _callee(head) is G.PARTIAL:
                node.inputs = head.inputs[1:] + node.inputs[1:]
                changed = True
            kept.append(node)
        graph.order = kept
    replace_uses(graphs, mapping)
    return changed


def run(entry):
    while rewrite(entry):
        pass
    return entry
