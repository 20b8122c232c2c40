"""``refms.common`` mirrors ``mindspore.common``: ``dtype``, ``Tensor``, ``Parameter``, ``initializer`` (the module)."""
from .. import dtype
from ..tensor import Tensor
from ..parameter import Parameter, ParameterTuple
from . import initializer

__all__ = ["dtype", "Tensor", "Parameter", "ParameterTuple", "initializer"]
