"""Linear algebra: MatrixInverse (``mint.inverse``, ``mint.linalg.inv``), TriangularSolve
(``mint.triangular_solve``) and LinalgQr (``mint.linalg.qr``)."""
import numpy as np

from ... import kernels
from ..._tensor import Tensor
from ..primitive import F, Primitive, Abstract, register, alias, op_error
from ._base import broadcast_shape, shape_str, sum_to
from .unary import reject_non_float


@register
class MatrixInverse(Primitive):
    """Y = X⁻¹ for each (..., n, n) matrix; ∂L/∂X = −Yᵀ · ∂L/∂Y · Yᵀ.

    ``adjoint=True`` inverts the conjugate transpose (for real matrices, Xᵀ).
    """
    n_tensor_inputs = 1

    def __init__(self, adjoint=False):
        self.adjoint = adjoint

    def infer(self, x):
        reject_non_float(self.name, x)
        shape = tuple(x.shape)
        if len(shape) < 2 or shape[-1] != shape[-2]:
            raise op_error("MatrixInverse", f"the input must be square matrices of shape "
                                            f"[..., n, n], but got {list(shape)}.", ValueError)
        return Abstract(shape, x.dtype)

    def forward(self, x):
        if self.adjoint:
            rank = len(x.shape)
            x = kernels.call("transpose")(x, tuple(range(rank - 2)) + (rank - 1, rank - 2))
        return kernels.call("matrix_inverse")(x)

    def bprop(self, x, out, dout):
        rank = len(out.shape)
        swap = tuple(range(rank - 2)) + (rank - 1, rank - 2)
        y_t = F.transpose(out, swap)
        dx = -F.matmul(F.matmul(y_t, dout), y_t)
        return (F.transpose(dx, swap) if self.adjoint else dx,)


alias("matrix_inverse", MatrixInverse())


def _swap(x):
    """The matrix transpose of each (..., m, n) matrix."""
    rank = len(x.shape)
    return F.transpose(x, tuple(range(rank - 2)) + (rank - 1, rank - 2))


def _triangle_mask(n, upper, strict, dtype):
    """1 on the upper (lower) triangle of an n × n matrix, the diagonal too unless ``strict``."""
    ones = np.ones((n, n))
    mask = np.triu(ones, 1 if strict else 0) if upper else np.tril(ones, -1 if strict else 0)
    return Tensor(mask, dtype)


@register
class TriangularSolve(Primitive):
    """(X, A) with op(T)·X = B: T the upper (``upper``) or lower triangle of A, its diagonal
    taken as ones when ``unitriangular``, op(T) = Tᵀ when ``transpose``; batch dims broadcast.

    Gradients (op(T) = T; with Tᵀ swap the roles of X and ∂B in the outer product)::

        ∂B = op(T)⁻ᵀ·∂X  (a triangular solve with the other ``transpose``)
        ∂A = −∂B·Xᵀ on T's triangle (strict when ``unitriangular``) + ∂(the A returned)
    """
    n_tensor_inputs = 2
    n_outputs = 2

    def __init__(self, upper=True, transpose=False, unitriangular=False):
        self.upper, self.transpose, self.unitriangular = upper, transpose, unitriangular

    def infer(self, b, a):
        op = "TriangularSolve"
        reject_non_float(op, b)
        reject_non_float(op, a)
        if len(a.shape) < 2 or a.shape[-1] != a.shape[-2]:
            raise op_error(op, f"the 'A' must be square matrices (..., n, n), but got shape "
                               f"{shape_str(a.shape)}.", ValueError)
        if len(b.shape) < 2 or b.shape[-2] != a.shape[-1]:
            raise op_error(op, f"the 'b' must be (..., {a.shape[-1]}, k) for A of shape "
                               f"{shape_str(a.shape)}, but got shape {shape_str(b.shape)}.",
                           ValueError)
        if a.dtype is not b.dtype:
            raise op_error(op, f"the 'b' and 'A' must have one dtype, but got {b.dtype} and "
                               f"{a.dtype}.")
        batch = broadcast_shape(op, tuple(b.shape[:-2]), tuple(a.shape[:-2]))
        return (Abstract(batch + tuple(b.shape[-2:]), b.dtype),
                Abstract(batch + tuple(a.shape[-2:]), a.dtype))

    def forward(self, b, a):
        x = kernels.call("triangular_solve")(a, b, self.upper, self.transpose,
                                             self.unitriangular)
        clone = kernels.call("broadcast_to")(a, tuple(x.shape[:-2]) + tuple(a.shape[-2:]))
        return x, kernels.call("copy")(clone)

    def bprop(self, b, a, out, dout):
        x, dx, dclone = out[0], dout[0], dout[1]
        db = TriangularSolve(self.upper, not self.transpose, self.unitriangular)(dx, a)[0]
        outer = F.matmul(x, _swap(db)) if self.transpose else F.matmul(db, _swap(x))
        mask = _triangle_mask(a.shape[-1], self.upper, self.unitriangular, a.dtype)
        da = -outer * mask + dclone
        return sum_to(db, tuple(b.shape)), sum_to(da, tuple(a.shape))


