"""What inference does with each graph op (a mixin of the Specializer).

Most parse-time ops have Python's meaning on constants and on stand-ins, so the
rule is "run the Python operation on stand-ins" (``getattr``, ``getitem``,
slices, f-strings) — but a dict's ``keys``/``values``/``items``/``has_key`` are their
graph versions (``refms.graph.builtins.GRAPH_DICT_METHODS``).  The ops whose meaning
depends on *when* a value is known have their own rule:

* ``Switch`` on a constant picks a branch now; on a one-element Tensor it
  stays, as an ``AbstractSwitch`` resolved when called;
* ``MakeTuple``/``MakeList``/``MakeDict`` of constants are constants;
* ``raise`` is an effect whose value is ``Bottom``;
* ``not`` of a Tensor is ``LogicalNot``;
* ``setattr`` and the reads of attributes the program sets: :mod:`refms.graph.attributes`;
* a comprehension is unrolled over a sequence of known length.
"""
import inspect
import operator

from ..parameter import Parameter
from . import abstract as A
from . import graph_ops as G
from .builtins import GRAPH_DICT_METHODS
from .builtins import graph_iter
from .builtins import graph_not
from .builtins import graph_tensor_index
from .errors import GraphCompileError
from .ir import FuncGraph, ValueNode
from .syntax_level import STRICT, syntax_level

__all__ = ["GraphOpRules", "ClosureValue", "typed_node"]


class ClosureValue:
    """The run-time stand-in of a function value whose calls inference has resolved: calls of a
    parsed closure go to its specializations, so its untyped graph never enters typed IR."""

    def __init__(self, name):
        self.name = name

    def __call__(self, *args):
        raise RuntimeError(f"internal error: the function value {self.name} was called at run "
                           f"time; its calls are resolved when the graph is compiled")

    def __repr__(self):
        return f"<function {self.name}>"


def typed_node(node, abstract):
    """``node`` for use in typed IR: a parsed closure's untyped graph is replaced by a
    :class:`ClosureValue` constant of the same abstract."""
    if isinstance(abstract, A.AbstractClosure) and isinstance(node, ValueNode) \
            and isinstance(node.value, FuncGraph):
        return ValueNode(ClosureValue(node.value.name), abstract=abstract, loc=node.loc)
    return node


