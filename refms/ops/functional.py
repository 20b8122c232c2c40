"""``refms.ops.functional``: every functional op (``add``, ``reduce_sum``, ...) as a module attribute.

The names come from the registry (:data:`refms.ops.primitive.FUNCTIONAL`),
filled as the primitive modules in :mod:`refms.ops.prims` are imported.
"""
from . import prims  # noqa: F401  (importing registers every primitive and functional name)
from .primitive import FUNCTIONAL
from .keywords import apply_signatures

apply_signatures(FUNCTIONAL)      # MindSpore's parameter names as keywords (refms.ops.keywords)

from . import meta as _meta
from .meta import (shape, dtype, rank, size, tuple_to_array, scalar_to_tensor,  # noqa: F401
                   partial, tuple_len, make_range)

globals().update(FUNCTIONAL)
from .composites import FUNCTIONS as _COMPOSITES  # noqa: E402  (pad, gather_nd, max, norm...)
globals().update(_COMPOSITES)
__all__ = sorted(FUNCTIONAL) + ["shape", "dtype", "rank", "size", "tuple_to_array",
                                "scalar_to_tensor", "partial", "tuple_len", "make_range"]
__all__ += sorted(_COMPOSITES)
