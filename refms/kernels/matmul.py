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


@reference
def triangular_solve(a, b, upper, transpose, unitriangular):
    """X with op(T) · X = B for each (..., n, n) T (the upper or lower triangle of A, with a
    unit diagonal when ``unitriangular``; op(T) = Tᵀ when ``transpose``) and (..., n, k) B,
    batch dims broadcast.  Substitution, one row of X at a time::

        lower:  X[i] = (B[i] − Σ_{j<i} L[i, j]·X[j]) / L[i, i]     (i = 0, 1, …)
        upper:  X[i] = (B[i] − Σ_{j>i} U[i, j]·X[j]) / U[i, i]     (i = n − 1, …, 0)

    A zero on the diagonal gives inf/NaN entries, as LAPACK ``trtrs`` reports it instead."""
    t = np.triu(a) if upper else np.tril(a)
    if unitriangular:
        n = a.shape[-1]
        t = t * (1 - np.eye(n, dtype=a.dtype)) + np.eye(n, dtype=a.dtype)
    if transpose:
        t = np.swapaxes(t, -1, -2)
        upper = not upper
    batch = np.broadcast_shapes(t.shape[:-2], b.shape[:-2])
    t = np.broadcast_to(t, batch + t.shape[-2:])
    x = np.array(np.broadcast_to(b, batch + b.shape[-2:]), dtype=np.result_type(a, b))
    n = t.shape[-1]
    rows = range(n - 1, -1, -1) if upper else range(n)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in rows:
            solved = slice(i + 1, n) if upper else slice(0, i)
            known = np.einsum("...j,...jk->...k", t[..., i, solved], x[..., solved, :])
            x[..., i, :] = (x[..., i, :] - known) / t[..., i, i, None]
    return x


@reference
def qr(a, complete):
    """(Q, R) with A = Q·R for each (..., m, n) A: Q (..., m, K) with orthonormal columns and R
    (..., K, n) upper triangular, K = min(m, n) (``complete``: K = m, Q square).  Householder
    reflections (LAPACK ``geqrf``/``orgqr``, numpy's ``linalg.qr``): R's diagonal may be
    negative."""
    return np.linalg.qr(a, mode="complete" if complete else "reduced")
