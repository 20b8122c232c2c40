"""ReverseSequence: reverse the first ``seq_lengths[b]`` entries along ``seq_dim`` of each batch row b.

    y[…, t, …, b, …] = x[…, L_b − 1 − t, …, b, …]   for t < L_b
                       x[…, t, …, b, …]             for t ≥ L_b          (L = seq_lengths)

The padding after each sequence stays in place; a length of 0 or 1 leaves the
row unchanged (MindSpore 2.10 ``ops.ReverseSequence``; it is how a
bidirectional RNN reads padded sequences backwards).  It is one ``GatherD``
along ``seq_dim`` with the index ``select(t < L, L − 1 − t, t)``; the gradient
is ``GatherD``'s (a permutation, so the incoming gradient reversed the same way).
"""
import numpy as np

from ... import dtype as mstype
from ..._tensor import Tensor
from ..primitive import F, op_error
from ._common import CompositeOp, check_int

__all__ = ["ReverseSequence", "reverse_sequence"]


def _check(x, seq_lengths, seq_dim, batch_dim):
    op = "ReverseSequence"
    if not isinstance(x, Tensor):
        raise op_error(op, f"the input argument[x] must be a Tensor, but got "
                           f"{type(x).__name__}.")
    if not isinstance(seq_lengths, Tensor):
        raise op_error(op, f"the type of input argument[seq_lengths] must be Tensor but got "
                           f"{type(seq_lengths).__name__}.")
    if seq_lengths.dtype not in (mstype.int32, mstype.int64):
        raise op_error(op, f"the input argument[seq_lengths] must be a type of {{Tensor[Int32], "
                           f"Tensor[Int64]}}, but got Tensor[{seq_lengths.dtype}].")
    ndim = len(x.shape)
    check_int(op, "seq_dim", seq_dim)
    check_int(op, "batch_dim", batch_dim)
    if not 0 <= seq_dim < ndim:
        raise op_error(op, f"the 'seq_dim' must be in range of [0, {ndim}), but got {seq_dim}.",
                       ValueError)
    if not 0 <= batch_dim < ndim:
        raise op_error(op, f"the 'batch_dim' must be in range of [0, {ndim}), but got "
                           f"{batch_dim}.", ValueError)
    if batch_dim == seq_dim:
        raise op_error(op, f"the 'batch_dim' should be != seq_dim: {seq_dim}, but got "
                           f"{batch_dim}.", ValueError)
    if tuple(seq_lengths.shape) != (x.shape[batch_dim],):
        raise op_error(op, f"the 'seq_lengths' vector size should be = input size along "
                           f"batch_dim: {x.shape[batch_dim]}, but got {seq_lengths.shape}.",
                       ValueError)
    if seq_lengths._data is not None:       # a traced graph tensor has its values only at run time
        lengths = seq_lengths.asnumpy()
        bad = np.flatnonzero((lengths < 0) | (lengths > x.shape[seq_dim]))
        if bad.size:
            raise op_error(op, f"Invalid seq_lengths[{bad[0]}]: {lengths[bad[0]]} (each length "
                               f"must be in [0, {x.shape[seq_dim]}]).", RuntimeError)


def reverse_sequence(x, seq_lengths, seq_dim, batch_dim=0):
    """``ops.reverse_sequence(x, seq_lengths, seq_dim, batch_dim=0)``."""
    _check(x, seq_lengths, seq_dim, batch_dim)
    ndim = len(x.shape)
    steps = x.shape[seq_dim]
    t_shape = [1] * ndim                          # t along seq_dim, L along batch_dim
    t_shape[seq_dim] = steps
    l_shape = [1] * ndim
    l_shape[batch_dim] = x.shape[batch_dim]
    t = F.reshape(Tensor(list(range(steps)), seq_lengths.dtype), tuple(t_shape))
    lengths = F.reshape(seq_lengths, tuple(l_shape))
    index = F.select(F.less(t, lengths), lengths - 1 - t, t + lengths * 0)
    index = F.broadcast_to(index, tuple(x.shape))
    return F.gather_d(x, seq_dim, index)


class ReverseSequence(CompositeOp):
    """``ReverseSequence(seq_dim, batch_dim=0)(x, seq_lengths)``."""

    def __init__(self, seq_dim, batch_dim=0):
        self.seq_dim = check_int("ReverseSequence", "seq_dim", seq_dim)
        self.batch_dim = check_int("ReverseSequence", "batch_dim", batch_dim)

    def __call__(self, x, seq_lengths):
        return reverse_sequence(x, seq_lengths, self.seq_dim, self.batch_dim)
