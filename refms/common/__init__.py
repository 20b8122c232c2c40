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

__all__ = ["dtype", "Tensor", "Parameter", "ParameterTuple", "initializer"]
