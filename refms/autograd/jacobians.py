"""Vector-Jacobian and Jacobian-vector products, and whole Jacobians: ``vjp``, ``jvp``,
``jacrev``, ``jacfwd`` (MindSpore 2.10's signatures and return structures, recorded in
tests/recorders/transforms.json).

For ``f: R^n -> R^m`` with Jacobian ``J``:

* ``vjp(f, *x)`` returns ``f(x)`` and the function ``v ↦ vᵀJ`` — reverse mode, one
  backward pass per call (``refms.autograd.grad.run_and_differentiate`` with ``v``
  as the seed).
* ``jvp(f, x, v)`` returns ``f(x)`` and ``J v`` — forward mode, computed here by the
  *double-vjp* trick: ``u ↦ uᵀJ`` is linear in ``u``, so its own vjp at any ``u``
  with cotangent ``v`` is ``(Jᵀ)ᵀ v = J v``.  Every primitive's bprop is written
  with refms ops and is differentiable, so this needs no JVP rule per primitive:
  one forward rule table (the bprops) serves both modes, in PyNative and, because
  the tape's work is emitted instead while a graph is traced, in graph mode too.
  The price is a second backward pass per product (JAX's ``linear_transpose``
  argument; jax-ml/jax docs, "autodidax", part 3).
* ``jacrev(f)`` stacks ``eᵢᵀJ`` over the output basis (one vjp per output
  element, batched with :func:`refms.vmap`); ``jacfwd(f)`` stacks
  ``J eⱼ`` over the input basis (one jvp per input element, batched the same way).
  Both return ``J`` shaped ``out.shape + in.shape``.
"""
from .._tensor import Tensor
from ..ops import functional as F
from . import grad as _grad
from .vmap import vmap

__all__ = ["vjp", "jvp", "jacrev", "jacfwd"]


def _as_tuple(value):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def _check_tensors(values, op, name):
    for v in values:
        if not isinstance(v, Tensor):
            raise TypeError(f"For '{op}', the '{name}' should be a Tensor or a tuple of Tensors, "
                            f"but got {type(v).__name__}.")


def _distinct(values):
    """The inputs as distinct Tensors (an Identity each): ``jvp``/``jacrev``/``jacfwd`` treat
    each position as its own variable even when one Tensor is passed twice (MindSpore 2.10;
    ``grad`` and ``vjp`` add the positions' gradients instead)."""
    return tuple(F.identity(v) if isinstance(v, Tensor) else v for v in values)


def _split_aux(out, has_aux, op):
    if not has_aux:
        return out, None
    if not isinstance(out, tuple) or len(out) < 2:
        raise ValueError(f"For '{op}', when 'has_aux' is True, 'fn' must return more than one "
                         f"output.")
    aux = tuple(F.stop_gradient(o) for o in out[1:])
    return out[0], aux[0] if len(aux) == 1 else aux


def _weights_list(weights):
    if weights is None:
        return []
    if isinstance(weights, Tensor):
        return [weights]
    return list(weights)


def vjp(fn, *inputs, weights=None, has_aux=False):
    """``refms.vjp`` / ``ops.vjp``: ``(fn(*inputs), vjp_fn)`` — or ``(out, vjp_fn, aux)``
    with ``has_aux`` (``out`` is then the first output, the gradient's target).

    ``vjp_fn(v)`` takes cotangents shaped like ``out`` and returns ``vᵀJ`` for every input,
    always as a tuple (one input: a 1-tuple, as MindSpore 2.10); with ``weights``,
    ``(inputs' grads, weights' grads)``.
    """
    _check_tensors(inputs, "vjp", "inputs")
    weight_list = _weights_list(weights)

    def run(*args):
        return fn(*args)

    def vjp_fn(*v):
        cotangent = v[0] if len(v) == 1 else v

        def target(out):
            return _split_aux(out, has_aux, "vjp")[0]

        _, grads, call_args = _grad.run_and_differentiate(run, inputs, cotangent, target)
        in_grads = tuple(_grad._grad_of(a, grads) for a in call_args)
        if weights is None:
            return in_grads
        w = tuple(_grad._grad_of(p, grads) for p in weight_list)
        return in_grads, (w[0] if isinstance(weights, Tensor) else w)

    out = fn(*inputs)
    value, aux = _split_aux(out, has_aux, "vjp")
    value = F.stop_gradient(value) if isinstance(value, Tensor) else value
    if has_aux:
        return value, vjp_fn, aux
    return value, vjp_fn


def jvp(fn, inputs, v, has_aux=False):
    """``refms.jvp`` / ``ops.jvp``: ``(fn(inputs), J·v)`` — ``(out, J·v, aux)`` with ``has_aux``.

    ``inputs`` and ``v``: a Tensor or a tuple of Tensors of the same shapes.  Computed by
    double-vjp (see the module docstring).
    """
    xs, vs = _as_tuple(inputs), _as_tuple(v)
    _check_tensors(xs, "jvp", "inputs")
    xs = _distinct(xs)
    _check_tensors(vs, "jvp", "v")
    if len(xs) != len(vs):
        raise ValueError(f"For 'jvp', 'inputs' and 'v' must have the same length, but got "
                         f"{len(xs)} and {len(vs)}.")
    for x, t in zip(xs, vs):
        if tuple(x.shape) != tuple(t.shape):
            raise ValueError(f"For 'jvp', each 'v' must have the shape of its input, but got "
                             f"{tuple(t.shape)} for an input of shape {tuple(x.shape)}.")

    out = fn(*xs)
    value, aux = _split_aux(out, has_aux, "jvp")
    outs = _as_tuple(value)

    def pullback(*u):
        """u ↦ uᵀJ, a linear function of the cotangents ``u`` (one per output)."""
        cotangent = u[0] if len(u) == 1 else u

        def target(o):
            return _split_aux(o, has_aux, "jvp")[0]

        _, grads, call_args = _grad.run_and_differentiate(fn, xs, cotangent, target)
        return tuple(_grad._grad_of(a, grads) for a in call_args)

    # J v = the vjp of the (linear) pullback at u = 0, with cotangent v.
    zeros = tuple(F.zeros_like(o) for o in outs)
    _, grads, call_args = _grad.run_and_differentiate(pullback, zeros, vs)
    tangents = tuple(_grad._grad_of(z, grads) for z in call_args)
    tangent = tangents[0] if not isinstance(value, tuple) else tangents
    value = _stop(value)
    if has_aux:
        return value, tangent, aux
    return value, tangent


