"""PyNative gradient transforms: ``GradOperation``, ``grad`` and ``value_and_grad``.

All three run the function once under a fresh :class:`~refms.autograd.tape.Tape`,
seed every output leaf with ``ones_like`` (or the given ``sens``), walk the
tape backward and pick out the requested gradients.  The return structures
follow MindSpore 2.10 exactly (semantics 4.1–4.6):

* only positional arguments that are Tensors are differentiable; numbers,
  tuples and lists are skipped (not zero-filled);
* an unused Tensor input, or an output that does not depend on it, gets zeros;
* a multi-output function is differentiated as the sum of all its outputs;
* a weight with ``requires_grad=False`` gets a zero gradient.

The same implementation serves graph mode: while a graph is compiled,
``run_and_differentiate`` builds the gradient graph instead, and a gradient
of a ``jit`` function or of a Cell in GRAPH_MODE is compiled as a whole, so both
modes return the same structures.  Graph mode plugs in through
:mod:`refms.autograd.interpreters` (it is :mod:`refms.graph.autodiff` and
:mod:`refms.graph.grad_dispatch`); this module never imports it.
"""
from .. import compat, context
from ..ops import functional as F
from .._tensor import Tensor
from . import interpreters
from . import tape as _tape

__all__ = ["GradOperation", "grad", "value_and_grad", "run_and_differentiate"]


def seed_cotangents(out, sens, broadcast=False):
    """(tensor, cotangent) pairs for every Tensor leaf of ``out``.

    A ``sens`` of another shape than its output (MindSpore 2.10, measured):

    * PyNative: for a 0-d output any ``sens`` is summed to a 0-d one (the zoo's FastText and
      Transformer steps pass ``tuple_to_array((sens,))``, shape (1,), for a scalar loss);
    * ``broadcast`` (graph mode): a ``sens`` with as many elements as the output is
      reshaped to it, and one whose shape broadcasts to the output's is broadcast (the
      scalar loss scale of a loss-scaling step for a loss of shape ``(1,)``);
    * anything else raises (see below).
    """
    leaves = _tape.flatten_tensors(out)
    if sens is None:
        return [(t, F.ones_like(t)) for t in leaves]
    sens_leaves = _tape.flatten_tensors(sens)
    if len(sens_leaves) != len(leaves):
        raise RuntimeError(f"The given sens gradient's size should be same as out of network! "
                           f"The network has {len(leaves)} output tensor(s) but sens has "
                           f"{len(sens_leaves)}.")
    seeds = []
    for t, s in zip(leaves, sens_leaves):
        if tuple(t.shape) != tuple(s.shape):
            if not broadcast and not t.shape:
                s = F.reduce_sum(s)
            elif broadcast and s.size == t.size:
                s = F.reshape(s, tuple(t.shape))
            elif broadcast and _broadcasts_to(tuple(s.shape), tuple(t.shape)):
                s = F.broadcast_to(s, tuple(t.shape))
            else:
                # MindSpore 2.10 (measured): a 0-d sens for a shaped output is a RuntimeError
                # in PyNative; other shape differences are ValueErrors
                error = RuntimeError if not broadcast and not s.shape else ValueError
                raise error(f"The shape of sens {tuple(s.shape)} should be the same as the "
                            f"shape of the network output {tuple(t.shape)}.")
        seeds.append((t, s))
    return seeds


def _broadcasts_to(shape, target):
    """Whether numpy's rules broadcast ``shape`` to exactly ``target``."""
    if len(shape) > len(target):
        return False
    return all(a in (1, b) for a, b in zip(shape[::-1], target[::-1]))


def run_and_differentiate(fn, args, sens=None, differentiate=None, wanted=None):
    """Run ``fn(*args)`` on a tape and backpropagate.

    Returns ``(out, grads)``: ``grads`` maps ``id(tensor)`` to its gradient.
    ``differentiate(out)`` selects the part of the output that is seeded
    (``has_aux`` seeds only the first output).  ``wanted``: the positions of the
    arguments whose gradients the caller reads (None: all); the others may be
    left out of ``grads``.
    """
    tracer = interpreters.tracing()
    if tracer is not None:         # inside a graph being compiled: build the gradient graph
        return tracer.run_and_differentiate(fn, args, sens, differentiate)
    args = list(args)
    # A set_grad() Cell whose last call used these very inputs hands over its recorded
    # forward, so the forward is not run twice (semantics 6.3; refms.nn.top_cell).
    pop_recorded = getattr(fn, "_pop_recorded_forward", None)
    recorded = pop_recorded(args) if callable(pop_recorded) else None
    if recorded is not None:
        tape, out = recorded
        target = out if differentiate is None else differentiate(out)
        return out, _tape.backward(tape, seed_cotangents(target, sens),
                                   _wanted_args(args, wanted)), args
    tape = _tape.Tape()
    for value in args:
        # The same object passed twice is one variable: every position gets its total
        # gradient, as in MindSpore 2.10.
        if isinstance(value, Tensor):
            tape.watch(value)
    with tape:
        out = fn(*args)
    target = out if differentiate is None else differentiate(out)
    grads = _tape.backward(tape, seed_cotangents(target, sens), _wanted_args(args, wanted))
    return out, grads, args


