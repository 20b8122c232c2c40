"""``refms.common`` mirrors ``mindspore.common``: ``dtype``, ``Tensor``, ``Parameter``, ``initializer`` (the module)."""
import sys

from .. import dtype

# ``import mindspore.common.dtype`` works in MindSpore: make ``refms.common.dtype``
# importable as a module name too, and the very same module as ``refms.dtype``.
sys.modules[__name__ + ".dtype"] = dtype
from .._tensor import Tensor
from .tensor import tensor
from . import parameter
from ..parameter import Parameter, ParameterTuple
from . import initializer
from . import seed, api
from ..seed import set_seed, get_seed
from ..graph import jit

__all__ = ["dtype", "Tensor", "tensor", "Parameter", "ParameterTuple", "initializer", "set_seed",
           "get_seed", "jit", "seed", "api", "parameter"]
