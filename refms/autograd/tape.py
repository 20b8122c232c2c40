"""The PyNative gradient tape: an ordered record of the ops run while a gradient is wanted.

Reverse-mode autodiff in its simplest form (Wengert list):

1. While a gradient is wanted, every differentiable op whose inputs depend
   on a *watched* tensor (a differentiated input, or any Parameter) appends
   an entry — its bprop, inputs and output — and its outputs become
   watched too.
2. :func:`backward` walks the entries in reverse order, calls each bprop
   with the cotangent of its outputs and adds the returned gradients into
   the cotangents of its inputs (``d input += bprop(...)``).

An entry is ``(bprop, inputs, out, name)``:

* ``bprop``: ``callable(*inputs, out, dout) -> tuple of input grads``, or the
  Primitive whose ``bprop`` method that is (bound when the backward runs);
* ``inputs``: the tuple of inputs (Tensors, tuples of Tensors, constants);
* ``out``: the output exactly as returned (a Tensor, or a nested tuple of them);
  its Tensors are the entry's *outputs* (:func:`entry_outputs`);
* ``name``: what the entry is called in a printout (None: the primitive's name).

A tape stores its entries as a table by columns — three lists ``bprops``,
``inputs``, ``outs`` of equal length, row k being entry k (the few names in a
dict) — and :attr:`Tape.entries` reads them back as tuples.  Why columns:
PyNative records one entry per op, and appending three references allocates
nothing, where an entry object (or tuple) per op would be one more object
that Python's cyclic garbage collector walks at every collection while the
tape lives (with the inputs tuple and the output Tensor that the tape keeps
anyway).  Holding ``out`` keeps the output alive, so its ``id`` stays unique
while the tape lives.

Tapes nest: ``grad(grad(f))`` runs the inner backward while the outer tape
records, and the bprops are written with refms ops, so the inner backward
is itself recorded and can be differentiated again.

Order is deterministic: entries are lists, cotangents a dict keyed by
``id`` of tensors the tape keeps alive.
"""
from .._tensor import Tensor, tensor_versions
from ..ops import functional as F
from ..ops.primitive import Primitive, set_wanted_input_grads

__all__ = ["Tape", "entry_outputs", "entry_name", "active_tapes", "recording", "record",
           "record_primitive", "no_grad", "backward"]

#: The tapes recording now, innermost last.
_ACTIVE = []


def entry_outputs(out):
    """The output Tensors of an entry whose output is ``out`` (flattened, depth first)."""
    return (out,) if isinstance(out, Tensor) else tuple(flatten_tensors(out))


def entry_name(entry):
    """What an entry is called: its recorded name, else its primitive's name."""
    bprop, _, _, name = entry
    return name if name is not None else getattr(bprop, "name", type(bprop).__name__)


class Tape:
    """An ordered table of entries (module docstring) plus the set of watched tensor ids."""

    def __init__(self):
        self.bprops = []          # entry k's bprop (or its Primitive)
        self.inputs = []          # entry k's inputs
        self.outs = []            # entry k's output
        self.names = {}           # k -> entry k's name, where it has one
        self.watched = set()
        #: keeps watched tensors that no entry holds (the differentiated inputs) alive, so
        #: their ids stay unique
        self._alive = []
        self.leaves_wanted = None  # during backward: ids whose gradients are used (None: all)
        #: id(leaf) -> the tensor holding the leaf's first value, for leaves whose value
        #: was replaced (``x[i] = v`` on an input or a weight): their gradient is that value's.
        self.first_versions = {}

    @property
    def entries(self):
        """The entries, oldest first, as tuples ``(bprop, inputs, out, name)``."""
        names = self.names
        return [(bprop, inputs, out, names.get(k))
                for k, (bprop, inputs, out) in enumerate(zip(self.bprops, self.inputs, self.outs))]

    def append(self, bprop, inputs, out, name=None):
        """Add the entry ``(bprop, inputs, out, name)`` (its outputs are not watched yet)."""
        if name is not None:
            self.names[len(self.bprops)] = name
        self.bprops.append(bprop)
        self.inputs.append(inputs)
        self.outs.append(out)

    def watch(self, tensor):
        self.watched.add(id(tensor))
        self._alive.append(tensor)

    def is_watched(self, value):
        if isinstance(value, Tensor):
            return value._is_param or id(value) in self.watched
        if isinstance(value, (tuple, list)):
            return any(self.is_watched(v) for v in value)
        return False

    def grad_wanted(self, value):
        """Whether the backward pass uses the gradient of input ``value``: a watched Tensor
        that a parameter, an entry's output, a wanted leaf (:func:`backward`) or one with a
        hook; anything but a Tensor counts as wanted."""
        if not isinstance(value, Tensor):
            return True
        if value._grad_hooks:
            return True
        if not self.is_watched(value):
            return False
        return (self.leaves_wanted is None or value._is_param
                or id(value) in self.leaves_wanted)

    def watches_any(self, inputs):
        """``any(self.is_watched(x) for x in inputs)``, without a call per Tensor."""
        watched = self.watched
        for value in inputs:
            if isinstance(value, Tensor):
                if value._is_param or id(value) in watched:
                    return True
            elif isinstance(value, (tuple, list)) and self.is_watched(value):
                return True
        return False

    def __enter__(self):
        _ACTIVE.append(self)
        return self

    def __exit__(self, *exc):
        _ACTIVE.remove(self)
        return False


