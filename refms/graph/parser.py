"""The parser: Python ``ast`` → graph IR, one handler per construct.

Algorithm: the SSA construction of Braun et al., "Simple and Efficient
Construction of Static Single Assignment Form" (CC 2013), in MindSpore's
functional form — every basic block is a :class:`~refms.graph.ir.FuncGraph`,
a jump is a tail call, and a φ-function is a parameter of the block it joins
(MindSpore ``pipeline/jit/ps/parse/parse.cc``):

* ``if c: A else: B; rest`` becomes ``Switch(c, @✓, @✗)()``; ``@✓`` runs ``A``
  and ends with the tail call ``@↓(vars…)``, ``@✗`` likewise; ``@↓`` takes the
  variables assigned in the branches as parameters (``фx``) and holds ``rest``.
* ``while c: body`` becomes a header graph ``@↵`` taking the loop's variables,
  ``Switch(c, @↻, @↓)(vars…)``; the body ``@↻`` ends with ``@↵(new vars…)``,
  ``break`` calls ``@↓``, ``continue`` calls ``@↵``.  ``for x in seq`` is the
  same loop over an index ``i < len(seq)``.
* Nested ``def`` and ``lambda`` are child graphs; a name of an enclosing
  function used inside is a free variable.  Names not bound in any parsed
  scope become ``resolve(namespace, name)``, replaced by
  :mod:`refms.graph.resolve`.

A loop over a constant range is unrolled later, by inference: each iteration's
index is a different constant, so each is its own specialization.

Supported syntax follows MindSpore's "Static Graph Syntax Support" page
(``docs/mindspore/source_en/note/static_graph_syntax_support.md``, r2.0);
anything else raises :class:`~refms.graph.errors.GraphSyntaxError` with the
file, line, column and construct.  Expressions are in :mod:`refms.graph.parse_expr`.
"""
import ast
import operator

from . import graph_ops as G
from .builtins import (graph_context_manager, graph_iter, graph_len, graph_list_inplace,
                       graph_list_method, graph_setitem)
from .errors import GraphSyntaxError
from .ir import FuncGraph, ValueNode
from .parse_expr import ExpressionParser, attribute_path, inplace_target
from .source import FunctionSource, function_source

__all__ = ["parse_function", "Signature"]

#: Statements MindSpore's static graph syntax rejects, with the construct name it reports.
UNSUPPORTED_STATEMENTS = {
    ast.Try: "Try", ast.AsyncWith: "AsyncWith", ast.ClassDef: "ClassDef",
    ast.Global: "Global", ast.Nonlocal: "Nonlocal", ast.Delete: "Delete", ast.Import: "Import",
    ast.ImportFrom: "ImportFrom", ast.AsyncFunctionDef: "AsyncFunctionDef",
    ast.AsyncFor: "AsyncFor", ast.Match: "Match",
}
if hasattr(ast, "TryStar"):
    UNSUPPORTED_STATEMENTS[ast.TryStar] = "TryStar"


#: List (and dict) methods that change the container in place: a statement ``xs.append(v)``
#: (``d.update(e)``) rebinds ``xs`` to an updated copy.
LIST_MUTATIONS = frozenset(["append", "extend", "insert", "reverse", "clear", "sort", "remove",
                            "update"])
#: Those MindSpore 2.10 runs on the list itself when it comes from outside the function (LAX).
INPLACE_LIST_METHODS = frozenset(["extend", "insert", "reverse"])


class Signature:
    """How a call's arguments bind to a parsed function's parameters.

    ``defaults`` holds, per defaulted parameter, ``("value", v)`` (a top-level
    function's default) or ``("node", n)`` (a nested function's default: a node
    of the enclosing graph, evaluated where the ``def`` stands).
    """

    def __init__(self, positional, defaults, vararg=None, kwonly=(), kw_defaults=None,
                 kwarg=None):
        self.positional = list(positional)
        self.defaults = list(defaults)          # for the last len(defaults) positional names
        self.vararg = vararg
        self.kwonly = list(kwonly)
        self.kw_defaults = dict(kw_defaults or {})
        self.kwarg = kwarg

    @property
    def names(self):
        """Parameter names in graph order: positional, *vararg, keyword-only, **kwarg."""
        names = list(self.positional)
        if self.vararg:
            names.append(self.vararg)
        names.extend(self.kwonly)
        if self.kwarg:
            names.append(self.kwarg)
        return names


