"""``mint``'s creation, shape, joining, indexing and random functions, PyTorch-style.

View operations (``select``, ``narrow``, ``transpose``, ``permute``, ``split``...)
carry ``view_op = True``: in MindSpore 2.10 their result shares the input's
storage.  refms computes them as new Tensors (as MindSpore's CPU backend does);
the graph parser reads the mark to reject an in-place method on a view's
result, as MindSpore 2.10's graph mode does on CPU.
"""
import builtins

import numpy as np

from .. import dtype as mstype
from .._tensor import Tensor
from ..ops import functional as F
from ..ops.primitive import REGISTRY


def view_op(fn):
    """Mark ``fn`` as a view operation (its result aliases its input in MindSpore)."""
    fn.view_op = True
    return fn


def _size(size):
    if len(size) == 1 and isinstance(size[0], (list, tuple)):
        return tuple(size[0])
    return tuple(size)


def _dim(dim, rank):
    return dim + rank if dim < 0 else dim


# -- creation -----------------------------------------------------------------------------------

def zeros(*size, dtype=None):
    """A Tensor of zeros (Float32 unless ``dtype``)."""
    return F.zeros(_size(size), dtype or mstype.float32)


def ones(*size, dtype=None):
    """A Tensor of ones."""
    return F.ones(_size(size), dtype or mstype.float32)


def full(size, fill_value, *, dtype=None):
    """A Tensor of ``fill_value``, of the value's dtype unless ``dtype`` is given (unlike
    ``ops.full``, whose default is Int64)."""
    from ..ops.prims.fill import value_dtype
    return F.full(tuple(size), fill_value, dtype=value_dtype(fill_value) if dtype is None else dtype)


def empty(*size, dtype=None):
    """A Tensor of the given shape (refms fills it with zeros)."""
    return zeros(*size, dtype=dtype)


def zeros_like(input, *, dtype=None):                       # noqa: A002
    """Zeros of ``input``'s shape."""
    return F.zeros_like(input, dtype=dtype)


def ones_like(input, *, dtype=None):                        # noqa: A002
    """Ones of ``input``'s shape."""
    return F.ones_like(input, dtype=dtype)


def empty_like(input, *, dtype=None):                       # noqa: A002
    """A Tensor of ``input``'s shape (refms fills it with zeros)."""
    return F.zeros_like(input, dtype=dtype)


def full_like(input, fill_value, *, dtype=None):            # noqa: A002
    """``fill_value`` in ``input``'s shape."""
    return F.fill(dtype or input.dtype, tuple(input.shape), fill_value)


def arange(start=0, end=None, step=1, *, dtype=None):
    """start, start + step, … (below ``end``)."""
    return F.arange(start, end, step, dtype=dtype)


def linspace(start, end, steps, *, dtype=None):
    """``steps`` evenly spaced values from start to end."""
    out = F.linspace(F.scalar_to_tensor(float(start)), F.scalar_to_tensor(float(end)), steps)
    return out if dtype is None else F.cast(out, dtype)


def eye(n, m=None, dtype=None):
    """The n×m identity."""
    return F.eye(n, m, dtype or mstype.float32)


def clone(input):                                           # noqa: A002
    """A copy of ``input``."""
    return F.deepcopy(input)


# -- shape --------------------------------------------------------------------------------------

@view_op
def reshape(input, shape):                                  # noqa: A002
    """``input`` with a new shape (−1: inferred)."""
    return F.reshape(input, tuple(shape))


@view_op
def transpose(input, dim0, dim1):                           # noqa: A002
    """``input`` with dims ``dim0`` and ``dim1`` swapped."""
    return F.swapaxes(input, dim0, dim1)


swapaxes = transpose


@view_op
def permute(input, dims):                                   # noqa: A002
    """``input`` with its dims reordered."""
    return F.transpose(input, tuple(dims))


@view_op
def t(input):                                               # noqa: A002
    """The transpose of a matrix (a 0-D or 1-D input unchanged)."""
    if len(input.shape) < 2:
        return input
    return F.transpose(input, (1, 0))


@view_op
def squeeze(input, dim=None):                               # noqa: A002
    """``input`` without the size-1 dims (of ``dim`` only when given)."""
    if dim is None:
        return F.squeeze(input)
    dims = tuple(dim) if isinstance(dim, (list, tuple)) else (dim,)
    dims = tuple(d for d in dims if input.shape[d] == 1)
    return F.squeeze(input, dims) if dims else input


@view_op
def unsqueeze(input, dim):                                  # noqa: A002
    """``input`` with a size-1 dim inserted at ``dim``."""
    return F.unsqueeze(input, dim)


@view_op
def flatten(input, start_dim=0, end_dim=-1):                # noqa: A002
    """``input`` with dims start_dim…end_dim merged."""
    rank = len(input.shape)
    if rank == 0:
        return F.reshape(input, (1,))
    start, end = _dim(start_dim, rank), _dim(end_dim, rank)
    shape = tuple(input.shape)
    merged = 1
    for d in shape[start:end + 1]:
        merged *= d
    return F.reshape(input, shape[:start] + (merged,) + shape[end + 1:])


