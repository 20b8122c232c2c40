"""``ops.max``/``ops.min`` (values and indices), ``ops.amax``/``ops.amin`` and ``ops.norm``.

* ``max(x, axis)`` returns ``(values, indices)``: ``ArgMaxWithValue`` along
  ``axis``; with ``axis=None`` the maximum of all elements and index 0 (what
  MindSpore 2.10 returns, ``initial`` and ``where`` unused).  Along an axis,
  ``initial`` raises every element to at least ``initial`` and ``where`` (a bool mask,
  broadcast) replaces the unselected ones by ``initial``, before the arg-maximum:
  ``x' = where ? max(x, initial) : initial``.  ``min`` likewise with ``min``.
* ``amax(x, axis)`` / ``amin``: ``ReduceMax`` / ``ReduceMin`` over ``axis``
  (all axes for None) of the same ``x'``.
* ``norm(A, ord, dim)``: with ``dim`` an int (or a 1-D input) the vector norm
  ``(Σ|x|^p)^{1/p}`` (``inf``: ``max |x|``, ``-inf``: ``min |x|``, ``0``: number of
  non-zeros); with ``ord=None`` the 2-norm of all entries over ``dim``;
  ``'fro'`` the Frobenius norm; on a matrix ``ord=1``/``-1`` the max/min
  column sum of ``|A|`` and ``inf``/``-inf`` the max/min row sum.  Integer inputs
  are computed in Float32.  The spectral and nuclear norms (``2``, ``-2``,
  ``'nuc'`` on a matrix) need an SVD that refms has no primitive for: they
  raise ``ValueError``.
"""
import math
import numbers

from ... import dtype as mstype
from ..._tensor import Tensor
from ..prims.sort import ArgMaxWithValue, ArgMinWithValue
from ..primitive import F, op_error
from ._common import check_tensor

__all__ = ["max", "min", "amax", "amin", "norm"]

_builtin_max, _builtin_min = max, min


def _axes(axis, ndim):
    if axis is None:
        return ()
    if isinstance(axis, (list, tuple)):
        return tuple(axis)
    return (axis,)


def _initial_and_where(op, input, initial, where, largest):
    """MindSpore's ``_init_and_select_elem``: every element raised to at least ``initial``
    (lowered to at most, for a minimum), then the elements where ``where`` is False replaced
    by ``initial``:  x' = where ? max(x, initial) : initial."""
    if initial is not None:
        if isinstance(initial, bool) or not isinstance(initial, numbers.Number):
            raise op_error(op, f"'initial' must be a scalar, but got {type(initial)}")
        bound = F.fill(input.dtype, tuple(input.shape), initial)
        input = F.maximum(input, bound) if largest else F.minimum(input, bound)
    if where is None or where is True:                  # Tensor.max's default is True
        return input
    if not isinstance(where, Tensor):
        where = Tensor(where, mstype.bool_)
    if initial is None:
        raise ValueError("initial value must be provided for where masks")
    where = F.broadcast_to(where, tuple(input.shape))
    return F.select(where, input, bound)


def _extremum(op, input, axis, keepdims, initial, where, largest):
    """ops.max/ops.min (MindSpore 2.10 ``array_func.max``): over all elements (``axis=None``)
    the plain extremum with index 0, ``initial`` and ``where`` unused; along an int ``axis``
    ArgMaxWithValue (ArgMinWithValue) of the input after ``_initial_and_where``."""
    check_tensor(op, "input", input)
    if not input.shape:
        return input, Tensor(0, mstype.int64)
    if axis is None:
        flat = F.reshape(input, (-1,))
        # 0-d even with keepdims=True (MindSpore 2.10, recorded)
        values = F.reduce_max(flat, (), False) if largest else F.reduce_min(flat, (), False)
        return values, F.zeros(tuple(values.shape), mstype.int64)
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise TypeError(f"For '{op}', 'axis' must be int, but got {type(axis)}")
    input = _initial_and_where(op, input, initial, where, largest)
    prim = ArgMaxWithValue if largest else ArgMinWithValue
    indices, values = prim(axis=axis, keep_dims=keepdims)(input)
    return values, F.cast(indices, mstype.int64)


def max(input, axis=None, keepdims=False, *, initial=None, where=None):  # noqa: A001,A002
    """``ops.max``: ``(values, indices)`` of the maximum along ``axis``."""
    return _extremum("max", input, axis, keepdims, initial, where, True)


