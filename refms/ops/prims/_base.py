"""Helpers shared by primitive definitions: broadcasting, reductions of gradients, checks."""
import numpy as np

from ... import dtype as mstype
from ... import kernels
from ..._tensor import Tensor
from ..keywords import NotATensorError
from ..primitive import F, Abstract, op_error
from ..promotion import promote


def shape_str(shape):
    return "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def broadcast_shape(op, x_shape, y_shape):
    """numpy broadcasting of two shapes; a clear error names the op and both shapes."""
    if x_shape == y_shape:
        return tuple(x_shape)
    result = []
    for i in range(1, max(len(x_shape), len(y_shape)) + 1):
        a = x_shape[-i] if i <= len(x_shape) else 1
        b = y_shape[-i] if i <= len(y_shape) else 1
        if a == b or b == 1:
            result.append(a)
        elif a == 1:
            result.append(b)
        elif a == -1 or b == -1:
            result.append(-1)
        else:
            raise op_error(op, f"x.shape and y.shape need to broadcast. The value of x.shape"
                               f"[{-i}] or y.shape[{-i}] must be 1 or -1 when they are not the "
                               f"same, but got x.shape = {shape_str(x_shape)} and y.shape = "
                               f"{shape_str(y_shape)}.", ValueError)
    return tuple(reversed(result))


def binary_abstract(op, x, y):
    """Promoted dtype and broadcast shape of a binary elementwise op (two operands of one
    dtype keep it, weak or not: the common case skips the promotion table)."""
    dtype = x.dtype if x.dtype is y.dtype else promote(x, y)
    return Abstract(broadcast_shape(op, x.shape, y.shape), dtype)


def sum_to(dout, shape):
    """Reduce a broadcast gradient back to ``shape`` (sum over the broadcast axes)."""
    if tuple(dout.shape) == tuple(shape):
        return dout
    lead = len(dout.shape) - len(shape)
    axes = list(range(lead))
    for i, size in enumerate(shape):
        if size == 1 and dout.shape[lead + i] != 1:
            axes.append(lead + i)
    reduced = F.reduce_sum(dout, tuple(axes), False) if axes else dout
    return F.reshape(reduced, tuple(shape))


def grad_like(grad, x):
    """A gradient reduced to x's shape and cast to x's dtype."""
    g = sum_to(grad, x.shape)
    if g.dtype is not x.dtype:
        g = F.cast(g, x.dtype)
    return g


def check_tensor(op, name, value):
    if not isinstance(value, (Tensor, Abstract)) and not hasattr(value, "dtype"):
        raise NotATensorError(f"For '{op}', the input '{name}' should be a Tensor, but got "
                              f"{type(value).__name__}.")


def check_dtype_in(op, name, dtype, allowed):
    if dtype not in allowed:
        names = ", ".join(str(d) for d in allowed)
        raise op_error(op, f"the dtype of '{name}' should be one of [{names}], but got {dtype}.")


def host_int(value):
    """An int given as a Python int or a 0-d array of any backend (read on the host)."""
    return int(kernels.to_host(value)) if hasattr(value, "dtype") else int(value)


def normalize_axis(op, axis, ndim, name="axis"):
    """An int axis in [-ndim, ndim) as a non-negative int."""
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise op_error(op, f"the type of '{name}' should be int, but got {type(axis).__name__}.")
    low, high = -max(ndim, 1), max(ndim, 1)
    if not low <= axis < high:
        raise op_error(op, f"the '{name}' must be in range [{low}, {high}), but got {axis}.",
                       ValueError)
    return int(axis) % max(ndim, 1)


def normalize_axes(op, axis, ndim):
    """int, tuple or list of axes -> sorted tuple of non-negative axes; ``()`` = all."""
    if isinstance(axis, (int, np.integer)) and not isinstance(axis, bool):
        axis = (axis,)
    if not isinstance(axis, (tuple, list)):
        raise op_error(op, f"the 'axis' should be int, tuple or list, but got "
                           f"{type(axis).__name__}.")
    if len(axis) == 0:
        return ()
    result = tuple(sorted({normalize_axis(op, a, ndim) for a in axis}))
    return result


FLOATS = (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16)
