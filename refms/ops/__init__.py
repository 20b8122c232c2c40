"""``refms.ops``: every primitive class (``ops.Add``) and functional op (``ops.add``).

Both spellings come from one registry (:mod:`refms.ops.primitive`): a class
``ops.X`` is ``REGISTRY['X']``, a function ``ops.x`` is ``FUNCTIONAL['x']``.
"""
from . import primitive
from .primitive import Primitive, REGISTRY, FUNCTIONAL, NON_DIFFERENTIABLE
from . import functional
from .._tensor import install_ops

install_ops(functional)       # Tensor's methods and operators run these ops
from .composite import GradOperation

globals().update(REGISTRY)
globals().update(FUNCTIONAL)