def active_tapes():
    return _ACTIVE


def recording():
    """True when at least one tape records."""
    return bool(_ACTIVE)


def record(bprop, inputs, out, name, tapes=None):
    """Append the entry ``(bprop, inputs, out, name)`` to every active tape (or every tape of
    ``tapes``) that watches one of ``inputs``; the outputs become watched."""
    outputs = entry_outputs(out)
    for tape in _ACTIVE if tapes is None else tapes:
        if tape.watches_any(inputs):
            tape.append(bprop, inputs, out, name)
            for t in outputs:
                tape.watched.add(id(t))          # the entry keeps t alive


def record_primitive(prim, inputs, out):
    """:func:`record` for a primitive call: PyNative's recorder (step 4 of
    ``refms.ops.apply.apply``), written out for the one path every op takes
    (``watches_any`` and ``Tape.append`` inlined: each call saved is a tenth of a small
    op's time).  The entry holds the primitive itself, its name None (:func:`entry_name`)."""
    if inputs.__class__ is not tuple:
        inputs = tuple(inputs)
    for tape in _ACTIVE:
        watched = tape.watched
        for value in inputs:                        # tape.watches_any(inputs)
            if isinstance(value, Tensor):
                if id(value) in watched or value._is_param:
                    break
            elif isinstance(value, (tuple, list)) and tape.is_watched(value):
                break
        else:
            continue
        tape.bprops.append(prim)                    # tape.append(prim, inputs, out)
        tape.inputs.append(inputs)
        tape.outs.append(out)
        if out.__class__ is Tensor:
            watched.add(id(out))
        else:
            for t in entry_outputs(out):
                watched.add(id(t))


def _rename(value, before, after):
    """``value`` (a Tensor, a nested tuple/list of them, or a constant) with the object
    ``before`` replaced by ``after``."""
    if value is before:
        return after
    if isinstance(value, (tuple, list)) and any(v is before or isinstance(v, (tuple, list))
                                                for v in value):
        return type(value)(_rename(v, before, after) for v in value)
    return value


class _VersionTracker:
    """How the tapes see ``x[i] = v`` in PyNative (installed into the tensor layer).

    The Tensor object ``x`` is one name for two values.  On every recording tape,
    the entries recorded so far get a new Tensor ``old`` holding the value they
    saw, and the op that computed the new value (``SetItem``) gets ``x`` as its
    output: the tape stays a plain list of single-assignment values (a version
    per write, as in PyTorch's version counters, resolved by renaming).  When ``x``
    was a leaf (an input or a weight), its gradient is its first value's.
    """

    def tracking(self):
        return bool(_ACTIVE)

    def is_differentiated_leaf(self, tensor):
        """Watched by a recording tape, and produced by none of its entries."""
        for tape in _ACTIVE:
            if not tape.is_watched(tensor):
                continue
            if tensor._is_param and not getattr(tensor, "requires_grad", True):
                continue
            if not any(t is tensor for out in tape.outs for t in entry_outputs(out)):
                return True
        return False

    def replaced(self, tensor, old, new):
        for tape in _ACTIVE:
            produced = False
            for k, out in enumerate(tape.outs):
                if any(t is tensor for t in entry_outputs(out)):
                    produced = True
                tape.inputs[k] = _rename(tape.inputs[k], tensor, old)
                tape.outs[k] = _rename(out, tensor, old)
            # the entry that computed ``new`` now produces ``tensor``
            for k, out in enumerate(tape.outs):
                tape.outs[k] = _rename(out, new, tensor)
            if id(new) in tape.watched:
                tape._alive.append(new)       # no entry holds it now; its id must stay unique
            if id(tensor) in tape.watched:
                tape.watch(old)
                if not produced and id(tensor) not in tape.first_versions:
                    tape.first_versions[id(tensor)] = old
            elif tensor._is_param and id(tensor) not in tape.first_versions:
                tape.watch(old)
                tape.first_versions[id(tensor)] = old
            if id(new) in tape.watched:
                tape.watch(tensor)


tensor_versions.install(_VersionTracker())


class no_grad:
    """Context manager: nothing is recorded inside (used for custom-bprop cells)."""

    def __enter__(self):
        self._saved = list(_ACTIVE)
        _ACTIVE.clear()
        return self

    def __exit__(self, *exc):
        _ACTIVE.extend(self._saved)
        return False


class suspend:
    """Context manager: take one tape off the active stack (its backward must not record on itself)."""

    def __init__(self, tape):
        self.tape = tape

    def __enter__(self):
        self.index = _ACTIVE.index(self.tape) if self.tape in _ACTIVE else None
        if self.index is not None:
            _ACTIVE.pop(self.index)
        return self

    def __exit__(self, *exc):
        if self.index is not None:
            _ACTIVE.insert(self.index, self.tape)
        return False


