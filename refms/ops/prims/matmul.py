"""MatMul and BatchMatMul.  No dtype promotion: both operands must share a dtype (semantics 1.7)."""
from ... import kernels
from .. import batching
from ..primitive import F, Primitive, Abstract, register, functional, op_error
from ..promotion import promote
from ._base import broadcast_shape, check_tensor, shape_str, sum_to


def _check_same_dtype(op, x, y):
    if x.dtype is not y.dtype:
        raise op_error(op, f"the type of 'x2' should be same as 'x1', but got 'x1' with type "
                           f"Tensor[{x.dtype}] and 'x2' with type Tensor[{y.dtype}].")


@register
class MatMul(Primitive):
    """C = op(A) · op(B) for 2-D A, B; op transposes when ``transpose_a``/``transpose_b``.

    dA = dC · op(B)ᵀ (transposed back if ``transpose_a``), dB = op(A)ᵀ · dC likewise.
    """
    n_tensor_inputs = 2

    def __init__(self, transpose_a=False, transpose_b=False):
        self.transpose_a = transpose_a
        self.transpose_b = transpose_b

    def infer(self, x, y):
        if len(x.shape) != 2 or len(y.shape) != 2:
            raise op_error("MatMul", f"the input 'x1' and 'x2' must be 2-D, but got x1 shape "
                                     f"{shape_str(x.shape)} and x2 shape {shape_str(y.shape)}.",
                           ValueError)
        _check_same_dtype("MatMul", x, y)
        m, k1 = x.shape[::-1] if self.transpose_a else x.shape
        k2, n = y.shape[::-1] if self.transpose_b else y.shape
        if k1 != k2 and -1 not in (k1, k2):
            raise op_error("MatMul", f"the input dimensions must be equal, but got 'x1_col': {k1} "
                                     f"and 'x2_row': {k2}. (x1 shape {shape_str(x.shape)}, x2 shape "
                                     f"{shape_str(y.shape)}, transpose_a={self.transpose_a}, "
                                     f"transpose_b={self.transpose_b})", ValueError)
        return Abstract((m, n), x.dtype)

    def batch(self, batched, x, y):
        """vmap: a BatchMatMul, whose batch axes broadcast (an unbatched operand is shared)."""
        return _BATCH[(self.transpose_a, self.transpose_b)](x, y)

    def forward(self, x, y):
        return kernels.call("matmul")(x, y, self.transpose_a, self.transpose_b)

    def bprop(self, x, y, out, dout):
        ta, tb = self.transpose_a, self.transpose_b
        if ta:
            dx = MatMul(tb, True)(y, dout)
        else:
            dx = MatMul(False, not tb)(dout, y)
        if tb:
            dy = MatMul(True, ta)(dout, x)
        else:
            dy = MatMul(not ta, False)(x, dout)
        return dx, dy


@register
class BatchMatMul(Primitive):
    """C[..., :, :] = op(A[..., :, :]) · op(B[..., :, :]); batch axes broadcast."""
    n_tensor_inputs = 2

    def __init__(self, transpose_a=False, transpose_b=False):
        self.transpose_a = transpose_a
        self.transpose_b = transpose_b

    def infer(self, x, y):
        if len(x.shape) < 2 or len(y.shape) < 2:
            raise op_error("BatchMatMul", f"the inputs must be at least 2-D, but got x shape "
                                          f"{shape_str(x.shape)} and y shape {shape_str(y.shape)}.",
                           ValueError)
        _check_same_dtype("BatchMatMul", x, y)
        m, k1 = x.shape[-1:-3:-1] if self.transpose_a else x.shape[-2:]
        k2, n = y.shape[-1:-3:-1] if self.transpose_b else y.shape[-2:]
        if k1 != k2:
            raise op_error("BatchMatMul", f"the contracted dimensions must be equal, but got {k1} "
                                          f"and {k2} (x shape {shape_str(x.shape)}, y shape "
                                          f"{shape_str(y.shape)}).", ValueError)
        batch = broadcast_shape("BatchMatMul", x.shape[:-2], y.shape[:-2])
        return Abstract(batch + (m, n), x.dtype)

    def batch(self, batched, x, y):
        """vmap: the batched operands lifted to the same per-example rank; the batch axes
        broadcast."""
        rank = max(batching.example_rank(x, batched[0]), batching.example_rank(y, batched[1]))
        x = batching.lift_rank(x, rank) if batched[0] else x
        y = batching.lift_rank(y, rank) if batched[1] else y
        return self(x, y)

    def forward(self, x, y):
        return kernels.call("batch_matmul")(x, y, self.transpose_a, self.transpose_b)

    def bprop(self, x, y, out, dout):
        ta, tb = self.transpose_a, self.transpose_b
        if ta:
            dx = BatchMatMul(tb, True)(y, dout)
        else:
            dx = BatchMatMul(False, not tb)(dout, y)
        if tb:
            dy = BatchMatMul(True, ta)(dout, x)
        else:
            dy = BatchMatMul(not ta, False)(x, dout)
        return sum_to(dx, x.shape), sum_to(dy, y.shape)


_MATMUL = {(a, b): MatMul(a, b) for a in (False, True) for b in (False, True)}
_BATCH = {(a, b): BatchMatMul(a, b) for a in (False, True) for b in (False, True)}


def matmul(input, other):
    """ops.matmul: numpy-like product (1-D operands promoted, batch axes broadcast).

    Mismatched inner dimensions raise RuntimeError: MindSpore 2.10 runs ``ops.matmul`` as
    MatMulExt, which checks them at launch (recorded); the ``ops.MatMul`` primitive raises
    ValueError at shape inference.
    """
    x, y = input, other
    check_tensor("matmul", "input", x)
    check_tensor("matmul", "other", y)
    inner_x = x.shape[-1] if len(x.shape) else None
    inner_y = y.shape[-2] if len(y.shape) > 1 else (y.shape[0] if len(y.shape) else None)
    if inner_x is not None and inner_y is not None and inner_x != inner_y and -1 not in (
            inner_x, inner_y):
        raise op_error("MatMulExt", f"shape1[-1] must be equal to shape2[-2], but got {inner_x} "
                                    f"and {inner_y} (shapes {shape_str(x.shape)} and "
                                    f"{shape_str(y.shape)}).", RuntimeError)
    if len(x.shape) == 1 and len(y.shape) == 1:
        return F.reduce_sum(x * y, (), False)
    squeeze = []
    if len(x.shape) == 1:
        x = F.expand_dims(x, 0)
        squeeze.append(-2)
    if len(y.shape) == 1:
        y = F.expand_dims(y, -1)
        squeeze.append(-1)
    if x.dtype is not y.dtype:
        common = promote(x, y)
        x, y = F.cast(x, common), F.cast(y, common)
    if len(x.shape) == 2 and len(y.shape) == 2:
        out = _MATMUL[(False, False)](x, y)
    else:
        out = _BATCH[(False, False)](x, y)
    for axis in squeeze:          # at most one: the 1-D operand's inserted axis
        out = F.squeeze(out, axis)
    return out


def bmm(input, mat2):
    """ops.bmm: batched matrix product of 3-D tensors."""
    return _BATCH[(False, False)](input, mat2)


functional("matmul", matmul)
functional("bmm", bmm)
