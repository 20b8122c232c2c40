"""Inference: specialize each parsed graph for the abstract values of its arguments.

Algorithm: *abstract interpretation with specialization* — an online partial
evaluator (Jones, Gomard & Sestoft, "Partial Evaluation and Automatic Program
Generation", 1993; MindSpore's ``pipeline/jit/ps/static_analysis`` +
``program_specialize``).  A parsed graph is walked in order with the abstract
values of its parameters (:mod:`refms.graph.abstract`); each cnode is
*evaluated abstractly* and a typed copy is emitted into a new graph:

* a primitive call gets its output abstract from the primitive's own ``infer``
  (the rule PyNative uses), so both modes agree on shapes, dtypes and errors;
* a call of a parsed function specializes that function for the argument
  abstracts (cached per signature, so each function is typed once per use);
* a call of refms library code runs it on stand-ins (:mod:`refms.graph.bridge`);
* everything Python computes on constants — shapes, attribute lookups, numpy
  (JIT Fallback) — is done here, at compile time, and becomes a constant;
* ``Switch`` on a constant picks its branch here: constant ``if`` conditions and
  loops over constant ranges (each index a new constant) disappear; on a
  Tensor condition both branch graphs are specialized and must agree (``join``);
* Python code that needs a value known only at run time becomes a PyExecute node run
  on the host when the graph runs (JIT Fallback, :mod:`refms.graph.fallback`).

A loop on a Tensor condition is a graph calling itself with the same abstract
arguments: the inner call finds the graph still being inferred and gets a
``Pending`` result, which the ``Switch`` join ignores — the exit branch decides
the type (a one-step fixpoint; MindSpore broadens and re-evaluates instead).  Every
node typed ``Pending`` is typed again when that loop's graph is done — also one reached
through the if-join a ``break`` leaves by, or through an inner loop whose exit goes round
the outer loop; autodiff reads these types (a node left ``Pending`` would be taken for a
constant, with a zero gradient).

Errors keep their PyNative type and message and get a note naming the source
line of the node being inferred.
"""
import functools
import types

from .. import context as _context
from . import abstract as A
from . import graph_ops as G
from .attributes import AttributeRules
from .bridge import PythonBridge
from .cells import CellRule
from .errors import GraphCompileError, note_location
from .fallback import RuntimeFallback
from .ir import FuncGraph, Parameter, ValueNode
from .jit_function import JitTarget
from .mutable import mutable
from .op_rules import GraphOpRules, typed_node
from .resolve import parsed_graph

__all__ = ["Context", "CompileUnit", "Specializer", "parsed_in_graph", "is_user_function"]


#: How many versions of the code after one ``if`` on a Tensor are typed with constant numbers
#: before its numbers become run-time scalars (:meth:`Specializer.broaden_join`).
JOIN_LIMIT = 8


class Context:
    """One specialization being built: the parsed graph, the context of its parent (for
    free variables), the typed graph under construction, and ``values``: the
    (node, abstract) of every parsed node evaluated so far."""

    __slots__ = ("generic", "parent", "graph", "values", "effects")

    def __init__(self, generic, parent, graph):
        self.generic = generic
        self.parent = parent
        self.graph = graph
        self.values = {}
        self.effects = False

    def find(self, generic_graph):
        ctx = self
        while ctx is not None and ctx.generic is not generic_graph:
            ctx = ctx.parent
        return ctx


class CompileUnit:
    """What one compilation shares: the weight nodes, one per refms Parameter."""

    def __init__(self):
        self.weights = {}

    def weight(self, param):
        node = self.weights.get(id(param))
        if node is None:
            node = Parameter(None, param.name, abstract=A.Const(param), default=param)
            self.weights[id(param)] = node
        return node