def ravel(input):                                           # noqa: A002
    """``input`` as 1-D."""
    return F.reshape(input, (-1,))


@view_op
def broadcast_to(input, size):                              # noqa: A002
    """``input`` broadcast to ``size``."""
    return F.broadcast_to(input, tuple(size))


def tile(input, dims):                                      # noqa: A002
    """``input`` repeated ``dims`` times along each dim."""
    dims = tuple(dims)
    if len(dims) < len(input.shape):
        dims = (1,) * (len(input.shape) - len(dims)) + dims
    return F.tile(input, dims)


def flip(input, dims):                                      # noqa: A002
    """``input`` reversed along ``dims``."""
    return F.flip(input, tuple(dims) if isinstance(dims, (list, tuple)) else (dims,))


def roll(input, shifts, dims=None):                         # noqa: A002
    """Elements shifted by ``shifts`` along ``dims`` (wrapping around)."""
    if dims is None:
        return F.reshape(roll(F.reshape(input, (-1,)), shifts, 0), tuple(input.shape))
    shifts = shifts if isinstance(shifts, (list, tuple)) else (shifts,)
    dims = dims if isinstance(dims, (list, tuple)) else (dims,)
    out = input
    for shift, dim in zip(shifts, dims):
        n = out.shape[dim]
        k = shift % n if n else 0
        if k:
            out = F.concat((narrow(out, dim, n - k, k), narrow(out, dim, 0, n - k)), dim)
    return out


# -- joining and splitting ----------------------------------------------------------------------

def cat(tensors, dim=0):
    """The Tensors joined along ``dim``."""
    return F.concat(tuple(tensors), dim)


concat = cat


def stack(tensors, dim=0):
    """The Tensors stacked along a new ``dim``."""
    return F.stack(tuple(tensors), dim)


def hstack(tensors):
    """Joined along dim 1 (dim 0 for 1-D Tensors)."""
    tensors = tuple(tensors)
    return F.concat(tensors, 0 if len(tensors[0].shape) == 1 else 1)


def dstack(tensors):
    """Joined along dim 2, after making each at least 3-D."""
    def at_least_3d(x):
        if len(x.shape) == 0:
            return F.reshape(x, (1, 1, 1))
        if len(x.shape) == 1:
            return F.reshape(x, (1, x.shape[0], 1))
        if len(x.shape) == 2:
            return F.unsqueeze(x, 2)
        return x
    return F.concat(tuple(at_least_3d(x) for x in tensors), 2)


@view_op
def split(tensor, split_size_or_sections, dim=0):
    """Pieces of ``split_size_or_sections`` elements (an int: equal pieces, the last smaller)."""
    return F.split(tensor, split_size_or_sections, dim)


