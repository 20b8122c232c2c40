"""Attribute assignment in a graph: ``self.x = v``, ``obj.attr = v`` (a mixin of the Specializer).

MindSpore 2.10, "Static Graph Syntax Support" (``tutorials/source_en/compile/static_graph.md``):
"Attribute References and Attribute Modification" and "Supporting Property Setting and
Modification".  The rules, with what MindSpore 2.10 does when a compiled program runs twice
(recorded by ``tests/recorders/record_graph_attributes.py``):

* an attribute that holds a **Parameter** is written with ``Assign``: ``self.weight = x``
  updates the Parameter in place (it stays a Parameter, and later reads see the new value);
* any other attribute — of a Cell, of a ``jit_class`` object, of a plain Python object,
  of a numpy array, of a Tensor — is set **each time the graph runs** (a ``setattr`` node, an effect),
  with the value the program computes then (a Tensor computed by the graph included);
* reading an attribute is a compile-time constant (``self.m`` is folded), *except* for an
  attribute the program also assigns: that one is program state, read when the graph runs,
  so ``self.n = self.n + 1`` counts the calls.

Which attributes a program assigns is only known once inference meets the assignment.
When it meets an assignment to an attribute it has already read as a constant, it stops and
specializes the whole program again, that attribute now read at run time
(``RestartInference``, caught by ``refms.graph.compiler.specialize``) — the
"widen and re-evaluate" step of abstract interpretation, for one fact at a time.

A read that follows an assignment in the same graph, with no call of a graph with effects in
between, gets the assigned value directly (its node): the value flows as in straight-line
Python, and a gradient flows through it.  Any other read of an assigned attribute is a
``load_attr`` node (an effect too, so no pass moves it across a ``setattr``), typed by the
value the attribute has when the program is compiled; the compiled program keeps that as a
guard, and a later call finding a different kind of value there (``self.total = 0`` become a
Tensor) compiles again (``refms.graph.compiler.Compiled.guards_hold``).

refms follows Python where MindSpore 2.10 was seen to keep a stale value (not encoded in the
tests): a Tensor set on a non-Parameter Cell attribute in ``ast`` mode, read back on a second
call with new inputs, still gave the first call's value; and ``self.inner.x = self.inner.x +
1`` on a ``jit_class`` object returned the value from before the assignment.
"""
from ..ops import functional as F
from ..parameter import Parameter
from . import abstract as A
from . import graph_ops as G
from .errors import GraphCompileError
from .op_rules import typed_node

__all__ = ["AttributeRules", "RestartInference", "runtime_abstract"]


class RestartInference(Exception):
    """Inference met an assignment to ``key`` = (id(object), name) after reading that
    attribute as a constant: specialize again with ``key`` read at run time."""

    def __init__(self, key, description):
        super().__init__(f"internal: restart inference with {description} read at run time")
        self.key = key


class AttributeRules:
    """Mixin of :class:`refms.graph.infer.Specializer`.  It expects ``runtime_attributes``
    (the keys read at run time, given by the driver) and keeps ``constant_reads``,
    ``assigned`` and ``effect_calls`` (see :meth:`init_attribute_state`)."""

    def init_attribute_state(self, runtime_attributes):
        self.runtime_attributes = set(runtime_attributes or ())
        self.constant_reads = set()    # keys read as compile-time constants so far
        self.assigned = {}             # key -> (node, abstract, graph, effect_calls) of the last write
        self.effect_calls = 0          # calls of graphs with effects emitted so far
        #: key -> (object, name, key of the abstract) of each attribute read at run time with
        #: the kind of value it had when compiled (``refms.graph.compiler.Compiled.guards_hold``)
        self.attribute_guards = {}

    def note_effect_call(self):
        """A call that may assign attributes was emitted: earlier writes are no longer known to
        be the current values."""
        self.effect_calls += 1

    def op_setattr(self, ctx, args, loc):
        """``obj.name = value``: ``Assign`` into a Parameter attribute, else a ``setattr`` node
        run each time the graph runs."""
        (obj_node, obj), (_, name), (value_node, value) = args
        attr = name.value
        if isinstance(value, A.FUNCTION_ABSTRACTS):
            raise GraphCompileError(f"cannot store a function in attribute '{attr}' in graph "
                                    f"mode: attributes hold data (Tensors, numbers, containers "
                                    f"of them, Python objects)")
        if isinstance(obj, A.Abstract):       # a Tensor the graph is given or computes
            self.emit_setattr(ctx, obj_node, attr, value_node, value, loc)
            return self.const(None, loc)
        if not isinstance(obj, A.Const):
            raise GraphCompileError(
                f"cannot set attribute '{attr}' of {A.format_abstract(obj)}: graph mode sets "
                f"attributes of Cells, jit_class objects, Python objects and Tensors")
        target = obj.value
        current = getattr(target, attr, None)
        if isinstance(current, Parameter) and not _is_parameter(value):
            return self.trace_call(ctx, F.assign, [self.const(current, loc),
                                                      (value_node, value)], {}, loc)
        key = (id(target), attr)
        if key in self.constant_reads and key not in self.runtime_attributes:
            raise RestartInference(key, f"attribute '{attr}' of {type(target).__name__}")
        self.keep_alive.append(target)
        value_node = self.emit_setattr(ctx, obj_node, attr, value_node, value, loc)
        self.assigned[key] = (value_node, value, ctx.graph, self.effect_calls)
        return self.const(None, loc)

    def emit_setattr(self, ctx, obj_node, attr, value_node, value, loc):
        """Append the effect ``setattr(obj, attr, value)``; returns the typed value node."""
        value_node = typed_node(value_node, value)
        ctx.graph.apply([G.SETATTR, obj_node, self.const(attr, loc)[0], value_node],
                        abstract=A.Const(None), loc=loc)
        ctx.effects = True
        return value_node

    def read_attribute(self, ctx, obj_node, target, attr, loc):
        """``target.attr`` of a constant object: the assigned value, a ``load_attr`` node, or
        None for a compile-time read (which the caller does)."""
        key = (id(target), attr)
        written = self.assigned.get(key)
        if written is None and key not in self.runtime_attributes:
            self.constant_reads.add(key)
            return None
        if written is not None:
            node, abstract, graph, effect_calls = written
            if graph is ctx.graph and effect_calls == self.effect_calls:
                return node, abstract
            known = abstract                  # the kind of value last assigned
            abstract = A.broaden_all(known)
        else:
            abstract = runtime_abstract(getattr(target, attr))
            self.attribute_guards[key] = (target, attr, A.key_of(abstract))
        if isinstance(abstract, A.Const):     # not a number, Tensor or container of them
            return self.const(abstract.value, loc)
        node = ctx.graph.apply([G.LOAD_ATTR, obj_node, self.const(attr, loc)[0]],
                               abstract=abstract, loc=loc)
        ctx.effects = True
        return node, abstract


def runtime_abstract(value):
    """The abstract of an attribute read when the graph runs: its numbers run-time scalars, its
    Tensors known by shape and dtype (a Const when the value is neither)."""
    return A.broaden_all(A.abstract_of(value))


def _is_parameter(abstract):
    return isinstance(abstract, A.Const) and isinstance(abstract.value, Parameter)
