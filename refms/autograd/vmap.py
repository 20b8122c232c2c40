"""``vmap``: run a function written for one example on a whole batch at once.

Algorithm (JAX's batching interpreter, cut down; MindSpore 2.10 documents the
same interface, ``mindspore.vmap(fn, in_axes=0, out_axes=0)``):

1. every mapped input has its mapped axis moved to the front (``in_axes``, one
   entry per positional argument, nested like the argument; ``None`` = shared by
   all examples); all mapped axes must have one size ``B``;
2. the function runs once, on :class:`BatchedTensor` stand-ins: Tensors that
   *look* like one example (their ``shape`` drops the batch axis) and hold the
   whole batch;
3. while it runs, the vmap *executor* sees every primitive call
   (``refms.ops.primitive.set_executor``): a call with a BatchedTensor
   input runs the primitive's batching rule on the whole batch
   (:mod:`refms.ops.batching`) — or, for a primitive without one, once per
   example, stacked; a call without one goes to the executor below unchanged;
4. the outputs' batch axes are moved to ``out_axes`` (``None``: an output that
   does not depend on the batch, returned once).

Levels: each ``vmap`` call is a *level*; a BatchedTensor belongs to one.  A rule
runs with the executor below installed, so nested ``vmap`` peels one level at a
time.  Gradients compose both ways: a tape created inside the mapped function
(``vmap(grad(f))``) records the batched op — its bprop then runs batched too —
and is kept out of the rule's own calls; a tape created outside
(``grad(vmap(f))``) only sees the rule's calls on whole-batch Tensors.

In graph mode (inside ``jit`` or a GRAPH_MODE Cell) the same executor runs while
the graph is traced, so rules emit graph nodes; a user function is first
specialized for one example and its graph walked with the stand-ins
(``refms.graph``, through ``refms.autograd.interpreters``).
"""
from .._tensor import Tensor, tensor_versions
from ..ops import batching
from ..ops import functional as F
from ..ops.apply import prepare
from ..ops.primitive import get_executor, set_executor
from . import interpreters
from . import tape as _tape

__all__ = ["vmap", "BatchedTensor", "fallback_counts"]


class BatchedTensor(Tensor):
    """One example's view of a batch: ``shape`` is the per-example shape, ``inner`` the whole
    batch (a Tensor, batch axis 0; a BatchedTensor of the level below under nested vmap)."""

    def __init__(self, inner, level):
        self._data = None
        self._init = None
        self._dtype = inner.dtype
        self._shape = tuple(inner.shape)[1:]
        self.weak = getattr(inner, "weak", False)
        self.inner = inner
        self.level = level

    def _no_value(self, what):
        raise RuntimeError(f"vmap: {what} needs the values of one example, but inside vmap a "
                           f"Tensor of shape {list(self._shape)} stands for a batch of "
                           f"{self.level.size}; use Tensor operations instead.")

    def _value(self):
        self._no_value("this operation")

    def _replace_value(self, new):
        """``x[i] = v`` on a stand-in: it now stands for the batch of ``new``."""
        old = BatchedTensor(self.inner, self.level)
        self.inner = new.inner
        tensor_versions.replaced(self, old, new)

    def asnumpy(self):
        self._no_value("asnumpy()")

    def __array__(self, dtype=None, copy=None):
        self._no_value("converting to a numpy array")

    def __bool__(self):
        self._no_value("Python's truth test")

    def __float__(self):
        self._no_value("float()")

    def __int__(self):
        self._no_value("int()")

    def __index__(self):
        self._no_value("using a Tensor as a Python index")

    def item(self, index=None):
        self._no_value("item()")

    def tolist(self):
        self._no_value("tolist()")

    def __repr__(self):
        return (f"BatchedTensor(shape={list(self._shape)}, dtype={self._dtype}, "
                f"batch={self.level.size})")

    __str__ = __repr__


#: primitive name -> how many calls ran through the per-example fallback (for the docs/tests).
_FALLBACKS = {}


def fallback_counts():
    """``{primitive name: calls}`` that ran once per example because the primitive has no
    batching rule (cumulative in this process)."""
    return dict(_FALLBACKS)


