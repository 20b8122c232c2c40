"""Running a primitive: the one place where inputs are promoted and cast, ``forward`` is
called and the result gets its dtype.

Three executors run primitives, and all three go through this module:

* PyNative (``refms.autograd.pynative``) installs ``apply`` as the executor — the
  whole sequence below — and a recorder that puts the call on the tape;
* the graph executor (:mod:`refms.graph.executor`) calls ``execute`` —
  inference already happened at compile time, so it starts at step 3;
* elementwise fusion (:mod:`refms.graph.passes.fusion`) calls ``compute``
  on numpy arrays, keeping the intermediates of a fused chain as arrays.

The steps of ``apply``:

1. *mixed precision* — inside a ``to_float`` cell, floating Tensor inputs are
   cast to the cell's dtype (``set_mixed_precision``);
2. *prepare* — Python numbers in tensor slots become weak 0-d tensors;
   *infer* — the primitive's shape/dtype rule checks the inputs and gives the
   output's abstract value (errors name the op, shapes and dtypes);
3. *compute* — promoting ops (``compute_in_output_dtype``) get their tensor
   inputs cast to the output dtype; ``forward`` runs on the inputs' arrays, on
   their backend (:func:`refms.kernels.run`); the result is cast to the
   inferred dtype and wrapped in Tensors;
4. *record* — the recorder sees ``(prim, inputs, out)`` (PyNative
   appends a tape entry there).
"""
import numbers
import operator

import numpy as np

from .. import dtype as mstype
from .. import kernels
from .._tensor import Tensor, tensor_of
from . import functional as F
from .keywords import NotATensorError
from .known_calls import remember, signature
from .primitive import op_error

__all__ = ["NotATensorError", "apply", "execute", "compute", "cast_result", "prepare", "to_weak_tensor", "unwrap", "wrap",
           "set_recorder", "set_mixed_precision", "mixed_precision", "cast_floating_inputs"]

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
    """Turn Python numbers in tensor slots into weak tensors; check the slot types.

    Arguments that are all Tensors (the common case) come back as they are.
    """
    for value in args:
        if not isinstance(value, Tensor):
            break
    else:
        return args
    n = len(args) if prim.n_tensor_inputs is None else min(prim.n_tensor_inputs, len(args))
    prepared = list(args)
    for i in range(n):
        value = args[i]
        if isinstance(value, Tensor) or isinstance(value, (tuple, list)) or value is None:
            continue
        weak = to_weak_tensor(value)
        if weak is None:
            raise NotATensorError(f"For '{prim.name}', the input {i} should be a Tensor or a "
                                  f"number, but got {type(value).__name__}.")
        if getattr(prim, "python_bool_only", False) and not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"For '{prim.name}', the input {i} must be a Tensor or a Python "
                            f"bool, but got {type(value).__name__}.")
        if i == 0 and prim.tensor_first:
            raise TypeError(f"For '{prim.name}', the first input must be a Tensor, but got the "
                            f"Python {type(value).__name__} {value!r}; put the Tensor first or "
                            f"make the number a Tensor.")
        prepared[i] = weak
    return prepared


def _not_a_tensor(prim, inputs):
    """The TypeError for a shape rule that met a non-Tensor (None, a list) in a tensor slot."""
    for i, value in enumerate(inputs):
        if not isinstance(value, Tensor):
            return NotATensorError(f"For '{prim.name}', the input {i} must be a Tensor, "
                                   f"but got {type(value).__name__}.")
    return NotATensorError(f"For '{prim.name}', the inputs must be Tensors.")


def unwrap(value):
    """Tensor -> numpy array (tuples recursively); constants unchanged."""
    if isinstance(value, Tensor):
        return value._value()
    if isinstance(value, (tuple, list)) and value and isinstance(value[0], Tensor):
        return tuple(unwrap(v) for v in value)
    return value


def cast_result(result, dtype):
    """A forward's result as an array of ``dtype`` (the inferred output dtype), on its backend."""
    return kernels.result_array(result, dtype.np_type)


def wrap(result, abstract):
    """numpy result(s) -> Tensor(s) of the inferred dtype(s); ``abstract`` is an abstract
    value or a tuple of them (a multi-output primitive)."""
    if isinstance(abstract, tuple):
        return tuple(wrap(r, a) for r, a in zip(result, abstract))
    dtype = abstract.dtype
    if result.__class__ is not np.ndarray or result.dtype.type is not dtype.np_type:
        result = kernels.result_array(result, dtype.np_type)
    return tensor_of(result, dtype)


def compute(prim, arrays, abstract):
    """Step 3 on arrays: ``prim.forward`` in the dtype it computes in, on the inputs' backend
    (:func:`refms.kernels.run`); the raw result (cast to the output dtype by :func:`wrap`,
    or by the caller)."""
    if prim.compute_in_output_dtype:
        arrays = _in_dtype(arrays, prim.n_tensor_inputs, abstract.dtype.np_type)
    return kernels.run(prim.forward, arrays, prim.n_tensor_inputs)


