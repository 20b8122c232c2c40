"""Default initialisation of Dense and Conv2d, which changed in MindSpore 2.0 (semantics 8.1, 8.2).

=========  =========================================  =====================
compat     weight                                     bias
=========  =========================================  =====================
2.x        ``HeUniform(√5)``, i.e. U(±1/√fan_in)      ``Uniform(1/√fan_in)``
r1.x       ``'normal'``, i.e. N(0, 0.01²)             ``'zeros'``
=========  =========================================  =====================

(MindSpore 2.10 ``nn/layer/basic.py`` and ``conv.py``; r1.5–r1.10 API docs.)
"""
import math

from ... import compat
from ...initializer import HeUniform, Uniform

__all__ = ["default_weight_init", "default_bias_init"]


def default_weight_init():
    return HeUniform(math.sqrt(5)) if compat.behaviour("default_init") == "2.x" else "normal"


def default_bias_init(fan_in):
    return Uniform(1 / math.sqrt(fan_in)) if compat.behaviour("default_init") == "2.x" else "zeros"
