"""The graph IR: MindIR's functional ANF graphs, in a few small classes.

Grammar (after MindSpore's MindIR design doc, ``all_scenarios.md``; semantics 7.4)::

    program   ::= FuncGraph+                        one entry graph and the graphs it reaches
    FuncGraph ::= @name(parameter*) { cnode* Return(node) }
                                                    `cnode*` is the graph's `order`: program order,
                                                    which is also execution order
    node      ::= cnode | parameter | valuenode
    cnode     ::= %n = node(node*)                  an application (ANF: every argument is a
                                                    node, never a nested expression); input 0 is
                                                    the callee, the rest are the arguments
    parameter ::= %para_name                        a formal parameter of one graph, or a weight:
                                                    a parameter with a default value (a refms
                                                    Parameter, read when the graph runs), shared
                                                    by every graph of a program
    valuenode ::= constant                          a number, string, None, Tensor, dtype, tuple of
                                                    constants, Primitive, graph op, Python callable
                                                    -- or a FuncGraph: functions are values
    free variable ::= a node of an enclosing graph used in a nested graph, printed
                      $(@parent:node); a FuncGraph with free variables is a closure

A callee is a :class:`~refms.ops.primitive.Primitive`, a graph op of
:mod:`refms.graph.graph_ops` (``MakeTuple``, ``Switch``, ``Partial``…), a
FuncGraph, a Python callable still to be resolved by inference, or a node
whose value is a function (the result of ``Switch`` or ``Partial``).

Control flow has no special nodes: ``if`` is ``Switch(cond, @✓, @✗)()`` — pick one
of two branch graphs, then call it — and a loop is a graph that calls itself
(MindSpore's structure, which :mod:`refms.graph.parser` builds).

:func:`verify` checks the well-formedness rules every pass must keep: single
assignment (each cnode belongs to exactly one graph's order, once), defined
inputs (an input is a constant, a weight, a parameter or earlier cnode of its
graph, or a node of an enclosing graph), and callable heads.
"""
from ..ops.primitive import Primitive
from . import abstract as A
from .errors import GraphCompileError

__all__ = ["Node", "ValueNode", "Parameter", "CNode", "FuncGraph", "verify", "verify_types", "graphs_of",
           "is_graph_value", "node_users"]


class Node:
    """Base of the three node kinds.  ``abstract`` is filled by inference
    (:mod:`refms.graph.abstract`); ``loc`` is a :class:`~refms.graph.errors.Location`."""

    __slots__ = ("abstract", "loc")

    def __init__(self, abstract=None, loc=None):
        self.abstract = abstract
        self.loc = loc


class ValueNode(Node):
    """A constant."""

    __slots__ = ("value",)

    def __init__(self, value, abstract=None, loc=None):
        super().__init__(abstract, loc)
        self.value = value

    def __repr__(self):
        return f"ValueNode({self.value!r})"


class Parameter(Node):
    """A formal parameter of ``graph``; or, with ``default`` set (a refms Parameter) and
    ``graph`` None, a weight of the whole program, read at run time."""

    __slots__ = ("graph", "name", "default")

    def __init__(self, graph, name, abstract=None, default=None, loc=None):
        super().__init__(abstract, loc)
        self.graph = graph
        self.name = name
        self.default = default

    @property
    def is_weight(self):
        return self.default is not None

    def __repr__(self):
        return f"Parameter({self.name})"


class CNode(Node):
    """An application ``inputs[0](*inputs[1:])`` inside ``graph``; ``name`` is the source
    variable it was assigned to, when there is one (dumps print ``%3(name)``)."""

    __slots__ = ("graph", "inputs", "name")

    def __init__(self, graph, inputs, name=None, abstract=None, loc=None):
        super().__init__(abstract, loc)
        self.graph = graph
        self.inputs = list(inputs)
        self.name = name

    @property
    def callee(self):
        return self.inputs[0]

    @property
    def args(self):
        return self.inputs[1:]

    def __repr__(self):
        return f"CNode({self.name or id(self)})"