@view_op
def chunk(input, chunks, dim=0):                            # noqa: A002
    """``chunks`` pieces of ⌈n / chunks⌉ elements along ``dim`` (fewer when they run out)."""
    n = input.shape[dim]
    size = -(-n // chunks)
    return F.split(input, size, dim)


@view_op
def unbind(input, dim=0):                                   # noqa: A002
    """The slices along ``dim``, as a tuple."""
    return tuple(F.unstack(input, dim))


def meshgrid(*tensors, indexing="ij"):
    """Coordinate grids (``indexing`` "ij" or "xy")."""
    return F.meshgrid(*_size(tensors), indexing=indexing)


# -- indexing -----------------------------------------------------------------------------------

@view_op
def narrow(input, dim, start, length):                      # noqa: A002
    """``length`` elements of ``input`` from ``start`` along ``dim``."""
    rank = len(input.shape)
    dim = _dim(dim, rank)
    begin = [0] * rank
    size = list(input.shape)
    begin[dim] = start
    size[dim] = length
    return F.slice(input, tuple(begin), tuple(size))


@view_op
def select(input, dim, index):                              # noqa: A002
    """The slice ``index`` of ``input`` along ``dim`` (that dim removed)."""
    rank = len(input.shape)
    dim = _dim(dim, rank)
    index = index + input.shape[dim] if index < 0 else index
    return F.squeeze(narrow(input, dim, index, 1), (dim,))


def index_select(input, dim, index):                        # noqa: A002
    """input gathered at the 1-D ``index`` along ``dim``."""
    return F.gather(input, index, dim)


def gather(input, dim, index):                              # noqa: A002
    """out[i][j] = input[index[i][j]][j] (for dim 0; likewise for other dims)."""
    return F.gather_d(input, dim, index)


def take(input, index):                                     # noqa: A002
    """The flattened input at ``index``."""
    return F.gather(F.reshape(input, (-1,)), index, 0)


def masked_select(input, mask):                             # noqa: A002
    """The elements of ``input`` where ``mask`` (1-D)."""
    return F.masked_select(input, mask)


def scatter(input, dim, index, src=None, *, value=None, reduce="none"):  # noqa: A002
    """A copy of ``input`` with ``src`` (or ``value``) written at ``index`` along ``dim``."""
    if src is None or not hasattr(src, "shape"):
        fill = value if src is None else src
        src = F.fill(input.dtype, tuple(index.shape), fill)
    reduction = {"none": "none", "add": "add"}[reduce]
    return F.tensor_scatter_elements(input, index, src, dim, reduction)


def scatter_add(input, dim, index, src):                    # noqa: A002
    """A copy of ``input`` with ``src`` added at ``index`` along ``dim``."""
    return F.tensor_scatter_elements(input, index, src, dim, "add")


def index_add(input, dim, index, source, *, alpha=1):       # noqa: A002
    """A copy of ``input`` with alpha·source[k] added at input[index[k]] along ``dim``."""
    rank = len(input.shape)
    dim = _dim(dim, rank)
    shape = [1] * rank
    shape[dim] = index.shape[0]
    positions = F.broadcast_to(F.reshape(index, tuple(shape)), tuple(source.shape))
    updates = source if alpha == 1 else source * alpha
    return F.tensor_scatter_elements(input, positions, updates, dim, "add")


def _triangle(input, diagonal, upper):                      # noqa: A002
    rows, cols = input.shape[-2], input.shape[-1]
    i = np.arange(rows).reshape(-1, 1)
    j = np.arange(cols).reshape(1, -1)
    keep = (j - i >= diagonal) if upper else (j - i <= diagonal)
    mask = Tensor(keep)
    return F.select(F.broadcast_to(mask, tuple(input.shape)), input, F.zeros_like(input))


def tril(input, diagonal=0):                                # noqa: A002
    """``input`` with the elements above the ``diagonal``-th diagonal zeroed."""
    return _triangle(input, diagonal, upper=False)


def triu(input, diagonal=0):                                # noqa: A002
    """``input`` with the elements below the ``diagonal``-th diagonal zeroed."""
    return _triangle(input, diagonal, upper=True)


def diagonal(input, offset=0):                              # noqa: A002
    """input[i, i + offset] of a matrix, as 1-D."""
    rows, cols = input.shape
    i = np.arange(rows)
    keep = (i + offset >= 0) & (i + offset < cols)
    flat = (i * cols + i + offset)[keep].astype(np.int32)
    return F.gather(F.reshape(input, (-1,)), Tensor(flat), 0)


def diag(input, diagonal=0):                                # noqa: A002
    """A 1-D input: the square matrix with it on the ``diagonal``-th diagonal; a matrix: that
    diagonal."""
    if len(input.shape) == 2:
        return globals()["diagonal"](input, diagonal)
    m = input.shape[0]
    n = m + builtins.abs(diagonal)
    source = np.full(n * n, m, dtype=np.int32)          # m: the appended zero
    k = np.arange(m)
    rows = k + builtins.max(-diagonal, 0)
    source[rows * n + rows + diagonal] = k
    padded = F.concat((input, F.zeros((1,), input.dtype)), 0)
    return F.reshape(F.gather(padded, Tensor(source), 0), (n, n))


# -- random (refms's seeded stream: values differ from MindSpore's) -----------------------------

def rand(*size, generator=None, dtype=None):
    """Samples of U[0, 1)."""
    out = F.uniform(_size(size), F.scalar_to_tensor(0.0), F.scalar_to_tensor(1.0))
    return out if dtype is None else F.cast(out, dtype)


def rand_like(input, *, dtype=None):                        # noqa: A002
    """Samples of U[0, 1) in ``input``'s shape."""
    return rand(*input.shape, dtype=dtype or input.dtype)


def randn(*size, generator=None, dtype=None):
    """Samples of N(0, 1)."""
    out = F.standard_normal(_size(size))
    return out if dtype is None else F.cast(out, dtype)


def randn_like(input, *, dtype=None):                       # noqa: A002
    """Samples of N(0, 1) in ``input``'s shape."""
    return randn(*input.shape, dtype=dtype or input.dtype)


def randint(low=0, high=None, size=None, *, generator=None, dtype=None):
    """Integers of U{low, …, high − 1}."""
    if high is None:
        low, high = 0, low
    out = REGISTRY["UniformInt"]()(tuple(size), F.scalar_to_tensor(low, mstype.int32),
                                   F.scalar_to_tensor(high, mstype.int32))
    return F.cast(out, dtype or mstype.int64)


def randint_like(input, low=0, high=None, *, dtype=None):   # noqa: A002
    """Integers of U{low, …, high − 1} in ``input``'s shape."""
    return randint(low, high, tuple(input.shape), dtype=dtype or input.dtype)


def normal(mean=0.0, std=1.0, size=None, *, generator=None):
    """Samples of N(mean, std²) (``mean``/``std`` numbers or Tensors)."""
    shape = tuple(size) if size is not None else tuple(
        getattr(mean, "shape", None) or getattr(std, "shape", ()))
    return F.standard_normal(shape) * std + mean


def bernoulli(input, *, generator=None):                    # noqa: A002
    """1 with probability input, else 0."""
    return F.cast(F.less(rand(*input.shape), input), input.dtype)


def randperm(n, *, generator=None, dtype=mstype.int64):
    """A random permutation of 0 … n − 1."""
    _, order = F.sort(rand(n))
    return F.cast(order, dtype)
