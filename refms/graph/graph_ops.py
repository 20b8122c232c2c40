"""Graph ops: the IR's own operations, which are not tensor primitives.

MindSpore has the same family (``MakeTuple``, ``TupleGetItem``, ``Switch``,
``Partial``, ``Print``, ``getattr``, ``resolve``…).  Each op here has a name
(what dumps print) and ``run(*values)``: what the executor does with the
run-time values of its inputs.  Inference gives them their meaning on abstract
values (:mod:`refms.graph.infer`); most of the parse-time ops
(``GetAttr``, ``GetItem``, ``Resolve``…) are replaced during inference and
never run.

Ops with ``effect = True`` have an effect outside their result (printing,
raising, setting an attribute — or reading one the program sets): dead-code
elimination keeps them and no pass reorders or merges them.
"""
import operator

from .. import dtype as mstype
from .._tensor import Tensor
from ..tensor_print import tensor_repr

__all__ = ["GraphOp", "MAKE_TUPLE", "MAKE_LIST", "MAKE_DICT", "TUPLE_GETITEM", "GETATTR",
           "GETITEM", "MAKE_SLICE", "SWITCH", "PARTIAL", "NOT", "RAISE", "PRINT", "RESOLVE",
           "SETATTR", "LOAD_ATTR", "MUTABLE",
           "CallWithSpec", "FString", "Comprehension", "NameSpace", "Symbol", "Undefined",
           "PartialValue", "truth", "print_values"]


class GraphOp:
    """An IR operation with a run-time meaning ``run``."""

    effect = False

    def __init__(self, name, run=None, effect=False):
        self.name = name
        self._run = run
        self.effect = effect

    def run(self, *values):
        if self._run is None:
            raise RuntimeError(f"graph op {self.name} has no run-time meaning: inference "
                               f"should have replaced it")
        return self._run(*values)

    def __call__(self, *values):
        return self.run(*values)

    def __repr__(self):
        return self.name


def truth(value):
    """The truth of a condition: Python's, with a one-element Tensor read as its element."""
    if isinstance(value, Tensor):
        return bool(value.asnumpy().reshape(-1)[0]) if value.size == 1 else bool(value)
    return bool(value)


class PartialValue:
    """A function with arguments bound in front (the run-time value of ``Partial``)."""

    __slots__ = ("fn", "args")

    def __init__(self, fn, args):
        self.fn = fn
        self.args = tuple(args)

    def __repr__(self):
        return f"Partial({self.fn!r}, {len(self.args)} bound)"


def _make_dict(*items):
    half = len(items) // 2
    return dict(zip(items[:half], items[half:]))


def _switch(cond, if_true, if_false):
    return if_true if truth(cond) else if_false


def _raise(error):
    if isinstance(error, BaseException) or (isinstance(error, type) and
                                            issubclass(error, BaseException)):
        raise error
    raise TypeError(f"exceptions must derive from BaseException, not {type(error).__name__}")


