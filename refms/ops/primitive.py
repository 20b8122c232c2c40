"""The Primitive: one operation = forward + shape/dtype rule + bprop, in one registry.

Every operation refms can run is a subclass of :class:`Primitive` registered
with :func:`register`.  Its methods sit side by side in each definition:

``infer(*inputs)``
    The shape/dtype rule.  Receives the inputs as *abstract values*: anything
    with ``.shape`` and ``.dtype`` (and ``.weak`` for Python scalars turned into
    tensors) — real Tensors in PyNative mode, :class:`Abstract` values in graph
    mode — and constants as plain Python values.  Returns an :class:`Abstract`
    (or a tuple of them).  Bad inputs raise here, naming the op, shapes and dtypes.

``forward(*arrays)``
    Computes the result by calling kernels (:mod:`refms.kernels`), never
    numpy directly.  Tensor inputs arrive as arrays of their backend
    (``numpy.ndarray`` on cpu), constants unchanged.  The executor casts the
    result to the inferred dtype.

``batch(batched, *inputs)`` (optional)
    The batching rule of ``vmap`` (:mod:`refms.ops.batching`): the op on a whole
    batch at once.  Elementwise primitives share one rule; the others without a
    rule run once per example.

``bprop(*inputs, out, dout)``
    MindSpore's backward convention, the same one a user's ``Cell.bprop``
    uses: the forward inputs (as Tensors), the forward output and its
    cotangent; returns one gradient per input (``None`` for constant inputs).
    bprops are written with refms ops, so they are differentiable again
    (higher-order gradients) and can be traced by the graph compiler.

Calling a Primitive does not run it directly: ``__call__`` hands it to the
current *executor* (PyNative: run now and record on the tape; graph
compilation: emit a node).  That is how definitions stay plain data.

``ops.Add()`` and ``ops.add`` are two spellings of one entry: functional
names are registered next to the class with :func:`functional`.
"""
import threading
import types

__all__ = ["Primitive", "Abstract", "register", "functional", "alias", "REGISTRY", "FUNCTIONAL", "F",
           "NON_DIFFERENTIABLE", "set_executor", "get_executor", "set_default_executor", "op_error",
           "input_grad_wanted", "set_wanted_input_grads"]

#: name -> Primitive subclass, in registration order.
REGISTRY = {}
#: functional name (``add``) -> callable.
FUNCTIONAL = {}
#: The same functional ops as attributes (``F.add(x, y)``), filled as they are registered.
#: Primitive definitions call them in their bprops (which run only after every primitive
#: module has registered its names), so ``refms.ops.prims`` needs no import of the
#: :mod:`refms.ops.functional` module that is built from them.
F = types.SimpleNamespace()
#: Names of primitives that have no gradient: their outputs are constants to autodiff.
#: Listed once, here, as HIPS/autograd's ``nograd_functions``.
NON_DIFFERENTIABLE = frozenset([
    # comparisons and logic produce Bool
    "Equal", "NotEqual", "Greater", "GreaterEqual", "Less", "LessEqual",
    "LogicalAnd", "LogicalOr", "LogicalNot", "IsNan", "IsInf", "IsFinite",
    "ReduceAll", "ReduceAny",
    # integer-valued results
    "Argmax", "Argmin", "OneHot", "Sign", "FloorDiv", "Invert", "BitwiseAnd", "BitwiseOr",
    # constant-valued results
    "Zeros", "Ones", "Fill", "ZerosLike", "OnesLike",
    # random ops, queues, state and gradient barriers
    "UniformReal", "StandardNormal", "UniformInt", "GetNext", "StopGradient", "Assign",
    "ApplyMomentum",
    # detection boxes (MindSpore 2.10: IOU's gradient is zero, the others have no bprop)
    "IOU", "BoundingBoxEncode", "BoundingBoxDecode", "CheckValid",
    # gradient helpers computed in one kernel pass
    "CTCLossV2Grad",
    # greedy box suppression: sorted boxes, positions and a mask
    "NMSWithMask",
    # random positions of True entries
    "RandomChoiceWithMask",
    # distinct values, runs and histograms: counts and positions
    "Unique2", "UniqueDim", "UniqueConsecutive", "HistcExt",
    # greatest common divisors (integers)
    "Gcd",
])


