"""Tensor methods with MindSpore 2.10's two signatures, and the small methods PyTorch users expect.

MindSpore 2.10 gives many Tensor methods two overloads: the NumPy-style one
(``x.sum(axis=None, dtype=None, keepdims=False)``, ``x.max(axis)`` → values) and the
PyTorch-style one (``x.sum(dim, keepdim)``, ``x.max(dim)`` → ``(values, indices)``).
Which one runs follows from the call: a NumPy keyword (``axis``, ``keepdims``,
``keep_dims``, ``ddof``…) picks the first, a PyTorch keyword (``dim``, ``keepdim``,
``correction``) or a PyTorch-only positional form (``x.max(0)``, ``x.sum(1, True)``,
``x.gather(1, index)``, ``x.transpose(0, 2)``) the second.  The rules below were
observed on MindSpore 2.10 (``tests/recorders/record_docstring_examples.py`` replays
MindSpore's own docstring examples; the method docstrings of ``mindspore/common/_tensor_docs.py``
list the overloads).

``install(cls, ops)`` puts the methods on :class:`refms.Tensor`, replacing the
NumPy-only versions of ``_tensor.py``; ``ops()`` returns the functional ops.
"""
import numpy as np

from . import _tensor_op_methods
from . import dtype as mstype

__all__ = ["install"]

_BOUND = {"tensor": None, "ops": None}


def _ops():
    return _BOUND["ops"]()


def _pick(name, numpy_value, torch_value, numpy_default):
    """The one of two keyword spellings that was given (both given is a TypeError)."""
    if torch_value is not None and numpy_value is not numpy_default:
        raise TypeError(f"For 'Tensor.{name}', give either the NumPy-style or the "
                        f"PyTorch-style keyword, not both.")
    return numpy_value if torch_value is None else torch_value


def _check_tensor(method, name, value):
    """MindSpore's TypeError for a non-Tensor where ``Tensor.method`` needs a Tensor."""
    if not isinstance(value, _BOUND["tensor"]):
        raise TypeError(f"For 'Tensor.{method}', the '{name}' must be a Tensor, but got "
                        f"{type(value).__name__}.")


def _axes(axis):
    return () if axis is None else axis


# -- reductions ------------------------------------------------------------------------------

def sum_(self, axis=None, dtype=None, keepdims=False, initial=None, *, dim=None,  # noqa: A001
        keepdim=None):
    """``Tensor.sum(axis=None, dtype=None, keepdims=False, initial=None)`` or
    ``Tensor.sum(dim=None, keepdim=False, *, dtype=None)``: Σ over the axes; integer and bool
    tensors sum to Int64.  A bool second argument is ``keepdim`` (``x.sum(1, True)``)."""
    if isinstance(dtype, bool):
        dtype, keepdims = None, dtype
    axis = _pick("sum", axis, dim, None)
    keepdims = _pick("sum", keepdims, keepdim, False)
    F = _ops()
    x = self
    if dtype is not None:
        x = F.cast(x, mstype.to_dtype(dtype))
    elif x._dtype.kind in ("int", "uint", "bool"):
        x = F.cast(x, mstype.int64)
    out = F.reduce_sum(x, _axes(axis), keepdims)
    if initial is not None:
        out = out + initial
    return out


def mean(self, axis=None, keep_dims=False, *, dim=None, keepdim=None, dtype=None):
    """``Tensor.mean(axis=None, keep_dims=False)`` or ``Tensor.mean(dim, keepdim, *, dtype)``:
    Σx / N over the axes (in ``dtype`` when given)."""
    axis = _pick("mean", axis, dim, None)
    keep_dims = _pick("mean", keep_dims, keepdim, False)
    F = _ops()
    x = self if dtype is None else F.cast(self, mstype.to_dtype(dtype))
    return F.reduce_mean(x, _axes(axis), keep_dims)