class GraphOpRules:
    """Mixin of :class:`refms.graph.infer.Specializer`."""

    def graph_op(self, ctx, op, args, kwargs, loc):
        if isinstance(op, G.CallWithSpec):
            return self.op_call_with_spec(ctx, op, args, loc)
        if kwargs:
            raise TypeError(f"graph op {op.name} takes no keyword arguments")
        if isinstance(op, G.Comprehension):
            return self.op_comprehension(ctx, op, args, loc)
        if isinstance(op, G.FString):
            return self.trace_call(ctx, op.run, args, {}, loc)
        rule = {
            id(G.SWITCH): self.op_switch, id(G.NOT): self.op_not, id(G.RAISE): self.op_raise,
            id(G.MAKE_TUPLE): self.op_make_tuple, id(G.MAKE_LIST): self.op_make_list,
            id(G.MAKE_DICT): self.op_make_dict, id(G.TUPLE_GETITEM): self.op_tuple_getitem,
            id(G.PARTIAL): self.op_partial, id(G.GETATTR): self.op_getattr,
            id(G.GETITEM): self.op_getitem, id(G.MAKE_SLICE): self.op_slice,
            id(G.PRINT): self.op_print, id(G.SETATTR): self.op_setattr,
        }.get(id(op))
        if rule is None:
            raise GraphCompileError(f"graph op {op.name} cannot be inferred here (was the graph "
                                    f"resolved?)")
        return rule(ctx, args, loc)

    # -- control ----------------------------------------------------------------------------
    def op_switch(self, ctx, args, loc):
        """``Switch(c, a, b)``: a constant ``c`` picks now; a Tensor ``c`` waits for the call."""
        (cond_node, cond), branch_true, branch_false = args
        if isinstance(cond, A.Const):
            if isinstance(cond.value, G.Undefined):
                raise NameError(f"name '{cond.value.name}' is not defined on every path")
            return branch_true if G.truth(cond.value) else branch_false
        if isinstance(cond, A.AbstractTuple):
            return branch_true if cond.items else branch_false
        if isinstance(cond, (A.AbstractScalar, A.AbstractAny)):   # known only at run time
            abstract = A.AbstractSwitch(cond_node, [branch_true[1], branch_false[1]],
                                        [branch_true[0], branch_false[0]])
            return _function_placeholder(abstract, loc), abstract
        if isinstance(cond, A.Abstract):
            size = 1
            for d in cond.shape:
                size *= d
            if size != 1:
                raise ValueError(f"The truth value of a Tensor with more than one element is "
                                 f"ambiguous: an 'if'/'while' condition in graph mode must be a "
                                 f"Tensor with one element, but got shape {list(cond.shape)}. "
                                 f"Use .any() or .all().")
            abstract = A.AbstractSwitch(cond_node, [branch_true[1], branch_false[1]],
                                        [branch_true[0], branch_false[0]])
            return _function_placeholder(abstract, loc), abstract
        return branch_true                         # functions and other objects are true

    def op_not(self, ctx, args, loc):
        (node, abstract), = args
        if isinstance(abstract, A.Const):
            return self.const(not G.truth(abstract.value), loc)
        if isinstance(abstract, A.AbstractTuple):
            return self.const(not abstract.items, loc)
        if isinstance(abstract, A.AbstractAny):
            return self.py_execute_value(ctx, operator.not_, args, {}, loc)
        if isinstance(abstract, A.AbstractScalar):
            result = A.AbstractScalar(bool)
            return ctx.graph.apply([ValueNode(operator.not_, abstract=A.Const(operator.not_)),
                                    node], abstract=result, loc=loc), result
        return self.trace_call(ctx, graph_not, args, {}, loc)

    def op_raise(self, ctx, args, loc):
        (node, abstract), = args
        raised = ctx.graph.apply([G.RAISE, node], abstract=A.BOTTOM, loc=loc)
        ctx.effects = True
        return raised, A.BOTTOM

    def op_print(self, ctx, args, loc):
        ctx.graph.apply([G.PRINT] + [n for n, _ in args], abstract=A.Const(None), loc=loc)
        ctx.effects = True
        return self.const(None, loc)

    # -- containers ---------------------------------------------------------------------------
    def op_make_tuple(self, ctx, args, loc):
        return self.pack(ctx, args, "tuple", loc)

    def op_make_list(self, ctx, args, loc):
        if all(isinstance(a, A.Const) for _, a in args):
            return self.const([a.value for _, a in args], loc)
        abstract = A.AbstractTuple([a for _, a in args], "list")
        return ctx.graph.apply([G.MAKE_LIST] + [typed_node(n, a) for n, a in args],
                               abstract=abstract, loc=loc), abstract

    def op_make_dict(self, ctx, args, loc):
        half = len(args) // 2
        keys = []
        for _, key in args[:half]:
            if not isinstance(key, A.Const):
                raise TypeError("dict keys in graph mode must be constants (strings, numbers or "
                                "tuples of them)")
            keys.append(key.value)
        return self.pack(ctx, list(args[half:]), "dict", loc, keys)

    def op_tuple_getitem(self, ctx, args, loc):
        (node, abstract), (_, index) = args
        return self.items(ctx, node, abstract, loc)[index.value]

    def op_partial(self, ctx, args, loc):
        (fn_node, fn), bound = args[0], args[1:]
        abstract = A.AbstractPartial(fn, fn_node, bound)
        node = ctx.graph.apply([G.PARTIAL, typed_node(fn_node, fn)]
                               + [typed_node(n, a) for n, a in bound], abstract=abstract, loc=loc)
        return node, abstract

    # -- Python semantics on stand-ins ---------------------------------------------------------------
    def op_getattr(self, ctx, args, loc):
        """``obj.name``: constants are looked up now (``self.conv1``, ``np.float32``); on a
        Tensor a method becomes a Partial of the method with the Tensor bound."""
        (obj_node, obj), (_, name) = args
        if not isinstance(name, A.Const) or not isinstance(name.value, str):
            raise TypeError("attribute names must be constant strings")
        if _is_dict(obj) and name.value in GRAPH_DICT_METHODS:
            method = GRAPH_DICT_METHODS[name.value]
            abstract = A.AbstractPartial(A.Const(method), ValueNode(method), [(obj_node, obj)])
            return ValueNode(method, abstract=abstract, loc=loc), abstract
        if isinstance(obj, A.Const) and isinstance(obj.value, Parameter) \
                and name.value == "asnumpy":
            # A weight's value changes between runs, so it cannot be read while compiling
            # (MindSpore 2.10's error, recorded by tests/recorders/record_graph_fallback.py).
            raise RuntimeError(
                "Failed to compile in GRAPH_MODE because the 'Parameter' object's method "
                "'asnumpy' is not supported in 'construct' or function with @jit decorator. "
                "Try to use the 'Parameter.asnumpy' externally such as initialized in the "
                "method '__init__' before assigning.")
        if isinstance(obj, A.Abstract) and name.value == "asnumpy" and syntax_level() == STRICT:
            raise AttributeError(
                f"In JIT strict mode, cannot get attributes asnumpy or the "
                f"Tensor[{obj.dtype}] object has no attribute: 'asnumpy'. You can use "
                f"os.environ['MS_DEV_JIT_SYNTAX_LEVEL'] = '2' to enable the JIT lax mode to "
                f"support the current syntax.")
        if isinstance(obj, A.Const) and self.is_cell(obj.value) and isinstance(
                inspect.getattr_static(type(obj.value), name.value, None), classmethod):
            # The static-graph syntax has no classmethods of a Cell (tutorial "Static Graph
            # Syntax", limitations; MindSpore 2.10 raises TypeError at the call).
            raise TypeError(f"'{type(obj.value).__name__}.{name.value}' is a classmethod, which "
                            f"graph mode (construct or a @jit function) does not support on a "
                            f"Cell; make it a staticmethod or a method.")
        if isinstance(obj, A.Const):          # an attribute the program sets is read at run time
            found = self.read_attribute(ctx, obj_node, obj.value, name.value, loc)
            if found is not None:
                return found
        return self.trace_call(ctx, getattr, args, {}, loc)

    def op_getitem(self, ctx, args, loc):
        """``x[i]``; an index that is a run-time Tensor becomes ``Gather`` (integers) or
        ``MaskedSelect`` (a boolean mask of ``x``'s shape)."""
        (_, value), (_, index) = args
        if isinstance(value, A.Abstract) and isinstance(index, A.Abstract):
            return self.trace_call(ctx, graph_tensor_index, args, {}, loc)
        return self.trace_call(ctx, operator.getitem, args, {}, loc)

    def op_slice(self, ctx, args, loc):
        return self.trace_call(ctx, slice, args, {}, loc)

    def unpack(self, ctx, node, abstract, loc):
        """The (node, abstract) items of a sequence whose length is known at compile time."""
        if isinstance(abstract, A.AbstractTuple):
            return self.items(ctx, node, abstract, loc)
        if isinstance(abstract, A.Const):
            return [self.const(v, loc) for v in abstract.value]
        if isinstance(abstract, A.Abstract):
            if not abstract.shape:
                raise TypeError("iteration over a 0-d tensor")
            return [self.trace_call(ctx, operator.getitem, [(node, abstract), self.const(k, loc)],
                                    {}, loc) for k in range(abstract.shape[0])]
        if isinstance(abstract, A.AbstractAny):
            raise GraphCompileError(
                "a value known only at run time (the result of Python code run on the host, "
                "JIT Fallback) cannot be unpacked into arguments or iterated by a "
                "comprehension in graph mode: its length must be known when the graph is "
                "compiled")
        raise TypeError(f"cannot unpack a value of kind {abstract!r}")

    def op_call_with_spec(self, ctx, op, args, loc):
        """``f(*a, k=v, **d)``: unpack the starred sequences and dicts, then call ``f``."""
        (fn_node, fn), values = args[0], args[1:]
        positional, keywords = [], {}
        for kind, (node, abstract) in zip(op.spec, values):
            if kind == "pos":
                positional.append((node, abstract))
            elif kind == "star":
                positional.extend(self.unpack(ctx, node, abstract, loc))
            elif kind == "dstar":
                if isinstance(abstract, A.Const):
                    for key, value in abstract.value.items():
                        keywords[key] = self.const(value, loc)
                elif isinstance(abstract, A.AbstractTuple) and abstract.kind == "dict":
                    for key, pair in zip(abstract.keys, self.items(ctx, node, abstract, loc)):
                        keywords[key] = pair
                else:
                    raise TypeError("argument after ** must be a mapping")
            else:
                keywords[kind[1]] = (node, abstract)
        return self.apply(ctx, fn, fn_node, positional, keywords, loc)

    def op_comprehension(self, ctx, op, args, loc):
        """``[f(x) for x in seq if c(x)]``, unrolled over ``seq`` (whose length is known);
        the filter must be decidable at compile time."""
        element = args[0]
        condition = args[1] if op.has_filter else None
        seq_node, seq = args[-1]
        if isinstance(seq, A.Const) and not isinstance(seq.value, (tuple, list)):
            seq_node, seq = self.const(graph_iter(seq.value), loc)
        if isinstance(seq, A.AbstractAny):
            raise _host_value_comprehension(op.kind)
        results = []
        for item in self.unpack(ctx, seq_node, seq, loc):
            if condition is not None:
                _, keep = self.apply(ctx, condition[1], condition[0], [item], {}, loc)
                if not isinstance(keep, A.Const):
                    raise GraphCompileError("the condition of a comprehension must be known at "
                                            "compile time in graph mode")
                if not G.truth(keep.value):
                    continue
            results.append(self.apply(ctx, element[1], element[0], [item], {}, loc))
        if op.kind == "dict":
            keys, values = [], []
            for node, abstract in results:
                (key_node, key), value = self.items(ctx, node, abstract, loc)
                if not isinstance(key, A.Const):
                    raise TypeError("dict keys in graph mode must be constants")
                keys.append(key.value)
                values.append(value)
            return self.pack(ctx, values, "dict", loc, keys)
        return self.op_make_list(ctx, results, loc)