class FuncGraph:
    """A function: parameters, an ordered list of cnodes, and an output node.

    ``parent`` is the enclosing graph whose nodes this one may use as free
    variables (None for a top-level graph).  ``flags`` carries facts passes
    need (``'custom_bprop'``: the Cell whose ``bprop`` replaces this graph's
    gradient); ``loc`` is where the function is defined.
    """

    def __init__(self, name, parent=None, loc=None):
        self.name = name
        self.parent = parent
        self.params = []
        self.order = []
        self.output = None
        self.flags = {}
        self.loc = loc
        self.signature = None         # a parsed graph's parser.Signature (how calls bind)

    # -- building -------------------------------------------------------------------------
    def add_param(self, name, abstract=None, loc=None):
        param = Parameter(self, name, abstract, loc=loc)
        self.params.append(param)
        return param

    def apply(self, inputs, name=None, abstract=None, loc=None):
        """Append the cnode ``inputs[0](*inputs[1:])`` to the order and return it."""
        inputs = [i if isinstance(i, Node) else ValueNode(i) for i in inputs]
        node = CNode(self, inputs, name, abstract, loc)
        self.order.append(node)
        return node

    def set_output(self, node):
        self.output = node if isinstance(node, Node) else ValueNode(node)

    # -- queries ----------------------------------------------------------------------------
    def ancestors(self):
        """This graph, its parent, its parent's parent, …"""
        graph = self
        while graph is not None:
            yield graph
            graph = graph.parent

    def is_inside(self, other):
        """True when ``other`` is this graph or one of its ancestors."""
        return any(g is other for g in self.ancestors())

    def __repr__(self):
        return f"FuncGraph(@{self.name})"


def is_graph_value(node):
    return isinstance(node, ValueNode) and isinstance(node.value, FuncGraph)


def graphs_of(entry):
    """Every graph reachable from ``entry`` (through FuncGraph constants and parents), in a
    deterministic depth-first order, entry first."""
    seen, result, stack = set(), [], [entry]
    while stack:
        graph = stack.pop()
        if id(graph) in seen:
            continue
        seen.add(id(graph))
        result.append(graph)
        found = []
        for node in graph.order + [graph.output]:
            inputs = node.inputs if isinstance(node, CNode) else [node]
            for i in inputs:
                if is_graph_value(i):
                    found.append(i.value)
        if graph.parent is not None:
            found.append(graph.parent)
        stack.extend(reversed(found))
    return result


def node_users(graphs):
    """``id(node) -> list of (user cnode, input index)`` over ``graphs`` (outputs count as a
    use with index -1, user = the graph)."""
    users = {}
    for graph in graphs:
        for node in graph.order:
            for k, i in enumerate(node.inputs):
                users.setdefault(id(i), []).append((node, k))
        if graph.output is not None:
            users.setdefault(id(graph.output), []).append((graph, -1))
    return users


# -- verification ----------------------------------------------------------------------------

def _fail(graph, node, message):
    where = f" at {node.loc}" if getattr(node, "loc", None) is not None else ""
    raise GraphCompileError(f"IR verification failed in @{graph.name}{where}: {message}")


def _is_callable_head(node):
    if isinstance(node, ValueNode):
        return callable(node.value) or isinstance(node.value, FuncGraph)
    if node.abstract is None:            # before inference anything may turn out callable
        return True
    return isinstance(node.abstract, A.FUNCTION_ABSTRACTS) or (
        isinstance(node.abstract, A.Const) and callable(node.abstract.value))


