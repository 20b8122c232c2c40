"""Abstract values: what inference knows about a node before the program runs.

The lattice is small (MindSpore's ``AbstractBase`` family, cut down):

==========================  =============================================================
``Abstract(shape, dtype)``  a Tensor known by shape and dtype only (the primitives' own
                            class, :class:`refms.ops.primitive.Abstract`)
``Const(value)``            a value known at compile time: numbers, strings, None,
                            constant Tensors, dtypes, Cells, Primitives, functions — and
                            Parameters, whose *identity* is known while their data is
                            read at run time
``AbstractScalar(type)``    a Python ``bool``, ``int`` or ``float`` known only at run time
                            (a number changed under a Tensor condition)
``AbstractTuple(items)``    a tuple, list or dict with at least one non-constant item
``AbstractAny()``           any Python object, known only at run time: the result of
                            Python code run on the host when the graph runs (JIT
                            Fallback, :mod:`refms.graph.fallback`; MindSpore's ``Any``)
``AbstractClosure``         a parsed function not yet specialized, with the context of its
                            enclosing graph
``AbstractGraph(graph)``    a specialized graph (a function value after inference)
``AbstractPartial``         a function with some arguments already bound (``Partial``)
``AbstractSwitch``          the result of ``Switch(tensor_cond, f, g)`` before it is called
``Bottom``                  the "value" of ``raise``: no value, joins with anything
``AbstractRef(parameter)``  a Tensor that is a Parameter's state (MindSpore's
                            ``Ref[Tensor]``): the parameter lambda lifting puts in place
                            of a weight, read when a primitive using it runs
==========================  =============================================================

Python numbers are constants (as in MindSpore, a scalar input is part of the
compile key) until control flow on a Tensor makes them depend on run-time data:
``n = 1`` in one branch of an ``if`` on a Tensor and ``n = 2`` in the other join
to a run-time ``int``, and a number a ``while`` on a Tensor changes is broadened
to one (MindSpore's variable scalars).  Their operations run at run time.
"""
import numpy as np

from .. import dtype as mstype
from .._tensor import Tensor
from ..ops.primitive import Abstract
from ..parameter import Parameter
from .errors import GraphCompileError
from .mutable import is_mutable, plain

__all__ = ["Abstract", "AbstractRef", "Const", "AbstractScalar", "AbstractTuple", "AbstractAny",
           "AbstractClosure", "AbstractGraph",
           "AbstractPartial", "AbstractSwitch", "Bottom", "BOTTOM", "Pending",
           "FUNCTION_ABSTRACTS", "abstract_of", "key_of", "join", "format_abstract",
           "is_const", "leaves"]


class AbstractRef(Abstract):
    """A Tensor whose value is the state of ``parameter`` (a refms Parameter): the graph
    parameter that stands for a weight once lambda lifting has made the weight an argument
    (:mod:`refms.graph.passes.lambda_lift`).  It is a Tensor to everything else; the passes
    that must not move a read of a Parameter past a write, and autodiff's snapshots, ask
    for the Parameter (:func:`refms.graph.passes._util.parameter_of`)."""

    __slots__ = ("parameter",)

    def __init__(self, parameter):
        super().__init__(tuple(parameter.shape), parameter.dtype)
        self.parameter = parameter


