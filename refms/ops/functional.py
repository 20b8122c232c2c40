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

# MindSpore 1.x names kept in ``mindspore.ops.functional`` (each is the primitive's op there).
tensor_add = FUNCTIONAL["add"]
tensor_mul = FUNCTIONAL["mul"]
tensor_pow = FUNCTIONAL["pow"]


def tensor_floordiv(input, other):               # noqa: A002  (MindSpore's parameter names)
    """``F.tensor_floordiv`` = ``floor_div`` (⌊input / other⌋)."""
    return FUNCTIONAL["floor_div"](input, other)


__all__ += ["tensor_add", "tensor_mul", "tensor_pow", "tensor_floordiv"]