def _print_one(value):
    """One printed item of a graph ``print``, as MindSpore's Print op shows it (MindSpore 2.10
    CPU, observed): a 0-d Tensor as its bare value (a bool one as ``1``/``0``), other Tensors
    as ``Tensor(shape=…, value=[1 2 3])``, a tuple or list of numbers as ``(1, 2)`` — the
    graph stores both as sequences."""
    if isinstance(value, Tensor):
        if value.ndim == 0:
            element = value.asnumpy()[()]
            return str(int(element)) if value.dtype == mstype.bool_ else str(element)
        text = tensor_repr(value)
        head, _, body = text.partition("value=")
        return head + "value=" + body.replace(",", "").replace(" [", "[", 1)
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(_print_one(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    return str(value)


def _numbers(sequence):
    return all(isinstance(v, (int, float)) for v in sequence)


def _leaves(sequence):
    """The items of nested tuples and lists, depth first."""
    for value in sequence:
        if isinstance(value, (tuple, list)):
            yield from _leaves(value)
        else:
            yield value


def print_values(*values):
    """The Print op: each argument on its own line; a tuple or list of numbers as one
    ``(1, 2)``, any other tuple or list flattened — each of its items, at any depth, on its
    own line: ``print(("a", (1, 2)))`` prints ``a``, ``1``, ``2`` (MindSpore 2.10 CPU,
    observed)."""
    for value in values:
        if isinstance(value, (tuple, list)) and not _numbers(value):
            for leaf in _leaves(value):
                print(_print_one(leaf))
        else:
            print(_print_one(value))


def _item(container, index):
    """Item ``index`` of a tuple or list; of a dict, the value at position ``index``."""
    if isinstance(container, dict):
        return list(container.values())[index]
    return container[index]


MAKE_TUPLE = GraphOp("MakeTuple", lambda *xs: tuple(xs))
MAKE_LIST = GraphOp("MakeList", lambda *xs: list(xs))
MAKE_DICT = GraphOp("MakeDict", _make_dict)
TUPLE_GETITEM = GraphOp("TupleGetItem", _item)
GETATTR = GraphOp("getattr", getattr)
GETITEM = GraphOp("getitem", operator.getitem)
MAKE_SLICE = GraphOp("make_slice", slice)
SWITCH = GraphOp("Switch", _switch)
PARTIAL = GraphOp("Partial", lambda fn, *args: PartialValue(fn, args))
NOT = GraphOp("not_", lambda x: not truth(x))
RAISE = GraphOp("raise", _raise, effect=True)
PRINT = GraphOp("Print", print_values, effect=True)
RESOLVE = GraphOp("resolve")


def _setattr(obj, name, value):
    setattr(obj, name, value)


#: ``obj.name = value`` run when the graph runs (:mod:`refms.graph.attributes`).
SETATTR = GraphOp("setattr", _setattr, effect=True)
#: ``obj.name`` read when the graph runs: an attribute the program also sets.
LOAD_ATTR = GraphOp("load_attr", getattr, effect=True)
#: ``mutable(x)`` in a graph: ``x`` itself, typed as a variable (:mod:`refms.graph.mutable`).
MUTABLE = GraphOp("mutable", lambda x: x)


class CallWithSpec(GraphOp):
    """``fn(*args, **kwargs)`` with starred and keyword arguments: ``spec`` says, for each
    argument input, ``'pos'``, ``'star'`` (unpack a sequence), ``('kw', name)`` or
    ``'dstar'`` (unpack a dict)."""

    def __init__(self, spec):
        super().__init__("call")
        self.spec = tuple(spec)

    def assemble(self, values):
        args, kwargs = [], {}
        for kind, value in zip(self.spec, values):
            if kind == "pos":
                args.append(value)
            elif kind == "star":
                args.extend(value)
            elif kind == "dstar":
                kwargs.update(value)
            else:
                kwargs[kind[1]] = value
        return args, kwargs

    def run(self, fn, *values):
        args, kwargs = self.assemble(values)
        return fn(*args, **kwargs)

    def __repr__(self):
        kws = [k[1] for k in self.spec if isinstance(k, tuple)]
        return f"call[{', '.join(kws)}]" if kws else "call"


class FString(GraphOp):
    """An f-string: ``parts`` are literal strings and ``(conversion, format_spec)`` slots
    filled by the inputs in order."""

    def __init__(self, parts):
        super().__init__("format")
        self.parts = tuple(parts)

    def run(self, *values):
        out, k = [], 0
        for part in self.parts:
            if isinstance(part, str):
                out.append(part)
                continue
            conversion, spec = part
            value = values[k]
            k += 1
            if conversion == "r":
                value = repr(value)
            elif conversion == "s":
                value = str(value)
            elif conversion == "a":
                value = ascii(value)
            out.append(format(value, spec or ""))
        return "".join(out)


class Comprehension(GraphOp):
    """``[elt(x) for x in seq if cond(x)]`` (``kind``: list — also for a generator — or dict):
    inputs are the element function, the optional filter function and the sequence."""

    def __init__(self, kind, has_filter):
        super().__init__(f"{kind}_comprehension")
        self.kind = kind
        self.has_filter = has_filter


class NameSpace:
    """Where a free name of a parsed function is looked up: its closure cells, its
    module's globals, then builtins (MindSpore's ``NameSpace[Entry: ...]``)."""

    def __init__(self, fn_name, globals_, closure):
        self.fn_name = fn_name
        self.globals = globals_
        self.closure = closure          # name -> cell contents (read when resolving)

    def has_variable(self, name):
        """Whether ``name`` is a closure variable or a global here (builtins not counted)."""
        return name in self.closure or name in self.globals

    def __repr__(self):
        return f"NameSpace[{self.fn_name}]"


class Symbol:
    """A name to resolve in a NameSpace."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


class Undefined:
    """The value of a variable on a path where it was never assigned (a φ with no
    incoming definition).  Using it is an error that names the variable."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"Undefined({self.name})"