class Const:
    """A compile-time value."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return f"Const({self.value!r})"


#: The Python scalar types a run-time scalar can have, and the dtype of its Tensor form.
SCALAR_TYPES = (bool, int, float)


class AbstractScalar:
    """A Python number (``bool``, ``int`` or ``float``) known only when the graph runs."""

    __slots__ = ("type",)

    def __init__(self, type_):
        self.type = type_

    @property
    def dtype(self):
        """The dtype of the 0-d Tensor this number becomes in an op with Tensors."""
        return {bool: mstype.bool_, int: mstype.int64, float: mstype.float32}[self.type]

    def __repr__(self):
        return f"AbstractScalar({self.type.__name__})"


def scalar_type(value):
    """``bool``, ``int`` or ``float`` for a Python number (numpy scalars excluded); else None."""
    kind = type(value)
    return kind if kind in SCALAR_TYPES else None


class AbstractTuple:
    """A tuple/list (``kind``) of abstract items; for a dict ``keys`` holds the constant keys."""

    __slots__ = ("items", "kind", "keys")

    def __init__(self, items, kind="tuple", keys=None):
        self.items = tuple(items)
        self.kind = kind
        self.keys = tuple(keys) if keys is not None else None

    def __repr__(self):
        return f"AbstractTuple({self.kind}, {list(self.items)!r})"


class AbstractAny:
    """Any Python object, known only when the graph runs (MindSpore's ``Any`` type): what
    JIT Fallback's run-time PyExecute nodes return.  It joins with anything to itself."""

    __slots__ = ()

    def __repr__(self):
        return "AbstractAny"


class AbstractClosure:
    """A parsed FuncGraph as a value; ``ctx`` is the specialization context of its parent
    (None for a top-level graph).  ``bound_self`` is not used: methods bind through Partial."""

    __slots__ = ("graph", "ctx")

    def __init__(self, graph, ctx):
        self.graph = graph
        self.ctx = ctx

    def __repr__(self):
        return f"AbstractClosure(@{self.graph.name})"


class AbstractGraph:
    """A specialized FuncGraph as a value (its parameters and output are typed)."""

    __slots__ = ("graph",)

    def __init__(self, graph):
        self.graph = graph

    def __repr__(self):
        return f"AbstractGraph(@{self.graph.name})"


class AbstractPartial:
    """``fn`` (an abstract function or a Const callable) with ``args`` bound in front:
    a list of (node, abstract) pairs."""

    __slots__ = ("fn", "fn_node", "args")

    def __init__(self, fn, fn_node, args):
        self.fn = fn
        self.fn_node = fn_node
        self.args = list(args)

    def __repr__(self):
        return f"AbstractPartial({self.fn!r}, {len(self.args)} bound)"


class AbstractSwitch:
    """``Switch(cond, f, g)`` with a run-time ``cond``: both functions, to be specialized
    when the switch is called."""

    __slots__ = ("cond", "branches", "branch_nodes")

    def __init__(self, cond, branches, branch_nodes):
        self.cond = cond
        self.branches = tuple(branches)
        self.branch_nodes = tuple(branch_nodes)

    def __repr__(self):
        return f"AbstractSwitch({list(self.branches)!r})"


class Bottom:
    """The result of a ``raise``: control never comes back with a value."""

    def __repr__(self):
        return "Bottom"


BOTTOM = Bottom()


class Pending:
    """The result of a recursive call whose graph is still being inferred (a loop's
    header calling itself); replaced once the graph's output is known."""

    __slots__ = ("key",)

    def __init__(self, key):
        self.key = key

    def __repr__(self):
        return "Pending"


FUNCTION_ABSTRACTS = (AbstractClosure, AbstractGraph, AbstractPartial, AbstractSwitch)


def is_const(abstract):
    return isinstance(abstract, Const)


def abstract_of(value):
    """The abstract of a run-time argument: Tensors are abstract, containers of Tensors are
    tuples, everything else is a constant — unless marked by ``mutable``: then its numbers
    are run-time scalars too (:mod:`refms.graph.mutable`)."""
    if is_mutable(value):
        return broaden_all(abstract_of(plain(value)))
    if isinstance(value, Tensor):
        return Abstract(tuple(value.shape), value.dtype, getattr(value, "weak", False))
    if isinstance(value, (tuple, list)) and _contains_tensor(value):
        return AbstractTuple([abstract_of(v) for v in value],
                             "list" if isinstance(value, list) else "tuple")
    if isinstance(value, dict) and _contains_tensor(tuple(value.values())):
        return AbstractTuple([abstract_of(v) for v in value.values()], "dict", list(value))
    return Const(value)


def _contains_tensor(values):
    for v in values:
        if isinstance(v, Tensor):
            return True
        if isinstance(v, (tuple, list)) and _contains_tensor(v):
            return True
        if isinstance(v, dict) and _contains_tensor(tuple(v.values())):
            return True
    return False


def leaves(abstract):
    """The tensor abstracts of a possibly nested tuple, depth first."""
    if isinstance(abstract, Abstract):
        return [abstract]
    if isinstance(abstract, AbstractTuple):
        result = []
        for item in abstract.items:
            result.extend(leaves(item))
        return result
    return []


# -- keys: specializations and compiled graphs are cached per signature -------------------------

def const_key(value):
    """A hashable key for a compile-time value: structural for numbers, strings and
    containers; identity for everything else (Tensors, Cells, functions)."""
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes)):
        return (type(value).__name__, value)
    if isinstance(value, (tuple, list)):
        return (type(value).__name__,) + tuple(const_key(v) for v in value)
    if isinstance(value, dict):
        return ("dict",) + tuple((const_key(k), const_key(v)) for k, v in value.items())
    if isinstance(value, slice):
        return ("slice", const_key(value.start), const_key(value.stop), const_key(value.step))
    if isinstance(value, mstype.Type):
        return ("dtype", value.name)
    if isinstance(value, np.generic):
        return ("np", value.dtype.str, value.item())
    if isinstance(value, range):
        return ("range", value.start, value.stop, value.step)
    return ("id", id(value))