class Block:
    """A straight-line region being filled: its graph, the variables bound in it, and the
    block it was entered from (where names not bound here are looked up)."""

    def __init__(self, graph, parent, variables=None):
        self.graph = graph
        self.parent = parent
        self.vars = dict(variables or {})

    def child(self, graph):
        """A block of ``graph`` (a child graph: a branch, a loop body) entered from this one."""
        return Block(graph, self)

    def lookup(self, name):
        block = self
        while block is not None:
            if name in block.vars:
                return block.vars[name]
            block = block.parent
        return None


class Loop:
    """The graphs a ``break`` / ``continue`` jumps to, and the loop's variables."""

    def __init__(self, header, after, names, is_for):
        self.header = header
        self.after = after
        self.names = names
        self.is_for = is_for


def assigned_names(statements):
    """Names bound by ``statements`` (not inside nested functions), in order of appearance."""
    found = []

    def add(name):
        if name not in found:
            found.append(name)

    def targets(node):
        if isinstance(node, ast.Name):
            add(node.id)
        elif isinstance(node, (ast.Tuple, ast.List)):
            for elt in node.elts:
                targets(elt)
        elif isinstance(node, ast.Starred):
            targets(node.value)
        elif isinstance(node, ast.Subscript):
            targets(node.value)                # x[i][j] = v rebinds x

    def visit(stmt):
        if isinstance(stmt, ast.Assign):
            for t in stmt.targets:
                targets(t)
        elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
            targets(stmt.target)
        elif isinstance(stmt, ast.For):
            targets(stmt.target)
        elif isinstance(stmt, ast.FunctionDef):
            add(stmt.name)
            return
        elif (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)
              and isinstance(stmt.value.func, ast.Attribute)
              and isinstance(stmt.value.func.value, ast.Name)
              and stmt.value.func.attr in LIST_MUTATIONS):
            add(stmt.value.func.value.id)          # xs.append(v) rebinds xs
        for child in ast.iter_child_nodes(stmt):
            if isinstance(child, ast.stmt):
                visit(child)
            elif isinstance(child, ast.expr):
                for item in ast.walk(child):       # x.add_(y) rebinds x
                    name = inplace_target(item)
                    if name is not None:
                        add(name)

    for statement in statements:
        visit(statement)
    return found