class _Level:
    """One ``vmap`` call: the batch size, the executor below it, and how many tapes were
    recording when it began (the later ones are *above* it)."""

    def __init__(self, size):
        self.size = size
        self.below = get_executor()
        self.tapes_below = len(_tape.active_tapes())

    def is_mine(self, value):
        return isinstance(value, BatchedTensor) and value.level is self

    def touches(self, value):
        if isinstance(value, (tuple, list)):
            return any(self.touches(v) for v in value)
        return self.is_mine(value)

    def run(self, prim, args):
        """The executor while this level is innermost."""
        if not any(self.touches(a) for a in args):
            return self.below(prim, args)
        args = prepare(prim, args)                # Python numbers in tensor slots: weak tensors
        tapes = _tape.active_tapes()
        above = tapes[self.tapes_below:]
        del tapes[self.tapes_below:]              # the rule's own calls are not theirs
        previous = set_executor(self.below)
        try:
            out = self.batched_call(prim, args)
        finally:
            set_executor(previous)
            tapes.extend(above)
        out = self.wrap(out)
        if above and prim.differentiable:
            _tape.record(prim.bprop, tuple(args), out, prim.name, above)
        return out

    def batched_call(self, prim, args):
        """``prim`` on the whole batch: inputs unwrapped (a tuple input with one batched member
        has all its members broadcast to the batch), the rule or the fallback."""
        inputs, batched = [], []
        for value in args:
            if isinstance(value, (tuple, list)) and self.touches(value):
                inputs.append(type(value)(self.materialize(v) for v in value))
                batched.append(True)
            elif self.is_mine(value):
                inputs.append(value.inner)
                batched.append(True)
            else:
                inputs.append(value)
                batched.append(False)
        rule = batching.rule_for(prim)
        if rule is not None:
            out = rule(tuple(batched), *inputs)
            if out is not NotImplemented:
                return out
        _FALLBACKS[prim.name] = _FALLBACKS.get(prim.name, 0) + 1
        return batching.loop(prim, batched, inputs, self.size)

    def materialize(self, value):
        """A tuple member as a whole batch: batched members unwrapped, the others broadcast."""
        if self.is_mine(value):
            return value.inner
        if isinstance(value, Tensor):
            return F.broadcast_to(F.expand_dims(value, 0), (self.size,) + tuple(value.shape))
        return value

    def wrap(self, out):
        if isinstance(out, tuple):
            return tuple(self.wrap(o) for o in out)
        return BatchedTensor(out, self)


# -- in_axes / out_axes -----------------------------------------------------------------------------

def _check_axes_spec(spec, name):
    if spec is None or (isinstance(spec, int) and not isinstance(spec, bool)):
        return
    if isinstance(spec, (tuple, list)):
        for item in spec:
            _check_axes_spec(item, name)
        return
    raise TypeError(f"For 'vmap', the '{name}' should be an int, None, or a (nested) tuple or "
                    f"list of them, but got {type(spec).__name__}.")


def _broadcast_spec(spec, value, name):
    """``spec`` matched to the structure of ``value``: an int/None applies to every leaf."""
    if isinstance(spec, (tuple, list)):
        if not isinstance(value, (tuple, list)) or len(spec) != len(value):
            raise ValueError(f"For 'vmap', the structure of '{name}' {spec!r} does not match the "
                             f"inputs: {len(spec)} entries for "
                             f"{len(value) if isinstance(value, (tuple, list)) else 'one'} value(s).")
        return [_broadcast_spec(s, v, name) for s, v in zip(spec, value)]
    if isinstance(value, (tuple, list)):
        return [_broadcast_spec(spec, v, name) for v in value]
    return spec


def _leaves(value, spec):
    """(value, axis) pairs of the Tensor leaves."""
    if isinstance(value, (tuple, list)):
        pairs = []
        for v, s in zip(value, spec):
            pairs.extend(_leaves(v, s))
        return pairs
    return [(value, spec)] if isinstance(value, Tensor) else []


def _axis_in(axis, ndim, what):
    if not -ndim <= axis < ndim:
        raise RuntimeError(f"For 'vmap', the axis {axis} of {what} is out of range: the input has "
                         f"{ndim} dimension(s), so an axis must be in [{-ndim}, {ndim}).")
    return axis % ndim


def _batch_size(args, spec):
    sizes = []
    for value, axis in _leaves(args, spec):
        if axis is not None:
            sizes.append(value.shape[_axis_in(axis, len(value.shape), "'in_axes'")])
    if not sizes:
        raise ValueError("For 'vmap', at least one input must be mapped: 'in_axes' must not be "
                         "None for every Tensor input.")
    if any(s != sizes[0] for s in sizes):
        raise RuntimeError(f"For 'vmap', the mapped axes of the inputs must have one size, but got "
                         f"sizes {sizes}.")
    return sizes[0]


def _move(x, source, destination):
    """x with axis ``source`` moved to ``destination`` (a Transpose, or nothing)."""
    ndim = len(x.shape)
    if source == destination:
        return x
    order = [i for i in range(ndim) if i != source]
    order.insert(destination, source)
    return F.transpose(x, tuple(order))


def _enter(value, axis, level):
    if isinstance(value, (tuple, list)):
        return type(value)(_enter(v, a, level) for v, a in zip(value, axis))
    if not isinstance(value, Tensor) or axis is None:
        return value
    axis = _axis_in(axis, len(value.shape), "'in_axes'")
    return BatchedTensor(_move(value, axis, 0), level)


def _leave(value, axis, level):
    if isinstance(value, (tuple, list)):
        return type(value)(_leave(v, a, level) for v, a in zip(value, axis))
    if level.is_mine(value):
        if axis is None:
            raise ValueError("For 'vmap', an output that depends on the mapped inputs cannot "
                             "have out_axes None.")
        batch = value.inner
        return _move(batch, 0, _axis_in(axis, len(batch.shape), "'out_axes'"))
    if not isinstance(value, Tensor) or axis is None:
        return value
    expanded = F.broadcast_to(F.expand_dims(value, 0), (level.size,) + tuple(value.shape))
    return _move(expanded, 0, _axis_in(axis, len(expanded.shape), "'out_axes'"))