@register
class LinalgQr(Primitive):
    """(Q, R) = the QR factorization A = Q·R of each (..., m, n) matrix; ``mode`` 'reduced'
    (Q (m, K), R (K, n), K = min(m, n)), 'complete' (Q (m, m), R (m, n)) or 'r' (R only, Q
    an empty tensor).  Householder, as LAPACK (R's diagonal may be negative).

    Gradient for m ≥ n ('reduced', or 'complete' with m = n) — PyTorch's
    ``linalg_qr_backward``, after Walter & Lehmann, "Algorithmic differentiation of linear
    algebra functions with application in optimum experimental design" (2018)::

        M = R·∂Rᵀ − ∂Qᵀ·Q,    ∂A = (∂Q + Q·copyltu(M))·R⁻ᵀ

    copyltu(M) the symmetric matrix with M's lower triangle; R⁻ᵀ a triangular solve.
    """
    n_tensor_inputs = 1
    n_outputs = 2

    def __init__(self, mode="reduced"):
        if mode not in ("reduced", "complete", "r"):
            raise op_error("LinalgQr", f"the 'mode' must be one of ['reduced', 'complete', "
                                       f"'r'], but got {mode!r}.", ValueError)
        self.mode = mode

    def infer(self, a):
        reject_non_float("LinalgQr", a)
        if len(a.shape) < 2:
            raise op_error("LinalgQr", f"the 'A' must have at least 2 dims (..., m, n), but got "
                                       f"shape {shape_str(a.shape)}.", ValueError)
        m, n = a.shape[-2:]
        k = m if self.mode == "complete" else min(m, n)
        batch = tuple(a.shape[:-2])
        q_shape = (0,) if self.mode == "r" else batch + (m, k)
        return Abstract(q_shape, a.dtype), Abstract(batch + (k, n), a.dtype)

    def forward(self, a):
        q, r = kernels.call("qr")(a, self.mode == "complete")
        if self.mode == "r":
            q = kernels.call("full")((0,), 0, q.dtype)
        return q, r

    def bprop(self, a, out, dout):
        m, n = a.shape[-2:]
        if m < n or self.mode == "r" or (self.mode == "complete" and m != n):
            raise op_error("LinalgQr", f"the gradient is defined for mode 'reduced' with m >= n "
                                       f"(or 'complete' with m = n), but got mode "
                                       f"{self.mode!r} and A of shape {shape_str(a.shape)}.",
                           NotImplementedError)
        q, r = out
        dq, dr = dout
        m_matrix = F.matmul(r, _swap(dr)) - F.matmul(_swap(dq), q)
        lower = m_matrix * _triangle_mask(n, False, True, a.dtype)
        diagonal = m_matrix * Tensor(np.eye(n), a.dtype)
        symmetric = lower + _swap(lower) + diagonal
        b = dq + F.matmul(q, symmetric)
        # ∂A = b·R⁻ᵀ, i.e. ∂Aᵀ = R⁻¹·bᵀ: a triangular solve with the upper R.
        da_t = TriangularSolve(upper=True)(_swap(b), r)[0]
        return (_swap(da_t),)
