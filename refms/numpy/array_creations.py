"""Array creation in ``mindspore.numpy``'s conventions: Python ints → Int32, floats → Float32.

``linspace(a, b, n)`` = a + k·(b − a)/(n − 1), k = 0…n−1 (n intervals without the
endpoint); ``eye(N, M, k)`` has ones where column − row = k; ``tril``/``triu`` keep
the entries with column − row ≤ k / ≥ k; ``diag`` extracts the k-th diagonal of a
matrix, or builds a matrix with a vector on it.
"""
import numpy as np

from .. import dtype as mstype
from .._tensor import Tensor
from ..ops import functional as F

__all__ = ["array", "asarray", "arange", "zeros", "ones", "full", "eye", "linspace",
           "zeros_like", "ones_like", "full_like", "meshgrid", "diag", "tril", "triu", "copy"]


def _python_dtype(obj):
    """Int32 / Float32 / Bool for a Python scalar or a (nested) list or tuple of them."""
    items = [obj]
    kinds = set()
    while items:
        item = items.pop()
        if isinstance(item, (list, tuple)):
            items.extend(item)
        elif isinstance(item, bool):
            kinds.add("bool")
        elif isinstance(item, int):
            kinds.add("int")
        elif isinstance(item, float):
            kinds.add("float")
        elif isinstance(item, Tensor):
            kinds.add("float" if item.dtype.kind == "float" else "int")
        else:
            raise TypeError(f"input data must be `int`, `float`, `bool`, `Tensor`, `list`, "
                            f"`tuple`, but got {type(item)}")
    if "float" in kinds:
        return mstype.float32
    if "int" in kinds:
        return mstype.int32
    return mstype.bool_


def asarray(a, dtype=None):
    """``a`` (Tensor, Python scalar, list or tuple) as a Tensor; ``dtype`` casts."""
    if isinstance(a, Tensor):
        return a if dtype is None else F.cast(a, mstype.to_dtype(dtype))
    if not isinstance(a, (int, float, bool, list, tuple)):
        raise TypeError(f"input data must be `int`, `float`, `bool`, `Tensor`, `list`, `tuple`, "
                        f"but got {type(a)}")
    target = _python_dtype(a) if dtype is None else mstype.to_dtype(dtype)
    if isinstance(a, (list, tuple)) and any(isinstance(v, Tensor) for v in a):
        return F.cast(F.stack([asarray(v) for v in a], 0), target)
    return Tensor(np.array(a), target)


def array(obj, dtype=None, copy=True, ndmin=0):  # noqa: A002  (MindSpore's names)
    """``asarray`` (a new Tensor for a Tensor input), with at least ``ndmin`` axes."""
    out = asarray(obj, dtype)
    if copy and out is obj:
        out = _new_tensor(out)
    while len(out.shape) < ndmin:
        out = F.expand_dims(out, 0)
    return out


def arange(start, stop=None, step=None, dtype=None):
    """[start, start + step, …) below ``stop``; Int32 for ints, Float32 when any is a float."""
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    values = np.arange(start, stop, step)
    is_float = any(isinstance(v, float) for v in (start, stop, step))
    target = mstype.to_dtype(dtype) if dtype is not None else \
        (mstype.float32 if is_float else mstype.int32)
    return Tensor(values, target)


def _shape(shape):
    return (shape,) if isinstance(shape, int) else tuple(shape)


def full(shape, fill_value, dtype=None):
    """A Tensor of ``shape`` filled with ``fill_value`` (dtype from the value, as ``asarray``)."""
    target = mstype.to_dtype(dtype) if dtype is not None else _python_dtype(fill_value)
    return Tensor(np.full(_shape(shape), fill_value), target)


def zeros(shape, dtype=mstype.float32):
    return full(shape, 0, dtype)


def ones(shape, dtype=mstype.float32):
    return full(shape, 1, dtype)


