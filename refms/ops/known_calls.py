"""Calls PyNative has seen before: the shape/dtype rule's answer remembered per input signature.

In PyNative every primitive call runs the primitive's shape/dtype rule
(``Primitive.infer``) on its inputs before the kernel.  For most rules the
answer depends only on each input's *signature* — its dtype, its shape and
whether it is a weak Python scalar — so a loop that calls ``ops.add`` on
tensors of one shape asks the same question every time.  A primitive that says
so (``infer_by_signature = True``: the elementwise ops) keeps a small table
``signature -> Plan`` on the instance; the second call with a signature finds
the answer with one dictionary lookup instead of running the promotion table
and the broadcasting rule again (the same idea as MindSpore's PyNative op-info
cache and PyTorch's dispatch keys: decide once per input *type*, not per call).

What is remembered is exactly what the rule returned, so results, dtypes and
errors are unchanged: a rule that raises remembers nothing (the next call
raises again, with the same message), and inputs that are not plain Tensors
(Python numbers, lists, lazily initialised or traced Tensors) have no
signature and always take the full path.
"""
from .._tensor import Tensor

__all__ = ["Plan", "signature", "remember", "LIMIT"]

#: Most signatures one primitive remembers; past it the table starts again, so a loop over
#: ever-changing shapes cannot grow memory without bound.
LIMIT = 64


class Plan:
    """What PyNative needs to run a call of a known signature without the shape rule: the
    inferred ``abstract`` value; for ops computed in their output dtype
    (``compute_in_output_dtype``), whether some tensor input must be cast first; and the
    primitive's ``forward`` (bound), ``n_tensor_inputs`` and ``differentiable``, read once
    here instead of from the primitive's class on every call."""

    __slots__ = ("abstract", "cast_inputs", "forward", "n_tensor_inputs", "differentiable")

    def __init__(self, abstract, cast_inputs, prim):
        self.abstract = abstract
        self.cast_inputs = cast_inputs
        self.forward = prim.forward
        self.n_tensor_inputs = prim.n_tensor_inputs
        self.differentiable = prim.differentiable


def signature(inputs):
    """The key of a call: ``(dtype, shape, weak)`` of every input, flat in one tuple; None when
    an input is not a Tensor holding values.  Binary calls, the common case, skip the loop."""
    if len(inputs) == 2:
        x, y = inputs
        if isinstance(x, Tensor) and isinstance(y, Tensor):
            x_data, y_data = x._data, y._data
            if x_data is not None and y_data is not None:
                return (x._dtype, x_data.shape, x.weak, y._dtype, y_data.shape, y.weak)
        return None
    key = ()
    for x in inputs:
        if not isinstance(x, Tensor) or x._data is None:
            return None
        key += (x._dtype, x._data.shape, x.weak)
    return key


def remember(prim, inputs, abstract):
    """Remember ``abstract`` (what ``prim.infer(*inputs)`` returned) for the signature of
    ``inputs``, when ``prim`` declares its rule a function of signatures."""
    if not prim.infer_by_signature or isinstance(abstract, tuple):
        return
    key = signature(inputs)
    if key is None:
        return
    table = prim._known_calls
    if table is None or len(table) >= LIMIT:
        table = prim._known_calls = {}
    n = len(inputs) if prim.n_tensor_inputs is None else prim.n_tensor_inputs
    cast_inputs = prim.compute_in_output_dtype and any(
        x._dtype is not abstract.dtype for x in inputs[:n])
    table[key] = Plan(abstract, cast_inputs, prim)