class Abstract:
    """An abstract value: what a tensor is known to be before it is computed.

    ``shape`` is a tuple (``-1`` for a dimension only known at run time),
    ``dtype`` a :class:`refms.dtype.Type`, ``weak`` True for a Python scalar
    promoted to a tensor (it then yields to the other operand's dtype).
    """

    __slots__ = ("shape", "dtype", "weak")

    def __init__(self, shape, dtype, weak=False):
        self.shape = tuple(shape)
        self.dtype = dtype
        self.weak = weak

    @property
    def ndim(self):
        return len(self.shape)

    def __repr__(self):
        return f"<Tensor[{self.dtype}], {self.shape}>"

    def __eq__(self, other):
        return (isinstance(other, Abstract) and self.shape == other.shape
                and self.dtype is other.dtype)

    def __hash__(self):
        return hash((self.shape, self.dtype.name))


def op_error(op, message, error=TypeError):
    """An exception in MindSpore's style: ``For 'MatMul', <message>``."""
    return error(f"For '{op}', {message}")


class Primitive:
    """Base class of every operation.  Subclasses set the class attributes:

    * ``n_tensor_inputs`` — how many leading positional inputs are tensors
      (Python numbers there become *weak* tensors); ``None`` = all of them.
      The remaining inputs are constants (axes, shapes, ...).
    * ``n_outputs`` — 1, or the number of tensors in the output tuple (checked
      against the shape rule when a graph is compiled).

    and the *traits* below, which the executors and graph passes read from the
    primitive, so that no code outside a primitive's definition names it.
    """

    n_tensor_inputs = None
    n_outputs = 1
    name = "Primitive"
    #: True for ops whose first input may not be a Python number (MindSpore 2.10 refuses
    #: ``Less()(0, x)``, ``Equal()(0, x)``, ``LogicalAnd()(True, x)``: TypeError).
    tensor_first = False
    #: True for promoting elementwise ops: tensor inputs are cast to the
    #: inferred output dtype before ``forward`` (int64 + float16 computes in float16).
    compute_in_output_dtype = False
    #: True when ``forward`` is elementwise (numpy broadcasting) and pure: elementwise
    #: fusion (:mod:`refms.graph.passes.fusion`) may chain it with its neighbours.
    elementwise = False
    #: True for ops that write one of their inputs in place (Assign, BatchNorm's moving
    #: statistics) — MindSpore's ``side_effect_mem``.
    side_effect_mem = False
    #: True for ops whose result changes from call to call (random draws) — MindSpore's
    #: ``side_effect_hidden``.
    side_effect_hidden = False
    #: True for ops that talk to the outside (a device queue).
    side_effect_io = False
    #: True for ops that set their output dtype themselves (Cast): mixed precision
    #: (``Cell.to_float``) leaves their inputs alone.
    keeps_input_dtypes = False
    #: True for ops that a compiled graph drops, passing their inputs through
    #: (HookBackward: graph mode and ``jit`` ignore it, MindSpore 2.10).
    identity_in_graph = False
    #: True when the output depends only on the input's shape and dtype (ZerosLike):
    #: constant folding computes it at compile time even for a run-time input.
    fixed_by_input_shape = False
    #: True when ``infer`` depends only on each tensor input's dtype, shape and weakness
    #: (not on values or instance attributes that change): PyNative then remembers its
    #: answer per input signature (:mod:`refms.ops.known_calls`).
    infer_by_signature = False
    #: That table, ``signature -> Plan``, made by the first call (None until then).
    _known_calls = None

    def __init__(self, **attrs):
        for key, value in attrs.items():
            setattr(self, key, value)

    # -- the three pieces every definition provides -------------------------
    def infer(self, *inputs):
        raise NotImplementedError(f"{self.name} has no shape/dtype rule")

    def forward(self, *arrays):
        raise NotImplementedError(f"{self.name} has no forward")

    def bprop(self, *args):
        raise NotImplementedError(f"{self.name} has no bprop")

    def batch(self, batched, *inputs):
        """The batching rule (``vmap``, :mod:`refms.ops.batching`): the inputs with the batch
        axis of each batched Tensor at axis 0, ``batched`` a flag per input; returns the
        batched output (batch axis 0).  This base definition is the marker of "no rule of
        its own": elementwise primitives then share one rule, the others run per example."""
        raise NotImplementedError(f"{self.name} has no batching rule")

    # ------------------------------------------------------------------------
    @property
    def differentiable(self):
        return self.name not in NON_DIFFERENTIABLE

    @property
    def has_side_effect(self):
        """An effect beyond the result (memory, randomness, I/O): graph passes never fold,
        merge or drop such a call."""
        return self.side_effect_mem or self.side_effect_hidden or self.side_effect_io

    @property
    def attrs(self):
        """The constructor attributes, for printing and IR dumps (a dict, as MindSpore's)."""
        return {k: v for k, v in vars(self).items() if not k.startswith("_")}

    # -- MindSpore's attribute methods (``mindspore/ops/primitive.py``) ------
    def add_prim_attr(self, name, value):
        """Set the attribute ``name`` (shown in ``attrs`` and the repr); returns the primitive."""
        setattr(self, name, value)
        return self

    def del_prim_attr(self, name):
        """Remove the attribute ``name`` if present; returns the primitive."""
        self.__dict__.pop(name, None)
        return self

    def init_prim_io_names(self, inputs, outputs):
        """Name the inputs and outputs (``input_names``, ``output_names``; not attributes)."""
        self.__dict__["_io_names"] = (list(inputs), list(outputs))

    @property
    def input_names(self):
        return self.__dict__.get("_io_names", (None, None))[0]

    @property
    def output_names(self):
        return self.__dict__.get("_io_names", (None, None))[1]

    def set_prim_instance_name(self, instance_name):
        """Name this instance (``instance_name``); returns the primitive."""
        self.__dict__["_instance_name"] = instance_name
        return self

    @property
    def instance_name(self):
        return self.__dict__.get("_instance_name", "")

    def set_device(self, device_target):
        """Ask for the device that runs this primitive (refms runs every primitive on its
        one backend; ``primitive_target`` reports the request); returns the primitive."""
        self.__dict__["_primitive_target"] = device_target
        return self

    @property
    def primitive_target(self):
        return self.__dict__.get("_primitive_target", "CPU")

    def set_stage(self, stage):
        """The pipeline stage (an attribute; refms runs one stage); returns the primitive."""
        return self.add_prim_attr("stage", stage)

    def shard(self, in_strategy=None, out_strategy=None):
        """The parallel split of the inputs (an attribute; refms runs on one device)."""
        self.add_prim_attr("in_strategy", in_strategy)
        if out_strategy is not None:
            self.add_prim_attr("out_strategy", out_strategy)
        return self

    def recompute(self, mode=True):
        """Mark the output to be recomputed in the backward pass instead of kept (refms keeps
        it: the gradients are the same); returns the primitive."""
        self.__dict__["_recompute"] = mode
        return self

    def place(self, role, rank_id):
        """Place the primitive on a process of a distributed job (refms runs one process)."""
        self.__dict__["_place"] = (role, rank_id)

    def __call__(self, *args):
        return EXECUTOR[0](self, args)

    def __repr__(self):
        attrs = self.attrs
        if not attrs:
            return f"Prim[{self.name}]"
        inner = ", ".join(f"{k}={v!r}" for k, v in attrs.items())
        return f"Prim[{self.name}]<{inner}>"


