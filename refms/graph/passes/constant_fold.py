"""Constant folding: run at compile time what gives the same result on every run.

Rationale: a primitive whose inputs are all constants (a Tensor built by JIT
Fallback, ``Tensor(2.0) * 3``) computes the same value each time the graph
runs; computing it once, here, removes the node.

Folded: calls of pure primitives (no effect, no randomness) whose inputs are
all ValueNodes other than weights — weights are read at run time; primitives
whose result depends only on their input's shape and dtype (``ZerosLike``,
``OnesLike``: a gradient's seed), which inference already knows; and
``Switch`` on a constant condition.  The result is a ValueNode holding the
Tensor, computed with the same kernel the executor would use.
"""
import numpy as np

from ...ops.primitive import Primitive
from ..._tensor import Tensor
from .. import abstract as A
from .. import graph_ops as G
from ..clone import NodeMapping, replace_uses
from ..executor import run_primitive
from ..ir import Parameter, ValueNode, graphs_of

NAME = "constant_fold"
RATIONALE = "a primitive of constants gives the same result every run: compute it once, now"


def _constant(node):
    if not isinstance(node, ValueNode):
        return False
    value = node.value
    if isinstance(value, Tensor) and value._is_param:
        return False
    if isinstance(value, (tuple, list)):
        return all(not (isinstance(v, Tensor) and v._is_param) for v in value)
    return True


def run(entry):
    graphs = graphs_of(entry)
    mapping = NodeMapping()
    for graph in graphs:
        kept = []
        for node in graph.order:
            node.inputs = [mapping.get(id(i), i) for i in node.inputs]
            head = node.inputs[0]
            callee = head.value if isinstance(head, ValueNode) else None
            args = node.inputs[1:]
            if (isinstance(callee, Primitive) and not callee.has_side_effect
                    and all(_constant(a) for a in args)
                    and isinstance(node.abstract, (A.Abstract, A.AbstractTuple))):
                value = run_primitive(callee, [a.value for a in args], node.abstract)
                mapping.replace(node, ValueNode(value, abstract=A.Const(value), loc=node.loc))
                continue
            if (isinstance(callee, Primitive) and callee.fixed_by_input_shape
                    and isinstance(node.abstract, A.Abstract)
                    and all(d >= 0 for d in node.abstract.shape)
                    and isinstance(args[0].abstract, (A.Abstract, A.Const))):
                stand_in = Tensor._make(np.zeros(node.abstract.shape, node.abstract.dtype.np_type),
                                        node.abstract.dtype)
                value = run_primitive(callee, [stand_in], node.abstract)
                mapping.replace(node, ValueNode(value, abstract=A.Const(value), loc=node.loc))
                continue
            if callee is G.SWITCH and _constant(args[0]) and not isinstance(args[0].value, Parameter):
                chosen = args[1] if G.truth(args[0].value) else args[2]
                mapping.replace(node, chosen)
                continue
            kept.append(node)
        graph.order = kept
    replace_uses(graphs, mapping)
    return entry
