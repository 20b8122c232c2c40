"""Eye: the identity matrix, ``y[i, j] = 1 if i == j else 0``, of shape (n, m)."""
from ... import dtype as mstype
from ..._tensor import Tensor
from ..primitive import op_error
from ._common import CompositeOp, check_int

__all__ = ["Eye", "eye"]


def eye(n, m=None, dtype=None):
    """``ops.eye(n, m=None, dtype=None)``: Float32 unless ``dtype`` is given."""
    check_int("Eye", "n", n)
    m = n if m is None else check_int("Eye", "m", m)
    if n < 0 or m < 0:
        raise op_error("Eye", f"the 'n' and 'm' should be >= 0, but got n {n} and m {m}.",
                       ValueError)
    dtype = mstype.float32 if dtype is None else mstype.check_dtype("Eye", dtype)
    return Tensor([[1 if i == j else 0 for j in range(m)] for i in range(n)] if n and m
                  else None, dtype, shape=None if n and m else (n, m))


class Eye(CompositeOp):
    """``Eye()(n, m, t)`` = :func:`eye`."""

    def __call__(self, n, m, t):
        return eye(n, m, t)