class FunctionParser(ExpressionParser):
    """Parses one function (and the functions nested in it) into graphs."""

    def __init__(self, source, namespace, name, enclosing=None, parent_graph=None):
        self.source = source
        self.namespace = namespace
        self.name = name
        self.enclosing = enclosing            # the Block a nested def stands in
        self.parent_graph = parent_graph
        self.loops = []
        self.changed_in_place = set()         # names of outside lists changed in place
        self.managers = []                    # (with manager node, loop depth when entered)

    # -- helpers ------------------------------------------------------------------------------
    def loc(self, node):
        return self.source.location(node)

    def error(self, construct, node, detail=""):
        return GraphSyntaxError(construct, self.loc(node), detail)

    def new_graph(self, prefix, parent, node):
        return FuncGraph(prefix + self.name, parent=parent, loc=self.loc(node))

    def jump(self, block, target, values, node):
        """End ``block`` with the tail call ``target(*values)``."""
        call = block.graph.apply([ValueNode(target)] + values, loc=self.loc(node))
        block.graph.set_output(call)

    def current_values(self, block, names, node):
        """The values ``block`` passes for ``names`` when it jumps to a join (the end of an
        ``if``, a loop's header).  A name the function has not assigned yet is read from its
        namespace when it is a global or closure variable there: MindSpore resolves it there —
        ``z += i`` in a loop over a global ``z`` starts from the global (statements, "for
        Statements"), where Python would raise UnboundLocalError.  Otherwise (builtins
        included: a loop variable named ``input`` does not start as the builtin) it is
        Undefined, an error only if used."""
        values = []
        for name in names:
            value = block.lookup(name)
            if value is None and self.namespace.has_variable(name):
                value = self.lookup_name(block, name, node)
            values.append(value if value is not None else ValueNode(G.Undefined(name)))
        return values

    # -- functions ------------------------------------------------------------------------------
    def parse(self, defaults_from=None):
        """The graph of this function: parameters, body, and its Signature."""
        tree = self.source.tree
        graph = FuncGraph(self.name, parent=self.parent_graph, loc=self.loc(tree))
        graph.signature = self.signature(tree.args, defaults_from)
        variables = {}
        for name in graph.signature.names:
            variables[name] = graph.add_param(name, loc=self.loc(tree))
            if self.parent_graph is None:          # an input of the compiled program
                self.inplace_roots()[id(variables[name])] = variables[name]
        block = Block(graph, self.enclosing, variables)
        if isinstance(tree, ast.Lambda):
            graph.set_output(self.expr(block, tree.body))
            return graph
        if tree.decorator_list and self.parent_graph is not None:
            raise self.error("decorator", tree.decorator_list[0],
                             "a nested function in graph mode cannot be decorated")
        body = tree.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            body = body[1:]                   # the docstring
        end = self.statements(block, body)
        if end is not None:
            end.graph.set_output(ValueNode(None))
        return graph

    def signature(self, args, defaults_from):
        """``defaults_from``: a function object (top level: its Python defaults) or a Block
        (nested: default expressions are parsed there)."""
        positional = [a.arg for a in args.posonlyargs + args.args]
        kwonly = [a.arg for a in args.kwonlyargs]
        if isinstance(defaults_from, Block):
            defaults = [("node", self.expr(defaults_from, d)) for d in args.defaults]
            kw_defaults = {a.arg: ("node", self.expr(defaults_from, d))
                           for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None}
        else:
            fn = defaults_from
            defaults = [("value", v) for v in (getattr(fn, "__defaults__", None) or ())]
            kw_defaults = {k: ("value", v)
                           for k, v in (getattr(fn, "__kwdefaults__", None) or {}).items()}
        return Signature(positional, defaults, args.vararg and args.vararg.arg, kwonly,
                         kw_defaults, args.kwarg and args.kwarg.arg)

    # -- statements ----------------------------------------------------------------------------
    def statements(self, block, statements):
        """Parse a statement list; returns the block control falls out of, or None when
        every path has left (return, raise, break, continue)."""
        for statement in statements:
            construct = UNSUPPORTED_STATEMENTS.get(type(statement))
            if construct is not None:
                raise self.error(construct, statement)
            handler = getattr(self, "stmt_" + type(statement).__name__, None)
            if handler is None:
                raise self.error(type(statement).__name__, statement)
            block = handler(block, statement)
            if block is None:
                return None
        return block

    def stmt_Expr(self, block, node):
        """Expression statement (a call for its effect: ``print(x)``, ``ops.assign(w, v)``).

        ``xs.append(v)`` on a variable (``extend``, ``insert``, ``reverse``, ``clear``,
        ``sort``, ``remove`` too; a dict's ``update``) rebinds ``xs`` to the updated copy,
        since graph values are immutable (syntax support: "List", "Dictionary" — in-place
        operations are rewritten); ``extend``, ``insert`` and ``reverse`` on a global list or a
        list attribute (``self.lst``) change that list when the graph runs (LAX)."""
        call = node.value
        if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                and call.func.attr in INPLACE_LIST_METHODS
                and isinstance(call.func.value, ast.Attribute) and attribute_path(call.func.value)
                and not call.keywords and not any(isinstance(a, ast.Starred) for a in call.args)):
            return self.mutate_attribute_list(block, call, node)
        if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                and isinstance(call.func.value, ast.Name) and call.func.attr in LIST_MUTATIONS
                and not call.keywords and not any(isinstance(a, ast.Starred) for a in call.args)):
            name = call.func.value.id
            # a global or closure variable (still that object after an in-place change)
            outside = block.lookup(name) is None or name in self.changed_in_place
            target = self.lookup_name(block, name, call.func.value)
            args = [self.expr(block, a) for a in call.args]
            method = graph_list_inplace if (outside and call.func.attr in INPLACE_LIST_METHODS) \
                else graph_list_method
            updated = block.graph.apply([ValueNode(method), target,
                                         ValueNode(call.func.attr)] + args, loc=self.loc(node))
            block.vars[name] = updated
            if method is graph_list_inplace:
                self.changed_in_place.add(name)
            return block
        self.expr(block, call)
        return block

    def mutate_attribute_list(self, block, call, node):
        """``self.lst.extend(v)`` (``insert``, ``reverse``) as a statement: with the LAX syntax
        level that very list changes every time the graph runs, and later reads of
        ``self.lst`` in the program see it changed (a variable named ``"self.lst"`` holds
        it), as MindSpore 2.10 does (recorded in tests/golden/graph_leftovers.json)."""
        key = attribute_path(call.func.value)
        target = self.expr(block, call.func.value)
        args = [self.expr(block, a) for a in call.args]
        updated = block.graph.apply([ValueNode(graph_list_inplace), target,
                                     ValueNode(call.func.attr)] + args, loc=self.loc(node))
        block.vars[key] = updated
        self.changed_in_place.add(key)
        return block

    def stmt_Pass(self, block, node):
        return block

    def stmt_Return(self, block, node):
        """``return [value]`` — the block's output (syntax support: "return statement")."""
        value = ValueNode(None) if node.value is None else self.expr(block, node.value)
        self.exit_managers(block, node)
        block.graph.set_output(value)
        return None

    def stmt_Assign(self, block, node):
        """``a = b = value``, tuple unpacking, ``x[i] = v`` (syntax support: "assignment")."""
        value = self.expr(block, node.value)
        for target in node.targets:
            self.assign(block, target, value)
        return block

    def stmt_AnnAssign(self, block, node):
        if node.value is None:
            return block
        self.assign(block, node.target, self.expr(block, node.value))
        return block

    def stmt_AugAssign(self, block, node):
        """``x += v`` is ``x = x + v`` (also ``x[i] += v``, ``self.n += v``)."""
        op = self.binary_operator(node.op, node)
        if isinstance(node.target, ast.Name):
            current = self.lookup_name(block, node.target.id, node.target)
        elif isinstance(node.target, ast.Subscript):
            current = self.subscript_value(block, node.target)
        elif isinstance(node.target, ast.Attribute):
            current = self.expr_Attribute(block, node.target)
        else:
            raise self.error("AugAssign to " + type(node.target).__name__, node)
        value = block.graph.apply([op, current, self.expr(block, node.value)], loc=self.loc(node))
        self.assign(block, node.target, value)
        return block

    def assign(self, block, target, value):
        if isinstance(target, ast.Name):
            block.vars[target.id] = value
            self.changed_in_place.discard(target.id)
            if getattr(value, "graph", None) is block.graph and value.name is None:
                value.name = target.id
            return
        if isinstance(target, (ast.Tuple, ast.List)):
            if any(isinstance(e, ast.Starred) for e in target.elts):
                raise self.error("starred assignment", target)
            for k, element in enumerate(target.elts):
                item = block.graph.apply([G.GETITEM, value, ValueNode(k)], loc=self.loc(target))
                self.assign(block, element, item)
            return
        if isinstance(target, ast.Subscript):
            self.assign_subscript(block, target, value)
            return
        if isinstance(target, ast.Attribute):
            key = attribute_path(target)
            if key in self.changed_in_place:          # no longer the list changed in place
                self.changed_in_place.discard(key)
                block.vars.pop(key, None)
            self.assign_attribute(block, target, value)
            return
        raise self.error("assignment to " + type(target).__name__, target,
                         "graph mode assigns to names, attributes, subscripts and tuples of "
                         "them")

    def assign_subscript(self, block, target, value):
        """``x[i] = v`` rebinds ``x`` to an updated copy (graph values are immutable; a Tensor
        gets the functional ``SetItem``); ``x[i][j] = v`` is ``x[i] = x[i] updated at j``,
        ``self.w[i] = v`` assigns ``self.w`` (syntax support: "List", "Tensor" index
        assignment)."""
        base = self.expr(block, target.value)
        index = self.index(block, target.slice)
        updated = block.graph.apply([ValueNode(graph_setitem), base, index, value],
                                    loc=self.loc(target))
        if isinstance(target.value, (ast.Name, ast.Subscript, ast.Attribute)):
            self.assign(block, target.value, updated)
        # else ``f()[i] = v`` updates a temporary: nothing to rebind (MindSpore accepts it)

    def assign_attribute(self, block, target, value):
        """``obj.name = v``: a ``setattr`` node, given its meaning by inference
        (:mod:`refms.graph.attributes`; syntax support: "Attribute References and Attribute
        Modification", "Supporting Property Setting and Modification")."""
        obj = self.expr(block, target.value)
        block.graph.apply([G.SETATTR, obj, ValueNode(target.attr), value], loc=self.loc(target))

    def stmt_FunctionDef(self, block, node):
        """A nested ``def``: a child graph (a closure when it uses enclosing variables)."""
        source = FunctionSource(node, self.source.filename, self.source.line_offset,
                                self.source.col_offset)
        child = FunctionParser(source, self.namespace, node.name, enclosing=block,
                               parent_graph=block.graph)
        graph = child.parse(defaults_from=block)
        block.vars[node.name] = ValueNode(graph)
        return block

    def stmt_Raise(self, block, node):
        """``raise Error(...)`` — an effect node; the block ends (syntax support: "raise")."""
        if node.exc is None:
            raise self.error("bare raise", node)
        error = self.expr(block, node.exc)
        raised = block.graph.apply([G.RAISE, error], loc=self.loc(node))
        block.graph.set_output(raised)
        return None

    def stmt_Assert(self, block, node):
        """``assert c, msg`` is ``if not c: raise AssertionError(msg)``."""
        args = [] if node.msg is None else [node.msg]
        error = ast.Call(ast.Name("AssertionError", ast.Load()), args, [])
        rewritten = ast.If(ast.UnaryOp(ast.Not(), node.test), [ast.Raise(error, None)], [])
        for item in ast.walk(rewritten):
            ast.copy_location(item, node)
            if hasattr(node, "end_lineno"):
                item.end_lineno, item.end_col_offset = node.end_lineno, node.end_col_offset
        return self.stmt_If(block, rewritten)

    def stmt_With(self, block, node):
        """``with mgr as x: body`` → ``x = mgr.__enter__()``, ``body``,
        ``mgr.__exit__(None, None, None)``; several items enter in order and exit in reverse
        (syntax support: "With Statement": the manager is a ``jit_class`` object or a Cell).
        A ``return``, ``break`` or ``continue`` leaving the body runs the ``__exit__`` calls
        first (:meth:`exit_managers`); a path that raises does not run them."""
        for item in node.items:
            manager = self.expr(block, item.context_expr)
            manager = self.apply(block, [ValueNode(graph_context_manager), manager],
                                 item.context_expr)
            entered = self.call_method(block, manager, "__enter__", [], item.context_expr)
            if item.optional_vars is not None:
                self.assign(block, item.optional_vars, entered)
            self.managers.append((manager, len(self.loops)))
        block = self.statements(block, node.body)
        entered_here = self.managers[len(self.managers) - len(node.items):]
        del self.managers[len(self.managers) - len(node.items):]
        if block is not None:
            for manager, _ in reversed(entered_here):
                self.call_method(block, manager, "__exit__", [ValueNode(None)] * 3, node)
        return block

    def exit_managers(self, block, node, loop_depth=0):
        """Call ``__exit__(None, None, None)`` of the ``with`` managers entered inside the
        innermost ``loop_depth`` loops' bodies (0: all of them), innermost first, before
        ``block`` leaves them."""
        for manager, depth in reversed(self.managers):
            if depth >= loop_depth:
                self.call_method(block, manager, "__exit__", [ValueNode(None)] * 3, node)

    def call_method(self, block, obj, name, args, node):
        """The call ``obj.name(*args)`` in ``block``."""
        method = self.apply(block, [G.GETATTR, obj, ValueNode(name)], node)
        return self.apply(block, [method] + list(args), node)

    # -- control flow ------------------------------------------------------------------------------
    def stmt_If(self, block, node):
        """``if``/``elif``/``else`` → ``Switch(c, @✓, @✗)()`` joined at ``@↓`` (syntax support:
        "if statements"; a Tensor condition is decided at run time)."""
        cond = self.expr(block, node.test)
        names = assigned_names(node.body + node.orelse)
        true_graph = self.new_graph("✓", block.graph, node)
        false_graph = self.new_graph("✗", block.graph, node)
        true_end = self.statements(Block(true_graph, block), node.body)
        false_end = self.statements(Block(false_graph, block), node.orelse)
        switch = block.graph.apply([G.SWITCH, cond, ValueNode(true_graph), ValueNode(false_graph)],
                                   loc=self.loc(node))
        block.graph.set_output(block.graph.apply([switch], loc=self.loc(node)))
        ends = [end for end in (true_end, false_end) if end is not None]
        if not ends:
            return None
        after = self.new_graph("↓", block.graph, node)
        after.flags["if_join"] = True         # inference may broaden its numbers (infer.py)
        params = [after.add_param("ф" + name) for name in names]
        for end in ends:
            self.jump(end, after, self.current_values(end, names, node), node)
        return Block(after, block, dict(zip(names, params)))

    def loop_graphs(self, block, node, names):
        """The header ``@↵``, body ``@↻`` and after ``@↓`` graphs of a loop, each taking
        ``names`` as parameters; returns them with their blocks."""
        header = self.new_graph("↵", block.graph, node)
        header_params = [header.add_param("ф" + n) for n in names]
        header_block = Block(header, block, dict(zip(names, header_params)))
        body = self.new_graph("↻", header, node)
        after = self.new_graph("↓", header, node)
        body_block = Block(body, header_block,
                           dict(zip(names, [body.add_param("ф" + n) for n in names])))
        after_block = Block(after, header_block,
                            dict(zip(names, [after.add_param("ф" + n) for n in names])))
        return header, header_block, body, body_block, after, after_block, header_params

    def stmt_While(self, block, node):
        """``while c: body`` → a header graph that calls itself (syntax support: "while
        statements"; ``while … else`` is not supported)."""
        if node.orelse:
            raise self.error("while...else", node)
        names = assigned_names(node.body)
        (header, header_block, body, body_block, after, after_block,
         header_params) = self.loop_graphs(block, node, names)
        header.flags["while_loop"] = True     # inference may broaden its numbers (infer.py)
        self.jump(block, header, self.current_values(block, names, node), node)
        cond = self.expr(header_block, node.test)
        switch = header.apply([G.SWITCH, cond, ValueNode(body), ValueNode(after)],
                              loc=self.loc(node))
        header.set_output(header.apply([switch] + header_params, loc=self.loc(node)))
        self.loops.append(Loop(header, after, names, is_for=False))
        end = self.statements(body_block, node.body)
        self.loops.pop()
        if end is not None:
            self.jump(end, header, self.current_values(end, names, node), node)
        return after_block

    def stmt_For(self, block, node):
        """``for target in seq: body`` → a loop over ``i < len(seq)`` (syntax support: "for
        statements": tuples, lists, ranges, dicts, Tensors; ``for … else`` is not supported)."""
        if node.orelse:
            raise self.error("for...else", node)
        loc = self.loc(node)
        sequence = block.graph.apply([ValueNode(graph_iter), self.expr(block, node.iter)], loc=loc)
        length = block.graph.apply([ValueNode(graph_len), sequence], loc=loc)
        # Each loop's hidden index has its own name (by nesting depth), so an inner loop's
        # index never shadows the outer one's when the outer loop continues.
        counter = "@i%d" % len(self.loops)
        names = [counter] + assigned_names([ast.Assign([node.target], node.iter)] + node.body)
        (header, header_block, body, body_block, after, after_block,
         header_params) = self.loop_graphs(block, node, names)
        header.flags["for_loop"] = True       # over a run-time length it is a real loop (infer.py)
        self.jump(block, header, [ValueNode(0)] + self.current_values(block, names[1:], node),
                  node)
        index = header_params[0]
        cond = header.apply([ValueNode(operator.lt), index, length], loc=loc)
        switch = header.apply([G.SWITCH, cond, ValueNode(body), ValueNode(after)], loc=loc)
        header.set_output(header.apply([switch] + header_params, loc=loc))
        item = body.apply([G.GETITEM, sequence, body_block.vars[counter]], loc=loc)
        self.assign(body_block, node.target, item)
        self.loops.append(Loop(header, after, names, is_for=True))
        end = self.statements(body_block, node.body)
        self.loops.pop()
        if end is not None:
            self.continue_loop(end, Loop(header, after, names, is_for=True), node)
        return after_block

    def continue_loop(self, block, loop, node):
        values = self.current_values(block, loop.names, node)
        if loop.is_for:
            values[0] = block.graph.apply([ValueNode(operator.add), values[0], ValueNode(1)],
                                          loc=self.loc(node))
        self.jump(block, loop.header, values, node)

    def stmt_Break(self, block, node):
        """``break``: jump to the loop's after-block with the current variables."""
        if not self.loops:
            raise self.error("break outside a loop", node)
        loop = self.loops[-1]
        self.exit_managers(block, node, len(self.loops))
        self.jump(block, loop.after, self.current_values(block, loop.names, node), node)
        return None

    def stmt_Continue(self, block, node):
        """``continue``: jump back to the loop's header (the next index for ``for``)."""
        if not self.loops:
            raise self.error("continue outside a loop", node)
        self.exit_managers(block, node, len(self.loops))
        self.continue_loop(block, self.loops[-1], node)
        return None


def parse_function(fn, name=None, namespace=None):
    """Parse the Python function ``fn`` into an (unresolved) FuncGraph; None when its source
    cannot be found."""
    source = function_source(fn)
    if source is None:
        return None
    if namespace is None:
        closure = {}
        code = fn.__code__
        for var, cell in zip(code.co_freevars, fn.__closure__ or ()):
            closure[var] = cell
        namespace = G.NameSpace(fn.__qualname__, fn.__globals__, closure)
    parser = FunctionParser(source, namespace, name or fn.__name__)
    return parser.parse(defaults_from=fn)
