"""Facts about nodes that several passes need: callee values, effects, users, and which
values are a Parameter's state."""
from ...ops.primitive import Primitive
from ...parameter import Parameter
from .. import abstract as A
from .. import graph_ops as G
from ..ir import CNode, FuncGraph, ValueNode

__all__ = ["callee_value", "is_primitive_call", "has_effect", "graph_has_effect",
           "effectful_graphs", "parameter_of", "reads_parameter"]


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


def has_effect(node, seen=None, effects=None):
    """Whether a cnode may have an effect: effectful primitives and graph ops, calls of
    graphs that have one, and calls of run-time function values (unknown).  ``effects``:
    the ids of the effectful graphs (:func:`effectful_graphs`), when already known."""
    callee = callee_value(node)
    if isinstance(callee, Primitive):
        return callee.has_side_effect
    if isinstance(callee, G.GraphOp):
        return callee.effect
    if isinstance(callee, FuncGraph):
        if effects is not None:
            return id(callee) in effects
        return graph_has_effect(callee, seen)
    if callee is None:                         # a call of a Switch/Partial result
        fn = node.inputs[0]
        if isinstance(fn, CNode) and callee_value(fn) in (G.SWITCH, G.PARTIAL):
            graphs = [i.value for i in fn.inputs[1:]
                      if isinstance(i, ValueNode) and isinstance(i.value, FuncGraph)]
            if effects is not None:
                return any(id(g) in effects for g in graphs)
            return any(graph_has_effect(g, seen) for g in graphs)
        return True
    return False


def effectful_graphs(graphs):
    """ids of the graphs among ``graphs`` whose run may have an effect: a least fixpoint
    (a graph has one when one of its nodes does, calls of graphs read from the set so far),
    linear in the program per round instead of a walk per node."""
    effects = set()
    changed = True
    while changed:
        changed = False
        for graph in graphs:
            if id(graph) not in effects and any(has_effect(n, effects=effects)
                                                for n in graph.order):
                effects.add(id(graph))
                changed = True
    return effects


def parameter_of(node):
    """The refms Parameter whose state ``node``'s value is, or None.

    A weight, or a value known to be one (a graph parameter a weight is passed to, an item
    of a tuple holding one), is typed by inference as the constant Parameter, and by lambda
    lifting as ``AbstractRef`` (refms.graph.abstract) — MindSpore's ``Ref`` type; it is
    read when a primitive using it runs, not when it is named: its
    value is the Parameter's value at that moment (MindSpore's ``Load(param, U)``).
    """
    if isinstance(node, ValueNode) and isinstance(node.value, Parameter):
        return node.value
    abstract = node.abstract
    if isinstance(abstract, A.Const) and isinstance(abstract.value, Parameter):
        return abstract.value
    if isinstance(abstract, A.AbstractRef):      # a lifted weight (autodiff's programs)
        return abstract.parameter
    return None


def reads_parameter(node):
    """Whether the cnode ``node`` reads the state of a Parameter through one of its inputs:
    its result depends on *when* it runs, so it may not be merged with, or moved past, a
    node that may write that Parameter."""
    return any(parameter_of(i) is not None for i in node.inputs[1:])
