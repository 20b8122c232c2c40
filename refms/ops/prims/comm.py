"""Collective communication on a world of one device: AllReduce, AllGather, ReduceScatter.

refms runs one process, so every group has one rank (see
:mod:`refms.communication`).  A collective over one rank returns that rank's
data: the sum, max, min or product of one tensor is itself (AllReduce), the
concatenation of one piece along axis 0 is itself (AllGather), and so on —
exactly what MindSpore computes for a group of size 1.  The gradients are
the same collectives on ``dout``, hence identities too.
"""
from ...communication.management import _check_group as check
from ..primitive import Primitive, Abstract, register, op_error

__all__ = ["ReduceOp", "AllReduce", "AllGather", "ReduceScatter"]


class ReduceOp:
    """The reductions an AllReduce can apply (MindSpore's names)."""
    SUM = "sum"
    MAX = "max"
    MIN = "min"
    PROD = "prod"


_OPS = (ReduceOp.SUM, ReduceOp.MAX, ReduceOp.MIN, ReduceOp.PROD)


def _check_group(op, group):
    if group is not None:
        check(op, group)


class _OneRankCollective(Primitive):
    """y = x: a collective over a group of one rank."""
    n_tensor_inputs = 1

    def __init__(self, group=None):
        _check_group(self.name, group)
        self.group = group if group is not None else "hccl_world_group"

    def infer(self, x):
        if not hasattr(x, "dtype") or not hasattr(x, "shape"):
            raise op_error(self.name, f"the input should be a Tensor, but got "
                                      f"{type(x).__name__}.")
        return Abstract(x.shape, x.dtype)

    def forward(self, x):
        return x

    def bprop(self, x, out, dout):
        return (dout,)


@register
class AllReduce(_OneRankCollective):
    """y = op over the group's ranks of x; one rank: y = x."""

    def __init__(self, op=ReduceOp.SUM, group=None):
        if op not in _OPS:
            raise op_error("AllReduce", f"the 'op' should be one of {list(_OPS)}, but got {op!r}.")
        self.op = op
        super().__init__(group)


@register
class AllGather(_OneRankCollective):
    """y = concat over the group's ranks of x along axis 0; one rank: y = x."""


@register
class ReduceScatter(_OneRankCollective):
    """y = this rank's slice of op(x over ranks) along axis 0; one rank: y = x."""

    def __init__(self, op=ReduceOp.SUM, group=None):
        if op not in _OPS:
            raise op_error("ReduceScatter", f"the 'op' should be one of {list(_OPS)}, but got "
                                            f"{op!r}.")
        self.op = op
        super().__init__(group)