def _extremum(name, self, args, kwargs):
    """``max``/``min``: the NumPy overload gives values, the PyTorch one ``(values, indices)``."""
    F = _ops()
    numpy_keywords = {"axis", "keepdims", "initial", "where", "return_indices"}
    torch_call = (("dim" in kwargs or "keepdim" in kwargs)
                  or (args and isinstance(args[0], int) and not isinstance(args[0], bool)
                      and not numpy_keywords & set(kwargs)))
    if torch_call:
        dim = kwargs.pop("dim", args[0] if args else None)
        keepdim = kwargs.pop("keepdim", args[1] if len(args) > 1 else False)
        if kwargs:
            raise TypeError(f"For 'Tensor.{name}', got unexpected keywords {sorted(kwargs)}.")
        return (F.max if name == "max" else F.min)(self, dim, keepdim)
    names = ("axis", "keepdims")
    values = dict(zip(names, args))
    values.update(kwargs)
    axis, keepdims = values.pop("axis", None), values.pop("keepdims", False)
    initial, where = values.pop("initial", None), values.pop("where", True)
    return_indices = values.pop("return_indices", False)
    if values:
        raise TypeError(f"For 'Tensor.{name}', got unexpected keywords {sorted(values)}.")
    if isinstance(axis, (list, tuple)) and (initial is not None or where is not True):
        # several axes: ops.amax's reduction of where ? max(x, initial) : initial, values only
        # (MindSpore 2.10's deprecated_tensor_max, utils.reduce_)
        reduce = F.amax if name == "max" else F.amin
        return reduce(self, tuple(axis), keepdims, initial=initial,
                      where=None if where is True else where)
    if initial is not None or where is not True or return_indices:
        extra = {} if where is True else {"where": where}
        if initial is not None:
            extra["initial"] = initial
        result = (F.max if name == "max" else F.min)(self, axis, keepdims, **extra)
        return result if return_indices else result[0]
    reduce = F.reduce_max if name == "max" else F.reduce_min
    return reduce(self, _axes(axis), keepdims and axis is not None)


def max_(self, *args, **kwargs):
    """``Tensor.max(dim, keepdim=False)`` → ``(values, indices)``, or
    ``Tensor.max(axis=None, keepdims=False, *, initial, where, return_indices)`` → values
    (0-d over all axes, whatever ``keepdims``)."""
    return _extremum("max", self, args, kwargs)


def min_(self, *args, **kwargs):
    """``Tensor.min``: as :func:`max`, for the minimum."""
    return _extremum("min", self, args, kwargs)


def argmax(self, axis=None, keepdims=False, *, dim=None, keepdim=None):
    """``Tensor.argmax(dim=None, keepdim=False)`` (``axis``/``keepdims`` also accepted)."""
    return _ops().argmax(self, _pick("argmax", axis, dim, None),
                         _pick("argmax", keepdims, keepdim, False))


def argmin(self, axis=None, keepdims=False, *, dim=None, keepdim=None):
    """``Tensor.argmin(dim=None, keepdim=False)`` (``axis``/``keepdims`` also accepted)."""
    return _ops().argmin(self, _pick("argmin", axis, dim, None),
                         _pick("argmin", keepdims, keepdim, False))


def all_(self, axis=None, keep_dims=False, *, dim=None, keepdim=None):
    """``Tensor.all(dim=None, keepdim=False)``: logical AND over the axes."""
    return _ops().reduce_all(self, _axes(_pick("all", axis, dim, None)),
                             _pick("all", keep_dims, keepdim, False))


def any_(self, axis=None, keep_dims=False, *, dim=None, keepdim=None):
    """``Tensor.any(dim=None, keepdim=False)``: logical OR over the axes."""
    return _ops().reduce_any(self, _axes(_pick("any", axis, dim, None)),
                             _pick("any", keep_dims, keepdim, False))


def std(self, axis=None, ddof=0, keepdims=False, *, dim=None, correction=None, keepdim=None):
    """``Tensor.std(axis=None, ddof=0, keepdims=False)`` or ``Tensor.std(dim, *, correction,
    keepdim)``: √(Σ (x − mean)² / (N − ddof)); ``correction`` is ``ddof`` (MindSpore 2.10's CPU
    build divides by N when neither is given)."""
    return _ops().std(self, _pick("std", axis, dim, None), _pick("std", ddof, correction, 0),
                      _pick("std", keepdims, keepdim, False))


