"""PyNative execution: run each primitive at once, recording it when a gradient is wanted.

``run_primitive`` is the executor installed into :mod:`refms.ops.primitive`:

1. *prepare*  — Python numbers in tensor slots become weak 0-d tensors;
2. *infer*    — the primitive's shape/dtype rule checks the inputs and gives
   the output's abstract value (errors name the op, shapes and dtypes);
3. *forward*  — the kernels run on the inputs' arrays, on their backend
   (:func:`refms.kernels.run`); the result is cast to the inferred dtype and
   wrapped in Tensors;
4. *record*   — if a tape is active and the op is differentiable, the call is
   appended to the tape (:mod:`refms.autograd.tape`).
"""
import numbers

import numpy as np

from .. import dtype as mstype
from .. import kernels
from ..ops.primitive import set_default_executor, op_error
from .._tensor import Tensor
from . import tape as _tape

__all__ = ["run_primitive", "to_weak_tensor", "set_mixed_precision"]

_WEAK_TYPES = ((bool, np.bool_, mstype.bool_), (numbers.Integral, np.int64, mstype.int64),
               (numbers.Real, np.float32, mstype.float32))


def to_weak_tensor(value):
    """A Python number as a weak 0-d tensor (it yields to the other operand's dtype)."""
    for py_type, np_type, dtype in _WEAK_TYPES:
        if isinstance(value, py_type):
            if dtype is mstype.int64 and not -(2 ** 63) <= int(value) < 2 ** 63:
                raise TypeError(f"the integer {value} is out of the range of int64.")
            return Tensor._make(np.array(value, dtype=np_type), dtype, weak=True)
    return None


def prepare(prim, args):
    """Turn Python numbers in tensor slots into weak tensors; check the slot types."""
    n = len(args) if prim.n_tensor_inputs is None else min(prim.n_tensor_inputs, len(args))
    prepared = list(args)
    for i in range(n):
        value = args[i]
        if isinstance(value, Tensor) or isinstance(value, (tuple, list)) or value is None:
            continue
        weak = to_weak_tensor(value)
        if weak is None:
            raise op_error(prim.name, f"the input {i} should be a Tensor or a number, "
                                      f"but got {type(value).__name__}.")
        prepared[i] = weak
    return prepared


def unwrap(value):
    """Tensor -> numpy array (tuples recursively); constants unchanged."""
    if isinstance(value, Tensor):
        return value._value()
    if isinstance(value, (tuple, list)) and value and isinstance(value[0], Tensor):
        return tuple(unwrap(v) for v in value)
    return value


def cast_tensor_inputs(prim, arrays, dtype):
    """Cast the tensor-slot arrays to ``dtype`` (promoting ops compute in the result dtype)."""
    n = len(arrays) if prim.n_tensor_inputs is None else prim.n_tensor_inputs
    np_type = dtype.np_type
    return [kernels.astype(a, np_type)
            if i < n and hasattr(a, "dtype") and a.dtype.type is not np_type else a
            for i, a in enumerate(arrays)]


def wrap(result, abstract):
    """numpy result(s) -> Tensor(s) of the inferred dtype(s)."""
    if isinstance(abstract, tuple):
        return tuple(wrap(r, a) for r, a in zip(result, abstract))
    dtype = abstract.dtype
    return Tensor._make(kernels.result_array(result, dtype.np_type), dtype)


#: Mixed precision (``Cell.to_float``, SEMANTICS.md 3.4 item 6): the float dtype that every
#: op run inside such a cell casts its floating Tensor inputs to; None outside.  Set and
#: restored by ``refms.nn.Cell.__call__`` through :func:`set_mixed_precision`, so the
#: innermost cell's setting wins.  The casts are ordinary ``Cast`` ops, recorded on the
#: tape, so gradients flow back to the (uncast) parameters.
_MIXED_PRECISION = [None]


def set_mixed_precision(dtype):
    """Make ops cast floating inputs to ``dtype`` (None: no cast); returns the previous setting."""
    previous = _MIXED_PRECISION[0]
    _MIXED_PRECISION[0] = dtype
    return previous


def cast_floating_inputs(prim, args, dtype):
    """Cast the floating, non-weak Tensors in ``prim``'s tensor slots to ``dtype``.

    Parameters given to an op that writes its inputs in place (BatchNorm's
    moving statistics, ``Assign``'s target) are left alone, so the write still
    reaches them — as in 2.10, where they keep Float32 and are updated.
    """
    from ..ops.functional import cast
    writes_inputs = prim.side_effect_mem
    n = len(args) if prim.n_tensor_inputs is None else min(prim.n_tensor_inputs, len(args))
    cast_args = list(args)
    for i in range(n):
        value = args[i]
        if not isinstance(value, Tensor) or value.weak or value.dtype.kind != "float":
            continue
        if value.dtype is dtype or (writes_inputs and value._is_param):
            continue
        cast_args[i] = cast(value, dtype)
    return cast_args


def run_primitive(prim, args):
    if _MIXED_PRECISION[0] is not None and prim.name != "Cast":
        args = cast_floating_inputs(prim, args, _MIXED_PRECISION[0])
    inputs = prepare(prim, args)
    abstract = prim.infer(*inputs)
    arrays = [unwrap(x) for x in inputs]
    if prim.compute_in_output_dtype:
        arrays = cast_tensor_inputs(prim, arrays, abstract.dtype)
    result = kernels.run(prim.forward, arrays, prim.n_tensor_inputs)    # on the inputs' backend
    out = wrap(result, abstract)
    if _tape._ACTIVE and prim.differentiable:
        _tape.record(prim.bprop, tuple(inputs), out, prim.name)
    return out


set_default_executor(run_primitive)
