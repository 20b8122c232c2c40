"""Common-subexpression elimination: compute each identical pure expression once.

Rationale: two nodes applying the same pure callee to the same inputs produce
equal values; the second can use the first's (MindSpore's ``cse`` pass).

Algorithm: value numbering per graph, in order: a node's key is its callee and
inputs (constants by value, other nodes by identity); a later node with a key
already seen is replaced by the earlier one.  Nodes with effects (prints,
random draws, writes) never merge.  A node reading a Parameter (``x * self.w``) is
forgotten at the next node with an effect: after ``ops.assign(self.w, v)`` the same
expression reads another value (MindSpore's reads are ``Load(w, U)``, whose monad ``U``
differs after each write, so its ``cse`` cannot merge them either).
"""
from .. import abstract as A
from ..clone import NodeMapping, replace_uses
from ..ir import ValueNode, graphs_of
from ._util import effectful_graphs, has_effect, reads_parameter

NAME = "cse"
RATIONALE = "an expression computed twice from the same inputs gives the same value"


def _key(node):
    if isinstance(node, ValueNode):
        try:
            return ("v", A.const_key(node.value))
        except TypeError:
            return ("id", id(node.value))
    return ("n", id(node))


def run(entry):
    graphs = graphs_of(entry)
    effects = effectful_graphs(graphs)
    mapping = NodeMapping()
    for graph in graphs:
        seen = {}
        state_reads = []                  # keys of the nodes in `seen` that read a Parameter
        kept = []
        for node in graph.order:
            node.inputs = [mapping.get(id(i), i) for i in node.inputs]
            if has_effect(node, effects=effects):
                for key in state_reads:   # the effect may write the Parameter they read
                    del seen[key]
                state_reads = []
                kept.append(node)
                continue
            key = tuple(_key(i) for i in node.inputs)
            earlier = seen.get(key)
            if earlier is not None:
                mapping.replace(node, earlier)
                continue
            seen[key] = node
            if reads_parameter(node):
                state_reads.append(key)
            kept.append(node)
        graph.order = kept
    replace_uses(graphs, mapping)
    return entry