def flatten_tensors(value):
    """The Tensors in a possibly nested tuple/list, depth first."""
    if isinstance(value, Tensor):
        return [value]
    if isinstance(value, (tuple, list)):
        result = []
        for v in value:
            result.extend(flatten_tensors(v))
        return result
    return []


def backward(tape, seeds, wanted=None):
    """Reverse pass over ``tape``.

    ``seeds``: list of ``(tensor, cotangent)``.  Returns the dict
    ``id(tensor) -> gradient`` for every tensor reached.  ``wanted``: the watched
    input tensors whose gradients the caller will read (None: all of them); a
    primitive's bprop may skip the gradient of any other input that no entry
    produced (a network's data when only the weights' gradients are asked for).
    """
    grads = {}
    for tensor, cotangent in seeds:
        _accumulate(grads, tensor, cotangent, F)
    tape.leaves_wanted = None
    if wanted is not None:
        tape.leaves_wanted = {id(t) for t in wanted if isinstance(t, Tensor)}
        tape.leaves_wanted.update(id(first) for leaf, first in tape.first_versions.items()
                                  if leaf in tape.leaves_wanted)
        tape.leaves_wanted.update(id(t) for out in tape.outs for t in entry_outputs(out))
    with suspend(tape):
        for bprop, inputs, out, _ in reversed(tape.entries):
            outputs = entry_outputs(out)
            for t in outputs:                # t's gradient is complete: run its hooks
                _run_tensor_hooks(grads, t)
            douts = [grads.get(id(t)) for t in outputs]
            if all(d is None for d in douts):
                continue
            douts = [F.zeros_like(t) if d is None else d for t, d in zip(outputs, douts)]
            dout = _restructure(out, iter(douts))
            in_grads = _call_bprop(tape, bprop, inputs, out, dout)
            if not isinstance(in_grads, (tuple, list)):
                in_grads = (in_grads,)
            for value, grad in zip(inputs, in_grads):
                _add_input_grad(grads, value, grad, F)
        _run_leaf_hooks(tape, seeds, grads)
    for leaf_id, first in tape.first_versions.items():      # a leaf overwritten by x[i] = v
        grads.pop(leaf_id, None)
        if id(first) in grads:
            grads[leaf_id] = grads.pop(id(first))
    return grads


def _call_bprop(tape, fn, inputs, out, dout):
    """``fn(*inputs, out, dout)`` for an entry's bprop ``fn``; a primitive's bprop is told which
    input gradients are used (those of watched inputs: the others lead to nothing being
    differentiated), so it may skip the rest (:func:`refms.ops.primitive.input_grad_wanted`)."""
    if isinstance(fn, Primitive):                   # recorded by record_primitive
        owner, fn = fn, fn.bprop
    else:
        owner = getattr(fn, "__self__", None)
        if not isinstance(owner, Primitive):
            return fn(*inputs, out, dout)
    set_wanted_input_grads(owner, [tape.grad_wanted(x) for x in inputs])
    try:
        return fn(*inputs, out, dout)
    finally:
        set_wanted_input_grads(None, None)


def _run_tensor_hooks(grads, tensor):
    """``Tensor.register_hook``: each hook sees the gradient (bare Tensor) and may replace it."""
    hooks = tensor._grad_hooks
    if not hooks or id(tensor) not in grads:
        return
    for fn in list(hooks.values()):
        result = fn(grads[id(tensor)])
        if result is not None:
            grads[id(tensor)] = result


def _run_leaf_hooks(tape, seeds, grads):
    """The hooks of tensors no entry produced (inputs, weights): their gradients are complete
    only at the end of the pass.  Run in the order the gradients were first reached."""
    produced = {id(t) for out in tape.outs for t in entry_outputs(out)}
    hooked = {}
    for tensor in [t for t, _ in seeds] + [t for inputs in tape.inputs for t in flatten_tensors(inputs)]:
        if tensor._grad_hooks and id(tensor) not in produced:
            hooked[id(tensor)] = tensor
    for key in list(grads):
        if key in hooked:
            _run_tensor_hooks(grads, hooked[key])


def _restructure(out, flat):
    """Rebuild the nesting of ``out`` with values taken from ``flat``."""
    if isinstance(out, Tensor):
        return next(flat)
    if isinstance(out, (tuple, list)):
        return tuple(_restructure(o, flat) for o in out)
    return out


def _add_input_grad(grads, value, grad, F):
    if grad is None:
        return
    if isinstance(value, Tensor):
        _accumulate(grads, value, grad, F)
    elif isinstance(value, (tuple, list)) and isinstance(grad, (tuple, list)):
        for v, g in zip(value, grad):
            _add_input_grad(grads, v, g, F)


def _accumulate(grads, tensor, grad, F):
    if not isinstance(grad, Tensor):
        return
    key = id(tensor)
    previous = grads.get(key)
    grads[key] = grad if previous is None else F.add(previous, grad)