def var(self, axis=None, ddof=0, keepdims=False, *, dim=None, correction=None, keepdim=None):
    """``Tensor.var``: Σ (x − mean)² / (N − ddof), with the keywords of :func:`std`."""
    return _ops().var(self, _pick("var", axis, dim, None), _pick("var", ddof, correction, 0),
                      _pick("var", keepdims, keepdim, False))


def median(self, axis=-1, keepdims=False, *, dim=None, keepdim=None):
    """``Tensor.median(axis=-1, keepdims=False)`` → ``(values, indices)`` along the axis."""
    return _ops().median(self, _pick("median", axis, dim, -1),
                         _pick("median", keepdims, keepdim, False))


def cumsum(self, axis=None, dtype=None, *, dim=None):
    """``Tensor.cumsum(dim)`` (or ``axis``): running sums; over the flattened tensor when no
    axis is given."""
    axis = _pick("cumsum", axis, dim, None)
    x = self
    if axis is None:
        x, axis = x.reshape(-1), 0
    return _ops().cumsum(x, axis, dtype)


def ptp(self, axis=None, keepdims=False):
    """``Tensor.ptp(axis=None, keepdims=False)``: max − min along the axis (NumPy's peak to peak)."""
    F = _ops()
    return (F.reduce_max(self, _axes(axis), keepdims) - F.reduce_min(self, _axes(axis), keepdims))


def argmax_with_value(self, axis=0, keep_dims=False):
    """``Tensor.argmax_with_value(axis=0, keep_dims=False)`` → ``(values, indices)``."""
    return _ops().max(self, axis, keep_dims)


def argmin_with_value(self, axis=0, keep_dims=False):
    """``Tensor.argmin_with_value(axis=0, keep_dims=False)`` → ``(values, indices)``."""
    return _ops().min(self, axis, keep_dims)


def sum_to_size(self, *size):
    """``Tensor.sum_to_size(*size)``: sum over the axes broadcasting would have expanded, so
    the result has shape ``size`` (the reverse of ``broadcast_to``)."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    shape = self.shape
    lead = len(shape) - len(size)
    if lead < 0:
        raise ValueError(f"For 'Tensor.sum_to_size', the size {size} has more axes than the "
                         f"tensor's shape {shape}.")
    axes = list(range(lead))
    for i, n in enumerate(size):
        if n == 1 and shape[lead + i] != 1:
            axes.append(lead + i)
        elif n not in (1, shape[lead + i]):
            raise ValueError(f"For 'Tensor.sum_to_size', the size {size} is not expandable to "
                             f"the tensor's shape {shape}.")
    F = _ops()
    out = F.reduce_sum(self, tuple(axes), True) if axes else self
    return F.reshape(out, tuple(size))


# -- shape methods ---------------------------------------------------------------------------

def sort(self, axis=-1, descending=False, *, dim=None, stable=False):
    """``Tensor.sort(axis=-1, descending=False)`` or ``Tensor.sort(dim, descending, stable)``
    → ``(values, indices)``."""
    return _ops().sort(self, _pick("sort", axis, dim, -1), descending)


def flatten(self, *args, order="C", start_dim=0, end_dim=-1):
    """``Tensor.flatten(order='C', *, start_dim=0, end_dim=-1)`` or ``Tensor.flatten(start_dim,
    end_dim)``: merge the axes ``start_dim..end_dim`` into one (``order='F'`` flattens column
    first)."""
    if args and isinstance(args[0], str):
        order, args = args[0], args[1:]
    if args:
        start_dim = args[0]
    if len(args) > 1:
        end_dim = args[1]
    F = _ops()
    if order == "F":
        return F.reshape(F.transpose(self, tuple(range(self.ndim - 1, -1, -1))), (-1,))
    shape = self.shape
    if not shape:
        return F.reshape(self, (1,))
    start, end = start_dim % len(shape), end_dim % len(shape)
    merged = int(np.prod(shape[start:end + 1], dtype=np.int64))
    return F.reshape(self, shape[:start] + (merged,) + shape[end + 1:])


def transpose(self, *axes):
    """``Tensor.transpose(*axes)`` (a permutation, the reversed axes when none) or
    ``Tensor.transpose(dim0, dim1)`` (swap two axes, for tensors of rank other than 2)."""
    F = _ops()
    if not axes or axes == (None,):
        axes = tuple(range(self.ndim - 1, -1, -1))
    elif len(axes) == 1 and isinstance(axes[0], (list, tuple)):
        axes = tuple(axes[0])
    if len(axes) == 2 and self.ndim != 2:
        return F.swapaxes(self, axes[0], axes[1])
    return F.transpose(self, axes)


def view(self, *shape):
    """``Tensor.view(*shape)`` (a reshape) or ``Tensor.view(dtype)``: the same bytes read as
    ``dtype`` (the last axis scaled by the ratio of the item sizes)."""
    if len(shape) == 1 and isinstance(shape[0], mstype.Type):
        target = mstype.dtype_to_nptype(shape[0])
        array = np.ascontiguousarray(self.asnumpy()).view(target)
        return _BOUND["tensor"](array, shape[0])
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    return _ops().reshape(self, tuple(shape))


def view_as(self, other):
    """``Tensor.view_as(other)``: reshaped to ``other``'s shape."""
    _check_tensor("view_as", "other", other)
    return _ops().reshape(self, other.shape)


