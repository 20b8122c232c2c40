"""The flat executor: a straight-line graph run as a list of pre-resolved kernel calls.

Most compiled programs — a training step, a layer, a loss — are one graph
with no control flow left after optimization: every cnode calls a
primitive (or a fused elementwise chain) on parameters, weights, constants
and earlier cnodes of the same graph.  For those, the environment loop of
:mod:`refms.graph.executor` does work that could be done once: finding each
input's value (a dictionary per call, a walk up the frames), deciding what
kind of callee a node has, wrapping every intermediate result in a Tensor
and unwrapping it again for the next kernel.

``plan`` does that work at compile time (the classic "threaded code"
form of an interpreter: the program becomes a list of ready calls):

* every value gets a *slot*, an index into one list (the graph's
  parameters first, then one slot per cnode in program order);
* every call is a ``Step``: the kernel runner, the argument list with
  the constants already in place, and the slots to fill in;
* weights and Tensor constants are read when their step runs (an optimizer
  update between calls, or a Tensor changed in place, is seen);
* intermediates stay arrays of their backend, cast to the dtype inference
  gave the node; only the graph's output becomes a Tensor again;
* a slot is emptied right after the last step that reads it (liveness: each
  slot's last use is known at compile time), so a large intermediate is
  released as soon as it is dead and its memory is reused by the next
  allocation of that size, still warm in the cache, instead of every
  intermediate of a training step staying alive to the end.

The result of a step is exactly what ``refms.ops.apply.execute`` would
compute (the same casts, the same ``forward``), so a flat program and the
interpreter agree to the bit; the tests run both.  A graph that calls other
graphs, switches or closures is not flat (``plan`` returns None) and runs
on the interpreter.
"""
from .. import kernels
from ..ops.apply import cast_result, compute, unwrap, wrap
from ..ops.primitive import Primitive
from .._tensor import Tensor
from . import abstract as A
from . import graph_ops as G
from .ir import CNode, FuncGraph, Parameter, ValueNode
from .passes.fusion import FusedElementwise

__all__ = ["FlatProgram", "Step", "plan"]

#: The graph ops a flat program runs besides primitives: tuples of arrays are built and read.
_TUPLE_OPS = (G.MAKE_TUPLE, G.TUPLE_GETITEM)


def cast_like(result, abstract):
    """The raw result of a forward cast to the dtype(s) of ``abstract`` (a tuple for a
    multi-output primitive), staying an array: ``wrap`` without the Tensors."""
    if isinstance(abstract, tuple):
        return tuple(cast_like(r, a) for r, a in zip(result, abstract))
    return cast_result(result, abstract.dtype)


class Step:
    """One call: ``slots[out] = run(values, abstract)``, where ``values`` is ``template``
    with ``slots[s]`` put at position ``p`` for each ``(p, s)`` of ``fills`` and each live
    Tensor's array at position ``p`` for each ``(p, tensor)`` of ``live``; then the slots
    of ``dead`` (read for the last time here) are emptied."""

    __slots__ = ("run", "callee", "template", "fills", "live", "abstract", "out", "dead")

    def __init__(self, run, callee, template, fills, live, abstract, out, dead=()):
        self.run = run
        self.callee = callee
        self.template = template
        self.fills = fills
        self.live = live
        self.abstract = abstract
        self.out = out
        self.dead = dead


def _run_primitive(prim, values, abstract):
    return cast_like(compute(prim, values, abstract), abstract)


def _run_fused(fused, values, abstract):
    return fused.run_arrays(values)


def _run_tuple_op(op, values, abstract):
    return op.run(*values)                   # MakeTuple / TupleGetItem: no kernel, no cast


def _as_tensors(value, abstract):
    """The graph's output: arrays back to Tensors of the dtypes inference gave; a weight's
    array (typed by the Parameter itself) is copied, so the Tensor returned keeps the value
    the weight had when the program ended."""
    if isinstance(abstract, A.Abstract):
        return wrap(value, abstract)
    if isinstance(abstract, A.Const) and isinstance(abstract.value, Tensor) \
            and abstract.value._is_param:
        weight = abstract.value
        return Tensor._make(kernels.call("copy")(value), weight.dtype)
    if isinstance(abstract, A.AbstractTuple):
        return tuple(_as_tensors(v, a) for v, a in zip(value, abstract.items))
    return value