class Specializer(PythonBridge, GraphOpRules, CellRule, AttributeRules, RuntimeFallback):
    """Types and specializes graphs; see the module docstring.  ``runtime_attributes``: the
    (id(object), name) of attributes the program sets and reads before setting them
    (:mod:`refms.graph.attributes`), found by earlier tries."""

    def __init__(self, unit=None, runtime_attributes=()):
        self.unit = unit or CompileUnit()
        self.init_attribute_state(runtime_attributes)
        self.cache = {}
        self.keep_alive = []
        self.pending = {}              # id(graph in progress) -> nodes waiting for its output
        self.active = {}               # id(parsed graph) -> specializations of it in progress
        self.active_args = {}          # id(parsed graph) -> their argument abstracts, a stack
        self.switch_owners = []        # ids of parsed graphs whose run-time Switch is being typed
        self.join_counts = {}          # id(join block of an if) -> how often it was typed
        self.cell_calls = []           # Cell calls emitted so far (refms.graph.forward_reuse)

    # -- entry points ----------------------------------------------------------------------------
    def graph_for_call(self, fn_abstract, fn_node, arg_abstracts, name, names=None, loc=None,
                       flags=None, kw_names=()):
        """A new top-level graph whose parameters are ``arg_abstracts`` and whose body calls
        ``fn`` on them: the entry of a compilation, or a unit kept whole (a custom bprop)."""
        graph = FuncGraph(name, loc=loc)
        graph.flags.update(flags or {})
        ctx = Context(None, None, graph)
        n_positional = len(arg_abstracts) - len(kw_names)
        args = []
        for k, abstract in enumerate(arg_abstracts):
            if k >= n_positional:
                pname = kw_names[k - n_positional]
            else:
                pname = names[k] if names and k < len(names) else f"arg{k}"
            param = graph.add_param(pname, abstract=abstract)
            if isinstance(abstract, A.Const):
                args.append((self.const_node(abstract), abstract))
            else:
                args.append((param, abstract))
        keywords = dict(zip(kw_names, args[n_positional:]))
        node, abstract = self.apply(ctx, fn_abstract, fn_node, args[:n_positional], keywords, loc)
        if node.abstract is None or isinstance(node, ValueNode):
            node.abstract = abstract
        graph.set_output(node)
        graph.flags["effects"] = ctx.effects
        return graph

    # -- reading the parsed graph --------------------------------------------------------------
    def ref(self, ctx, node):
        """The (new node, abstract) standing for parsed ``node`` in ``ctx``."""
        if isinstance(node, ValueNode):
            value = node.value
            if isinstance(value, FuncGraph):
                parent_ctx = ctx.find(value.parent) if value.parent is not None else None
                abstract = A.AbstractClosure(value, parent_ctx)
                return ValueNode(value, abstract=abstract, loc=node.loc), abstract
            return self.const(value, node.loc)
        if isinstance(node, Parameter) and node.is_weight:
            return node, node.abstract
        owner = ctx.find(node.graph)
        if owner is None or id(node) not in owner.values:
            raise GraphCompileError(f"internal error: {node!r} of @{node.graph.name} is not "
                                    f"visible from @{ctx.graph.name}")
        return owner.values[id(node)]

    def broaden_loop(self, generic, args):
        """A graph calling itself again from inside its own run-time ``Switch`` (a loop on a
        Tensor condition, a recursion with a Tensor base case): numbers that changed since
        the enclosing call become run-time scalars, so the loop is typed once more and then
        reaches a fixpoint instead of being unrolled without end (MindSpore broadens loop
        variables the same way)."""
        stack = self.active_args.get(id(generic))
        if not stack or id(generic) not in self.switch_owners:
            return args
        if generic.signature is None and not (generic.flags.get("while_loop")
                                              or generic.flags.get("for_loop")):
            return args                       # a block of an 'if': unrolled
        widened = []
        for param, before, (_, after) in zip(generic.params, stack[-1], args):
            common = A.broaden(before, after)
            if common is None and _is_undefined(before) and not _function_or_undefined(after):
                common = A.broaden_all(after)     # first assigned in the loop's body
            elif common is None and _function_or_undefined(before) \
                    and _function_or_undefined(after):
                # A function defined inside the loop body (a def or lambda): each iteration
                # makes a new closure.  It cannot be carried into the next iteration; using
                # it there before it is defined again is a NameError.
                if isinstance(before, A.Const) and isinstance(before.value, G.Undefined):
                    common = before
                else:
                    common = A.Const(G.Undefined(param.name.lstrip("ф")))
            widened.append(after if common is None else common)
        return [(node, w) for (node, _), w in zip(args, widened)]

    def broaden_join(self, generic, args):
        """The code after an ``if`` on a Tensor is typed once per branch; when the branches keep
        leaving different numbers (an ``if`` in an unrolled loop: 2, 4, 8… versions of the
        rest of the program), numbers become run-time scalars after ``JOIN_LIMIT`` versions,
        which bounds compile time by the program's size (MindSpore joins them at once)."""
        if not generic.flags.get("if_join") or not self.switch_owners:
            return args
        seen = self.join_counts.get(id(generic), 0)
        self.join_counts[id(generic)] = seen + 1
        if seen < JOIN_LIMIT:
            return args
        return [(node, A.broaden_all(a) if not _function_or_undefined(a) else a)
                for node, a in args]

    def specialize(self, closure, args, loc):
        """The typed copy of ``closure.graph`` for ``args`` (a list of (node, abstract))."""
        generic, parent = closure.graph, closure.ctx
        args = self.broaden_join(generic, self.broaden_loop(generic, args))
        key = (id(generic), id(parent), tuple(A.key_of(a) for _, a in args))
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        depth = self.active.get(id(generic), 0)
        limit = _context.get_context("max_call_depth")
        if depth >= limit:
            raise GraphCompileError(
                f"'{generic.name}' was specialized {depth} times inside itself (max_call_depth "
                f"= {limit}): a loop or recursion keeps changing the type, shape or constant "
                f"value of its variables. A loop on a Tensor condition must keep every variable's "
                f"type and shape; a Python number changed inside it is a compile-time constant "
                f"and makes every iteration a new graph (use a Tensor).")
        graph = FuncGraph(generic.name, parent=parent.graph if parent else None, loc=generic.loc)
        graph.flags.update(generic.flags)
        self.cache[key] = graph
        # The key holds ids (of the parent context, of constant values): keep those objects
        # alive while this specializer lives, so that no new object reuses an id in it.
        self.keep_alive.append((closure, args))
        self.active[id(generic)] = depth + 1
        self.active_args.setdefault(id(generic), []).append([a for _, a in args])
        try:
            ctx = Context(generic, parent, graph)
            for param, (node, abstract) in zip(generic.params, args):
                new = graph.add_param(param.name, abstract=abstract, loc=param.loc)
                if isinstance(abstract, A.Const):
                    ctx.values[id(param)] = (self.const_node(abstract), abstract)
                else:
                    ctx.values[id(param)] = (new, abstract)
            for node in generic.order:
                ctx.values[id(node)] = self.evaluate(ctx, node)
            out, abstract = self.ref(ctx, generic.output)
            out = typed_node(out, abstract)
            if out.abstract is None or isinstance(out, ValueNode):
                out.abstract = abstract
            graph.set_output(out)
            graph.flags["effects"] = ctx.effects
        except BaseException:
            # A failed specialization is not kept: the caller may recover (JIT Fallback
            # runs the call that needed a value on the host) and meet this key again.
            self.cache.pop(key, None)
            raise
        finally:
            self.active[id(generic)] = depth
            self.active_args[id(generic)].pop()
        for waiting in self.pending.pop(id(graph), []):
            if isinstance(waiting.abstract, A.Pending):
                waiting.abstract = graph.output.abstract
                if isinstance(waiting.abstract, A.Pending):
                    # an inner loop whose exit goes round an outer loop: its result is the
                    # outer loop's, still being inferred
                    self.pending.setdefault(waiting.abstract.key, []).append(waiting)
        return graph

    def evaluate(self, ctx, node):
        """Abstractly evaluate one parsed cnode; returns its (new node, abstract)."""
        fn_node, fn_abstract = self.ref(ctx, node.inputs[0])
        args = [self.ref(ctx, i) for i in node.inputs[1:]]
        try:
            new, abstract = self.apply(ctx, fn_abstract, fn_node, args, {}, node.loc)
        except Exception as error:
            note_location(error, node.loc)
            raise
        if node.name and getattr(new, "graph", None) is ctx.graph and getattr(new, "name", 1) is None:
            new.name = node.name
        return new, abstract

    # -- calls ------------------------------------------------------------------------------------
    def apply(self, ctx, fn_abstract, fn_node, args, kwargs, loc):
        """Evaluate the call ``fn(*args, **kwargs)``; returns (node, abstract)."""
        if isinstance(fn_abstract, A.Const):
            return self.apply_value(ctx, fn_abstract.value, fn_node, args, kwargs, loc)
        if isinstance(fn_abstract, A.AbstractClosure):
            return self.call_closure(ctx, fn_abstract, args, kwargs, loc)
        if isinstance(fn_abstract, A.AbstractGraph):
            if kwargs:
                raise TypeError(f"@{fn_abstract.graph.name} takes positional arguments only")
            return self.call_graph(ctx, fn_abstract.graph, args, loc)
        if isinstance(fn_abstract, A.AbstractPartial):
            return self.apply(ctx, fn_abstract.fn, fn_abstract.fn_node,
                              list(fn_abstract.args) + list(args), kwargs, loc)
        if isinstance(fn_abstract, A.AbstractSwitch):
            return self.call_switch(ctx, fn_abstract, args, kwargs, loc)
        if isinstance(fn_abstract, A.AbstractAny):      # a Python object known at run time
            return self.py_execute(ctx, fn_node, fn_abstract, args, kwargs, loc)
        if isinstance(fn_abstract, A.Abstract):
            raise TypeError("'Tensor' object is not callable")
        raise GraphCompileError(f"cannot call a value of kind {fn_abstract!r}")

    def apply_value(self, ctx, fn, fn_node, args, kwargs, loc):
        """A call of a constant callee: graph op, parsed function, Cell, or Python code."""
        if isinstance(fn, G.GraphOp):
            return self.graph_op(ctx, fn, args, kwargs, loc)
        if isinstance(fn, G.Undefined):
            raise NameError(f"name '{fn.name}' is not defined on every path to this call")
        for _, abstract in list(args) + list(kwargs.values()):
            if isinstance(abstract, A.Const) and isinstance(abstract.value, G.Undefined):
                raise NameError(f"name '{abstract.value.name}' is not defined on every path to "
                                f"this use (it is assigned in only some branches or loop "
                                f"iterations)")
        if isinstance(fn, FuncGraph):
            return self.call_closure(ctx, A.AbstractClosure(fn, None), args, kwargs, loc)
        if fn is mutable:
            return self.call_mutable(ctx, args, kwargs, loc)
        if self.is_cell(fn):
            return self.call_cell(ctx, fn, args, kwargs, loc)
        if _is_partial(fn):                   # its arguments may be stand-ins of graph values
            bound = [self.from_python(ctx, v, loc) for v in fn.args]
            keywords = {k: self.from_python(ctx, v, loc) for k, v in fn.keywords.items()}
            keywords.update(kwargs)
            return self.apply_value(ctx, fn.func, ValueNode(fn.func), bound + list(args),
                                    keywords, loc)
        parsed = self.parsed_callee(fn)
        if parsed is not None:
            graph, bound_self = parsed
            bound = [self.const(bound_self, loc)] if bound_self is not _NO_SELF else []
            return self.call_closure(ctx, A.AbstractClosure(graph, None), bound + list(args),
                                     kwargs, loc)
        if isinstance(fn, JitTarget):         # no source to parse: run the function on stand-ins
            bound = [self.const(fn.obj, loc)] if fn.obj is not None else []
            return self.trace_call(ctx, fn.fn, bound + list(args), kwargs, loc)
        if callable(fn):
            return self.trace_call(ctx, fn, args, kwargs, loc)
        if getattr(type(fn), "__ms_class__", False):      # an object of a jit_class
            raise ValueError(f"MsClassObject: '{type(fn).__name__}' has no __call__ function, "
                             f"please check the code.")
        raise TypeError(f"'{type(fn).__name__}' object is not callable")

    def call_mutable(self, ctx, args, kwargs, loc):
        """``mutable(x)`` inside a graph: ``x`` as a variable — its numbers run-time scalars,
        its constant Tensors Tensor abstracts (:mod:`refms.graph.mutable`)."""
        self.trace_call(ctx, mutable, args, kwargs, loc)           # checks the arguments
        node, abstract = args[0]
        variable = A.broaden_all(abstract)
        if A.key_of(variable) == A.key_of(abstract):
            return node, abstract
        return ctx.graph.apply([G.MUTABLE, typed_node(node, abstract)], abstract=variable,
                               loc=loc), variable

    def parsed_callee(self, fn):
        """(parsed graph, bound self) when ``fn`` is user code the parser handles; else None."""
        bound_self = _NO_SELF
        if isinstance(fn, JitTarget):
            if fn.obj is not None:
                bound_self = fn.obj
            fn = fn.fn
        if isinstance(fn, types.MethodType) and not isinstance(fn.__self__, type):
            bound_self, fn = fn.__self__, fn.__func__
            if isinstance(fn, JitTarget):
                fn = fn.fn
        if not is_user_function(fn):
            return None
        graph = parsed_graph(fn)
        if graph is None:
            return None
        return graph, bound_self

    def bind(self, ctx, closure, args, kwargs, loc):
        """Match call arguments to the parameters of a parsed graph (Python's rules)."""
        sig = closure.graph.signature
        name = closure.graph.name
        if sig is None:                       # a block of the parser: positional parameters
            if kwargs or len(args) != len(closure.graph.params):
                raise TypeError(f"@{name} takes {len(closure.graph.params)} positional "
                                f"arguments but {len(args)} were given")
            return list(args)
        bound = {}
        positional = list(args)
        for pname in sig.positional:
            if positional:
                bound[pname] = positional.pop(0)
        extra = {}
        for key, value in kwargs.items():
            if key in sig.positional or key in sig.kwonly:
                if key in bound:
                    raise TypeError(f"{name}() got multiple values for argument '{key}'")
                bound[key] = value
            elif sig.kwarg:
                extra[key] = value
            else:
                raise TypeError(f"{name}() got an unexpected keyword argument '{key}'")
        if positional and not sig.vararg:
            raise TypeError(f"{name}() takes {len(sig.positional)} positional arguments but "
                            f"{len(sig.positional) + len(positional)} were given")
        first_default = len(sig.positional) - len(sig.defaults)
        for k, pname in enumerate(sig.positional):
            if pname not in bound:
                if k >= first_default:
                    bound[pname] = self.default_value(closure, sig.defaults[k - first_default], loc)
                else:
                    raise TypeError(f"{name}() missing required positional argument: '{pname}'")
        for pname in sig.kwonly:
            if pname not in bound:
                if pname not in sig.kw_defaults:
                    raise TypeError(f"{name}() missing required keyword-only argument: '{pname}'")
                bound[pname] = self.default_value(closure, sig.kw_defaults[pname], loc)
        if sig.vararg:
            bound[sig.vararg] = self.pack(ctx, positional, "tuple", loc)
        if sig.kwarg:
            bound[sig.kwarg] = self.pack(ctx, list(extra.values()), "dict", loc, list(extra))
        return [bound[n] for n in sig.names]

    def default_value(self, closure, default, loc):
        kind, value = default
        if kind == "value":
            return self.const(value, loc)
        return self.ref(closure.ctx, value)

    def pack(self, ctx, pairs, kind, loc, keys=None):
        """A tuple (or dict) built from (node, abstract) pairs."""
        if all(isinstance(a, A.Const) for _, a in pairs):
            values = [a.value for _, a in pairs]
            value = dict(zip(keys, values)) if kind == "dict" else tuple(values)
            return self.const(value, loc)
        abstract = A.AbstractTuple([a for _, a in pairs], kind, keys)
        if kind == "dict":
            key_nodes = [self.const(k, loc)[0] for k in keys]
            node = ctx.graph.apply([G.MAKE_DICT] + key_nodes
                                   + [typed_node(n, a) for n, a in pairs], abstract=abstract,
                                   loc=loc)
        else:
            node = ctx.graph.apply([G.MAKE_TUPLE] + [typed_node(n, a) for n, a in pairs],
                                   abstract=abstract, loc=loc)
        return node, abstract

    def call_closure(self, ctx, closure, args, kwargs, loc):
        params = self.bind(ctx, closure, args, kwargs, loc)
        graph = self.specialize(closure, params, loc)
        return self.call_graph(ctx, graph, params, loc)

    def call_graph(self, ctx, graph, args, loc):
        """Emit the call of a specialized graph (or fold it when its result is constant)."""
        if len(args) != len(graph.params):
            raise TypeError(f"@{graph.name} takes {len(graph.params)} arguments but "
                            f"{len(args)} were given")
        output = graph.output
        abstract = A.Pending(id(graph)) if output is None else output.abstract
        effects = graph.flags.get("effects", output is None)
        if isinstance(abstract, A.Const) and not effects:
            return self.const(abstract.value, loc)
        callee = ValueNode(graph, abstract=A.AbstractGraph(graph))
        node = ctx.graph.apply([callee] + [typed_node(n, a) for n, a in args], abstract=abstract,
                               loc=loc)
        if output is None:
            self.pending.setdefault(id(graph), []).append(node)
        elif isinstance(abstract, A.Pending):
            # a finished graph returning the result of a loop still being inferred (the
            # if-join a `break` leaves through): typed when that loop is
            self.pending.setdefault(abstract.key, []).append(node)
        if effects:
            ctx.effects = True
            self.note_effect_call()
        return node, abstract

    def branch_graph(self, ctx, branch, branch_node, args, loc):
        """A specialized graph for calling one branch of a run-time Switch with ``args``."""
        if isinstance(branch, A.AbstractClosure):
            return self.specialize(branch, self.bind(ctx, branch, args, {}, loc), loc)
        if isinstance(branch, A.AbstractGraph):
            return branch.graph
        return self.graph_for_call(branch, branch_node, [a for _, a in args], "branch", loc=loc)

    def call_switch(self, ctx, switch, args, kwargs, loc):
        """Call ``Switch(c, f, g)`` with a run-time ``c``: both branches are specialized for the
        same arguments and their results must agree (the join)."""
        if kwargs:
            raise GraphCompileError("a function chosen by a Tensor condition is called with "
                                    "positional arguments only")
        self.switch_owners.append(id(ctx.generic))
        try:
            graphs = [self.branch_graph(ctx, b, n, args, loc)
                      for b, n in zip(switch.branches, switch.branch_nodes)]
        finally:
            self.switch_owners.pop()
        outputs = [g.output.abstract if g.output is not None else A.Pending(id(g)) for g in graphs]
        both_pending = all(isinstance(o, A.Pending) for o in outputs)
        if both_pending and not any(self.active.values()):
            raise GraphCompileError("both branches of a run-time condition recurse forever: a "
                                    "loop on a Tensor condition needs an exit")
        where = f" at {loc}" if loc is not None else ""
        result = A.join(outputs[0], outputs[1], where)
        branch_nodes = [ValueNode(g, abstract=A.AbstractGraph(g)) for g in graphs]
        selected = ctx.graph.apply([G.SWITCH, switch.cond] + branch_nodes,
                                   abstract=A.AbstractSwitch(switch.cond,
                                                             [A.AbstractGraph(g) for g in graphs],
                                                             branch_nodes), loc=loc)
        node = ctx.graph.apply([selected] + [typed_node(n, a) for n, a in args], abstract=result,
                               loc=loc)
        if both_pending:                 # both go round an enclosing loop: typed by its exit
            for output in outputs:       # (the loop graph each result waits for)
                self.pending.setdefault(output.key, []).append(node)
        if any(g.flags.get("effects", g.output is None) for g in graphs):
            ctx.effects = True
            self.note_effect_call()
        return node, result


