"""``Tensor``: an n-dimensional array with a MindSpore dtype.

A Tensor wraps an array of a kernel backend (``_data``: a numpy array on the
``cpu`` backend, :mod:`refms.kernels.backend`) and a :class:`refms.dtype.Type`
(``_dtype``); ``_host()`` reads the values as numpy.  Every arithmetic operator and method runs a registered
primitive through the current executor (``refms.ops``), so Tensor code is
recorded for autodiff and traced by the graph compiler like any other op.

dtype inference from Python data (semantics 1.1): ``float`` -> Float32,
``int`` -> Int64, ``bool`` -> Bool; lists follow their elements (any float
-> Float32); numpy arrays keep their dtype (float64 stays Float64).

``str(t)`` is numpy's ``str`` of the values; ``repr(t)`` is MindSpore's own
format (:mod:`refms.tensor_print`).
"""
import numbers
from collections import OrderedDict

import numpy as np

from . import compat
from . import dtype as mstype
from . import kernels
from .hook_handle import HookHandle
from .tensor_print import tensor_repr
from .tensor_print import tensor_str

__all__ = ["Tensor"]

_INT64_MIN, _INT64_MAX = -(2 ** 63), 2 ** 63 - 1


def _both_bool(x, y):
    """Both operands are Bool tensors (not Python bools, which stay weak scalars)."""
    return (isinstance(y, Tensor) and x._dtype is mstype.bool_ and y._dtype is mstype.bool_
            and not x.weak and not y.weak)


def _infer_python(data):
    """Array and dtype for Python scalars, lists and tuples (semantics 1.1)."""
    if isinstance(data, bool):
        return np.array(data, dtype=np.bool_), mstype.bool_
    if isinstance(data, int):
        if not _INT64_MIN <= data <= _INT64_MAX:
            raise TypeError(f"For 'Tensor', the integer {data} is out of the range of int64.")
        return np.array(data, dtype=np.int64), mstype.int64
    if isinstance(data, float):
        return np.array(data, dtype=np.float32), mstype.float32
    if isinstance(data, complex):
        return np.array(data, dtype=np.complex64), mstype.complex64
    try:
        array = np.array(_to_plain(data))
    except ValueError:                      # ragged nesting: numpy refuses without dtype=object
        array = np.empty(0, dtype=object)
    if array.dtype == object:
        raise TypeError(f"For 'Tensor', cannot build a tensor from {type(data).__name__} "
                        f"{data!r}: the elements must be numbers of one nested shape "
                        f"within the int64 range.")
    if array.dtype.kind == "f" or array.size == 0:
        return array.astype(np.float32), mstype.float32
    if array.dtype.kind in "iu":
        return array.astype(np.int64), mstype.int64
    if array.dtype.kind == "b":
        return array, mstype.bool_
    if array.dtype.kind == "c":
        return array.astype(np.complex64), mstype.complex64
    raise TypeError(f"For 'Tensor', unsupported element type {array.dtype} in {data!r}.")


def _to_plain(data):
    """Replace Tensors nested in lists/tuples by their numpy values."""
    if isinstance(data, Tensor):
        return data.asnumpy()
    if isinstance(data, (list, tuple)):
        return [_to_plain(d) for d in data]
    return data


def _is_dynamic(shape):
    """True when ``shape`` (a list or tuple) has an unknown dimension: None or -1."""
    return isinstance(shape, (list, tuple)) and any(d is None or d == -1 for d in shape)


_new = object.__new__        # one global lookup instead of object's attribute on every call


def tensor_of(array, dtype, cls=None):
    """A Tensor (of class ``cls``, default Tensor) wrapping ``array``, already of ``dtype``,
    without copying: the one fast constructor, a plain function for the executors' hot paths
    (a classmethod call costs more; ``Tensor._make`` calls this)."""
    t = _new(cls or Tensor)
    t._data = array
    t._dtype = dtype
    t.weak = False
    t._init = None
    t._shape = None
    return t


