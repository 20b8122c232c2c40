"""The parser's expression handlers: one method per ``ast`` expression.

Every expression becomes cnodes appended to the current block's graph, in
evaluation order (ANF).  Operators become calls of Python's own operator
functions (``operator.add``…), resolved by inference like any call: on
constants they are computed at compile time, on Tensors they expand to the
primitives the Tensor operators call (MindSpore's ``MultitypeFuncGraph``
``add``, ``sub``…).  ``and``/``or``/``if``-expressions evaluate lazily, so they
become ``Switch`` over small branch graphs, as in MindSpore.
"""
import ast
import operator

from .._tensor_inplace import INPLACE_METHODS
from . import graph_ops as G
from .builtins import graph_list_pop
from .errors import GraphSyntaxTypeError
from .ir import ValueNode
from .source import FunctionSource

__all__ = ["ExpressionParser"]

BINARY_OPERATORS = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
    ast.Pow: operator.pow, ast.MatMult: operator.matmul, ast.BitAnd: operator.and_,
    ast.BitOr: operator.or_, ast.BitXor: operator.xor, ast.LShift: operator.lshift,
    ast.RShift: operator.rshift,
}
UNARY_OPERATORS = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert}
COMPARISONS = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
}
UNSUPPORTED_EXPRESSIONS = {
    ast.NamedExpr: "NamedExpr (:=)", ast.Set: "Set", ast.SetComp: "SetComp", ast.Await: "Await",
    ast.Yield: "Yield", ast.YieldFrom: "YieldFrom",
}


def inplace_target(node):
    """The variable name ``x`` when ``node`` is the call ``x.<in-place method>(...)``."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name) and node.func.attr in INPLACE_METHODS):
        return node.func.value.id
    return None


def attribute_path(node):
    """``"self.lst"`` for the expression ``self.lst`` (a chain of attributes on a name), else
    None.  A list attribute changed in place by the program is held under this name."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not parts or not isinstance(node, ast.Name):
        return None
    return ".".join([node.id] + parts[::-1])


def _contains(container, item):
    """``item in container`` (the operands of ``in`` are evaluated left to right)."""
    return item in container


def _not_contains(container, item):
    return item not in container