class FlatProgram:
    """A straight-line graph as a list of :class:`Step`; :meth:`run` takes and returns what
    :func:`refms.graph.executor.run_graph` does."""

    def __init__(self, graph, steps, n_slots, output, output_abstract):
        self.graph = graph
        self.steps = steps
        self.n_slots = n_slots
        self.output = output                  # ("slot", s) or ("value", v) or ("live", t)
        self.output_abstract = output_abstract

    def run(self, args):
        n_params = len(self.graph.params)
        if len(args) != n_params:
            raise TypeError(f"@{self.graph.name} takes {n_params} arguments but "
                            f"{len(args)} were given")
        slots = [None] * self.n_slots
        for k, arg in enumerate(args):
            slots[k] = unwrap(arg)
        for step in self.steps:
            values = list(step.template)
            for position, slot in step.fills:
                values[position] = slots[slot]
            for position, tensor in step.live:
                values[position] = tensor._value()
            slots[step.out] = step.run(step.callee, values, step.abstract)
            for slot in step.dead:
                slots[slot] = None
        kind, where = self.output
        if kind == "slot" and where >= n_params:
            return _as_tensors(slots[where], self.output_abstract)
        if kind == "slot":
            return args[where]
        return where


def _callee(node):
    head = node.inputs[0]
    if not isinstance(head, ValueNode):
        return None
    value = head.value
    if isinstance(value, (Primitive, FusedElementwise)) or value in _TUPLE_OPS:
        return value
    return None


def _step_abstract(abstract):
    """A node's abstract as ``execute`` takes it: a tuple of abstracts for a tuple."""
    if isinstance(abstract, A.AbstractTuple):
        items = tuple(abstract.items)
        if not all(isinstance(a, A.Abstract) for a in items):
            return None
        return items
    if isinstance(abstract, A.Abstract):
        return abstract
    return None


def plan(graph):
    """The :class:`FlatProgram` of ``graph``, or None when it is not straight-line code of
    primitives and fused chains (then the interpreter runs it)."""
    slots = {}
    for k, param in enumerate(graph.params):
        if isinstance(param.abstract, A.AbstractTuple) and param.abstract.kind == "dict":
            return None                         # unwrap keeps a dict's Tensors
        slots[param] = k
    steps = []
    for node in graph.order:
        callee = _callee(node)
        if callee is None:
            return None
        if callee in _TUPLE_OPS:
            runner, abstract = _run_tuple_op, node.abstract
        else:
            abstract = _step_abstract(node.abstract)
            if abstract is None:
                return None
            runner = _run_fused if isinstance(callee, FusedElementwise) else _run_primitive
        template, fills, live = [], [], []
        for position, source in enumerate(node.inputs[1:]):
            template.append(None)
            if isinstance(source, (CNode, Parameter)) and source in slots:
                fills.append((position, slots[source]))
            elif isinstance(source, Parameter) and source.default is not None:
                live.append((position, source.default))          # a weight: read when run
            elif isinstance(source, ValueNode):
                value = source.value
                if isinstance(value, Tensor):
                    live.append((position, value))
                elif isinstance(value, (tuple, list)) and value and isinstance(value[0], Tensor):
                    return None
                else:
                    template[position] = value
            else:
                return None                                       # a free variable
        slots[node] = len(slots)
        steps.append(Step(runner, callee, tuple(template), tuple(fills), tuple(live),
                          abstract, slots[node]))
    output = graph.output
    if output in slots:
        where = ("slot", slots[output])
    elif isinstance(output, ValueNode) and not isinstance(output.value, (Tensor, FuncGraph)):
        where = ("value", output.value)
    else:
        return None
    _mark_last_uses(steps, len(graph.params), where)
    return FlatProgram(graph, steps, len(slots), where, output.abstract)


def _mark_last_uses(steps, n_params, output):
    """Liveness: give each step the intermediate slots it reads for the last time (never the
    parameters, which belong to the caller, nor the output).  A slot nobody reads dies at
    the step that fills it."""
    last_use = {}
    for k, step in enumerate(steps):
        last_use[step.out] = k
        for _, slot in step.fills:
            last_use[slot] = k
    keep = output[1] if output[0] == "slot" else None
    dead = [[] for _ in steps]
    for slot, k in last_use.items():
        if slot >= n_params and slot != keep:
            dead[k].append(slot)
    for step, slots in zip(steps, dead):
        step.dead = tuple(sorted(slots))