class Tensor:
    """Tensor(input_data=None, dtype=None, shape=None, init=None)

    ``input_data``: a Tensor, numpy array or scalar, Python number, list or tuple.
    ``dtype``: cast to this type (float -> int truncates toward zero).
    ``shape``, ``dtype`` and ``init`` without data create a lazily initialised
    tensor; ``init_data()`` fills it (semantics 2.4).  ``shape`` with unknown
    dimensions (``None``) and ``dtype`` declare a dynamic input for
    :meth:`refms.nn.Cell.set_inputs`: such a tensor has a shape and no values.
    """

    __slots__ = ("_data", "_dtype", "weak", "_init", "_shape", "__weakref__", "__dict__")
    __array_ufunc__ = None          # numpy defers to our reflected operators
    _is_param = False
    #: True for a tensor whose storage MindSpore keeps as a numpy array (``from_numpy``, the
    #: dataset pipeline's outputs, a Tensor made from one of those): its ``repr`` is numpy's.
    _numpy_repr = False
    #: ``{handle id: hook}`` of :meth:`register_hook`, created on the first registration.
    _grad_hooks = None

    def __init__(self, input_data=None, dtype=None, shape=None, init=None, const_arg=False):
        self.weak = False
        self._init = None
        self._shape = None
        if isinstance(dtype, str):
            mstype.check_dtype("Tensor", dtype)          # MindSpore rejects dtype names here
        if dtype is not None:
            dtype = mstype.to_dtype(dtype)
        if input_data is None:
            if shape is not None and dtype is not None and _is_dynamic(shape):
                # A dynamic-shape declaration for Cell.set_inputs: a shape with unknown
                # dimensions (None or -1, kept as -1) and a dtype, but no values.
                self._data = None
                self._dtype = dtype
                self._shape = tuple(-1 if d is None else int(d) for d in shape)
                return
            if init is None or shape is None or dtype is None:
                if shape is not None and dtype is not None:
                    input_data = np.zeros(shape, dtype=dtype.np_type)
                else:
                    raise TypeError("For 'Tensor', 'input_data' is None: give data, or "
                                    "'shape', 'dtype' and 'init' for lazy initialisation.")
            else:
                self._data = None
                self._dtype = dtype
                self._init = init
                self._shape = tuple(int(d) for d in (shape if isinstance(shape, (list, tuple))
                                                     else (shape,)))
                return
        if isinstance(input_data, Tensor):
            array, inferred = input_data._host(), input_data._dtype
            if input_data._numpy_repr and (dtype is None or dtype is inferred):
                self._numpy_repr = True         # shares the numpy storage of input_data
        elif isinstance(input_data, (np.ndarray, np.generic)):
            array = np.asarray(input_data)
            inferred = mstype.nptype_to_dtype(array.dtype)
        elif isinstance(input_data, (numbers.Number, list, tuple)):
            array, inferred = _infer_python(input_data)
        else:
            raise TypeError(f"For 'Tensor', the type of 'input_data' should be Tensor, numpy "
                            f"array, number, list or tuple, but got {type(input_data).__name__}.")
        if dtype is None or dtype is inferred:
            self._data = np.array(array, copy=True) if isinstance(input_data, np.ndarray) else array
            self._dtype = inferred
        else:
            self._data = _cast_array(array, dtype)
            self._dtype = dtype
        self._data = kernels.from_host(self._data)     # onto the default backend (cpu: as is)

    @classmethod
    def _make(cls, array, dtype, weak=False):
        """Internal fast constructor: wrap ``array`` (already of ``dtype``) without copying."""
        t = tensor_of(array, dtype, cls)
        t.weak = weak
        return t

    # -- data access ---------------------------------------------------------
    def _value(self):
        """The storage array (numpy on cpu; another backend's array elsewhere), raising the
        MindSpore error for uninitialised tensors.

        Before 2.1 (``compat``), seed 003 documents that an uninitialised tensor
        computes as zeros; 2.10 raises instead (semantics 2.4).
        """
        if self._data is None:
            if self._init is None:
                raise RuntimeError(f"The Tensor(shape={list(self._shape)}, dtype={self._dtype}) "
                                   f"declares a dynamic shape (for Cell.set_inputs) and has no "
                                   f"values to compute with.")
            if compat.behaviour("lazy_init_computes_as_zero"):
                return kernels.from_host(np.zeros(self._shape, dtype=self._dtype.np_type))
            raise RuntimeError(f"The Tensor(shape={list(self._shape)}, dtype={self._dtype}) is "
                               f"uninitialized. Please call Tensor.init_data() first.")
        return self._data

    def _host(self):
        """The values as a numpy array (the storage itself on cpu, a copy from other backends)."""
        return kernels.to_host(self._value())

    def asnumpy(self):
        """A numpy copy of the values (initialises a lazy tensor first).

        Int64 values come back typed ``np.longlong`` (the same 64-bit integers; numpy's
        ``repr`` then names the dtype: ``array([1, 2], dtype=int64)``), as MindSpore
        2.10's arrays are; a ``from_numpy`` tensor keeps its own array's type."""
        if self._data is None:
            self.init_data()
        array = np.array(kernels.to_host(self._data), copy=True)
        if array.dtype.type is np.int64 and not self._numpy_repr:
            array = array.view(np.longlong)
        return array

    def __array__(self, dtype=None, copy=None):
        array = self._host()
        return array if dtype is None else array.astype(dtype)

    def init_data(self, slice_index=None, shape=None, opt_shard_group=None):
        """Materialise a lazily initialised tensor in place; returns ``self``."""
        if self._init is None:
            raise TypeError("init_data must be set Tensor.init, init can't be None")
        array = np.zeros(self._shape, dtype=self._dtype.np_type)
        self._init(array)
        self._data = kernels.from_host(_cast_array(array, self._dtype))
        self._init = None
        self._shape = None
        return self

    @property
    def has_init(self):
        return self._init is not None

    @property
    def init(self):
        return self._init

    def assign_value(self, value):
        """Replace the values in place (shape and dtype taken from ``value``)."""
        if value is None:
            # MindSpore 2.10 fails in its runtime here (RuntimeError, recorded)
            raise RuntimeError("For 'Tensor.assign_value', the value must be a Tensor, a numpy "
                               "array or a number, but got None.")
        self._data = value._value() if isinstance(value, Tensor) else kernels.from_host(
            np.asarray(value))
        if isinstance(value, Tensor):
            self._dtype = value._dtype
        return self

    def set_(self, source=None, storage_offset=0, size=None, stride=None):
        """Take ``source``'s values, shape and dtype (an empty (0,) tensor for None); with
        ``size`` and ``stride``, the strided view of ``source``'s flat storage from
        ``storage_offset``: element ``i`` is ``flat[storage_offset + Σ_k i_k·stride_k]``.
        MindSpore shares the storage with ``source``; refms copies the values.  A source of
        another dtype raises RuntimeError, as MindSpore 2.10 does."""
        if source is None:
            return self.assign_value(Tensor(np.zeros((0,), self.dtype.np_type), self.dtype))
        if source.dtype is not self.dtype:
            raise RuntimeError(f"Could not set tensor of type {source.dtype} to a tensor of "
                               f"type {self.dtype}.")
        if size is None and stride is None and storage_offset == 0:
            return self.assign_value(source)
        flat = source.asnumpy().reshape(-1)
        size = tuple(source.shape) if size is None else tuple(size)
        if stride is None:                       # contiguous strides of ``size``
            stride = tuple(int(np.prod(size[k + 1:])) for k in range(len(size)))
        index = np.full(size, storage_offset, np.int64)
        for axis, (length, step) in enumerate(zip(size, stride)):
            shape = [1] * len(size)
            shape[axis] = length
            index = index + np.arange(length).reshape(shape) * step
        if index.size and (index.min() < 0 or index.max() >= flat.size):
            raise RuntimeError(f"For 'Tensor.set_', the view (offset {storage_offset}, size "
                               f"{size}, stride {tuple(stride)}) reaches outside the "
                               f"{flat.size} elements of 'source'.")
        return self.assign_value(Tensor(flat[index], self.dtype))

    def requires_grad_(self, requires_grad=True):
        """MindSpore 2.10: sets ``requires_grad`` of a Parameter and returns None; a plain
        Tensor has no such flag (gradients are asked for by position: ``grad_position``),
        so on it this does nothing."""
        if hasattr(type(self), "requires_grad"):
            self.requires_grad = bool(requires_grad)
        return None

    def to_(self, device=None, non_blocking=False):
        """Move to ``device`` in place and return self: refms runs on the host, so "CPU" keeps
        the tensor where it is ("Ascend" raises RuntimeError; other names ValueError, as
        MindSpore 2.10)."""
        if not isinstance(non_blocking, bool):
            raise ValueError(f"The type of 'non_blocking' must be bool, but got {non_blocking}")
        if device not in ("Ascend", "CPU"):
            raise ValueError(f"The value of 'to' must be one of ['Ascend', 'CPU'], but got "
                             f"{device}")
        if device == "Ascend":
            raise RuntimeError("Tensor.to_: refms has no Ascend device.")
        return self

    # -- attributes ----------------------------------------------------------
    @property
    def shape(self):
        return self._shape if self._data is None else self._data.shape

    @property
    def dtype(self):
        return self._dtype

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def itemsize(self):
        return self._dtype.itemsize

    @property
    def nbytes(self):
        return self.size * self.itemsize

    @property
    def strides(self):
        return self._host().strides

    def __len__(self):
        if not self.shape:
            raise TypeError("Not support len of a 0-D tensor")
        return self.shape[0]

    def item(self, index=None):
        array = self._host()
        if index is not None:
            return array.item(index)
        if array.size != 1:
            raise ValueError(f"The tensor should have only one element, but got {array.size}, "
                             f"more than one element is ambiguous.")
        return array.item()

    def tolist(self):
        return self._host().tolist()

    def _one_element(self, kind):
        """``bool``/``float``/``int`` of a one-element tensor, with MindSpore 2.10's messages."""
        array = self._host()
        if array.size != 1:
            if kind is bool:
                raise ValueError(f"The tensor should have only one element, but got "
                                 f"{array.size}, more than one element is ambiguous.")
            raise ValueError("Only one element tensors can be converted to Python scalars")
        return kind(array.reshape(()).item())

    def __bool__(self):
        return self._one_element(bool)

    def __float__(self):
        return self._one_element(float)

    def __int__(self):
        return self._one_element(int)

    def __index__(self):
        if self._dtype.kind not in ("int", "uint", "bool"):
            raise TypeError(f"only integer tensors can be used as an index, got {self._dtype}")
        return self._one_element(int)

    def __hash__(self):
        return id(self)

    # -- printing --------------------------------------------------------------
    def __str__(self):
        return tensor_str(self)

    def __repr__(self):
        return tensor_repr(self)

    # -- conversions and shape methods (all go through primitives) ----------
    def astype(self, dtype, copy=True):
        if dtype is None:
            mstype.check_dtype("Tensor.astype", dtype)      # MindSpore's TypeError
        return F.cast(self, mstype.to_dtype(dtype))

    def to(self, dtype):
        return self.astype(dtype)

    def float(self):
        return self.astype(mstype.float32)

    def half(self):
        return self.astype(mstype.float16)

    def int(self):
        return self.astype(mstype.int32)

    def long(self):
        return self.astype(mstype.int64)

    def bool(self):
        return self.astype(mstype.bool_)

    def copy(self):
        return F.identity(self)

    def reshape(self, *shape):
        return F.reshape(self, _shape_arg(shape))

    def view(self, *shape):
        return F.reshape(self, _shape_arg(shape))

    def expand_dims(self, axis):
        return F.expand_dims(self, axis)

    def unsqueeze(self, dim):
        return F.expand_dims(self, dim)

    def squeeze(self, axis=None):
        return F.squeeze(self, axis)

    def flatten(self, order="C", *, start_dim=0, end_dim=-1):
        shape = self.shape
        if not shape:
            return F.reshape(self, (1,))
        start = start_dim % len(shape)
        end = end_dim % len(shape)
        merged = int(np.prod(shape[start:end + 1], dtype=np.int64))
        return F.reshape(self, shape[:start] + (merged,) + shape[end + 1:])

    def ravel(self):
        return F.reshape(self, (-1,))

    def transpose(self, *axes):
        if not axes or axes == (None,):
            axes = tuple(range(self.ndim - 1, -1, -1))
        elif len(axes) == 1 and isinstance(axes[0], (list, tuple)):
            axes = tuple(axes[0])
        return F.transpose(self, axes)

    @property
    def T(self):
        return self.transpose()

    def broadcast_to(self, shape):
        return F.broadcast_to(self, shape)

    def tile(self, reps):
        return F.tile(self, reps)

    # -- reductions ------------------------------------------------------------
    def sum(self, axis=None, dtype=None, keepdims=False, initial=None):
        """Sum; integer and bool tensors sum to Int64 (semantics 1.6)."""
        x = self
        if dtype is not None:
            x = F.cast(x, mstype.to_dtype(dtype))
        elif x._dtype.kind in ("int", "uint", "bool"):
            x = F.cast(x, mstype.int64)
        out = F.reduce_sum(x, _axis_arg(axis), keepdims)
        if initial is not None:
            out = out + initial
        return out

    def mean(self, axis=None, keep_dims=False):
        return F.reduce_mean(self, _axis_arg(axis), keep_dims)

    def prod(self, dim=None, keepdim=False, dtype=None, *, axis=None, keep_dims=None):
        """Product over ``dim``; integer and bool tensors multiply to Int64 (MindSpore 2.10,
        whose parameters are ``dim``/``keepdim``; ``axis``/``keep_dims`` are kept too)."""
        if axis is not None:
            dim = axis
        if keep_dims is not None:
            keepdim = keep_dims
        return F.prod(self, dim, keepdim, dtype)

    def max(self, axis=None, keepdims=False, *, initial=None, where=True, return_indices=False):
        """Maximum over ``axis``; over all axes (``axis=None``) the result is 0-d even with
        ``keepdims=True`` (MindSpore 2.10).  Replaced at import by refms._tensor_overloads's
        ``max`` (both overloads, ``initial``/``where``/``return_indices``)."""
        return F.reduce_max(self, _axis_arg(axis), keepdims and axis is not None)

    def min(self, axis=None, keepdims=False, *, initial=None, where=True, return_indices=False):
        """Minimum over ``axis``; 0-d for ``axis=None`` whatever ``keepdims`` (MindSpore 2.10);
        replaced at import as :meth:`max`."""
        return F.reduce_min(self, _axis_arg(axis), keepdims and axis is not None)

    def argmax(self, axis=None, keepdims=False):
        return F.argmax(self, axis, keepdims)

    def argmin(self, axis=None, keepdims=False):
        return F.argmin(self, axis, keepdims)

    def any(self, axis=(), keep_dims=False):
        return F.reduce_any(self, _axis_arg(axis), keep_dims)

    def all(self, axis=(), keep_dims=False):
        return F.reduce_all(self, _axis_arg(axis), keep_dims)

    # -- elementwise methods -----------------------------------------------------
    def abs(self):
        return F.abs(self)

    def exp(self):
        return F.exp(self)

    def log(self):
        return F.log(self)

    def sqrt(self):
        return F.sqrt(self)

    def square(self):
        return F.square(self)

    def pow(self, exponent):
        return F.pow(self, exponent)

    def clip(self, xmin, xmax):
        return F.clamp(self, xmin, xmax)

    def clamp(self, min=None, max=None):
        return F.clamp(self, min, max)

    def sigmoid(self):
        return F.sigmoid(self)

    def tanh(self):
        return F.tanh(self)

    def relu(self):
        return F.relu(self)

    def matmul(self, other):
        return F.matmul(self, other)

    # -- MindSpore spellings that compose other ops (refms.ops.composites) --------
    @property
    def data(self):
        """The tensor itself (MindSpore's ``Tensor.data``; a Parameter's ``data`` is its value)."""
        return self

    def value(self):
        """The tensor itself (MindSpore's ``Tensor.value()``)."""
        return self

    def numpy(self):
        """The values as a numpy array (``asnumpy``)."""
        return self.asnumpy()

    @staticmethod
    def from_numpy(array):
        """A Tensor sharing ``array``'s memory (no copy), with its dtype; its ``repr`` shows the
        values as numpy does (``value= [1.5, 2. ]``), as MindSpore's numpy-backed tensors do."""
        if not isinstance(array, np.ndarray):
            raise TypeError(f"For 'Tensor.from_numpy', the input should be a numpy.ndarray, but "
                            f"got {type(array).__name__}.")
        tensor = Tensor(array)
        on_host = isinstance(tensor._data, np.ndarray)     # (another backend copies)
        if on_host and tensor._data.dtype == array.dtype and array.flags.c_contiguous:
            tensor._data = array                # share the memory, as MindSpore does
        tensor._numpy_repr = True
        return tensor

    def expand_as(self, other):
        return F.expand_as(self, other)

    def swapaxes(self, axis0, axis1):
        return F.swapaxes(self, axis0, axis1)

    def masked_fill(self, mask, value):
        return F.masked_fill(self, mask, value)

    def norm(self, ord=None, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
        return F.norm(self, ord, dim, keepdim, dtype=dtype)

    def amax(self, axis=None, keepdims=False, *, initial=None, where=None):
        return F.amax(self, axis, keepdims, initial=initial, where=where)

    def amin(self, axis=None, keepdims=False, *, initial=None, where=None):
        return F.amin(self, axis, keepdims, initial=initial, where=where)

    def register_hook(self, hook_fn):
        """Call ``hook_fn(grad)`` with this tensor's gradient during backward (semantics 5.1);
        a returned Tensor replaces the gradient.

        The hooks live on the tensor (``_grad_hooks``, read by the tape's backward pass):
        ``handle.remove()`` deletes one, and they go when the tensor is garbage collected.
        """
        if not callable(hook_fn):
            raise TypeError(f"For 'Tensor.register_hook', the 'hook_fn' should be a function, "
                            f"but got {type(hook_fn).__name__}.")
        if self._grad_hooks is None:
            self._grad_hooks = OrderedDict()
        handle = HookHandle(self._grad_hooks)
        self._grad_hooks[handle.handle_id] = hook_fn
        return handle

    # -- indexing ------------------------------------------------------------------
    def __getitem__(self, index):
        return F.getitem(self, index)

    def __setitem__(self, index, value):
        F.setitem(self, index, value)

    def _replace_value(self, new):
        """Take over the value of the Tensor ``new`` (``x[i] = v`` in PyNative): the storage
        becomes ``new``'s, and the gradient tapes are told (:data:`tensor_versions`), so that
        the value this Tensor had before becomes a tensor of its own on them."""
        old = Tensor._make(self._value(), self._dtype)
        self._data = new._value()
        tensor_versions.replaced(self, old, new)

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d tensor")
        for i in range(self.shape[0]):
            yield self[i]

    # -- operators ---------------------------------------------------------------
    # Bool + Bool and Bool − Bool: MindSpore 2.10's operators give the logical or and the
    # exclusive or, while its Add/Sub kernels (ops.add, ops.sub) reject Bool (recorded).
    def __add__(self, other):
        if _both_bool(self, other):
            return F.logical_or(self, other)
        return F.add(self, other)

    def __radd__(self, other):
        if _both_bool(self, other):
            return F.logical_or(other, self)
        return F.add(other, self)

    def __sub__(self, other):
        if _both_bool(self, other):
            return F.not_equal(self, other)
        return F.sub(self, other)

    def __rsub__(self, other):
        if _both_bool(self, other):
            return F.not_equal(other, self)
        return F.sub(other, self)

    def __mul__(self, other):
        return F.mul(self, other)

    def __rmul__(self, other):
        return F.mul(other, self)

    def __truediv__(self, other):
        return F.div(self, other)

    def __rtruediv__(self, other):
        return F.div(other, self)

    def __floordiv__(self, other):
        return F.floor_div(self, other)

    def __rfloordiv__(self, other):
        return F.floor_div(other, self)

    def __mod__(self, other):
        return F.floor_mod(self, other)

    def __rmod__(self, other):
        return F.floor_mod(other, self)

    def __pow__(self, other):
        return F.pow(self, other)

    def __rpow__(self, other):
        return F.pow(other, self)

    def __matmul__(self, other):
        return F.matmul(self, other)

    def __rmatmul__(self, other):
        return F.matmul(other, self)

    def __neg__(self):
        return F.neg(self)

    def __pos__(self):
        return self

    def __abs__(self):
        return F.abs(self)

    def __invert__(self):
        # MindSpore's ``~`` is logical NOT for every dtype (``~Int32[0, 5]`` -> ``[True, False]``).
        x = self if self._dtype is mstype.bool_ else F.cast(self, mstype.bool_)
        return F.logical_not(x)

    def _logical_operands(self, other):
        """``&``, ``|``, ``^`` are logical for two booleans (a Bool tensor and a Bool tensor or
        Python bool), bitwise otherwise (MindSpore 2.10: ``Tensor([True, False]) & 1`` is
        ``[1, 0]``)."""
        if self._dtype is not mstype.bool_:
            return False
        if isinstance(other, Tensor):
            return other._dtype is mstype.bool_
        return isinstance(other, (bool, np.bool_))

    def __and__(self, other):
        return F.logical_and(self, other) if self._logical_operands(other) else F.bitwise_and(self, other)

    def __rand__(self, other):
        return self.__and__(other)

    def __or__(self, other):
        return F.logical_or(self, other) if self._logical_operands(other) else F.bitwise_or(self, other)

    def __ror__(self, other):
        return self.__or__(other)

    def __xor__(self, other):
        return F.logical_xor(self, other) if self._logical_operands(other) else F.bitwise_xor(self, other)

    def __rxor__(self, other):
        return self.__xor__(other)

    def __lt__(self, other):
        return F.less(self, other)

    def __le__(self, other):
        return F.less_equal(self, other)

    def __gt__(self, other):
        return F.greater(self, other)

    def __ge__(self, other):
        return F.greater_equal(self, other)

    def __eq__(self, other):
        if not isinstance(other, (int, float, Tensor, np.ndarray, np.generic)):
            return False
        return F.equal(self, other)

    def __ne__(self, other):
        if not isinstance(other, (int, float, Tensor, np.ndarray, np.generic)):
            return True
        return F.not_equal(self, other)

    def __reduce__(self):
        return (Tensor, (self.asnumpy(), self._dtype))


def _shape_arg(shape):
    if len(shape) == 1 and isinstance(shape[0], (list, tuple)):
        return tuple(shape[0])
    return tuple(shape)


def _axis_arg(axis):
    if axis is None:
        return ()
    if isinstance(axis, list):
        return tuple(axis)
    return axis


def _cast_array(array, dtype):
    """Cast a numpy array to a MindSpore dtype (bfloat16 rounds through float32)."""
    array = np.asarray(array)
    if dtype is mstype.bfloat16:
        return mstype.round_to_bfloat16(array.astype(np.float32))
    if array.dtype.kind in "iu" and np.dtype(dtype.np_type).kind in "iu":
        return array.astype(dtype.np_type)      # wraps, like MindSpore's integer casts
    return array.astype(dtype.np_type)


class _TensorVersions:
    """The seam through which the autodiff layer learns that a Tensor's value was replaced
    (``x[i] = v``).  The tape installs itself here when it is imported
    (``refms.autograd.tape``); without it nothing tracks versions."""

    def __init__(self):
        self.tracker = None

    def install(self, tracker):
        """``tracker.tracking()`` -> bool; ``tracker.replaced(tensor, old, new)``."""
        self.tracker = tracker

    def tracking(self):
        """True when a replaced value must be told to the tapes (one is recording)."""
        return self.tracker is not None and self.tracker.tracking()

    def replaced(self, tensor, old, new):
        if self.tracker is not None:
            self.tracker.replaced(tensor, old, new)

    def is_differentiated_leaf(self, tensor):
        """True when a recording tape differentiates ``tensor`` as a leaf (an input of
        ``grad`` or a Parameter that requires grad): in-place methods refuse to change it."""
        return self.tracker is not None and self.tracker.is_differentiated_leaf(tensor)


tensor_versions = _TensorVersions()


#: The functional ops that Tensor's methods and operators run (``x + y`` is ``F.add(x, y)``).
#: They are defined by the ops layer, which builds on this module; it installs them here when
#: it is imported (:func:`install_ops`) -- the one registration seam of the tensor layer.
F = None


def install_ops(functional):
    """Called once by :mod:`refms.ops`: the namespace of functional ops Tensor methods run."""
    global F
    F = functional


# The methods that are functional ops with the tensor first (x.maximum(y), x.gather(i, 0)...).
from ._tensor_op_methods import install as _install_op_methods  # noqa: E402


def _functional_ops():
    return F


_install_op_methods(Tensor, _functional_ops)

# The methods with MindSpore 2.10's NumPy-style and PyTorch-style overloads (x.sum(dim=1)...).
from ._tensor_overloads import install as _install_overloads  # noqa: E402

_install_overloads(Tensor, _functional_ops)