def key_of(abstract):
    if isinstance(abstract, Abstract):
        return ("T", abstract.shape, abstract.dtype.name, bool(abstract.weak))
    if isinstance(abstract, Const):
        return ("C", const_key(abstract.value))
    if isinstance(abstract, AbstractScalar):
        return ("S", abstract.type.__name__)
    if isinstance(abstract, AbstractAny):
        return ("any",)
    if isinstance(abstract, AbstractTuple):
        return ("tuple", abstract.kind, abstract.keys and tuple(const_key(k) for k in abstract.keys),
                tuple(key_of(a) for a in abstract.items))
    if isinstance(abstract, AbstractClosure):
        return ("closure", id(abstract.graph), id(abstract.ctx))
    if isinstance(abstract, AbstractGraph):
        return ("graph", id(abstract.graph))
    if isinstance(abstract, AbstractPartial):
        return ("partial", key_of(abstract.fn), tuple(key_of(a) for _, a in abstract.args))
    if isinstance(abstract, AbstractSwitch):
        return ("switch", id(abstract.cond), tuple(key_of(b) for b in abstract.branches))
    return ("other", id(abstract))


# -- join: the result of a Switch is the common abstract of both branches ----------------------

def _same(a, b):
    return key_of(a) == key_of(b)


def _as_tensor_abstract(abstract):
    """A constant Tensor joined with another Tensor is just a Tensor of its shape and dtype."""
    if isinstance(abstract, Const) and isinstance(abstract.value, Tensor):
        return Abstract(tuple(abstract.value.shape), abstract.value.dtype)
    return abstract


def _scalar_kind(abstract):
    """The Python type of a scalar abstract (a constant number or a run-time scalar)."""
    if isinstance(abstract, AbstractScalar):
        return abstract.type
    if isinstance(abstract, Const):
        return scalar_type(abstract.value)
    return None


def _as_items(abstract):
    """A constant tuple, list or dict as an AbstractTuple of constants (else unchanged)."""
    if isinstance(abstract, Const) and type(abstract.value) in (tuple, list):
        kind = "list" if isinstance(abstract.value, list) else "tuple"
        return AbstractTuple([Const(v) for v in abstract.value], kind)
    if isinstance(abstract, Const) and type(abstract.value) is dict:
        return AbstractTuple([Const(v) for v in abstract.value.values()], "dict",
                             list(abstract.value))
    return abstract


def _is_any(abstract):
    return isinstance(abstract, AbstractAny)


def broaden(a, b):
    """The abstract of a loop variable that is ``a`` on one iteration and ``b`` on the next:
    numbers that differ become run-time scalars (recursively in tuples); None when the two
    cannot be one value (a different type, shape or length)."""
    if _same(a, b):
        return a
    if _is_any(a) or _is_any(b):
        return AbstractAny()
    kind_a, kind_b = _scalar_kind(a), _scalar_kind(b)
    if kind_a is not None and kind_a is kind_b:
        return AbstractScalar(kind_a)
    a, b = _as_tensor_abstract(a), _as_tensor_abstract(b)
    if isinstance(a, Abstract) and isinstance(b, Abstract):
        if a.dtype is b.dtype and a.shape == b.shape:
            return Abstract(a.shape, a.dtype, a.weak and b.weak)
        return None
    a, b = _as_items(a), _as_items(b)
    if isinstance(a, AbstractTuple) and isinstance(b, AbstractTuple):
        if a.kind == b.kind and len(a.items) == len(b.items) and a.keys == b.keys:
            items = [broaden(x, y) for x, y in zip(a.items, b.items)]
            if all(item is not None for item in items):
                return AbstractTuple(items, a.kind, a.keys)
    return None


def broaden_all(abstract):
    """``abstract`` with every number made a run-time scalar and every constant Tensor a
    Tensor abstract (a loop variable first assigned inside the loop)."""
    kind = _scalar_kind(abstract)
    if kind is not None:
        return AbstractScalar(kind)
    abstract = _as_tensor_abstract(_as_items(abstract))
    if isinstance(abstract, AbstractTuple):
        return AbstractTuple([broaden_all(item) for item in abstract.items], abstract.kind,
                             abstract.keys)
    return abstract


