"""``mint``'s matrix products: ``matmul``, ``mm``, ``bmm``, ``mv``, ``dot``, ``outer`` and the
``add*`` forms (``addmm``: beta·input + alpha·mat1 @ mat2)."""
from ..ops import functional as F


def matmul(input, other):                                   # noqa: A002
    """The matrix product, batched and broadcast over leading dims (NumPy's rules)."""
    return F.matmul(input, other)


def mm(input, mat2):                                        # noqa: A002
    """The product of two matrices."""
    return F.matmul(input, mat2)


def bmm(input, mat2):                                       # noqa: A002
    """The batched product of (b, n, m) and (b, m, p)."""
    return F.bmm(input, mat2)


def mv(input, vec):                                         # noqa: A002
    """The matrix-vector product."""
    return F.matmul(input, vec)


def dot(input, other):                                      # noqa: A002
    """Σᵢ input[i]·other[i] of two 1-D Tensors."""
    return F.sum(F.mul(input, other))


def vdot(input, other):                                     # noqa: A002
    """Σᵢ conj(input[i])·other[i] (real Tensors: ``dot``)."""
    return dot(input, other)


def outer(input, vec2):                                     # noqa: A002
    """out[i, j] = input[i]·vec2[j]."""
    return F.mul(F.unsqueeze(input, 1), F.unsqueeze(vec2, 0))


def _scaled(x, factor):
    return x if factor == 1 else x * factor


def addmm(input, mat1, mat2, *, beta=1, alpha=1):           # noqa: A002
    """beta·input + alpha·(mat1 @ mat2)."""
    return F.add(_scaled(input, beta), _scaled(F.matmul(mat1, mat2), alpha))


def addmv(input, mat, vec, *, beta=1, alpha=1):             # noqa: A002
    """beta·input + alpha·(mat @ vec)."""
    return F.add(_scaled(input, beta), _scaled(F.matmul(mat, vec), alpha))


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):     # noqa: A002
    """beta·input + alpha·(batch1 @ batch2), batched."""
    return F.add(_scaled(input, beta), _scaled(F.bmm(batch1, batch2), alpha))


def addbmm(input, batch1, batch2, *, beta=1, alpha=1):      # noqa: A002
    """beta·input + alpha·Σ_b batch1[b] @ batch2[b]."""
    return F.add(_scaled(input, beta), _scaled(F.sum(F.bmm(batch1, batch2), 0), alpha))


def addr(input, vec1, vec2, *, beta=1, alpha=1):            # noqa: A002
    """beta·input + alpha·outer(vec1, vec2)."""
    return F.add(_scaled(input, beta), _scaled(outer(vec1, vec2), alpha))


def cdist(x1, x2, p=2.0):
    """out[..., i, j] = ‖x1[..., i, :] − x2[..., j, :]‖_p."""
    difference = F.sub(F.unsqueeze(x1, -2), F.unsqueeze(x2, -3))
    if p == 2.0:
        return F.sqrt(F.sum(F.mul(difference, difference), -1))
    return F.pow(F.sum(F.pow(F.abs(difference), p), -1), 1.0 / p)
