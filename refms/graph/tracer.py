"""Tracing: running refms's own Python code on *abstract* Tensors to emit graph nodes.

User code is parsed (:mod:`refms.graph.parser`).  refms's library code — the
functional ops, Tensor methods, the built-in layers, the primitives' bprops —
is not parsed: inference *runs* it with ``Tracer`` stand-ins for the
run-time Tensors while a node-emitting executor is installed
(:func:`refms.ops.primitive.set_executor`).  Every primitive it calls then
appends a cnode instead of computing; Python-level work on shapes and dtypes
happens once, at compile time.  This plays the part of MindSpore's
``MultitypeFuncGraph``/``MetaFuncGraph`` expansion (``x - 1`` → ``Sub`` node),
and of tracing each bprop into IR for graph autodiff.

A ``Tracer`` is a Tensor with a shape and dtype but no data; asking for
its data (``asnumpy``, ``bool(t)``, ``int(t)``) raises ``NeedsValue``, because the
value only exists when the graph runs: the call that asked then runs on the host at
run time (JIT Fallback, :mod:`refms.graph.fallback`), or, with
``jit_syntax_level=STRICT``, it is a clear compile error.
"""
import threading

from ..ops.primitive import set_executor
from .._tensor import Tensor
from .errors import NeedsValue

__all__ = ["Tracer", "TraceState", "tracing", "current", "is_tracing", "inferring_shapes"]

class _ThreadState(threading.local):
    """Compiler state of one thread: its tracing states, innermost last, and whether a
    primitive's ``infer`` is running.  Per thread, so that compiling in one thread never
    affects the ops another thread runs."""

    def __init__(self):
        self.stack = []
        self.inferring = False


_LOCAL = _ThreadState()


class TraceState:
    """Where emitted nodes go: the specializer, its context (the graph being built) and
    the source location to give them."""

    __slots__ = ("specializer", "ctx", "loc")

    def __init__(self, specializer, ctx, loc):
        self.specializer = specializer
        self.ctx = ctx
        self.loc = loc


def current():
    stack = _LOCAL.stack
    return stack[-1] if stack else None


def is_tracing():
    return bool(_LOCAL.stack)


class inferring_shapes:
    """Context manager: a primitive's ``infer`` is running on Tracers (it understands
    dimensions known only at run time)."""

    def __enter__(self):
        self.previous = _LOCAL.inferring
        _LOCAL.inferring = True

    def __exit__(self, *exc):
        _LOCAL.inferring = self.previous
        return False


def _emit_primitive(prim, args):
    """The executor installed while tracing: emit a node for ``prim(*args)``."""
    state = _LOCAL.stack[-1]
    return state.specializer.emit_primitive(state.ctx, prim, args, state.loc)


class tracing:
    """Context manager: primitive calls inside emit nodes into ``ctx``'s graph."""

    def __init__(self, specializer, ctx, loc):
        self.state = TraceState(specializer, ctx, loc)

    def __enter__(self):
        _LOCAL.stack.append(self.state)
        self.previous = set_executor(_emit_primitive)
        return self.state

    def __exit__(self, *exc):
        set_executor(self.previous)
        _LOCAL.stack.pop()
        return False


class Tracer(Tensor):
    """A Tensor known by shape and dtype only, standing for ``node``'s run-time value.

    A dimension known only at run time (``-1``, after ``MaskedSelect``) is visible to
    primitives' shape rules, which handle it; Python code reading such a shape gets a
    compile error instead of a wrong number (a bprop then runs in Python at run time).
    """

    @property
    def shape(self):
        if _LOCAL.inferring or all(d >= 0 for d in self._shape):
            return self._shape
        self._no_value(f"Reading the shape {list(self._shape)} (a dimension known only at run "
                       f"time)")

    def __init__(self, node, abstract):
        self._data = None
        self._dtype = abstract.dtype
        self._shape = tuple(abstract.shape)
        self._init = None
        self.weak = bool(abstract.weak)
        self.node = node
        self.abstract = abstract

    def __getattr__(self, name):
        # only for names a Tensor lacks: the user's code sees a Tensor, so the message says so
        raise AttributeError(f"'Tensor' object has no attribute '{name}'")

    def _no_value(self, what):
        where = f" (at {self.node.loc})" if getattr(self.node, "loc", None) is not None else ""
        raise NeedsValue(
            f"{what} needs the value of a Tensor{where}, but in graph mode a Tensor computed "
            f"by the graph (shape {list(self._shape)}, {self._dtype}) only has a value when "
            f"the graph runs. Use Tensor operations instead, run this part in PyNative mode, "
            f"or use the LAX syntax level (MS_DEV_JIT_SYNTAX_LEVEL=2, the default), under "
            f"which JIT Fallback runs such code on the host at run time (below LAX it "
            f"evaluates only constant expressions, at compile time).")

    def _value(self):
        self._no_value("This operation")

    def asnumpy(self):
        self._no_value("asnumpy()")

    def __array__(self, dtype=None, copy=None):
        self._no_value("Converting to a numpy array")

    def __bool__(self):
        self._no_value("Python's truth test (bool(), 'if', 'and', 'or' in library code)")

    def __int__(self):
        self._no_value("int()")

    def __float__(self):
        self._no_value("float()")

    def __index__(self):
        self._no_value("Using a Tensor as a Python index")

    def item(self, index=None):
        self._no_value("item()")

    def tolist(self):
        self._no_value("tolist()")

    def init_data(self, *args, **kwargs):
        return self

    def _replace_value(self, new):
        """``x[i] = v`` in traced library code (``SetItem`` emitted): the stand-in now stands
        for the node of the result."""
        self.node, self.abstract = new.node, new.abstract

    def __repr__(self):
        return f"Tensor(shape={list(self._shape)}, dtype={self._dtype}, value=<run time>)"

    __str__ = __repr__

    def __reduce__(self):
        self._no_value("Pickling")