def reshape_as(self, other):
    """``Tensor.reshape_as(other)``: reshaped to ``other``'s shape."""
    _check_tensor("reshape_as", "other", other)
    return _ops().reshape(self, other.shape)


def expand_as(self, other=None, *, x=None):
    """``Tensor.expand_as(other)`` (MindSpore 2.10 also names the argument ``x``)."""
    return _ops().expand_as(self, x if other is None else other)


def narrow(self, axis, start, length):
    """``Tensor.narrow(axis, start, length)``: ``length`` items from ``start`` along ``axis``."""
    return _ops().narrow(self, axis, start, length)


def chunk(self, chunks, axis=0, *, dim=None):
    """``Tensor.chunk(chunks, dim=0)`` (or ``axis``): ``ops.chunk``."""
    return _ops().chunk(self, chunks, _pick("chunk", axis, dim, 0))


def index_select(self, axis, index):
    """``Tensor.index_select(axis, index)``: ``ops.index_select``."""
    return _ops().index_select(self, axis, index)


def take(self, indices, axis=None, mode="clip"):
    """``Tensor.take(indices, axis=None)``: items at ``indices`` of the flattened tensor, or
    along ``axis``."""
    F = _ops()
    if axis is None:
        return F.gather(F.reshape(self, (-1,)), indices, 0)
    return F.gather(self, indices, axis)


def gather(self, *args, **kwargs):
    """``Tensor.gather(input_indices, axis, batch_dims=0)`` (``ops.gather``) or
    ``Tensor.gather(dim, index)`` (``ops.gather_elements``, PyTorch's gather)."""
    F = _ops()
    if "dim" in kwargs or "index" in kwargs or (args and isinstance(args[0], int)):
        dim = kwargs.pop("dim", args[0] if args else None)
        index = kwargs.pop("index", args[1] if len(args) > 1 else None)
        return F.gather_elements(self, dim, index)
    return F.gather(self, *args, **kwargs)


def select(self, *args, **kwargs):
    """``Tensor.select(condition, y)`` (``ops.where(condition, self, y)``) or
    ``Tensor.select(dim, index)`` (the slice at ``index`` along ``dim``, that axis removed)."""
    first = args[0] if args else kwargs.get("condition", kwargs.get("dim"))
    if isinstance(first, _BOUND["tensor"]) and first.dtype == mstype.bool_:
        condition = args[0] if args else kwargs["condition"]
        other = args[1] if len(args) > 1 else kwargs["y"]
        return _ops().where(condition, self, other)
    dim = args[0] if args else kwargs["dim"]
    index = args[1] if len(args) > 1 else kwargs["index"]
    return _tensor_op_methods.select(self, dim, index)