class SameObjects:
    """Objects in a cache key, compared by identity (weights: Tensors compare elementwise)
    and kept alive by the key, so an id in it is never another object's."""

    __slots__ = ("objects",)

    def __init__(self, objects):
        self.objects = tuple(objects)

    def __hash__(self):
        return hash(tuple(id(o) for o in self.objects))

    def __eq__(self, other):
        return (isinstance(other, SameObjects) and len(self.objects) == len(other.objects)
                and all(a is b for a, b in zip(self.objects, other.objects)))


def _wanted_args(args, positions):
    """The arguments at ``positions`` (None: None, all of them wanted)."""
    return None if positions is None else [args[p] for p in positions]


def _dispatch(impl, fn, key, args):
    """Run a gradient function: compiled as one graph when ``fn`` is compiled code (a ``jit``
    function, a Cell in GRAPH_MODE), else on the tape.  Inside a compilation ``impl``
    itself runs on stand-ins and emits the gradient graph."""
    compiler = interpreters.compiling(fn)
    if compiler is not None:
        return compiler.call_compiled(impl, fn, key, args)
    return impl(*args)


def _mark(grad_fn, impl, fn):
    grad_fn.__name__ = f"grad_{getattr(fn, '__name__', type(fn).__name__)}"
    grad_fn.__wrapped__ = fn
    grad_fn._refms_grad = True
    impl.__name__ = grad_fn.__name__
    return grad_fn


def _grad_of(tensor, grads):
    """The gradient of ``tensor`` in its own shape and dtype (zeros when it was not reached)."""
    g = grads.get(id(tensor))
    if g is None:
        return F.zeros_like(tensor)
    if g.dtype is not tensor.dtype:
        g = F.cast(g, tensor.dtype)
    if tuple(g.shape) != tuple(tensor.shape):
        g = F.reshape(g, tuple(tensor.shape)) if g.size == tensor.size else \
            F.broadcast_to(g, tuple(tensor.shape))
    return g


def _weight_grads(weights, grads):
    return tuple(_grad_of(w, grads) if getattr(w, "requires_grad", True) else F.zeros_like(w)
                 for w in weights)


def _as_weight_list(weights):
    """(list of Parameters, whether a single Parameter was given)."""
    if weights is None:
        return [], False
    if isinstance(weights, Tensor):
        return [weights], True
    return list(weights), False


class GradOperation:
    """``GradOperation(get_all=False, get_by_list=False, sens_param=False)(fn[, weights])``.

    Returns a function of the same arguments as ``fn`` (plus a final ``sens``
    when ``sens_param``) giving: the first input's gradient (default); all
    Tensor inputs' gradients (``get_all``); the weights' gradients
    (``get_by_list``); or ``(inputs, weights)`` with both.
    """

    def __init__(self, get_all=False, get_by_list=False, sens_param=False):
        for name, value in (("get_all", get_all), ("get_by_list", get_by_list),
                            ("sens_param", sens_param)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'GradOperation', the '{name}' should be bool, but got "
                                f"{type(value).__name__}.")
        self.get_all = get_all
        self.get_by_list = get_by_list
        self.sens_param = sens_param

    def __call__(self, fn, weights=None):
        if self.get_by_list and weights is None:
            raise TypeError("For 'GradOperation', 'weights' must be given when get_by_list=True.")
        weight_list, single = _as_weight_list(weights) if self.get_by_list else ([], False)
        op = self
        key = ("GradOperation", self.get_all, self.get_by_list, self.sens_param, id(fn),
               SameObjects(weight_list), single)

        def impl(*args):
            sens = None
            if op.sens_param:
                if not args:
                    raise TypeError("For 'GradOperation' with sens_param=True, the last input "
                                    "must be the sens.")
                args, sens = args[:-1], args[-1]
            if op.get_all:
                wanted = None
            else:
                wanted = [] if op.get_by_list or not args else [0]
            _, grads, call_args = run_and_differentiate(fn, args, sens, wanted=wanted)
            tensor_args = [a for a in call_args if isinstance(a, Tensor)]
            if op.get_all:
                inputs = tuple(_grad_of(a, grads) for a in tensor_args)
            elif call_args and isinstance(call_args[0], Tensor):
                inputs = _grad_of(call_args[0], grads)
            else:
                inputs = ()
            if not op.get_by_list:
                return inputs
            w = _weight_grads(weight_list, grads)
            w = w[0] if single else w
            return (inputs, w) if op.get_all else w

        def grad_fn(*args):
            return _dispatch(impl, fn, key, args)

        return _mark(grad_fn, impl, fn)