class HostValueComprehensionError(GraphCompileError, TypeError):
    """A list comprehension over a value known only when the graph runs: MindSpore 2.10
    raises a ``TypeError`` there (a dict comprehension: a ``RuntimeError``)."""


def _host_value_comprehension(kind):
    """The error for ``[f(v) for v in a]`` (``{k: v for ...}``) where ``a`` is made on the host
    when the graph runs (JIT Fallback, e.g. ``a = t.asnumpy()``).  MindSpore 2.10 cannot
    compile it either: a list comprehension is a ``TypeError`` (recorded: "unsupported operand
    type(s) for +: 'float' and 'list'"), a dict comprehension a ``RuntimeError`` ("make_dict
    evaluator key only supports ... but got ValueAny")."""
    message = (f"a {kind} comprehension cannot iterate over a value known only when the graph "
               f"runs (the result of Python code run on the host, JIT Fallback) in graph mode: "
               f"its length must be known when the graph is compiled.  Iterate in PyNative "
               f"mode, or over a Tensor or a constant sequence")
    return HostValueComprehensionError(message) if kind == "list" else GraphCompileError(message)


def _is_dict(abstract):
    """Whether ``abstract`` is a dict: a constant one or one built in the graph."""
    if isinstance(abstract, A.Const):
        return isinstance(abstract.value, dict)
    return isinstance(abstract, A.AbstractTuple) and abstract.kind == "dict"


def _function_placeholder(abstract, loc):
    """The node of a run-time Switch's result before it is called: calling it emits the real
    ``Switch`` node (:meth:`refms.graph.infer.Specializer.call_switch`); it is never run."""
    return ValueNode(G.SWITCH, abstract=abstract, loc=loc)