def _scaled_operand(method, other, alpha):
    """``other`` (a list or tuple becomes a Tensor, as MindSpore 2.10's ``add``/``sub``
    methods do) times ``alpha`` when ``alpha`` is not 1."""
    if isinstance(other, (list, tuple)):
        other = _BOUND["tensor"](other)
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
        raise TypeError(f"For 'Tensor.{method}', the 'alpha' must be int or float, but got "
                        f"{type(alpha).__name__}.")
    return other if alpha == 1 else _ops().mul(other, alpha)


def add(self, other, *, alpha=1):
    """``Tensor.add(other, *, alpha=1)``: self + alpha·other (MindSpore 2.10)."""
    return _ops().add(self, _scaled_operand("add", other, alpha))


def sub(self, other, *, alpha=1):
    """``Tensor.sub(other, *, alpha=1)``: self − alpha·other (MindSpore 2.10)."""
    return _ops().sub(self, _scaled_operand("sub", other, alpha))


def remainder(self, other=None, *, divisor=None):
    """``Tensor.remainder(other)`` (MindSpore 2.10 also names it ``divisor``): the remainder
    with the sign of the divisor (``ops.remainder``)."""
    return _ops().remainder(self, divisor if other is None else other)


def scatter(self, axis=None, index=None, src=None, *, dim=None, value=None, reduce=None):
    """``Tensor.scatter(axis, index, src)`` or ``Tensor.scatter(dim, index, src|value)``:
    a copy with ``self[..., index[i], ...] = src[i]`` along the axis (``ops.scatter``).
    ``reduce`` is accepted and ignored, as MindSpore 2.10's CPU build does (recorded:
    ``reduce="add"`` gives the plain scatter)."""
    axis = _pick("scatter", axis, dim, None)
    if src is None:
        src = value
    if not isinstance(src, _BOUND["tensor"]):
        src = _ops().fill(self.dtype, index.shape, src)
    return _ops().scatter(self, axis, index, src)


def index_put(self, indices, values, accumulate=False):
    """``Tensor.index_put(indices, values, accumulate=False)``: a copy with
    ``self[indices] = values`` (``+=`` when ``accumulate``, repeated indices adding up);
    ``indices`` holds one 1-D integer tensor per leading axis."""
    F = _ops()
    index = F.stack([F.cast(i, mstype.int64) for i in indices], -1)
    updates = F.broadcast_to(values, index.shape[:1] + self.shape[len(indices):])
    if accumulate:
        return self + F.scatter_nd(index, F.cast(updates, self.dtype), self.shape)
    array = self.asnumpy().copy()
    array[tuple(i.asnumpy().astype(np.int64) for i in indices)] = updates.asnumpy()
    return _BOUND["tensor"](array, self.dtype)


def set_const_arg(self, const_arg=True):
    """``Tensor.set_const_arg(const_arg=True)``: mark the tensor a constant for ``jit``
    (refms records the flag); returns the tensor."""
    self.const_arg = const_arg
    return self


def move_to(self, to, blocking=True):
    """``Tensor.move_to(to)``: a copy on device ``to`` (refms has one host device)."""
    return self.copy()


def flush_from_cache(self):
    """``Tensor.flush_from_cache()``: write a cached embedding table back (refms keeps no
    cache, so nothing to do); returns None."""
    return None


def data_ptr(self):
    """``Tensor.data_ptr()``: the address of the first value, as an int."""
    return int(self._host().ctypes.data)


def cauchy(self, median=0.0, sigma=1.0):
    """``Tensor.cauchy(median=0.0, sigma=1.0)``: a tensor of this shape and dtype drawn from
    the Cauchy distribution, ``median + sigma·tan(π(u − ½))`` with ``u`` uniform in [0, 1)
    (refms's random stream: the values differ from MindSpore's)."""
    F = _ops()
    u = F.uniform(self.shape, _BOUND["tensor"](0.0), _BOUND["tensor"](1.0))
    return F.cast(median + sigma * F.tan(np.pi * (u - 0.5)), self.dtype)


def log_normal(self, mean=1.0, std=2.0):
    """``Tensor.log_normal(mean=1.0, std=2.0)``: a tensor of this shape and dtype drawn from
    the log-normal distribution, ``exp(mean + std·z)`` with ``z`` standard normal (refms's
    random stream)."""
    F = _ops()
    return F.cast(F.exp(mean + std * F.standard_normal(self.shape)), self.dtype)


