"""``Parameter``: a named, trainable Tensor held by Cells (semantics 2).

Parameters are leaves of autodiff: every tape watches them, so their
gradients are available to ``GradOperation(get_by_list=True)`` and
``grad(..., weights=...)``.
"""
import itertools

import numpy as np

from . import dtype as mstype
from . import kernels
from ._tensor import Tensor
from ._tensor import _cast_array
from .initializer import initializer

__all__ = ["Parameter", "ParameterTuple"]

_AUTO_NAMES = itertools.count(1)
_AUTO_PREFIX = "Parameter#"


class Parameter(Tensor):
    """Parameter(default_input, name=None, requires_grad=True, layerwise_parallel=False, parallel_optimizer=True)

    ``default_input``: Tensor, numpy array, Python int (-> Int32) or float
    (-> Float32), or list.  ``repr``: ``Parameter (name=w, shape=(2,), dtype=Float32, requires_grad=True)``.
    """

    _is_param = True

    def __init__(self, default_input, name=None, requires_grad=True, layerwise_parallel=False,
                 parallel_optimizer=True, storage_format="", device=None):
        if isinstance(default_input, bool):
            raise ValueError("Parameter data can not be `bool`")
        if isinstance(default_input, Tensor):
            if default_input.has_init:
                default_input = default_input.init_data()
            super().__init__(default_input._host(), default_input.dtype)   # a copy
        elif isinstance(default_input, int):
            super().__init__(default_input, mstype.int32)
        else:
            super().__init__(default_input)
        self.name = name
        self.requires_grad = requires_grad
        self.layerwise_parallel = layerwise_parallel
        self.parallel_optimizer = parallel_optimizer

    # -- name -------------------------------------------------------------------
    @property
    def name(self):
        return self._name

    @name.setter
    def name(self, value):
        if value is None or (isinstance(value, str) and not value.strip()):
            value = f"{_AUTO_PREFIX}{next(_AUTO_NAMES)}"
        elif not isinstance(value, str):
            raise ValueError(f"The type of the Parameter's name should be 'string' or 'None', "
                             f"but got {type(value)}.")
        value = value.strip()
        if len(value) > 1024:
            raise ValueError(f"The length of the '{value}' name should be less than 1024.")
        self._name = value

    @property
    def auto_named(self):
        return self._name.startswith(_AUTO_PREFIX)

    @property
    def data(self):
        """A plain Tensor sharing this parameter's values (its repr is a Tensor's, as in 2.10)."""
        return Tensor._make(self._value(), self._dtype)

    @data.setter
    def data(self, value):
        self.set_data(value)

    def value(self):
        """The current values as a new plain Tensor (MindSpore's ``Load``): a copy taken now,
        through which gradients flow back to the parameter (the model zoo's Transformer
        and BERT tie their output projection to ``embedding_table.value()``)."""
        return Tensor.copy(self)             # the Identity primitive, through the ops namespace

    def init_data(self, slice_index=None, shape=None, opt_shard_group=None, set_sliced=False):
        """Parameters are materialised when built (stand-alone mode): returns ``self``."""
        return self

    @property
    def inited_param(self):
        """Always None: refms never keeps a second, initialised copy of a parameter."""
        return None

    @property
    def sliced(self):
        """Whether the parameter holds only its slice of a sharded tensor (settable; refms
        runs on one device, so False unless set)."""
        return self.__dict__.get("_sliced", False)

    @sliced.setter
    def sliced(self, value):
        self.__dict__["_sliced"] = bool(value)

    @property
    def requires_grad(self):
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value):
        if not isinstance(value, bool):
            raise TypeError(f"The 'requires_grad' should be bool, but got {type(value).__name__}.")
        self._requires_grad = value

    def set_data(self, data, slice_shape=False):
        """Replace the value, cast to this parameter's dtype; the shape may change. Returns self."""
        if isinstance(data, bool) or not isinstance(data, (Tensor, int, float)):
            raise TypeError(f"Parameter data must be [`Tensor`, `int`, `float`] or a kind of "
                            f"`Tensor` (like `Tensor`). But with type {type(data)}.")
        if isinstance(data, float) and self.dtype.kind in ("int", "uint", "bool"):
            raise TypeError(f"Incoming Parameter dtype can not be converted to current dtype "
                            f"implicitly. Current dtype is {self.dtype}, and incoming is Float. Use "
                            f".set_dtype(xxx) to change the dtype.")
        if isinstance(data, Tensor):
            if data.has_init:
                data = data.init_data()
            array = data._host()
        else:
            array = np.asarray(data)
        self._data = kernels.from_host(_cast_array(np.array(array, copy=True), self.dtype))
        return self

    def clone(self, init="same"):
        """A copy named like this one; ``init='same'`` copies the values."""
        if init != "same":
            data = initializer(init, self.shape, self.dtype)
        else:
            data = Tensor(self._host(), self.dtype)
        return Parameter(data, self.name, self.requires_grad)

    def __repr__(self):
        return (f"Parameter (name={self.name}, shape={tuple(self.shape)}, dtype={self.dtype}, "
                f"requires_grad={self.requires_grad})")

    __str__ = __repr__

    def __reduce__(self):
        return (Parameter, (Tensor(self.asnumpy(), self.dtype), self.name, self.requires_grad))


class ParameterTuple(tuple):
    """A tuple of Parameters with unique names."""

    def __new__(cls, iterable):
        items = list(iterable)
        names, ids = set(), set()
        for p in items:
            if not isinstance(p, Parameter):
                raise TypeError(f"For ParameterTuple initialization, ParameterTuple input should "
                                f"be 'Parameter' collection, but got a {type(iterable)}. ")
            if id(p) in ids:        # the same Parameter twice is allowed (an optimizer's group lr)
                continue
            if p.name in names:
                raise ValueError(f"The value {p!r} , its name '{p.name}' already exists. Please "
                                 f"set a unique name for the parameter.")
            names.add(p.name)
            ids.add(id(p))
        return super().__new__(cls, items)

    def clone(self, prefix, init="same"):
        clones = []
        for p in self:
            c = p.clone(init)
            c.name = f"{prefix}.{p.name}"
            clones.append(c)
        return ParameterTuple(clones)
