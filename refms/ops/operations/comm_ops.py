"""``mindspore.ops.operations.comm_ops``: the collectives (one-device world, see ``prims/comm.py``)."""
from ..prims.comm import ReduceOp, AllReduce, AllGather, ReduceScatter

__all__ = ["ReduceOp", "AllReduce", "AllGather", "ReduceScatter"]