def register(cls):
    """Class decorator: add a Primitive subclass to the registry under its class name."""
    name = cls.__name__
    if name in REGISTRY:
        raise ValueError(f"primitive {name} registered twice")
    cls.name = name
    cls.differentiable = name not in NON_DIFFERENTIABLE   # read on every PyNative call
    REGISTRY[name] = cls
    return cls


def alias(name, prim):
    """Register the functional spelling ``ops.<name>(*args)`` = ``prim(*args)`` of one entry."""
    def fn(*args):
        return EXECUTOR[0](prim, args)   # = prim(*args)
    fn.__doc__ = f"Functional form of :class:`{type(prim).__name__}`: ``{name}(*inputs)``."
    fn.primitive = prim
    fn.__qualname__ = name
    return functional(name, fn)


def functional(name, fn):
    """Register ``fn`` as the functional spelling ``ops.<name>`` of a registry entry."""
    if name in FUNCTIONAL:
        raise ValueError(f"functional op {name} registered twice")
    fn.__name__ = name
    FUNCTIONAL[name] = fn
    setattr(F, name, fn)
    return fn


# The executor runs a primitive call.  PyNative installs the process-wide default at
# import (refms.autograd.pynative); the graph compiler swaps in a node emitter while it
# traces — for its own thread only, so that a graph compiled in one thread never turns
# another thread's PyNative ops into graph nodes.
def _no_executor(prim, args):
    raise RuntimeError("refms executor not initialised: import refms first")