def _out_spec(out_axes, out):
    if isinstance(out_axes, (tuple, list)) and not isinstance(out, (tuple, list)):
        raise ValueError(f"For 'vmap', 'out_axes' {out_axes!r} is a sequence but the function "
                         f"returned a single value.")
    return _broadcast_spec(out_axes, out, "out_axes")


def _take(value, axis, i):
    """Example ``i`` of an input mapped along ``axis`` (nested like the input)."""
    if isinstance(value, (tuple, list)):
        return type(value)(_take(v, a, i) for v, a in zip(value, axis))
    if not isinstance(value, Tensor) or axis is None:
        return value
    axis = _axis_in(axis, len(value.shape), "'in_axes'")
    return F.getitem(value, (slice(None),) * axis + (i,))


def _stack(results, axis):
    """The examples' results stacked along ``axis`` (nested like a result)."""
    first = results[0]
    if isinstance(first, (tuple, list)):
        return type(first)(_stack([r[k] for r in results], a)
                           for k, a in enumerate(axis))
    if axis is None:
        return first
    return F.stack(results, _axis_in(axis, len(first.shape) + 1, "'out_axes'"))


def _ensemble(cells, in_axes, out_axes, args):
    """``vmap`` of a CellList (model ensembling): example ``i`` runs through cell ``i``, each
    with its own parameters; the results are stacked along ``out_axes``.  A loop over the
    models — each model is a different function, so there is no one op to batch."""
    if isinstance(in_axes, (tuple, list)) and len(in_axes) != len(args):
        raise ValueError(f"For 'vmap', 'in_axes' has {len(in_axes)} entries but the function "
                         f"was called with {len(args)} positional inputs.")
    spec = _broadcast_spec(list(in_axes) if isinstance(in_axes, (tuple, list)) else in_axes,
                           list(args), "in_axes")
    mapped = [v.shape[_axis_in(a, len(v.shape), "'in_axes'")]
              for v, a in _leaves(list(args), spec) if a is not None]
    size = len(cells)
    if any(m != size for m in mapped):
        raise RuntimeError(f"For 'vmap', a CellList of {size} cells maps inputs whose mapped "
                           f"axes have sizes {mapped}: they must equal the number of cells.")
    results = [cells[i](*[_take(a, s, i) for a, s in zip(args, spec)]) for i in range(size)]
    return _stack(results, _out_spec(out_axes, results[0]))


def vmap(fn, in_axes=0, out_axes=0):
    """``refms.vmap`` / ``ops.vmap``: ``fn`` mapped over the ``in_axes`` of its positional inputs.

    ``in_axes``: an int (every input), or a tuple/list with one entry per positional
    argument, nested like the argument, each an int or ``None`` (not mapped).
    ``out_axes``: where the batch axis goes in each output, the same way; ``None`` for an
    output that does not depend on the mapped inputs.  ``fn`` may be a function, a Cell,
    or another transform (``vmap(grad(f))``, ``vmap(vmap(f))``); a CellList maps example
    ``i`` through cell ``i`` (model ensembling).
    """
    if not callable(fn):
        raise TypeError(f"For 'vmap', 'fn' should be a function or a Cell, but got "
                        f"{type(fn).__name__}.")
    _check_axes_spec(in_axes, "in_axes")
    _check_axes_spec(out_axes, "out_axes")

    def impl(*args):
        if getattr(fn, "vmap_over_cells", False):
            return _ensemble(fn, in_axes, out_axes, args)
        if isinstance(in_axes, (tuple, list)) and len(in_axes) != len(args):
            raise ValueError(f"For 'vmap', 'in_axes' has {len(in_axes)} entries but the function "
                             f"was called with {len(args)} positional inputs.")
        spec = _broadcast_spec(list(in_axes) if isinstance(in_axes, (tuple, list)) else in_axes,
                               list(args), "in_axes")
        level = _Level(_batch_size(list(args), spec))
        stand_ins = [_enter(a, s, level) for a, s in zip(args, spec)]
        previous = set_executor(level.run)
        try:
            tracer = interpreters.tracing()
            out = (tracer.call_batched(fn, stand_ins) if tracer is not None
                   else fn(*stand_ins))
        finally:
            set_executor(previous)
        return _leave(out, _out_spec(out_axes, out), level)

    key = ("vmap", id(fn), repr(in_axes), repr(out_axes))

    def batched_fn(*args):
        compiler = interpreters.compiling(fn)
        if compiler is not None:
            return compiler.call_compiled(impl, fn, key, args)
        return impl(*args)

    batched_fn.__name__ = f"vmap_{getattr(fn, '__name__', type(fn).__name__)}"
    batched_fn.__wrapped__ = fn
    return batched_fn