def resize(self, *new_shape):
    """``Tensor.resize(*new_shape)``: a new tensor of that shape holding the flattened values,
    cut short or padded with zeros (NumPy's ``ndarray.resize``)."""
    if len(new_shape) == 1 and isinstance(new_shape[0], (tuple, list)):
        new_shape = tuple(new_shape[0])
    flat = self.asnumpy().reshape(-1)
    count = int(np.prod(new_shape, dtype=np.int64))
    out = np.zeros(count, flat.dtype)
    out[:min(count, flat.size)] = flat[:count]
    return _BOUND["tensor"](out.reshape(new_shape), self.dtype)


# -- properties and conversions --------------------------------------------------------------

def _mT(self):
    """``Tensor.mT``: the last two axes swapped."""
    return _ops().swapaxes(self, -2, -1)


def _H(self):
    """``Tensor.H``: the conjugate transpose of a matrix (a ValueError for other ranks)."""
    if self.ndim != 2:
        raise ValueError(f"For 'Tensor.H', the tensor must be 2-D, but got {self.ndim}-D.")
    return _mH(self)


def _mH(self):
    """``Tensor.mH``: the conjugate of ``mT``."""
    out = _ops().swapaxes(self, -2, -1)
    if self.dtype.kind == "complex":
        return _BOUND["tensor"](np.conj(out.asnumpy()), self.dtype)
    return out


def _cast_method(name, dtype_name):
    def method(self):
        return self.astype(getattr(mstype, dtype_name))
    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"``Tensor.{name}()``: cast to ``mindspore.{dtype_name}``."
    return method


def type_(self, dtype=None):
    """``Tensor.type()``: the dtype's name (``'Float32'``); ``Tensor.type(dtype)``: a cast."""
    if dtype is None:
        return str(self.dtype)
    return self.astype(dtype)


def type_as(self, other):
    """``Tensor.type_as(other)``: cast to ``other``'s dtype."""
    _check_tensor("type_as", "other", other)
    return self.astype(other.dtype)


def contiguous(self):
    """``Tensor.contiguous()``: refms tensors are always contiguous, so ``self``."""
    return self


def is_contiguous(self):
    """``Tensor.is_contiguous()``: always ``True`` in refms, whose tensors own dense memory
    (MindSpore says ``False`` for some views, such as a transpose)."""
    return True


def stride(self, dim=None):
    """``Tensor.stride(dim=None)``: the strides in items (not bytes), as a list, or one."""
    strides = [int(np.prod(self.shape[i + 1:], dtype=np.int64)) for i in range(self.ndim)]
    return strides if dim is None else strides[dim]


def storage_offset(self):
    """``Tensor.storage_offset()``: 0 (refms tensors start at their storage's first item)."""
    return 0


def get_bytes(self):
    """``Tensor.get_bytes()``: the raw bytes of the values (C order)."""
    return np.ascontiguousarray(self.asnumpy()).tobytes()


def new_zeros(self, size, *, dtype=None):
    """``Tensor.new_zeros(size, *, dtype=None)``: zeros of this tensor's dtype (or ``dtype``)."""
    return _new_filled(self, size, dtype, 0)


def new_ones(self, size, *, dtype=None):
    """``Tensor.new_ones(size, *, dtype=None)``: ones of this tensor's dtype (or ``dtype``)."""
    return _new_filled(self, size, dtype, 1)


def new_empty(self, size, *, dtype=None, device=None):
    """``Tensor.new_empty(size, *, dtype=None)``: a tensor of that shape (refms fills zeros)."""
    return _new_filled(self, size, dtype, 0)


def _new_filled(self, size, dtype, value):
    size = (size,) if isinstance(size, int) else tuple(size)
    dtype = self.dtype if dtype is None else dtype
    return _BOUND["tensor"](np.full(size, value, mstype.dtype_to_nptype(dtype)), dtype)


def itemset(self, *args):
    """``Tensor.itemset(*args)``: a copy with one item set (``args`` = index, value; the index
    is flat when it is an int)."""
    if len(args) == 1:
        index, value = 0, args[0]
    else:
        index, value = args
    array = self.asnumpy().copy()
    if isinstance(index, int):
        array.reshape(-1)[index] = value
    else:
        array[tuple(index)] = value
    return _BOUND["tensor"](array, self.dtype)


