"""MindSpore's implicit type promotion for binary arithmetic (semantics 1.7).

Two kinds of operand:

* a *tensor* (including a 0-d tensor — those are NOT weak in MindSpore);
* a *weak* Python scalar (``x + 2``, ``ops.add(x, 2.5)``), which yields to
  the tensor's dtype except where the kinds differ (int tensor + Python
  float -> Float32, bool tensor + Python int -> Int64).

Tensor ⊕ tensor: bool loses to anything; any float beats any int and keeps
its own width (``int64 ⊕ float16 -> Float16``); within a kind the wider wins;
signed ⊕ unsigned goes to the next signed width (``int8 ⊕ uint8 -> Int16``);
``float16 ⊕ bfloat16 -> Float32``.
"""
from .. import dtype as mstype

_INT_BY_BITS = {8: mstype.int8, 16: mstype.int16, 32: mstype.int32, 64: mstype.int64}
_UINT_BY_BITS = {8: mstype.uint8, 16: mstype.uint16, 32: mstype.uint32, 64: mstype.uint64}
_FLOAT_BY_BITS = {16: mstype.float16, 32: mstype.float32, 64: mstype.float64}


def _promote_tensors(a, b):
    """Promotion of two (non-weak) tensor dtypes."""
    if a is b:
        return a
    if a.kind == "bool":
        return b
    if b.kind == "bool":
        return a
    if a.kind == "complex" or b.kind == "complex":
        wide = mstype.complex128 in (a, b) or mstype.float64 in (a, b)
        return mstype.complex128 if wide else mstype.complex64
    a_float, b_float = a.kind == "float", b.kind == "float"
    if a_float and not b_float:
        return a
    if b_float and not a_float:
        return b
    if a_float and b_float:
        if {a.name, b.name} == {"Float16", "BFloat16"}:
            return mstype.float32
        if a is mstype.bfloat16:
            return b
        if b is mstype.bfloat16:
            return a
        return a if a.bits >= b.bits else b
    # two integer types
    if a.kind == b.kind:
        table = _INT_BY_BITS if a.kind == "int" else _UINT_BY_BITS
        return table[max(a.bits, b.bits)]
    signed, unsigned = (a, b) if a.kind == "int" else (b, a)
    if signed.bits > unsigned.bits:
        return signed
    return _INT_BY_BITS[min(unsigned.bits * 2, 64)]


def _promote_weak(tensor, weak):
    """Promotion of a tensor dtype with a weak Python scalar's dtype."""
    if weak.kind == "bool":
        return tensor
    if weak.kind == "float":
        return tensor if tensor.kind in ("float", "complex") else mstype.float32
    # weak int
    if tensor.kind == "bool":
        return mstype.int64
    return tensor


def promote(x, y):
    """Result dtype of a binary arithmetic op on abstract values ``x`` and ``y``."""
    x_weak, y_weak = getattr(x, "weak", False), getattr(y, "weak", False)
    if x_weak and not y_weak:
        return _promote_weak(y.dtype, x.dtype)
    if y_weak and not x_weak:
        return _promote_weak(x.dtype, y.dtype)
    return _promote_tensors(x.dtype, y.dtype)


def promote_many(values):
    """Fold :func:`promote` over several abstract values (weakness is kept while all are weak)."""
    result = values[0]
    dtype = result.dtype
    weak = getattr(result, "weak", False)
    for v in values[1:]:
        dtype = promote(_Fake(dtype, weak), v)
        weak = weak and getattr(v, "weak", False)
    return dtype


class _Fake:
    __slots__ = ("dtype", "weak")

    def __init__(self, dtype, weak):
        self.dtype = dtype
        self.weak = weak