def _in_dtype(arrays, n_tensor_inputs, np_type):
    """``arrays`` with those in the tensor slots cast to ``np_type`` (no copy when all have it)."""
    n = len(arrays) if n_tensor_inputs is None else n_tensor_inputs
    for a in arrays[:n]:
        if hasattr(a, "dtype") and a.dtype.type is not np_type:
            break
    else:
        return arrays
    return [kernels.astype(a, np_type)
            if i < n and hasattr(a, "dtype") and a.dtype.type is not np_type else a
            for i, a in enumerate(arrays)]


def execute(prim, inputs, abstract):
    """Step 3: ``prim`` on prepared inputs whose output's abstract value (or tuple of them)
    is known."""
    return wrap(compute(prim, [unwrap(x) for x in inputs], abstract), abstract)


#: Step 4's recorder, installed by PyNative (:func:`set_recorder`): while the list ``_TAPES``
#: (the active tapes) is not empty, ``_RECORD(prim, inputs, out)`` sees every
#: differentiable call.  The test is made in ``apply``, so that an op run with no
#: gradient wanted costs no extra call.
_TAPES = ()
_RECORD = None


def set_recorder(tapes, record):
    """Install step 4: ``record(prim, inputs, out)`` runs while the list ``tapes`` is not empty."""
    global _TAPES, _RECORD
    _TAPES, _RECORD = tapes, record


#: A known call's input arrays: every input is a Tensor holding values (its signature says so).
_ARRAY_OF = operator.attrgetter("_data")


def apply(prim, args):
    """Run ``prim(*args)`` now (steps 1–4 of the module docstring).

    A call whose input signature the primitive has seen before (all inputs Tensors)
    skips step 2: the shape rule's answer is remembered (:mod:`refms.ops.known_calls`),
    and so is whether the inputs need a cast.
    """
    if _MIXED_PRECISION[0] is not None and not prim.keeps_input_dtypes:
        args = cast_floating_inputs(prim, args, _MIXED_PRECISION[0])
    known = prim._known_calls
    plan = None if known is None else known.get(signature(args))
    if plan is None:
        return _apply_in_full(prim, args)
    dtype = plan.abstract.dtype
    arrays = [*map(_ARRAY_OF, args)]                # [x._data for x in args], in C
    if plan.cast_inputs:
        arrays = _in_dtype(arrays, plan.n_tensor_inputs, dtype.np_type)
    if kernels.ONLY_CPU:                            # kernels.run, one call less
        result = plan.forward(*arrays)
    else:
        result = kernels.run(plan.forward, arrays, plan.n_tensor_inputs)
    if result.__class__ is not np.ndarray or result.dtype.type is not dtype.np_type:
        result = kernels.result_array(result, dtype.np_type)
    out = tensor_of(result, dtype)
    if _TAPES and plan.differentiable:
        _RECORD(prim, args, out)
    return out


def _apply_in_full(prim, args):
    """Steps 2–4 of a call whose signature is not known (new, or with Python numbers)."""
    inputs = prepare(prim, args)
    known = prim._known_calls
    plan = None if known is None or inputs is args else known.get(signature(inputs))
    if plan is not None:
        abstract = plan.abstract
    else:
        try:
            abstract = prim.infer(*inputs)
        except AttributeError:
            raise _not_a_tensor(prim, inputs) from None
        remember(prim, inputs, abstract)
    arrays = [x._value() if isinstance(x, Tensor) else unwrap(x) for x in inputs]
    out = wrap(compute(prim, arrays, abstract), abstract)
    if _TAPES and prim.differentiable:
        _RECORD(prim, inputs, out)
    return out


# -- mixed precision ----------------------------------------------------------------------------

#: Mixed precision (``Cell.to_float``, semantics 3.4 item 6): the float dtype that every
#: op run inside such a cell casts its floating Tensor inputs to; None outside.  Set and
#: restored by the Cell call pipeline (:mod:`refms.nn.cell_call`) through
#: ``set_mixed_precision``, so the innermost cell's setting wins.  The casts are
#: ordinary ``Cast`` ops, recorded on the tape, so gradients flow back to the (uncast)
#: parameters; graph compilation reads the setting when it emits a primitive.
_MIXED_PRECISION = [None]


def set_mixed_precision(dtype):
    """Make ops cast floating inputs to ``dtype`` (None: no cast); returns the previous setting."""
    previous = _MIXED_PRECISION[0]
    _MIXED_PRECISION[0] = dtype
    return previous


def mixed_precision():
    """The dtype floating inputs are cast to now, or None."""
    return _MIXED_PRECISION[0]


def cast_floating_inputs(prim, args, dtype):
    """Cast the floating, non-weak Tensors in ``prim``'s tensor slots to ``dtype``.

    Parameters given to an op that writes its inputs in place (BatchNorm's
    moving statistics, ``Assign``'s target) are left alone, so the write still
    reaches them — as in 2.10, where they keep Float32 and are updated.
    """
    writes_inputs = prim.side_effect_mem
    n = len(args) if prim.n_tensor_inputs is None else min(prim.n_tensor_inputs, len(args))
    cast_args = list(args)
    for i in range(n):
        value = args[i]
        if not isinstance(value, Tensor) or value.weak or value.dtype.kind != "float":
            continue
        if value.dtype is dtype or (writes_inputs and value._is_param):
            continue
        cast_args[i] = F.cast(value, dtype)
    return cast_args
