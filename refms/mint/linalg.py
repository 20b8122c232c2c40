"""``mint.linalg``: vector and matrix norms, the matrix inverse and the QR factorization."""
from ..ops import functional as F
from ..ops.prims.linalg import LinalgQr
from ._pointwise import _float

__all__ = ["inv", "qr", "vector_norm", "matrix_norm", "norm"]


def qr(A, mode="reduced"):                                         # noqa: N803
    """(Q, R) with A = Q·R, Q with orthonormal columns, R upper triangular (``LinalgQr``;
    ``mode`` 'reduced', 'complete' or 'r')."""
    return LinalgQr(mode)(A)


def inv(A):                                                        # noqa: N803
    """A⁻¹ of each (..., n, n) matrix."""
    return F.matrix_inverse(A)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):   # noqa: A002
    """(Σ abs(x)ᵒʳᵈ)^(1/ord) over ``dim`` (every element when None); ord ±inf: max/min abs(x),
    ord 0: the number of nonzeros."""
    x = _float(x if dtype is None else F.cast(x, dtype))
    axes = () if dim is None else (tuple(dim) if isinstance(dim, (list, tuple)) else (dim,))
    a = F.abs(x)
    if ord == float("inf"):
        return F.amax(a, axes or None, keepdim)
    if ord == float("-inf"):
        return F.amin(a, axes or None, keepdim)
    if ord == 0:
        return F.sum(F.cast(F.not_equal(a, 0), x.dtype), axes or None, keepdim)
    if ord == 2:
        return F.sqrt(F.sum(F.mul(x, x), axes or None, keepdim))
    return F.pow(F.sum(F.pow(a, ord), axes or None, keepdim), 1.0 / ord)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):  # noqa: N803
    """The Frobenius norm √Σ a² (``"fro"``), or the max column (ord 1) / row (ord inf) sum
    of abs(a), over the two dims ``dim``."""
    A = _float(A if dtype is None else F.cast(A, dtype))
    dim = tuple(dim)
    if ord == "fro":
        return F.sqrt(F.sum(F.mul(A, A), dim, keepdim))
    if ord in (1, float("inf")):
        summed, kept = (dim[0], dim[1]) if ord == 1 else (dim[1], dim[0])
        sums = F.sum(F.abs(A), summed, True)
        out = F.amax(sums, kept, True)
        return out if keepdim else F.squeeze(out, tuple(sorted(dim)))
    raise ValueError(f"For 'matrix_norm', refms supports ord 'fro', 1 and inf, but got {ord}.")


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):      # noqa: A002,N803
    """vector_norm when ``dim`` is an int or the input is 1-D; matrix_norm for two dims."""
    if isinstance(dim, (list, tuple)) and len(dim) == 2:
        return matrix_norm(A, "fro" if ord is None else ord, dim, keepdim, dtype=dtype)
    if dim is None and len(A.shape) == 2 and ord is not None:
        return matrix_norm(A, ord, (-2, -1), keepdim, dtype=dtype)
    return vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype)