def full_like(a, fill_value, dtype=None, shape=None):
    return full(a.shape if shape is None else shape, fill_value,
                a.dtype if dtype is None else dtype)


def zeros_like(a, dtype=None, shape=None):
    return full_like(a, 0, dtype, shape)


def ones_like(a, dtype=None, shape=None):
    return full_like(a, 1, dtype, shape)


def eye(N, M=None, k=0, dtype=mstype.float32):  # noqa: N803  (MindSpore's names)
    """Ones where column − row = k."""
    return Tensor(np.eye(N, N if M is None else M, k), mstype.to_dtype(dtype))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """``num`` evenly spaced Float32 values from ``start`` to ``stop``."""
    intervals = num - 1 if endpoint else num
    step = (stop - start) / intervals if intervals > 0 else 0.0
    values = Tensor(start + step * np.arange(num), mstype.float32 if dtype is None else dtype)
    return (values, step) if retstep else values


def meshgrid(*xi, sparse=False, indexing="xy"):
    """Coordinate matrices of the 1-D Tensors ``xi`` (``'xy'``: the first two axes swapped)."""
    if indexing not in ("xy", "ij"):
        raise ValueError(f"indexing parameter must be either 'xy' or 'ij', but got {indexing}")
    sizes = [x.shape[0] for x in xi]
    if indexing == "xy" and len(xi) >= 2:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    grids = []
    for k, x in enumerate(xi):
        axis = k
        if indexing == "xy" and len(xi) >= 2 and k < 2:
            axis = 1 - k
        shape = [1] * len(xi)
        shape[axis] = x.shape[0]
        grid = F.reshape(x, tuple(shape))
        grids.append(grid if sparse else F.broadcast_to(grid, tuple(sizes)))
    return tuple(grids)


def _band_mask(shape, k, lower):
    rows = np.arange(shape[-2])[:, None]
    cols = np.arange(shape[-1])[None, :]
    keep = (cols - rows <= k) if lower else (cols - rows >= k)
    return Tensor(np.broadcast_to(keep, shape))


def tril(m, k=0):
    """Entries with column − row ≤ k, zeros elsewhere."""
    return F.select(_band_mask(m.shape, k, True), m, F.zeros_like(m))


def triu(m, k=0):
    """Entries with column − row ≥ k, zeros elsewhere."""
    return F.select(_band_mask(m.shape, k, False), m, F.zeros_like(m))


def diag(v, k=0):
    """The k-th diagonal of a matrix, or a matrix with the vector ``v`` on its k-th diagonal."""
    if len(v.shape) == 1:
        return _diag_from_vector(v, k)
    if len(v.shape) != 2:
        raise ValueError("Input must be 1- or 2-d.")
    rows, cols = v.shape
    first_row, first_col = (0, k) if k >= 0 else (-k, 0)
    count = max(min(rows - first_row, cols - first_col), 0)
    index = Tensor([(first_row + i) * cols + first_col + i for i in range(count)], mstype.int32)
    return F.gather(F.reshape(v, (-1,)), index, 0)


def _diag_from_vector(v, k):
    """(n, n), n = len(v) + |k|: row r holds V[r] at column r + k, V = v padded with |k| zeros
    (before it for k < 0), i.e. eye(n, n, k) · V[:, None]."""
    n = v.shape[0] + (k if k > 0 else -k)
    pad = Tensor(np.zeros(n - v.shape[0]), v.dtype)
    padded = F.concat((pad, v) if k < 0 else (v, pad), 0)
    return Tensor(np.eye(n, n, k), v.dtype) * F.reshape(padded, (n, 1))


def _new_tensor(a):
    """A new Tensor with the values of the Tensor ``a`` (a Select, so gradients pass)."""
    return F.select(Tensor(np.ones(a.shape, np.bool_)), a, a)


def copy(a):  # noqa: A001  (MindSpore's name)
    """A new Tensor with ``a``'s values."""
    return _new_tensor(asarray(a))
