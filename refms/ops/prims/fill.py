"""Constant-valued tensors: Zeros, Ones, Fill, ZerosLike, OnesLike (no gradients)."""
import numpy as np

from ... import dtype as mstype
from ... import kernels
from ..._tensor import Tensor
from .. import batching
from ..primitive import F, Primitive, Abstract, register, functional, op_error


def _shape(op, shape):
    if isinstance(shape, (int, np.integer)):
        shape = (int(shape),)
    shape = tuple(shape)
    if any(not isinstance(d, (int, np.integer)) or d < 0 for d in shape):
        raise op_error(op, f"the 'shape' should be a tuple of non-negative ints, but got {shape}.",
                       ValueError)
    return tuple(int(d) for d in shape)


@register
class Zeros(Primitive):
    """y = 0 of ``shape`` and ``dtype``."""
    n_tensor_inputs = 0

    def infer(self, shape, dtype=mstype.float32):
        return Abstract(_shape("Zeros", shape), mstype.check_dtype("Zeros", dtype))

    def forward(self, shape, dtype=mstype.float32):
        return kernels.call("full")(_shape("Zeros", shape), 0, mstype.to_dtype(dtype).np_type)


@register
class Ones(Primitive):
    """y = 1 of ``shape`` and ``dtype``."""
    n_tensor_inputs = 0

    def infer(self, shape, dtype=mstype.float32):
        return Abstract(_shape("Ones", shape), mstype.check_dtype("Ones", dtype))

    def forward(self, shape, dtype=mstype.float32):
        return kernels.call("full")(_shape("Ones", shape), 1, mstype.to_dtype(dtype).np_type)


@register
class Fill(Primitive):
    """y = ``value`` of ``shape`` and ``dtype`` (MindSpore order: ``Fill()(dtype, shape, value)``)."""
    n_tensor_inputs = 0

    def infer(self, dtype, shape, value):
        return Abstract(_shape("Fill", shape), mstype.to_dtype(dtype))

    def forward(self, dtype, shape, value):
        if hasattr(value, "dtype"):          # a 0-d tensor: its value, on the host
            value = kernels.to_host(value).item()
        return kernels.call("full")(_shape("Fill", shape), value, mstype.to_dtype(dtype).np_type)


@register
class ZerosLike(Primitive):
    """y = 0 with x's shape and dtype."""
    fixed_by_input_shape = True
    n_tensor_inputs = 1

    def infer(self, x):
        return Abstract(x.shape, x.dtype)

    def batch(self, batched, x):
        """vmap: the batch passes straight through."""
        return self(x)

    def forward(self, x):
        return kernels.call("full_like")(x, 0)


@register
class OnesLike(Primitive):
    """y = 1 with x's shape and dtype."""
    fixed_by_input_shape = True
    n_tensor_inputs = 1

    def infer(self, x):
        return Abstract(x.shape, x.dtype)

    def batch(self, batched, x):
        """vmap: the batch passes straight through."""
        return self(x)

    def forward(self, x):
        return kernels.call("full_like")(x, 1)


_ZEROS, _ONES, _FILL = Zeros(), Ones(), Fill()
_ZEROS_LIKE, _ONES_LIKE = ZerosLike(), OnesLike()


def _shape_value(shape):
    """A shape given as a Tensor (MindSpore 2.10 accepts ``ops.ones(Tensor([1, 2]))``) as a
    tuple of ints: a 1-D tensor lists the sizes, a 0-d one is one size."""
    if isinstance(shape, Tensor):
        sizes = shape.asnumpy().reshape(-1).tolist()
        return tuple(int(s) for s in sizes)
    return shape


def zeros(size, dtype=None):
    """ops.zeros(size, dtype=None): Float32 zeros by default."""
    return _ZEROS(_shape_value(size), mstype.float32 if dtype is None else dtype)


def ones(shape, dtype=None):
    """ops.ones(shape, dtype=None): Float32 ones by default."""
    return _ONES(_shape_value(shape), mstype.float32 if dtype is None else dtype)


def value_dtype(value):
    """The dtype ``Tensor(value)`` would have: Float32 for a float, Bool for a bool, Int64
    for an int (a Tensor: its own)."""
    if isinstance(value, Tensor):
        return value.dtype
    if isinstance(value, (bool, np.bool_)):
        return mstype.bool_
    if isinstance(value, (float, np.floating)):
        return mstype.float32
    return mstype.int64


def fill(type, shape, value):
    """ops.fill(type, shape, value); ``type=None`` takes the value's dtype
    (MindSpore 2.10: ``fill(None, (2, 3), 1.0)`` is Float32, recorded)."""
    if type is None:
        type = value_dtype(value)
    return _FILL(type, shape, value)


def full(size, fill_value, *, dtype=None):
    """ops.full(size, fill_value, *, dtype=None): Int64 when no dtype is given, whatever the
    value (MindSpore 2.10 documents and does ``ops.full((2, 3), 1.2)`` → Int64 ones)."""
    if dtype is None:
        dtype = mstype.int64
    return _FILL(dtype, size, fill_value)


def zeros_like(input, *, dtype=None):
    """ops.zeros_like(input, *, dtype=None)."""
    out = _ZEROS_LIKE(input)
    return out if dtype is None else F.cast(out, dtype)


def ones_like(input, *, dtype=None):
    """ops.ones_like(input, *, dtype=None)."""
    out = _ONES_LIKE(input)
    return out if dtype is None else F.cast(out, dtype)


for _fn in (zeros, ones, fill, full, zeros_like, ones_like):
    functional(_fn.__name__, _fn)
