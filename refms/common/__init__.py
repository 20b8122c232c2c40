"""``refms.common`` mirrors ``mindspore.common``: ``dtype``, ``Tensor``, ``Parameter``, ``initializer``."""
from .. import dtype
from ..tensor import Tensor
from ..parameter import Parameter, ParameterTuple

__all__ = ["dtype", "Tensor", "Parameter", "ParameterTuple"]
