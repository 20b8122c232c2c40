"""One forward run for ``loss = net(x)`` followed by ``grad(net)(x)`` in one graph.

A training step calls its network twice in its source::

    loss = self.network(*inputs)                               # the forward value
    grads = self.grad(self.network, self.weights)(*inputs, sens)

In PyNative the gradient reuses the recording of the first call (semantics
6.3).  In a graph the gradient is ``J(network)``, whose forward half computes
the same value again; MindSpore 2.10 runs the network once per step all the
same: a ``print`` in ``construct`` prints once, a BatchNorm in training mode
updates its moving statistics once.  This module gives refms the same result.

While a graph is built, every Cell call is *recorded* (``record``): the
graph it was emitted into, the Cell, its input nodes, the slice of the
graph's order it emitted and its result node.  When a gradient of the same
Cell on the same input nodes is taken later in the same graph
(``earlier_call``), the forward call's nodes are taken out of the order,
the ``J`` call is put in their place (``replace_forward``) and the
forward result node becomes ``J``'s first output.  So the network's nodes —
its effects included — appear once, in ``J``'s forward half.

The rewrite is made only when it cannot change what the program computes:
the result is one Tensor node emitted by the call, no node emitted since the
call has an effect (nothing wrote a weight in between) or uses one of the
call's inner nodes, and every input of the ``J`` call already exists where
the forward call began.
"""
from . import abstract as A
from . import graph_ops as G
from .ir import CNode, ValueNode
from .passes._util import has_effect

__all__ = ["CellCall", "record", "earlier_call", "replace_forward"]


class CellCall:
    """One Cell call emitted into ``graph``: ``obj(*inputs)`` made ``nodes`` (a slice of
    the graph's order starting at ``start``) and returned ``result``."""

    __slots__ = ("graph", "obj", "inputs", "start", "nodes", "result")

    def __init__(self, graph, obj, inputs, start, nodes, result):
        self.graph = graph
        self.obj = obj
        self.inputs = inputs
        self.start = start
        self.nodes = nodes
        self.result = result


def record(calls, graph, obj, inputs, start, result):
    """Note the Cell call that emitted ``graph.order[start:]`` (see the module docstring)."""
    calls.append(CellCall(graph, obj, list(inputs), start, list(graph.order[start:]), result))


def _same_input(a, b):
    if a is b:
        return True
    if isinstance(a, ValueNode) and isinstance(b, ValueNode):
        try:
            return A.const_key(a.value) == A.const_key(b.value)
        except TypeError:
            return a.value is b.value
    return False


def earlier_call(calls, graph, fn, inputs, lifted):
    """The recorded call of the Cell ``fn`` on ``inputs`` in ``graph`` whose forward nodes
    ``J(fn)`` may replace, or None (the conditions are in the module docstring)."""
    for call in reversed(calls):
        if call.graph is not graph or call.obj is not fn:
            continue
        if len(call.inputs) != len(inputs) or not all(
                _same_input(a, b) for a, b in zip(call.inputs, inputs)):
            continue
        order = graph.order
        end = call.start + len(call.nodes)
        present = order[call.start:end]
        if len(present) != len(call.nodes) or not all(
                x is y for x, y in zip(present, call.nodes)):
            return None
        result = call.result
        if not isinstance(result, CNode) or not isinstance(result.abstract, A.Abstract) \
                or not any(result is n for n in call.nodes):
            return None
        inner = {id(n) for n in call.nodes if n is not result}
        for node in order[end:]:
            if has_effect(node) or any(id(i) in inner for i in node.inputs):
                return None
        later = {id(n) for n in order[call.start:]}
        if any(id(n) in later for n in lifted):
            return None
        return call
    return None


def replace_forward(graph, call, j_call):
    """Put ``j_call`` (just appended to ``graph``) where ``call``'s nodes were and make
    ``call.result`` its first output; returns that node."""
    order = graph.order
    del order[next(k for k in range(len(order) - 1, -1, -1) if order[k] is j_call)]
    end = call.start + len(call.nodes)
    result = call.result
    result.inputs = [ValueNode(G.TUPLE_GETITEM), j_call, ValueNode(0)]
    order[call.start:end] = [j_call, result]
    return result