class ExpressionParser:
    """Mixed into :class:`refms.graph.parser.FunctionParser`."""

    def expr(self, block, node):
        construct = UNSUPPORTED_EXPRESSIONS.get(type(node))
        if construct is not None:
            raise self.error(construct, node)
        handler = getattr(self, "expr_" + type(node).__name__, None)
        if handler is None:
            raise self.error(type(node).__name__, node)
        return handler(block, node)

    def apply(self, block, inputs, node):
        return block.graph.apply(inputs, loc=self.loc(node))

    # -- names and constants -------------------------------------------------------------------
    def expr_Constant(self, block, node):
        return ValueNode(node.value, loc=self.loc(node))

    def lookup_name(self, block, identifier, node):
        """A variable of a parsed scope, or ``resolve(namespace, name)`` for a global,
        closure variable or builtin (resolved by :mod:`refms.graph.resolve`)."""
        found = block.lookup(identifier)
        if found is not None:
            return found
        return self.apply(block, [G.RESOLVE, ValueNode(self.namespace),
                                  ValueNode(G.Symbol(identifier))], node)

    def expr_Name(self, block, node):
        return self.lookup_name(block, node.id, node)

    # -- operators ---------------------------------------------------------------------------------
    def binary_operator(self, op, node):
        function = BINARY_OPERATORS.get(type(op))
        if function is None:
            raise self.error(type(op).__name__, node)
        return ValueNode(function)

    def expr_BinOp(self, block, node):
        """``a + b`` and the other arithmetic operators (syntax support: "arithmetic operators")."""
        left = self.expr(block, node.left)
        right = self.expr(block, node.right)
        return self.apply(block, [self.binary_operator(node.op, node), left, right], node)

    def expr_UnaryOp(self, block, node):
        """``-x``, ``+x``, ``~x``; ``not x`` by truth value (a Tensor: logical not)."""
        operand = self.expr(block, node.operand)
        if isinstance(node.op, ast.Not):
            return self.apply(block, [G.NOT, operand], node)
        return self.apply(block, [ValueNode(UNARY_OPERATORS[type(node.op)]), operand], node)

    def comparison(self, block, op, left, right, node):
        if isinstance(op, ast.In):
            return self.apply(block, [ValueNode(_contains), right, left], node)
        if isinstance(op, ast.NotIn):
            return self.apply(block, [ValueNode(_not_contains), right, left], node)
        return self.apply(block, [ValueNode(COMPARISONS[type(op)]), left, right], node)

    def expr_Compare(self, block, node):
        """``a < b``; a chain ``a < b < c`` is ``a < b and b < c`` with ``b`` evaluated once
        (syntax support: "comparison operators", also ``in``, ``is``)."""
        left = self.expr(block, node.left)
        return self.compare_chain(block, left, list(zip(node.ops, node.comparators)), node)

    def compare_chain(self, block, left, pairs, node):
        op, comparator = pairs[0]
        right = self.expr(block, comparator)
        result = self.comparison(block, op, left, right, node)
        if len(pairs) == 1:
            return result
        return self.lazy_and(block, result,
                             lambda inner: self.compare_chain(inner, right, pairs[1:], node), node)

    def branch_graph(self, block, prefix, node, build):
        """A child graph of ``block``'s graph whose output is ``build(inner_block)``."""
        graph = self.new_graph(prefix, block.graph, node)
        inner = block.child(graph)
        graph.set_output(build(inner))
        return graph

    def select(self, block, cond, if_true, if_false, node):
        """``Switch(cond, @✓, @✗)()`` over two branch graphs built by the callables."""
        true_graph = self.branch_graph(block, "✓", node, if_true)
        false_graph = self.branch_graph(block, "✗", node, if_false)
        switch = self.apply(block, [G.SWITCH, cond, ValueNode(true_graph),
                                    ValueNode(false_graph)], node)
        return self.apply(block, [switch], node)

    def lazy_and(self, block, left, right_builder, node):
        return self.select(block, left, right_builder, lambda inner: left, node)

    def expr_BoolOp(self, block, node):
        """``a and b`` / ``a or b`` with Python's short-circuit: ``b`` is evaluated only when
        needed (syntax support: "logical operators")."""
        result = self.expr(block, node.values[0])
        for operand in node.values[1:]:
            def build_right(inner, operand=operand):
                return self.expr(inner, operand)

            def keep_left(inner, left=result):
                return left
            if isinstance(node.op, ast.And):
                result = self.select(block, result, build_right, keep_left, node)
            else:
                result = self.select(block, result, keep_left, build_right, node)
        return result

    def expr_IfExp(self, block, node):
        """``a if c else b`` → ``Switch(c, @✓, @✗)()``."""
        cond = self.expr(block, node.test)
        return self.select(block, cond, lambda inner: self.expr(inner, node.body),
                           lambda inner: self.expr(inner, node.orelse), node)

    # -- calls, attributes, subscripts ---------------------------------------------------------------
    def expr_Call(self, block, node):
        """``f(a, *b, k=v, **d)`` — a call of a primitive, Cell, graph or Python function
        (syntax support: "function call"; ``super()`` binds the method's class and ``self``).

        An in-place Tensor method on a variable, ``x.add_(y)``, also rebinds ``x`` to its
        result (tutorial *Static Graph Syntax*, "Supported In-place Operations")."""
        if isinstance(node.func, ast.Name) and node.func.id == "super" and not node.args:
            return self.zero_argument_super(block, node)
        target = inplace_target(node)
        if target is not None:
            self.check_inplace_on_view(block, target, node)
            current = block.lookup(target)
            result = self.call(block, node)
            block.vars[target] = result
            self.write_back(block, current, result, node)
            return result
        result = self.call(block, node)
        if getattr(self.static_callee(block, node.func), "view_op", False):
            self.view_results().add(id(result))
        return result

    def inplace_roots(self):
        """id(node) -> the program input it holds: the inputs themselves, and the results of
        in-place methods applied to them (``x.add_(y)`` on an input ``x``)."""
        if not hasattr(self, "_inplace_roots"):
            self._inplace_roots = {}
        return self._inplace_roots

    def write_back(self, block, current, result, node):
        """An in-place method on a program input also updates the caller's Tensor: an
        ``Assign(input, result)`` effect (MindSpore writes the input back likewise)."""
        root = self.inplace_roots().get(id(current)) if current is not None else None
        if root is None:
            return
        self.inplace_roots()[id(result)] = root
        from ..ops import functional
        self.apply(block, [ValueNode(functional.assign), root, result], node)

    def view_results(self):
        """Ids of the nodes that are results of view operations (``mint.select``...)."""
        if not hasattr(self, "_view_results"):
            self._view_results = set()
        return self._view_results

    def static_callee(self, block, func):
        """The object a callee like ``mint.select`` names, when a dotted global name gives it
        at parse time (None otherwise)."""
        path = []
        while isinstance(func, ast.Attribute):
            path.append(func.attr)
            func = func.value
        if not isinstance(func, ast.Name) or block.lookup(func.id) is not None:
            return None
        namespace = self.namespace
        value = namespace.closure.get(func.id, namespace.globals.get(func.id))
        for attr in reversed(path):
            value = getattr(value, attr, None)
        return value

    def check_inplace_on_view(self, block, target, node):
        """An in-place method whose Tensor is a view's result raises ``RuntimeError``, as
        MindSpore 2.10's graph mode does on CPU (its ``Assign`` kernels take no view input)."""
        value = block.lookup(target)
        if value is not None and id(value) in self.view_results():
            raise RuntimeError(
                f"{node.func.attr} at {self.source.location(node)}: an in-place operation on "
                f"'{target}', the result of a view operation, is not supported in graph mode "
                f"(MindSpore: the in-place op does not support view input; convert the view "
                f"input to continuous input in advance).")

    def call(self, block, node):
        """The call itself (after the in-place and view bookkeeping of :meth:`expr_Call`)."""
        if self.pops_outside_list(block, node):
            target = (self.expr(block, node.func.value)
                      if isinstance(node.func.value, ast.Attribute)
                      else self.lookup_name(block, node.func.value.id, node.func.value))
            args = [self.expr(block, a) for a in node.args]
            return self.apply(block, [ValueNode(graph_list_pop), target] + args, node)
        function = self.expr(block, node.func)
        spec, inputs = [], []
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                spec.append("star")
                inputs.append(self.expr(block, arg.value))
            else:
                spec.append("pos")
                inputs.append(self.expr(block, arg))
        for keyword in node.keywords:
            if keyword.arg is None:
                spec.append("dstar")
            else:
                spec.append(("kw", keyword.arg))
            inputs.append(self.expr(block, keyword.value))
        if all(kind == "pos" for kind in spec):
            return self.apply(block, [function] + inputs, node)
        return self.apply(block, [ValueNode(G.CallWithSpec(spec)), function] + inputs, node)

    def pops_outside_list(self, block, node):
        """``xs.pop(…)`` on a name from outside the function or ``self.lst.pop(…)`` on an
        attribute (LAX: that very list changes when the graph runs, as in MindSpore 2.10)."""
        func = node.func
        if not (isinstance(func, ast.Attribute) and func.attr == "pop"
                and (isinstance(func.value, ast.Name) or attribute_path(func.value))):
            return False
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            return False
        if isinstance(func.value, ast.Attribute):        # self.lst.pop(): that very list
            return True
        name = func.value.id
        return block.lookup(name) is None or name in getattr(self, "changed_in_place", ())

    def zero_argument_super(self, block, node):
        tree = self.source.tree
        if not tree.args.args:
            raise self.error("super()", node, "super() needs the method's first argument")
        cls = self.lookup_name(block, "__class__", node)
        first = self.lookup_name(block, tree.args.args[0].arg, node)
        return self.apply(block, [self.lookup_name(block, "super", node), cls, first], node)

    def expr_Attribute(self, block, node):
        """``obj.name`` — on ``self``: sub-cells, Parameters, Primitives and constants; on a
        Tensor: its methods and properties (syntax support: "attribute reference")."""
        key = attribute_path(node)
        if key in getattr(self, "changed_in_place", ()) and block.lookup(key) is not None:
            return block.lookup(key)        # a list attribute changed in place by the program
        value = self.expr(block, node.value)
        return self.apply(block, [G.GETATTR, value, ValueNode(node.attr)], node)

    def index(self, block, node):
        if isinstance(node, ast.Slice):
            parts = [ValueNode(None) if p is None else self.expr(block, p)
                     for p in (node.lower, node.upper, node.step)]
            return self.apply(block, [G.MAKE_SLICE] + parts, node)
        if isinstance(node, ast.Tuple):
            items = [self.index(block, element) for element in node.elts]
            return self.apply(block, [G.MAKE_TUPLE] + items, node)
        return self.expr(block, node)

    def subscript_value(self, block, node):
        value = self.expr(block, node.value)
        return self.apply(block, [G.GETITEM, value, self.index(block, node.slice)], node)

    def expr_Subscript(self, block, node):
        """``x[i]``, ``x[a:b]``, ``x[i, j]``, ``d['key']`` (syntax support: "index values")."""
        return self.subscript_value(block, node)

    def expr_Starred(self, block, node):
        raise self.error("Starred", node, "'*' unpacking is supported in call arguments only")

    # -- literals ----------------------------------------------------------------------------------
    def elements(self, block, node):
        if any(isinstance(e, ast.Starred) for e in node.elts):
            raise self.error("starred element", node)
        return [self.expr(block, e) for e in node.elts]

    def expr_Tuple(self, block, node):
        return self.apply(block, [G.MAKE_TUPLE] + self.elements(block, node), node)

    def expr_List(self, block, node):
        return self.apply(block, [G.MAKE_LIST] + self.elements(block, node), node)

    def expr_Dict(self, block, node):
        """``{k: v}`` with constant keys (syntax support: "Dictionary")."""
        if any(k is None for k in node.keys):
            raise self.error("dict unpacking (**)", node)
        keys = [self.expr(block, k) for k in node.keys]
        values = [self.expr(block, v) for v in node.values]
        return self.apply(block, [G.MAKE_DICT] + keys + values, node)

    def expr_JoinedStr(self, block, node):
        """An f-string: formatted when its values are known (at compile time)."""
        parts, inputs = [], []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(value.value)
                continue
            spec = ""
            if value.format_spec is not None:
                if not all(isinstance(v, ast.Constant) for v in value.format_spec.values):
                    raise self.error("nested f-string format spec", value)
                spec = "".join(v.value for v in value.format_spec.values)
            conversion = {-1: None, 115: "s", 114: "r", 97: "a"}[value.conversion]
            parts.append((conversion, spec))
            inputs.append(self.expr(block, value.value))
        return self.apply(block, [ValueNode(G.FString(parts))] + inputs, node)

    # -- functions as values ---------------------------------------------------------------------------
    def expr_Lambda(self, block, node):
        """``lambda args: expr`` — a child graph (syntax support: "lambda expression")."""
        source = FunctionSource(node, self.source.filename, self.source.line_offset,
                                self.source.col_offset)
        child = type(self)(source, self.namespace, "lambda", enclosing=block,
                               parent_graph=block.graph)
        return ValueNode(child.parse(defaults_from=block), loc=self.loc(node))

    def comprehension(self, block, node, kind, element):
        """``[elt for x in seq if c]`` with one ``for`` clause (syntax support: "list
        comprehension"; several ``for`` clauses are a TypeError there)."""
        if len(node.generators) != 1:
            kind = "DictComp" if isinstance(node, ast.DictComp) else "ListComp"
            raise GraphSyntaxTypeError(
                "comprehension with several 'for' clauses", self.loc(node),
                f"the 'generators' supports 1 'comprehension' in {kind}/GeneratorExp, "
                f"but got {len(node.generators)} comprehensions")
        generator = node.generators[0]
        if generator.is_async:
            raise self.error("async comprehension", node)

        def function_of_target(build, prefix):
            graph = self.new_graph(prefix, block.graph, node)
            param = graph.add_param("item")
            inner = block.child(graph)
            self.assign(inner, generator.target, param)
            graph.set_output(build(inner))
            return graph

        element_graph = function_of_target(element, "λ")
        inputs = [ValueNode(element_graph)]
        if generator.ifs:
            def condition(inner):
                result = self.expr(inner, generator.ifs[0])
                for extra in generator.ifs[1:]:
                    result = self.lazy_and(inner, result,
                                           lambda deeper, extra=extra: self.expr(deeper, extra),
                                           node)
                return result
            inputs.append(ValueNode(function_of_target(condition, "λif")))
        inputs.append(self.expr(block, generator.iter))
        op = G.Comprehension(kind, bool(generator.ifs))
        return self.apply(block, [ValueNode(op)] + inputs, node)

    def expr_ListComp(self, block, node):
        return self.comprehension(block, node, "list", lambda inner: self.expr(inner, node.elt))

    def expr_GeneratorExp(self, block, node):
        """``(elt for x in seq)`` builds a list, as a list comprehension (syntax support:
        "Generator Expression")."""
        return self.comprehension(block, node, "list", lambda inner: self.expr(inner, node.elt))

    def expr_DictComp(self, block, node):
        def pair(inner):
            return self.apply(inner, [G.MAKE_TUPLE, self.expr(inner, node.key),
                                      self.expr(inner, node.value)], node)
        return self.comprehension(block, node, "dict", pair)