def _is_undefined(abstract):
    return isinstance(abstract, A.Const) and isinstance(abstract.value, G.Undefined)


def _function_or_undefined(abstract):
    return (isinstance(abstract, A.FUNCTION_ABSTRACTS)
            or (isinstance(abstract, A.Const) and isinstance(abstract.value, (G.Undefined,
                                                                                 FuncGraph))))


class _NoSelf:
    pass


_NO_SELF = _NoSelf()


def _is_partial(fn):
    return isinstance(fn, functools.partial)


_LIBRARY_PREFIXES = ("refms", "numpy", "scipy", "functools", "operator", "builtins", "math",
                     "typing", "collections", "inspect", "abc", "enum", "copy", "itertools")


def parsed_in_graph(fn):
    """Mark a method of refms's own as parsed in graph mode, like user code, instead of run
    on stand-ins: for library code whose control flow depends on run-time values
    (``if not overflow:`` in a loss-scaling training step), which a trace cannot follow."""
    fn.parsed_in_graph = True
    return fn


def is_user_function(fn):
    """True for a plain Python function of the user's program (parsed); refms's own code,
    numpy and the standard library are run on stand-ins instead (traced)."""
    if not isinstance(fn, types.FunctionType):
        return False
    if getattr(fn, "parsed_in_graph", False):     # refms code marked with parsed_in_graph
        return True
    if getattr(fn, "computed_at_compile_time", False):    # @constexpr: run on its constants
        return False
    module = getattr(fn, "__module__", None) or ""
    root = module.split(".")[0]
    if root in _LIBRARY_PREFIXES or root == "mindspore":
        return False
    return True

