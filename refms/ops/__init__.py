"""``refms.ops``: every primitive class (``ops.Add``) and functional op (``ops.add``).

Both spellings come from one registry (:mod:`refms.ops.primitive`): a class
``ops.X`` is ``REGISTRY['X']``, a function ``ops.x`` is ``FUNCTIONAL['x']``.
"""
from . import primitive
from .primitive import Primitive, REGISTRY, FUNCTIONAL, NON_DIFFERENTIABLE
from . import functional
from .._tensor import Tensor as _Tensor, install_ops
from .. import _tensor_inplace
from .. import _tensor_inplace_index  # noqa: F401  (registers index_add_, scatter_, ...)

install_ops(functional)       # Tensor's methods and operators run these ops
_tensor_inplace.install(_Tensor)   # x.add_(y)...: the in-place methods, over the same ops
from .composite import (GradOperation, MultitypeFuncGraph, HyperMap, Map, clip_by_global_norm,
                        add_flags)
from .clip import clip_by_norm
from .meta import (Shape, DType, Rank, Size, Print, TupleToArray, ScalarToTensor, ScalarCast,
                   shape, dtype, rank, size, tuple_to_array, scalar_to_tensor, partial, constexpr,
                   tuple_len, make_range, is_tensor, Partial)
from .custom import Custom
from ..autograd.grad import grad, value_and_grad
from ..autograd.vmap import vmap
from ..autograd.jacobians import vjp, jvp, jacrev, jacfwd
from . import composite, operations, meta
from . import operations as P  # noqa: N812  (``from mindspore.ops import P`` works in MindSpore)
from . import functional as function  # ``mindspore.ops.function``: the functional ops
from .functional import tensor_add, tensor_mul, tensor_pow, tensor_floordiv  # ops.tensor_add...
from .operations import ReduceOp
from .composites import CLASSES as _COMPOSITE_CLASSES, FUNCTIONS as _COMPOSITE_FUNCTIONS

globals().update(REGISTRY)
globals().update(FUNCTIONAL)
globals().update(_COMPOSITE_CLASSES)       # ops.Pad, ops.GatherNd... (refms.ops.composites)
globals().update(_COMPOSITE_FUNCTIONS)     # ops.pad, ops.gather_nd, ops.max...
