"""repeat_elements, tensor_dot and dot.

* ``repeat_elements(x, rep, axis)``: every slice of ``x`` along ``axis``
  repeated ``rep`` times in place, ``[a, b] -> [a, a, b, b]`` (``Gather`` with
  the index vector ``0,0,1,1,...``; the gradient sums the copies back).
* ``tensor_dot(x1, x2, axes)``: the contraction Σ over the paired axes
  ``axes = (axes of x1, axes of x2)`` (an int ``n``: the last n of x1 with the
  first n of x2): the free axes of ``x1`` then of ``x2``.  Composition:
  ``Transpose`` both to (free, contracted) / (contracted, free), ``Reshape``
  to matrices, ``MatMul``, ``Reshape``.
* ``dot(a, b)``: NumPy's ``dot`` for operands of rank ≥ 2 — the last axis of ``a``
  contracted with the second-to-last of ``b``, result axes ``a.shape[:-1] +
  b.shape[:-2] + b.shape[-1:]`` (``tensor_dot`` with those axes); Float16/Float32 only, as
  MindSpore 2.10's ``ops.dot``.
"""
from ... import dtype as mstype
from ..primitive import F, op_error
from ._common import check_tensor, check_int, int_tensor

__all__ = ["repeat_elements", "tensor_dot", "dot"]


def repeat_elements(x, rep, axis=0):
    """``ops.repeat_elements(x, rep, axis=0)``."""
    check_tensor("repeat_elements", "x", x)
    check_int("repeat_elements", "rep", rep)
    check_int("repeat_elements", "axis", axis)
    ndim = len(x.shape)
    if not -ndim <= axis < ndim:
        raise op_error("repeat_elements", f"the 'axis' should be in [{-ndim}, {ndim}), but got "
                                          f"{axis}.", ValueError)
    if rep <= 0:
        raise op_error("repeat_elements", f"the 'rep' should be positive, but got {rep}.",
                       ValueError)
    n = x.shape[axis]
    return F.gather(x, int_tensor([i for i in range(n) for _ in range(rep)]), axis % ndim)


def tensor_dot(x1, x2, axes):
    """``ops.tensor_dot(x1, x2, axes)``."""
    check_tensor("tensor_dot", "x1", x1)
    check_tensor("tensor_dot", "x2", x2)
    n1, n2 = len(x1.shape), len(x2.shape)
    if isinstance(axes, int) and not isinstance(axes, bool):
        a1, a2 = tuple(range(n1 - axes, n1)), tuple(range(axes))
    else:
        a1, a2 = axes
        a1 = (a1,) if isinstance(a1, int) else tuple(a1)
        a2 = (a2,) if isinstance(a2, int) else tuple(a2)
    a1 = tuple(a % n1 for a in a1)
    a2 = tuple(a % n2 for a in a2)
    if len(a1) != len(a2) or any(x1.shape[i] != x2.shape[j] for i, j in zip(a1, a2)):
        raise op_error("tensor_dot", f"the contracted axes should pair dimensions of equal size, "
                                     f"but got axes {axes} for shapes {tuple(x1.shape)} and "
                                     f"{tuple(x2.shape)}.", ValueError)
    free1 = [i for i in range(n1) if i not in a1]
    free2 = [j for j in range(n2) if j not in a2]
    k = 1
    for i in a1:
        k *= x1.shape[i]
    left = F.reshape(F.transpose(x1, tuple(free1) + a1), (-1, k))
    right = F.reshape(F.transpose(x2, a2 + tuple(free2)), (k, -1))
    shape = tuple(x1.shape[i] for i in free1) + tuple(x2.shape[j] for j in free2)
    return F.reshape(F.matmul(left, right), shape)


def dot(input, other):                 # noqa: A002  (MindSpore's parameter names)
    """``ops.dot(input, other)``."""
    check_tensor("dot", "input", input)
    check_tensor("dot", "other", other)
    for name, value in (("x1", input), ("x2", other)):
        if value.dtype not in (mstype.float16, mstype.float32):
            raise TypeError(f"The '{name}' doesn't support '{value.dtype}' and expect to receive "
                            f"[mindspore.float16, mindspore.float32].")
    if len(input.shape) < 2 or len(other.shape) < 2:
        raise op_error("dot", f"the inputs x1, x2 should have 'dimension >= 2', but got "
                              f"'len(x1_shape)': ({len(input.shape)}) and 'len(x2_shape)': "
                              f"({len(other.shape)}).", ValueError)
    if input.shape[-1] != other.shape[-2]:
        raise op_error("dot", f"the last dimension of 'input' ({input.shape[-1]}) must equal the "
                              f"second-to-last of 'other' ({other.shape[-2]}).", ValueError)
    return tensor_dot(input, other, ((len(input.shape) - 1,), (len(other.shape) - 2,)))