def join(a, b, where=""):
    """The abstract both branches of a run-time ``if`` agree on; an error when they differ
    (MindSpore requires the same type and shape on both paths).  Numbers of one Python type
    join to a run-time scalar; a one-element bool Tensor and a bool (``t > 0 and flag``)
    to the Tensor."""
    if isinstance(a, (Bottom, Pending)):
        return b
    if isinstance(b, (Bottom, Pending)):
        return a
    if _same(a, b):
        return a
    if _is_any(a) or _is_any(b):             # a run-time Python object: checked when used
        return AbstractAny()
    kind_a, kind_b = _scalar_kind(a), _scalar_kind(b)
    if kind_a is not None and kind_a is kind_b:
        return AbstractScalar(kind_a)
    a, b = _as_tensor_abstract(a), _as_tensor_abstract(b)
    for tensor, other in ((a, b), (b, a)):
        if (isinstance(tensor, Abstract) and tensor.shape == () and tensor.dtype is mstype.bool_
                and _scalar_kind(other) is bool):
            return tensor
    if isinstance(a, Abstract) and isinstance(b, Abstract):
        if a.dtype is b.dtype and a.shape == b.shape:
            return Abstract(a.shape, a.dtype, a.weak and b.weak)
    elif isinstance(_as_items(a), AbstractTuple) and isinstance(_as_items(b), AbstractTuple):
        a, b = _as_items(a), _as_items(b)
        if a.kind == b.kind and len(a.items) == len(b.items) and a.keys == b.keys:
            return AbstractTuple([join(x, y, where) for x, y in zip(a.items, b.items)], a.kind,
                                 a.keys)
    raise GraphCompileError(
        f"The branches of a run-time condition{where} produce different types: "
        f"{format_abstract(a)} and {format_abstract(b)}. In graph mode both branches of an "
        f"'if' on a Tensor (and every iteration of a 'while' on a Tensor) must produce values "
        f"of the same type and shape; return Tensors rather than different Python constants.")


# -- printing, in the form of MindSpore's dumps ---------------------------------------------------

def _shape_text(shape):
    return "(" + ", ".join(str(d) for d in shape) + ")"


def _scalar_type_name(value):
    if isinstance(value, bool):
        return "Bool"
    if isinstance(value, int):
        return "Int64"
    if isinstance(value, float):
        return "Float32"
    if isinstance(value, str):
        return "String"
    if value is None:
        return "None"
    return None


def format_abstract(abstract):
    """``<Tensor[Float32], (2, 3)>``, ``<Int64, NoShape>``, ``<Tuple[...]>``, ``<Func, NoShape>``."""
    if abstract is None:
        return "<null>"
    if isinstance(abstract, AbstractRef):
        return format_abstract(Const(abstract.parameter))
    if isinstance(abstract, Abstract):
        return f"<Tensor[{abstract.dtype}], {_shape_text(abstract.shape)}>"
    if isinstance(abstract, AbstractScalar):
        return f"<{_scalar_type_name(abstract.type())}, NoShape, value=<run time>>"
    if isinstance(abstract, AbstractAny):
        return "<Any, NoShape>"
    if isinstance(abstract, Const):
        value = abstract.value
        if isinstance(value, Parameter):
            return (f"<Ref[Tensor[{value.dtype}]], {_shape_text(value.shape)}, "
                    f"ref_key={value.name}>")
        if isinstance(value, Tensor):
            return f"<Tensor[{value.dtype}], {_shape_text(value.shape)}, value=...>"
        name = _scalar_type_name(value)
        if name is not None:
            return f"<{name}, NoShape>"
        if isinstance(value, (tuple, list)):
            kind = "Tuple" if isinstance(value, tuple) else "List"
            inner = ", ".join(format_abstract(Const(v))[1:-1] for v in value)
            return f"<{kind}[{inner}], TupleShape>"
        if isinstance(value, mstype.Type):
            return "<TypeType, NoShape>"
        if callable(value):
            return "<Func, NoShape>"
        return f"<{type(value).__name__}, NoShape>"
    if isinstance(abstract, AbstractTuple):
        kind = {"tuple": "Tuple", "list": "List", "dict": "Dictionary"}[abstract.kind]
        inner = ", ".join(format_abstract(a)[1:-1] for a in abstract.items)
        return f"<{kind}[{inner}], TupleShape>"
    if isinstance(abstract, FUNCTION_ABSTRACTS):
        return "<Func, NoShape>"
    if isinstance(abstract, Bottom):
        return "<Bottom, NoShape>"
    return f"<{abstract!r}>"
