"""Batching rules for ``vmap``: how a primitive runs on a whole batch at once.

A primitive's batching rule sits beside its forward, shape rule and bprop::

    def batch(self, batched, *inputs):
        ...

``inputs`` are the op's inputs with the batch axis of every batched Tensor moved
to axis 0 (so ``x.shape == (B,) + per-example shape``); ``batched[i]`` says
whether input ``i`` carries the batch axis (a tuple input, as Concat's, is
batched as a whole: its unbatched members were broadcast first).  The rule
returns the output(s) for the whole batch, batch axis 0, computed with ordinary
primitive calls — so it is differentiable and can be traced into a graph.

Primitives with the ``elementwise`` trait share one rule (:func:`elementwise`):
lift every batched input to the same per-example rank and let broadcasting do the
rest.  A primitive with neither gets the *fallback*: run it once per example and
stack the results (:func:`loop`) — correct for every op, one call per example.
:func:`rule_for` is the one place that decides; :func:`coverage` lists which
primitives have a rule.  (The design is JAX's ``batching.py``, with the batch
axis always moved to the front to keep every rule short.)
"""
from .primitive import F, REGISTRY, Primitive

__all__ = ["rule_for", "has_rule", "coverage", "elementwise", "loop", "lift_rank", "example_rank",
           "batch_axis", "as_reshape", "prefix_index", "merge_batch", "merge_batch_all", "move_to_front",
           "per_example"]


def has_rule(prim_class):
    """True when ``prim_class`` has a batching rule of its own or the elementwise trait."""
    return prim_class.batch is not Primitive.batch or bool(prim_class.elementwise)


def rule_for(prim):
    """The batching rule of ``prim``: its own ``batch``, the shared elementwise rule, or None
    (then :func:`loop` runs)."""
    if type(prim).batch is not Primitive.batch:
        return prim.batch
    if prim.elementwise:
        def shared(batched, *inputs):
            return elementwise(prim, batched, inputs)
        return shared
    return None


def coverage():
    """``(with_rule, fallback)``: the registered primitive names with a batching rule (their own
    or the elementwise trait's) and those that run through the per-example loop."""
    with_rule = [name for name, cls in REGISTRY.items() if has_rule(cls)]
    fallback = [name for name, cls in REGISTRY.items() if not has_rule(cls)]
    return with_rule, fallback


# -- helpers the rules share ----------------------------------------------------------------------

def example_rank(value, is_batched):
    """The per-example rank of an input (0 for a Python number)."""
    ndim = len(value.shape) if hasattr(value, "shape") else 0
    return ndim - 1 if is_batched else ndim


def lift_rank(x, rank):
    """A batched ``x`` of shape ``(B, *s)`` reshaped to ``(B, 1, ..., 1, *s)`` with ``rank``
    per-example axes, so that it broadcasts against unbatched inputs of that rank as each
    example would."""
    shape = tuple(x.shape)
    missing = rank - (len(shape) - 1)
    if missing <= 0:
        return x
    return F.reshape(x, shape[:1] + (1,) * missing + shape[1:])


def elementwise(prim, batched, inputs):
    """The shared rule of elementwise (broadcasting) primitives: per example the inputs
    broadcast to the highest rank R among them; with the batch in front, every batched input is
    lifted to R per-example axes and numpy broadcasting gives the batched result."""
    n = len(inputs) if prim.n_tensor_inputs is None else prim.n_tensor_inputs
    rank = max([example_rank(inputs[i], batched[i]) for i in range(min(n, len(inputs)))] + [0])
    lifted = [lift_rank(x, rank) if i < n and batched[i] else x for i, x in enumerate(inputs)]
    return prim(*lifted)


def batch_axis(axis, rank):
    """A per-example axis (negative counts from the end of ``rank`` axes) in the batched
    tensor: normalized, then shifted past the batch axis."""
    return (axis % rank if rank else 0) + 1


def per_example(x):
    """An abstract value standing for one example of the batched ``x`` (for shape rules)."""
    from .primitive import Abstract
    return Abstract(tuple(x.shape)[1:], x.dtype, getattr(x, "weak", False))


def as_reshape(prim, x, *constants):
    """The rule of a primitive that only re-reads the data in row-major order (Reshape,
    ExpandDims, Squeeze, Flatten): the per-example output shape from its own shape rule, then
    one Reshape of the whole batch."""
    out = prim.infer(per_example(x), *constants)
    return F.reshape(x, tuple(x.shape)[:1] + tuple(out.shape))


def _is_advanced(part):
    return hasattr(part, "shape") and not isinstance(part, (int, slice)) or isinstance(part, list)


def prefix_index(index):
    """``index`` for the batched tensor: ``(slice(None),) + index``, or None when the index
    has advanced (array) parts that numpy would move in front of the batch axis (arrays
    separated by a slice, an Ellipsis or None)."""
    parts = index if isinstance(index, tuple) else (index,)
    advanced = [i for i, part in enumerate(parts) if _is_advanced(part)]
    if advanced and advanced[-1] - advanced[0] + 1 != len(advanced):
        return None
    return (slice(None),) + tuple(parts)


def merge_batch(prim, x, *rest):
    """The rule of an op whose first input already has a leading batch axis N of its own (Conv2D,
    pooling) when only that input is batched: fold B into N, run once, unfold."""
    shape = tuple(x.shape)
    folded = F.reshape(x, (shape[0] * shape[1],) + shape[2:])
    out = prim(folded, *rest)
    return F.reshape(out, shape[:2] + tuple(out.shape)[1:])


def merge_batch_all(prim, inputs):
    """Like :func:`merge_batch` for an op whose tensor inputs are all batched images (a pooling
    gradient): B folds into N in every input."""
    shape = tuple(inputs[0].shape)
    folded = [F.reshape(x, (shape[0] * shape[1],) + tuple(x.shape)[2:]) for x in inputs]
    out = prim(*folded)
    return F.reshape(out, shape[:2] + tuple(out.shape)[1:])


def move_to_front(x, axis):
    """x with ``axis`` moved to position 0 (where a rule's result has its batch axis)."""
    if axis == 0:
        return x
    order = (axis,) + tuple(i for i in range(len(x.shape)) if i != axis)
    return F.transpose(x, order)


def loop(prim, batched, inputs, size):
    """The fallback: ``prim`` once per example (batched inputs indexed, the others as they are),
    the results stacked along a new axis 0."""
    results = []
    for b in range(size):
        example = [_take(x, b) if is_batched else x for x, is_batched in zip(inputs, batched)]
        results.append(prim(*example))
    if isinstance(results[0], tuple):
        return tuple(F.stack([r[k] for r in results], 0) for k in range(len(results[0])))
    return F.stack(results, 0)


def _take(x, b):
    if isinstance(x, (tuple, list)):
        return type(x)(F.getitem(item, b) for item in x)
    return F.getitem(x, b)
