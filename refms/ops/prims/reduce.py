"""Axis reductions: ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceAll, ReduceAny.

MindSpore's form: ``ops.ReduceSum(keep_dims=False)(x, axis=())``; ``axis`` is
an int, a tuple/list of ints, or ``()`` for every axis.  The kernels come
from :mod:`refms.kernels` (reference numpy or the Cython twins).
"""
import numpy as np

from ... import dtype as mstype
from ... import kernels
from .. import batching
from ..primitive import F, Primitive, Abstract, register, alias, functional, op_error
from ._base import normalize_axes


def _kept_shape(shape, axes):
    """Shape of a kept-dims reduction: reduced axes become 1."""
    return tuple(1 if (i in axes or not axes) else d for i, d in enumerate(shape))


class _Reduce(Primitive):
    """y = reduce over ``axis``; ``keep_dims`` keeps reduced axes as size 1."""
    n_tensor_inputs = 1
    kernel = None

    def __init__(self, keep_dims=False):
        if not isinstance(keep_dims, bool):
            raise op_error(type(self).__name__, f"the 'keep_dims' should be bool, but got "
                                                f"{type(keep_dims).__name__}.")
        self.keep_dims = keep_dims

    def __call__(self, x, axis=()):
        """``ReduceMax()(x)`` reduces all axes: ``axis`` defaults to () and is always passed on,
        so the bprop (which takes ``axis``) sees it too."""
        return super().__call__(x, axis)

    def infer(self, x, axis=()):
        axes = normalize_axes(self.name, axis, len(x.shape))
        if self.keep_dims:
            shape = _kept_shape(x.shape, axes)
        else:
            shape = tuple(d for i, d in enumerate(x.shape) if axes and i not in axes)
        return Abstract(shape, x.dtype)

    def batch(self, batched, x, axis=()):
        """vmap: the per-example axes shifted past the batch axis (``()``: all of them)."""
        rank = len(x.shape) - 1
        if rank == 0:                      # a scalar per example: reduce a length-1 axis
            out = self(F.reshape(x, (x.shape[0], 1)), (1,))
            return F.reshape(out, (x.shape[0],)) if self.keep_dims else out
        axes = normalize_axes(self.name, axis, rank) or tuple(range(rank))
        return self(x, tuple(a + 1 for a in axes))

    def forward(self, x, axis=()):
        axes = normalize_axes(self.name, axis, x.ndim)
        return kernels.call(self.kernel)(x, axes, self.keep_dims)

    def _restore(self, x, axis, value):
        """Broadcast a reduced value (out or dout) back to x's shape."""
        axes = normalize_axes(self.name, axis, len(x.shape))
        kept = F.reshape(value, _kept_shape(x.shape, axes))
        return F.broadcast_to(kept, x.shape)


@register
class ReduceSum(_Reduce):
    """y = Σ x over ``axis``; ∂y/∂x = 1."""
    kernel = "reduce_sum"

    def bprop(self, x, axis, out, dout):
        return self._restore(x, axis, dout), None


@register
class ReduceMean(_Reduce):
    """y = (1/n) Σ x over ``axis``; ∂y/∂x = 1/n."""
    kernel = "reduce_mean"

    def bprop(self, x, axis, out, dout):
        axes = normalize_axes(self.name, axis, len(x.shape))
        count = int(np.prod([x.shape[i] for i in (axes or range(len(x.shape)))], dtype=np.int64))
        return self._restore(x, axis, dout) / max(count, 1), None


class _ReduceExtremum(_Reduce):
    """max/min: the gradient goes to the elements equal to the result, shared equally on ties."""

    def infer(self, x, axis=()):
        axes = normalize_axes(self.name, axis, len(x.shape)) or tuple(range(len(x.shape)))
        if any(x.shape[i] == 0 for i in axes):
            raise op_error(self.name, f"cannot reduce over an empty dimension: input shape "
                                      f"{tuple(x.shape)}, axis {axis}.", ValueError)
        return super().infer(x, axis)

    def bprop(self, x, axis, out, dout):
        hits = F.cast(F.equal(x, self._restore(x, axis, out)), dout.dtype)
        count = self._restore(x, axis, F.reduce_sum(hits, normalize_axes(self.name, axis, len(x.shape)),
                                                    self.keep_dims))
        return hits * self._restore(x, axis, dout) / count, None


@register
class ReduceMax(_ReduceExtremum):
    """y = max x over ``axis``."""
    kernel = "reduce_max"


@register
class ReduceMin(_ReduceExtremum):
    """y = min x over ``axis``."""
    kernel = "reduce_min"


