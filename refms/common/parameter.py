"""``refms.common.parameter`` mirrors ``mindspore.common.parameter``.

The classes live in :mod:`refms.parameter`; this module gives them MindSpore's
import path (``from mindspore.common.parameter import Parameter``).
"""
from ..parameter import Parameter, ParameterTuple

__all__ = ["Parameter", "ParameterTuple"]