def verify(entry):
    """Check the IR rules on every graph reachable from ``entry``; raise GraphCompileError."""
    graphs = graphs_of(entry)
    owner = {}
    for graph in graphs:
        for node in graph.order:
            if id(node) in owner:
                _fail(graph, node, f"node {node!r} appears twice (in @{owner[id(node)].name} "
                                   f"and @{graph.name}): single assignment is broken")
            if node.graph is not graph:
                _fail(graph, node, f"node {node!r} lists @{node.graph.name} as its graph")
            owner[id(node)] = graph
    for graph in graphs:
        defined = {id(p) for p in graph.params}
        for param in graph.params:
            if param.graph is not graph:
                _fail(graph, param, f"parameter {param.name} belongs to another graph")
        for node in graph.order:
            for i in node.inputs:
                _check_input(graph, node, i, defined, owner)
            if not _is_callable_head(node.inputs[0]):
                _fail(graph, node, f"the callee of {node!r} is not callable: {node.inputs[0]!r}")
            defined.add(id(node))
        if graph.output is None:
            _fail(graph, graph, "the graph has no Return")
        _check_input(graph, graph, graph.output, defined, owner)
    return True


def verify_types(entry):
    """Check the types of every graph reachable from ``entry``: every node has an abstract
    value (not a loop's ``Pending`` result), and every primitive call's is what the
    primitive's shape rule gives for its inputs' abstract values *now* — so a pass that
    rewires nodes (constant folding, CSE, fusion) cannot leave a program whose types no
    longer hold."""
    for graph in graphs_of(entry):
        for node in graph.order:
            if node.abstract is None:
                _fail(graph, node, f"node {node!r} has no type")
            if isinstance(node.abstract, A.Pending):
                _fail(graph, node, f"node {node!r} is still typed by the loop it waited for "
                                   f"(Pending): inference never gave it that loop's result")
            head = node.inputs[0]
            if isinstance(head, ValueNode) and isinstance(head.value, Primitive):
                _check_primitive_type(graph, node, head.value)
    return True


def _input_value(node):
    """What a primitive's shape rule receives for the input ``node``: its constant value, or
    its abstract value (tuples item by item); None when it has neither."""
    if isinstance(node, ValueNode):
        return node.value
    return _abstract_value(node.abstract)


def _abstract_value(abstract):
    if isinstance(abstract, A.Abstract):
        return abstract
    if isinstance(abstract, A.Const):
        return abstract.value
    if isinstance(abstract, A.AbstractTuple) and abstract.kind != "dict":
        return tuple(_abstract_value(item) for item in abstract.items)
    return None


def _same_type(inferred, abstract):
    if isinstance(inferred, tuple):
        return (isinstance(abstract, A.AbstractTuple) and len(inferred) == len(abstract.items)
                and all(_same_type(i, a) for i, a in zip(inferred, abstract.items)))
    return (isinstance(abstract, A.Abstract) and tuple(inferred.shape) == abstract.shape
            and inferred.dtype is abstract.dtype)


def _check_primitive_type(graph, node, prim):
    inputs = [_input_value(i) for i in node.inputs[1:]]
    inferred = prim.infer(*inputs)
    if not _same_type(inferred, node.abstract):
        _fail(graph, node, f"{prim.name} node {node!r} is typed {node.abstract!r}, but its "
                           f"shape rule gives {inferred!r} for its inputs")


def _check_input(graph, user, node, defined, owner):
    if isinstance(node, ValueNode):
        return
    if isinstance(node, Parameter):
        if node.is_weight:
            return
        if node.graph is graph or graph.is_inside(node.graph):
            return
        _fail(graph, user, f"parameter {node.name} of @{node.graph.name} is used outside its scope")
    if isinstance(node, CNode):
        home = owner.get(id(node))
        if home is None:
            _fail(graph, user, f"input {node!r} is in no graph's order")
        if home is graph:
            if id(node) not in defined:
                _fail(graph, user, f"input {node!r} is used before it is defined")
            return
        if graph.is_inside(home):
            return
        _fail(graph, user, f"input {node!r} of @{home.name} is not visible from @{graph.name}")
        return
    _fail(graph, user, f"input {node!r} is not a node")
