"""Reference matrix-multiplication kernels (numpy).

``matmul(a, b, transpose_a, transpose_b)``: C = op(A) · op(B), op(X) = X or Xᵀ;
A, B 2-D arrays of one float (or int) dtype; C has that dtype.
"""
import numpy as np

from . import reference


@reference
def matmul(a, b, transpose_a=False, transpose_b=False):
    """C[i, j] = Σ_k op(A)[i, k] · op(B)[k, j]."""
    if transpose_a:
        a = a.T
    if transpose_b:
        b = b.T
    return np.matmul(a, b)


@reference
def batch_matmul(a, b, transpose_a=False, transpose_b=False):
    """C[..., i, j] = Σ_k op(A)[..., i, k] · op(B)[..., k, j] (batch dimensions broadcast)."""
    if transpose_a:
        a = np.swapaxes(a, -1, -2)
    if transpose_b:
        b = np.swapaxes(b, -1, -2)
    return np.matmul(a, b)


@reference
def matrix_inverse(a):
    """A⁻¹ of each (..., n, n) matrix (LU with partial pivoting, LAPACK ``gesv``); a singular
    matrix gives inf/NaN entries instead of an error, as MindSpore's CPU kernel does."""
    try:
        return np.linalg.inv(a)
    except np.linalg.LinAlgError:
        return np.full(a.shape, np.nan, a.dtype)
