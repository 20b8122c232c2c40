"""Linear algebra: MatrixInverse (``mint.inverse``, ``mint.linalg.inv``)."""
from ... import kernels
from ..primitive import F, Primitive, Abstract, register, alias, op_error
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