def min(input, axis=None, keepdims=False, *, initial=None, where=None):  # noqa: A001,A002
    """``ops.min``: ``(values, indices)`` of the minimum along ``axis``."""
    return _extremum("min", input, axis, keepdims, initial, where, False)


def amax(input, axis=None, keepdims=False, *, initial=None, where=None):  # noqa: A002
    """``ops.amax``: the maximum over ``axis`` (all axes for None) of
    ``where ? max(x, initial) : initial``."""
    check_tensor("amax", "input", input)
    input = _initial_and_where("amax", input, initial, where, True)
    return F.reduce_max(input, _axes(axis, len(input.shape)), keepdims)


def amin(input, axis=None, keepdims=False, *, initial=None, where=None):  # noqa: A002
    """``ops.amin``: the minimum over ``axis`` (all axes for None) of
    ``where ? min(x, initial) : initial``."""
    check_tensor("amin", "input", input)
    input = _initial_and_where("amin", input, initial, where, False)
    return F.reduce_min(input, _axes(axis, len(input.shape)), keepdims)


def _vector_norm(F, a, p, axes, keepdim):
    absolute = F.abs(a)
    if p == math.inf:
        return F.reduce_max(absolute, axes, keepdim)
    if p == -math.inf:
        return F.reduce_min(absolute, axes, keepdim)
    if p == 0:
        return F.reduce_sum(F.cast(F.not_equal(a, 0.0), a.dtype), axes, keepdim)
    if p == 1:
        return F.reduce_sum(absolute, axes, keepdim)
    if p == 2:
        return F.sqrt(F.reduce_sum(F.square(a), axes, keepdim))
    return F.pow(F.reduce_sum(F.pow(absolute, float(p)), axes, keepdim), 1.0 / p)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):  # noqa: A002,N803
    """``ops.norm(A, ord=None, dim=None, keepdim=False)`` (see the module docstring)."""
    check_tensor("norm", "A", A)
    a = A if A.dtype.kind == "float" else F.cast(A, mstype.float32)
    if dtype is not None:
        a = F.cast(a, mstype.to_dtype(dtype))
    ndim = len(a.shape)
    if ord == "fro" or ord is None:
        if ord == "fro" and dim is None and ndim != 2:
            raise op_error("norm", f"the 'fro' norm needs a 2-D input or a 2-tuple 'dim', but "
                                   f"got shape {tuple(a.shape)}.", ValueError)
        return F.sqrt(F.reduce_sum(F.square(a), _axes(dim, ndim), keepdim))
    if isinstance(ord, bool) or not isinstance(ord, numbers.Real):
        if ord == "nuc":
            raise op_error("norm", "the nuclear norm needs a singular value decomposition, "
                                   "which refms does not implement.", ValueError)
        raise op_error("norm", f"the 'ord' should be a number, 'fro' or 'nuc', but got {ord!r}.",
                       ValueError)
    vector = isinstance(dim, int) or (dim is None and ndim == 1) or (
        isinstance(dim, (tuple, list)) and len(dim) == 1)
    if vector:
        axes = _axes(dim, ndim) if dim is not None else ()
        return _vector_norm(F, a, ord, axes, keepdim)
    if dim is None and ndim != 2:
        raise op_error("norm", f"a numeric 'ord' with dim=None needs a 1-D or 2-D input, but got "
                               f"shape {tuple(a.shape)}.", ValueError)
    rows, cols = (0, 1) if dim is None else tuple(d % ndim for d in dim)
    if ord in (1, -1):
        sums = F.reduce_sum(F.abs(a), (rows,), True)
        reduce = F.reduce_max if ord == 1 else F.reduce_min
        out = reduce(sums, (cols,), True)
    elif ord in (math.inf, -math.inf):
        sums = F.reduce_sum(F.abs(a), (cols,), True)
        reduce = F.reduce_max if ord > 0 else F.reduce_min
        out = reduce(sums, (rows,), True)
    else:
        raise op_error("norm", f"the matrix norm with ord={ord} needs a singular value "
                               f"decomposition, which refms does not implement.", ValueError)
    if not keepdim:
        out = F.squeeze(out, tuple(sorted((rows, cols))))
    return out