def _stop(value):
    if isinstance(value, tuple):
        return tuple(_stop(v) for v in value)
    return F.stop_gradient(value) if isinstance(value, Tensor) else value


def _positions(grad_position, n_args, op):
    single = isinstance(grad_position, int) and not isinstance(grad_position, bool)
    positions = (grad_position,) if single else tuple(grad_position)
    for p in positions:
        if isinstance(p, bool) or not isinstance(p, int):
            raise TypeError(f"For '{op}', the 'grad_position' should be int or tuple of int, but "
                            f"got {grad_position!r}.")
        if not 0 <= p < n_args:
            raise ValueError(f"For '{op}', the 'grad_position' {p} is out of range: the function "
                             f"has {n_args} positional inputs.")
    return positions, single


def _basis(x):
    """The identity of x's size, each row one basis element shaped like x: (size,) + x.shape."""
    size = int(x.size)
    eye = F.eye(size, size, x.dtype)
    return F.reshape(eye, (size,) + tuple(x.shape))


def _structure(rows, outs, positions, single, out_is_tuple):
    """Jacobian blocks arranged as MindSpore returns them: per output (a tuple when fn returns a
    tuple), per input position (a tuple when grad_position is a tuple)."""
    per_output = []
    for k in range(len(outs)):
        blocks = tuple(rows[k][j] for j in range(len(positions)))
        per_output.append(blocks[0] if single else blocks)
    return tuple(per_output) if out_is_tuple else per_output[0]


def jacrev(fn, grad_position=0, has_aux=False):
    """``refms.jacrev`` / ``ops.jacrev``: the Jacobian by reverse mode — one vjp per output
    element (``vmap`` over the output basis).  Returns ``J`` (shape ``out.shape + in.shape``;
    nested tuples per output and per position as in MindSpore), or ``(J, aux)``."""
    if not isinstance(has_aux, bool):
        raise TypeError(f"For 'jacrev', the 'has_aux' should be bool, but got "
                        f"{type(has_aux).__name__}.")

    def jac_fn(*args):
        positions, single = _positions(grad_position, len(args), "jacrev")
        args = _distinct(args)
        out = fn(*args)
        value, aux = _split_aux(out, has_aux, "jacrev")
        outs = _as_tuple(value)
        rows = []
        for k, o in enumerate(outs):
            def row(u, k=k):
                def picked(*xs):
                    full = list(args)
                    for p, x in zip(positions, xs):
                        full[p] = x
                    result = _split_aux(fn(*full), has_aux, "jacrev")[0]
                    return _as_tuple(result)[k]
                _, back = vjp(picked, *[args[p] for p in positions])
                return _as_tuple(back(u))
            cols = vmap(row)(_basis(o))
            rows.append(tuple(F.reshape(c, tuple(o.shape) + tuple(args[p].shape))
                              for c, p in zip(cols, positions)))
        jac = _structure(rows, outs, positions, single, isinstance(value, tuple))
        return (jac, aux) if has_aux else jac

    jac_fn.__name__ = f"jacrev_{getattr(fn, '__name__', type(fn).__name__)}"
    return jac_fn


def jacfwd(fn, grad_position=0, has_aux=False):
    """``refms.jacfwd`` / ``ops.jacfwd``: the Jacobian by forward mode — one jvp per input
    element (``vmap`` over the input basis).  Same result structure as :func:`jacrev`."""
    if not isinstance(has_aux, bool):
        raise TypeError(f"For 'jacfwd', the 'has_aux' should be bool, but got "
                        f"{type(has_aux).__name__}.")

    def jac_fn(*args):
        positions, single = _positions(grad_position, len(args), "jacfwd")
        args = _distinct(args)
        out = fn(*args)
        value, aux = _split_aux(out, has_aux, "jacfwd")
        outs = _as_tuple(value)
        columns = []                        # per position: per output, (in size, *out shape)
        for j, p in enumerate(positions):
            def column(t, p=p):
                def along(x):
                    full = list(args)
                    full[p] = x
                    result = _split_aux(fn(*full), has_aux, "jacfwd")[0]
                    return result
                return _as_tuple(jvp(along, args[p], t)[1])
            columns.append(vmap(column)(_basis(args[p])))
        rows = []
        for k, o in enumerate(outs):
            blocks = []
            for j, p in enumerate(positions):
                block = columns[j][k]                            # (in size,) + out shape
                n_out = len(o.shape)
                moved = F.transpose(block, tuple(range(1, n_out + 1)) + (0,)) if n_out else block
                blocks.append(F.reshape(moved, tuple(o.shape) + tuple(args[p].shape)))
            rows.append(tuple(blocks))
        jac = _structure(rows, outs, positions, single, isinstance(value, tuple))
        return (jac, aux) if has_aux else jac

    jac_fn.__name__ = f"jacfwd_{getattr(fn, '__name__', type(fn).__name__)}"
    return jac_fn