def _positions(grad_position, n_args):
    if grad_position is None:
        return None
    single = isinstance(grad_position, int) and not isinstance(grad_position, bool)
    positions = (grad_position,) if single else tuple(grad_position)
    for p in positions:
        if isinstance(p, bool) or not isinstance(p, int):
            raise TypeError(f"For 'grad', the 'grad_position' should be int or tuple of int, "
                            f"but got {grad_position!r}.")
        if p < 0:
            raise ValueError("grad_position must be >= 0.")      # MindSpore 2.10's message
        if p >= n_args:
            # MindSpore 2.10: RuntimeError in PyNative, IndexError when a graph is compiled.
            compiled = interpreters.tracing() is not None or context.is_graph_mode()
            error = IndexError if compiled else RuntimeError
            raise error(f"For 'grad', the 'grad_position' {p} is out of range: the function "
                        f"has {n_args} positional inputs.")
    return positions, single


def _build(fn, grad_position, weights, has_aux, return_ids, with_value, sens_param=False):
    if grad_position is None and weights is None:
        raise ValueError("`grad_position` and `weight` can not be None at the same time.")
    weight_list, single_weight = _as_weight_list(weights)

    def differentiate(out):
        if not has_aux:
            return out
        if not isinstance(out, tuple) or len(out) < 2:
            raise ValueError("When has_aux is True, origin fn requires more than one outputs.")
        return out[0]

    key = ("grad", grad_position if not isinstance(grad_position, list) else tuple(grad_position),
           id(fn), SameObjects(weight_list), single_weight, has_aux, return_ids,
           with_value, bool(sens_param))

    def impl(*args):
        sens = None
        if sens_param:             # the last argument is the output's sensitivity (cotangent)
            if not args:
                raise TypeError("With sens_param=True, the gradient function needs the "
                                "sensitivity as its last argument, but got no arguments.")
            args, sens = args[:-1], args[-1]
        out, grads, call_args = run_and_differentiate(fn, args, sens, differentiate)
        result = []
        spec = _positions(grad_position, len(call_args))
        if spec is not None:
            positions, single = spec
            picked = [(p % len(call_args), call_args[p]) for p in positions]
            picked = [(p, a) for p, a in picked if isinstance(a, Tensor)]
            values = tuple((p, _grad_of(a, grads)) if return_ids else _grad_of(a, grads)
                           for p, a in picked)
            # 2.10 returns one gradient bare; older pages printed a 1-tuple for an int position.
            keep_tuple = single and compat.behaviour("grad_position_single_tuple")
            if len(values) == 1 and not keep_tuple:
                values = values[0]
            result.append(values)
        if weights is not None:
            w = _weight_grads(weight_list, grads)
            if return_ids:
                w = tuple((p.name, g) for p, g in zip(weight_list, w))
            result.append(w[0] if single_weight else w)
        grads_out = result[0] if len(result) == 1 else tuple(result)
        if has_aux:
            aux = tuple(F.stop_gradient(o) for o in out[1:])
            if with_value:
                return out, grads_out
            return grads_out, aux
        return (out, grads_out) if with_value else grads_out

    def grad_fn(*args):
        return _dispatch(impl, fn, key, args)

    return _mark(grad_fn, impl, fn)


def grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False, sens_param=False):
    """``refms.grad``: gradients of ``fn`` w.r.t. positional inputs and/or weights.

    ``grad_position`` int -> a bare Tensor; tuple -> a tuple (a 1-tuple is
    returned bare, as in 2.10); ``weights`` given too -> ``(inputs, weights)``.
    ``has_aux`` -> ``(grads, aux_tuple)`` differentiating output 0 only.
    ``sens_param=True``: the gradient function takes one more argument, last, the
    sensitivity (the cotangent of the output) instead of ones.
    """
    return _build(fn, grad_position, weights, has_aux, return_ids, with_value=False,
                  sens_param=sens_param)


def value_and_grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False,
                   sens_param=False):
    """``refms.value_and_grad``: ``(fn's full output, grads)`` with :func:`grad`'s structure
    (``sens_param`` as in :func:`grad`)."""
    return _build(fn, grad_position, weights, has_aux, return_ids, with_value=True,
                  sens_param=sens_param)