def fill_diagonal(self, fill_value, wrap=False):
    """``Tensor.fill_diagonal(fill_value, wrap=False)``: the main diagonal set to
    ``fill_value``; for a tall matrix ``wrap`` starts the diagonal again after N+1 rows
    (NumPy's ``fill_diagonal``)."""
    array = self.asnumpy().copy()
    np.fill_diagonal(array, fill_value, wrap=wrap)
    return _BOUND["tensor"](array, self.dtype)


def masked_scatter(self, mask, source):
    """``Tensor.masked_scatter(mask, source)``: where ``mask`` (broadcast) is True, the next
    values of ``source`` in row-major order; elsewhere ``self``."""
    _check_tensor("masked_scatter", "mask", mask)
    _check_tensor("masked_scatter", "source", source)
    values = self.asnumpy()
    chosen = np.broadcast_to(mask.asnumpy(), values.shape)
    out = values.copy()
    count = int(chosen.sum())
    out[chosen] = source.asnumpy().reshape(-1)[:count]
    return _BOUND["tensor"](out, self.dtype)


def choose(self, choices, mode="clip"):
    """``Tensor.choose(choices)``: ``choices[self[i]][i]`` for every ``i`` (NumPy's choose)."""
    arrays = [c.asnumpy() if isinstance(c, _BOUND["tensor"]) else np.asarray(c) for c in choices]
    out = np.choose(self.asnumpy(), arrays, mode=mode)
    return _BOUND["tensor"](out)


def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """``Tensor.allclose(other, rtol, atol, equal_nan)``: whether every
    ``|x − y| ≤ atol + rtol·|y|``."""
    return bool(_ops().isclose(self, other, rtol, atol, equal_nan).all())

#: Methods that are one functional op with the tensor first.
OP_METHODS = {
    "bitwise_and": "bitwise_and", "bitwise_or": "bitwise_or", "bitwise_xor": "bitwise_xor",
    "logical_xor": "logical_xor", "floor_divide": "floor_divide",
    "isclose": "isclose", "mm": "mm", "trace": "trace",
    "masked_select": "masked_select", "diag": "diag", "inv": "inv",
}

METHODS = (sum_, mean, max_, min_, argmax, argmin, all_, any_, std, var, median, cumsum, ptp,
           argmax_with_value, argmin_with_value, sum_to_size, sort, flatten, transpose, view,
           view_as, reshape_as, expand_as, narrow, chunk, index_select, take, gather, select,
           resize, add, sub, remainder, scatter, index_put, set_const_arg, move_to, flush_from_cache,
           data_ptr, cauchy, log_normal, type_, type_as, contiguous, is_contiguous, stride, storage_offset, get_bytes,
           new_zeros, new_ones, new_empty, itemset, fill_diagonal, masked_scatter, choose,
           allclose)

CASTS = {"double": "float64", "short": "int16", "byte": "uint8", "bfloat16": "bfloat16"}


def _op_method(method_name, op_name):
    def method(self, *args, **kwargs):
        return getattr(_ops(), op_name)(self, *args, **kwargs)
    method.__name__ = method.__qualname__ = method_name
    method.__doc__ = f"``ops.{op_name}(self, ...)`` (MindSpore's ``Tensor.{method_name}``)."
    return method


def install(cls, ops):
    """Put the methods above on ``cls`` (replacing its NumPy-only versions)."""
    _BOUND["tensor"], _BOUND["ops"] = cls, ops
    for fn in METHODS:
        name = fn.__name__.rstrip("_")
        fn.__qualname__ = name
        setattr(cls, name, fn)
    for name, op in OP_METHODS.items():
        if name not in cls.__dict__:
            setattr(cls, name, _op_method(name, op))
    for name, dtype_name in CASTS.items():
        if name not in cls.__dict__:
            setattr(cls, name, _cast_method(name, dtype_name))
    cls.mT = property(_mT)
    cls.mH = property(_mH)
    cls.H = property(_H)
