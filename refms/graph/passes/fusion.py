"""Elementwise fusion: run a chain of elementwise primitives as one kernel call.

Rationale: each primitive node costs a dispatch and a temporary Tensor; a chain
like ``relu(x * w + b)`` can run as one call that keeps the intermediates as
numpy arrays (the idea of MindSpore's graph-kernel fusion, without code
generation: the fused kernel runs each primitive in turn through
``refms.ops.apply.compute``, as every executor does).

Algorithm: greedy grouping in program order.  A node joins the group of its
user when both are elementwise primitives (``Primitive.elementwise``) of the same graph and the node has
exactly one use; each group of two or more nodes becomes one
``FusedElementwise`` node whose inputs are the group's outside inputs.
Nodes with effects and non-elementwise primitives end a group.  The fused node runs
where the group's last node was, so a group that reads a Parameter is closed at the
next node with an effect (``t = x * self.w; ops.assign(self.w, v); t + 1`` keeps the
product before the write).
"""
from ...ops.apply import cast_result, compute, wrap
from ...ops.primitive import Primitive
from ..._tensor import Tensor
from .. import graph_ops as G
from ..clone import replace_uses
from ..ir import CNode, ValueNode, graphs_of, node_users
from ._util import effectful_graphs, has_effect, reads_parameter

NAME = "fusion"
RATIONALE = "a chain of elementwise primitives runs as one call: no dispatch or Tensor per step"

class FusedElementwise(G.GraphOp):
    """Several elementwise primitives run in one call.  ``steps``: a list of
    ``(primitive, refs, abstract)``; a ref is ``('in', k)`` (the k-th input),
    ``('step', j)`` (an earlier step's result) or ``('const', value)``."""

    def __init__(self, steps):
        names = "→".join(prim.name for prim, _, _ in steps)
        super().__init__(f"Fused[{names}]")
        self.steps = steps

    def constants(self):
        """The constants folded into the steps, in step order: the IR text prints them after
        the node's inputs (``Fused[Add→ReLU](%para1_z, 1.0)``), so none is hidden."""
        return [ref for _, refs, _ in self.steps for kind, ref in refs if kind == "const"]

    def run(self, *values):
        inputs = [v._value() if isinstance(v, Tensor) else v for v in values]
        return wrap(self.run_arrays(inputs), self.steps[-1][2])

    def run_arrays(self, inputs):
        """The chain on the arrays of its inputs; the last step's array, in its dtype."""
        results = []
        for prim, refs, abstract in self.steps:
            arrays = []
            for kind, ref in refs:
                if kind == "in":
                    arrays.append(inputs[ref])
                elif kind == "step":
                    arrays.append(results[ref])
                else:
                    arrays.append(ref._value() if isinstance(ref, Tensor) else ref)
            results.append(cast_result(compute(prim, arrays, abstract), abstract.dtype))
        return results[-1]


def _elementwise(node):
    if not isinstance(node, CNode):
        return False
    head = node.inputs[0]
    return (isinstance(head, ValueNode) and isinstance(head.value, Primitive)
            and head.value.elementwise and hasattr(node.abstract, "dtype"))


def run(entry):
    graphs = graphs_of(entry)
    users = node_users(graphs)
    effects = effectful_graphs(graphs)
    mapping, fused_away = {}, []          # fused_away keeps replaced nodes (and their ids) alive
    for graph in graphs:
        groups = {}
        closed = set()                    # groups no later node may join
        for node in graph.order:
            if has_effect(node, effects=effects):
                closed.update(root for root, members in groups.items()
                              if any(reads_parameter(m) for m in members))
            if not _elementwise(node):
                continue
            members = []
            for i in node.inputs[1:]:
                uses = users.get(id(i), [])
                if (id(i) in groups and id(i) not in closed and len(uses) == 1
                        and uses[0][0] is node):
                    members.extend(groups.pop(id(i)))
            members.append(node)
            groups[id(node)] = members
        replaced = {}
        for root_id, members in groups.items():
            if len(members) < 2:
                continue
            root = members[-1]
            index = {id(m): k for k, m in enumerate(members)}
            outside, outside_index, steps = [], {}, []
            for member in members:
                refs = []
                for i in member.inputs[1:]:
                    if id(i) in index:
                        refs.append(("step", index[id(i)]))
                    elif isinstance(i, ValueNode):
                        refs.append(("const", i.value))
                    else:
                        if id(i) not in outside_index:
                            outside_index[id(i)] = len(outside)
                            outside.append(i)
                        refs.append(("in", outside_index[id(i)]))
                steps.append((member.inputs[0].value, refs, member.abstract))
            fused = CNode(graph, [ValueNode(FusedElementwise(steps))] + outside, root.name,
                          root.abstract, root.loc)
            replaced[id(root)] = fused
            for member in members[:-1]:
                replaced[id(member)] = None
        if not replaced:
            continue
        order = []
        for node in graph.order:
            if id(node) in replaced:
                if replaced[id(node)] is not None:
                    order.append(replaced[id(node)])
            else:
                order.append(node)
        fused_away.extend(graph.order)
        graph.order = order
        mapping.update((k, v) for k, v in replaced.items() if v is not None)
    replace_uses(graphs, mapping)
    return entry