def _result_type(fn, types):
    """The Python type of ``fn`` applied to numbers of ``types`` (sample values; Python's
    promotion: ``int / int`` is ``float``, a comparison is ``bool``)."""
    samples = {bool: True, int: 3, float: 1.5}
    try:
        return type(fn(*[samples[t] for t in types]))
    except Exception:
        return float if float in types else int


class ScalarTracer(Tracer):
    """The stand-in of a Python number known only at run time (``AbstractScalar``).

    Arithmetic and comparisons with numbers emit a call of the Python operator, run when
    the graph runs (a run-time Python scalar, as MindSpore's variable scalars).  With a
    Tensor it acts as a 0-d Tensor of its dtype (``int`` → int64, ``float`` → float32,
    weakly typed as a Python number is in an op), emitted on first use (``node``).
    """

    def __init__(self, scalar_node, abstract):
        from ..ops.primitive import Abstract
        self.scalar_node = scalar_node
        self.scalar_abstract = abstract
        super().__init__(None, Abstract((), abstract.dtype, True))
        self._tensor_node = None

    @property
    def node(self):
        """The node of this number as a 0-d Tensor (for primitives), emitted once."""
        if self._tensor_node is None:
            state = current()
            node = state.ctx.graph.apply(
                [_value_node(scalar_to_tensor), self.scalar_node,
                 _value_node(self.abstract.dtype)], abstract=self.abstract, loc=state.loc)
            self._tensor_node = node
        return self._tensor_node

    @node.setter
    def node(self, value):
        pass                                  # Tracer.__init__ sets it; ours is computed

    def _scalar_op(self, fn, *operands):
        """``fn(*operands)`` run when the graph runs; None when an operand is not a number."""
        from .abstract import AbstractScalar, scalar_type
        types, nodes = [], []
        for operand in operands:
            if isinstance(operand, ScalarTracer):
                types.append(operand.scalar_abstract.type)
                nodes.append(operand.scalar_node)
            elif scalar_type(operand) is not None:
                types.append(type(operand))
                nodes.append(_value_node(operand))
            else:
                return None
        abstract = AbstractScalar(_result_type(fn, types))
        state = current()
        node = state.ctx.graph.apply([_value_node(fn)] + nodes, abstract=abstract, loc=state.loc)
        return ScalarTracer(node, abstract)

    def __bool__(self):
        self._no_value("Python's truth test of a number known only at run time")

    def __hash__(self):
        return id(self)

    def __repr__(self):
        return f"{self.scalar_abstract.type.__name__}(value=<run time>)"

    __str__ = __repr__


def scalar_to_tensor(value, dtype):
    """A run-time Python number as the weak 0-d Tensor an op sees (``dtype`` checks it)."""
    from ..ops.apply import to_weak_tensor
    tensor = to_weak_tensor(value)
    if tensor is None or tensor.dtype is not dtype:
        raise TypeError(f"expected a Python number of dtype {dtype}, but got {value!r}")
    return tensor


def _value_node(value):
    from .abstract import Const
    from .ir import ValueNode
    return ValueNode(value, abstract=Const(value))


def _scalar_method(name, fn, reflected=False):
    tensor_method = getattr(Tensor, name, None)

    def method(self, *others):
        operands = (others[0], self) if reflected else (self,) + others
        result = self._scalar_op(fn, *operands)
        if result is not None:
            return result
        if tensor_method is None:
            return NotImplemented
        return tensor_method(self, *others)
    method.__name__ = name
    return method


def _install_scalar_operators():
    import operator
    binary = {"add": operator.add, "sub": operator.sub, "mul": operator.mul,
              "truediv": operator.truediv, "floordiv": operator.floordiv, "mod": operator.mod,
              "pow": operator.pow}
    for name, fn in binary.items():
        setattr(ScalarTracer, f"__{name}__", _scalar_method(f"__{name}__", fn))
        setattr(ScalarTracer, f"__r{name}__", _scalar_method(f"__r{name}__", fn, reflected=True))
    compare = {"lt": operator.lt, "le": operator.le, "gt": operator.gt, "ge": operator.ge,
               "eq": operator.eq, "ne": operator.ne}
    for name, fn in compare.items():
        setattr(ScalarTracer, f"__{name}__", _scalar_method(f"__{name}__", fn))
    for name, fn in {"neg": operator.neg, "pos": operator.pos, "abs": operator.abs}.items():
        setattr(ScalarTracer, f"__{name}__", _scalar_method(f"__{name}__", fn))


_install_scalar_operators()