@register
class ReduceProd(_Reduce):
    """y = Π x over ``axis``; ∂y/∂xᵢ = Π_{j≠i} xⱼ (computed without dividing, so zeros are safe)."""
    kernel = "reduce_prod"

    def bprop(self, x, axis, out, dout):
        axes = normalize_axes(self.name, axis, len(x.shape)) or tuple(range(len(x.shape)))
        # Move reduced axes last, flatten them, and use exclusive cumulative products
        # from both sides: Π_{j≠i} = (Π_{j<i}) (Π_{j>i}).
        keep = tuple(i for i in range(len(x.shape)) if i not in axes)
        perm = keep + axes
        moved = F.transpose(x, perm)
        n = int(np.prod([x.shape[i] for i in axes], dtype=np.int64))
        flat = F.reshape(moved, tuple(x.shape[i] for i in keep) + (n,))
        others = F.exclusive_cumprod_both(flat)
        grad_flat = others * F.expand_dims(F.reshape(dout, tuple(x.shape[i] for i in keep)), -1)
        grad_moved = F.reshape(grad_flat, tuple(moved.shape))
        inverse = tuple(int(i) for i in np.argsort(perm))
        return F.transpose(grad_moved, inverse), None


class _ReduceLogical(_Reduce):
    """all/any: any dtype (nonzero is True), the result is Bool (as MindSpore 2.10 on CPU)."""

    def infer(self, x, axis=()):
        shape = super().infer(x, axis).shape
        return Abstract(shape, mstype.bool_)


@register
class ReduceAll(_ReduceLogical):
    """y = ∧ x over ``axis`` (Bool)."""

    def forward(self, x, axis=()):
        return kernels.call("reduce_all")(x, normalize_axes(self.name, axis, x.ndim), self.keep_dims)


@register
class ReduceAny(_ReduceLogical):
    """y = ∨ x over ``axis`` (Bool)."""

    def forward(self, x, axis=()):
        return kernels.call("reduce_any")(x, normalize_axes(self.name, axis, x.ndim), self.keep_dims)


@register
class ExclusiveCumprodBoth(Primitive):
    """yᵢ = Π_{j≠i} xⱼ along the last axis (helper for ReduceProd's gradient)."""
    n_tensor_inputs = 1

    def infer(self, x):
        return Abstract(x.shape, x.dtype)

    def forward(self, x):
        return kernels.call("exclusive_cumprod_both")(x)

    def bprop(self, x, out, dout):
        # ∂yᵢ/∂xₖ = Π_{j∉{i,k}} xⱼ for k ≠ i; built from pairwise products (small n only).
        n = x.shape[-1]
        grads = []
        for k in range(n):
            columns = []
            for i in range(n):
                if i == k:
                    columns.append(F.zeros_like(x[..., 0]))
                else:
                    rest = [x[..., j] for j in range(n) if j not in (i, k)]
                    term = rest[0] if rest else F.ones_like(x[..., 0])
                    for r in rest[1:]:
                        term = term * r
                    columns.append(term)
            grads.append(F.reduce_sum(F.stack(columns, -1) * dout, (-1,), False))
        return (F.stack(grads, -1),)


def _reducer(cls, name):
    instances = {False: cls(False), True: cls(True)}

    def reduce(input, axis=(), keep_dims=False):
        if axis is None:
            axis = ()
        return instances[bool(keep_dims)](input, axis)
    reduce.__doc__ = f"Functional form of :class:`{cls.__name__}`: ``{name}(input, axis, keep_dims)``."
    return functional(name, reduce)


reduce_sum = _reducer(ReduceSum, "reduce_sum")
reduce_mean = _reducer(ReduceMean, "reduce_mean")
reduce_max = _reducer(ReduceMax, "reduce_max")
reduce_min = _reducer(ReduceMin, "reduce_min")
reduce_prod = _reducer(ReduceProd, "reduce_prod")
reduce_all = _reducer(ReduceAll, "reduce_all")
reduce_any = _reducer(ReduceAny, "reduce_any")
exclusive_cumprod_both = alias("exclusive_cumprod_both", ExclusiveCumprodBoth())


def sum(input, dim=None, keepdim=False, *, dtype=None):
    """ops.sum(input, dim=None, keepdim=False, *, dtype=None)."""
    return reduce_sum(_int64_for_integers(input, dtype), () if dim is None else dim, keepdim)


def mean(input, axis=None, keep_dims=False):
    """ops.mean(input, axis=None, keep_dims=False)."""
    return reduce_mean(input, () if axis is None else axis, keep_dims)


def prod(input, axis=None, keep_dims=False, dtype=None):
    """ops.prod(input, axis=None, keep_dims=False, dtype=None); integer and bool inputs -> Int64."""
    return reduce_prod(_int64_for_integers(input, dtype), () if axis is None else axis, keep_dims)


def _int64_for_integers(input, dtype):
    """The input cast to ``dtype``, or to Int64 when it is integer or bool (MindSpore 2.10's
    ``ops.sum`` and ``ops.prod``; the primitives ReduceSum/ReduceProd keep the dtype)."""
    if dtype is not None:
        return F.cast(input, mstype.to_dtype(dtype))
    if input.dtype.kind in ("int", "uint", "bool"):
        return F.cast(input, mstype.int64)
    return input


functional("sum", sum)
functional("mean", mean)
functional("prod", prod)
