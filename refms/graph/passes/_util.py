"""Facts about nodes that several passes need: callee values, effects, users."""
from ...ops.primitive import Primitive
from .. import graph_ops as G
from ..ir import CNode, FuncGraph, ValueNode

__all__ = ["callee_value", "is_primitive_call", "has_effect", "graph_has_effect"]


def callee_value(node):
    """The constant callee of a cnode (a Primitive, graph op or FuncGraph), or None."""
    callee = node.inputs[0]
    return callee.value if isinstance(callee, ValueNode) else None


def is_primitive_call(node):
    return isinstance(node, CNode) and isinstance(callee_value(node), Primitive)


def graph_has_effect(graph, seen=None):
    """Whether running ``graph`` may have an effect (prints, raises, writes a Parameter)."""
    seen = set() if seen is None else seen
    if id(graph) in seen:
        return False
    seen.add(id(graph))
    return any(has_effect(node, seen) for node in graph.order)


def has_effect(node, seen=None):
    """Whether a cnode may have an effect: effectful primitives and graph ops, calls of
    graphs that have one, and calls of run-time function values (unknown)."""
    callee = callee_value(node)
    if isinstance(callee, Primitive):
        return callee.has_side_effect
    if isinstance(callee, G.GraphOp):
        return callee.effect
    if isinstance(callee, FuncGraph):
        return graph_has_effect(callee, seen)
    if callee is None:                         # a call of a Switch/Partial result
        fn = node.inputs[0]
        if isinstance(fn, CNode) and callee_value(fn) in (G.SWITCH, G.PARTIAL):
            return any(graph_has_effect(i.value, seen) for i in fn.inputs[1:]
                       if isinstance(i, ValueNode) and isinstance(i.value, FuncGraph))
        return True
    return False
