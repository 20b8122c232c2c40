"""``refms.ops.operations`` mirrors ``mindspore.ops.operations`` (imported as ``P``).

Every primitive class of the registry (``P.Add``, ``P.ReduceSum``...) plus the
classes answered without running a kernel (``P.Shape``, ``P.DType``,
``P.Print``...).  The same objects as ``refms.ops.<Name>``.
"""
from .. import prims  # noqa: F401  (importing registers every primitive)
from ..primitive import REGISTRY, Primitive
from ..meta import Shape, DType, Rank, Size, Print, TupleToArray, ScalarToTensor, ScalarCast
from .comm_ops import ReduceOp
from . import comm_ops

from ..composites import CLASSES as _COMPOSITES

globals().update(REGISTRY)
globals().update(_COMPOSITES)
__all__ = sorted(REGISTRY) + sorted(_COMPOSITES) + ["Primitive", "Shape", "DType", "Rank", "Size", "Print",
                              "TupleToArray", "ScalarToTensor", "ScalarCast", "ReduceOp"]
