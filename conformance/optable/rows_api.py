"""Op rows for the primitives added for MindSpore API compatibility (issue 13):
Depend and the collectives on a world of one device (AllReduce, AllGather, ReduceScatter).

References: ``Depend(value, expr)`` is ``value``; a collective over a group of
one rank returns its input (MindSpore's result for a group of size 1).  The
collective rows are ``specific_to="refms"``: MindSpore runs collectives only
after ``communication.init()`` under a distributed launcher.
"""
import numpy as np

from . import ms
from .spec import OpRow

#: The implementation under test (see the package docstring).
ops = ms.ops


def _randn(*shapes):
    def make(rng):
        return [rng.standard_normal(s).astype(np.float32) for s in shapes]
    return make


ROWS = [
    OpRow("Depend", lambda v, e: ops.depend(v, e), lambda v, e: v, _randn((2, 3), (4,)),
          id="Depend", grad_inputs=(0,)),
    OpRow("Depend", lambda v, e: ops.Depend()(v * 2.0, e), lambda v, e: v * 2.0,
          _randn((3,), (3,)), id="Depend-class", grad_inputs=(0,)),
    OpRow("AllReduce", lambda x: ops.AllReduce()(x), lambda x: x, _randn((2, 3)), id="AllReduce",
          errors=[([None], TypeError)], specific_to="refms"),
    OpRow("AllReduce", lambda x: ops.AllReduce(ops.ReduceOp.MAX)(x), lambda x: x, _randn((4,)),
          id="AllReduce-max", specific_to="refms"),
    OpRow("AllGather", lambda x: ops.AllGather()(x), lambda x: x, _randn((2, 3)), id="AllGather",
          errors=[([None], TypeError)], specific_to="refms"),
    OpRow("ReduceScatter", lambda x: ops.ReduceScatter()(x), lambda x: x, _randn((2, 2)),
          id="ReduceScatter", specific_to="refms"),
]