DEFAULT_EXECUTOR = [_no_executor]


class _ThreadExecutor(threading.local):
    """This thread's executor; None: the process-wide default."""
    fn = None


THREAD_EXECUTOR = _ThreadExecutor()


def _this_threads_executor(prim, args):
    """A call while some thread has its own executor: this thread's, else the default."""
    return (THREAD_EXECUTOR.fn or DEFAULT_EXECUTOR[0])(prim, args)


#: What a primitive call runs: ``EXECUTOR[0](prim, args)``.  While no thread has an
#: executor of its own, that is the default itself, so a call reads no thread-local
#: state; else ``_this_threads_executor`` picks per thread.
EXECUTOR = [_no_executor]
_THREADS_WITH_OWN = [0]
_EXECUTOR_LOCK = threading.Lock()


def set_default_executor(fn):
    """Install ``fn(prim, args)`` as the executor of every thread that has not set its own."""
    with _EXECUTOR_LOCK:
        DEFAULT_EXECUTOR[0] = fn
        if not _THREADS_WITH_OWN[0]:
            EXECUTOR[0] = fn


def set_executor(fn):
    """Install ``fn(prim, args)`` as the way primitive calls run in the current thread;
    returns the previous one (restore it with ``set_executor(previous)``).  Setting the
    default executor gives the thread back to the default."""
    previous = get_executor()
    own = None if fn is DEFAULT_EXECUTOR[0] else fn
    with _EXECUTOR_LOCK:
        _THREADS_WITH_OWN[0] += (own is not None) - (THREAD_EXECUTOR.fn is not None)
        THREAD_EXECUTOR.fn = own
        EXECUTOR[0] = _this_threads_executor if _THREADS_WITH_OWN[0] else DEFAULT_EXECUTOR[0]
    return previous


def get_executor():
    return THREAD_EXECUTOR.fn or DEFAULT_EXECUTOR[0]


# Gradients nobody asked for.  PyNative's backward knows which inputs of a recorded op lead
# to something being differentiated (the tape watches them); before it calls the op's bprop
# it names the primitive and that mask here, so an expensive bprop (Conv2D's input gradient
# for the network's data) can skip a gradient that would be thrown away.  Graph autodiff
# never sets it: there dead-code elimination drops unused gradients.
_WANTED = [None, None]          # [the primitive whose bprop runs now, its mask of inputs]


def input_grad_wanted(prim, index):
    """False only while ``prim``'s bprop runs for a PyNative backward that will throw away the
    gradient of input ``index``; the bprop may then return None in that place."""
    return _WANTED[0] is not prim or _WANTED[1][index]


def set_wanted_input_grads(prim, mask):
    """Say (``mask``: one bool per input) which input gradients of ``prim``'s next bprop are
    used; ``set_wanted_input_grads(None, None)`` clears it.  Used by the PyNative tape."""
    _WANTED[0] = prim
    _WANTED[1] = mask


def constexpr(fn=None, get_instance=True, reuse_result=True, check=True):
    """``mindspore.ops.primitive.constexpr``: mark ``fn`` as computed on constants at compile
    time.

    A graph does not parse ``fn`` (a loop of 100000 constant steps is not unrolled): the
    compiler calls it in Python on its constant arguments, as it calls library code
    (:func:`refms.graph.infer.is_user_function`), and the result is a constant of the graph.
    Usable bare (``@constexpr``) or with arguments (``@constexpr(reuse_result=False)``).
    """
    def mark(f):
        if isinstance(f, types.FunctionType):     # a builtin (len) runs in Python anyway
            f.computed_at_compile_time = True
        return f
    if fn is None:
        return mark
    return mark(fn)
