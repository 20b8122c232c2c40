"""``refms.numpy`` mirrors ``mindspore.numpy``: NumPy-style functions on Tensors.

The functions mindspore-ai/models calls most (``arange``, ``zeros``, ``where``,
``concatenate``…), each a short composition of refms ops, so gradients and graph
mode come with them.  MindSpore's conventions, not NumPy's (MindSpore 2.10, recorded
in ``tests/recorders/record_numpy.py``):

* Python ints become **Int32** and floats **Float32** (``array([1, 2])``,
  ``arange(5)``, ``full((2,), 3)``); creation defaults to Float32; numpy arrays
  are rejected (``TypeError``) — give lists or Tensors;
* ``sum`` of an integer Tensor is Int64, ``mean`` of one keeps its dtype (the
  quotient truncated), ``argmax`` is Int64, ``divide`` of integers is Float32;
* ``multiply`` and ``matmul`` take Tensors only; the other binary functions also
  take Python numbers.

Reading order: :mod:`~refms.numpy.array_creations`, :mod:`~refms.numpy.array_ops`,
:mod:`~refms.numpy.math_ops`.  A name of ``mindspore.numpy`` not listed here raises
``AttributeError`` naming it.
"""
import math as _math

from .. import dtype as _mstype
from .array_creations import (array, asarray, arange, zeros, ones, full, eye, linspace,
                              zeros_like, ones_like, full_like, meshgrid, diag, tril, triu,
                              copy)
from .array_ops import (reshape, concatenate, stack, vstack, split, tile, repeat, expand_dims,
                        squeeze, broadcast_to, flip, transpose, swapaxes, ravel, pad,
                        take_along_axis)
from .math_ops import (sum, mean, where, clip, norm, sqrt, log, exp, power, square, abs,  # noqa: A004
                       reciprocal, tanh, sin, cos, minimum, maximum, multiply, divide, add,
                       subtract, floor_divide, mod, matmul, amax, amin, argmax, greater, less,
                       greater_equal, isinf)

pi = _math.pi
e = _math.e
inf = float("inf")
nan = float("nan")
float16, float32, float64 = _mstype.float16, _mstype.float32, _mstype.float64
int8, int16, int32, int64 = _mstype.int8, _mstype.int16, _mstype.int32, _mstype.int64
uint8, bool_ = _mstype.uint8, _mstype.bool_

__all__ = ["array", "asarray", "arange", "zeros", "ones", "full", "eye", "linspace",
           "zeros_like", "ones_like", "full_like", "meshgrid", "diag", "tril", "triu", "copy",
           "reshape", "concatenate", "stack", "vstack", "split", "tile", "repeat", "expand_dims",
           "squeeze", "broadcast_to", "flip", "transpose", "swapaxes", "ravel", "pad",
           "take_along_axis", "sum", "mean", "where", "clip", "norm", "sqrt", "log", "exp",
           "power", "square", "abs", "reciprocal", "tanh", "sin", "cos", "minimum", "maximum",
           "multiply", "divide", "add", "subtract", "floor_divide", "mod", "matmul", "amax",
           "amin", "argmax", "greater", "less", "greater_equal", "isinf", "pi", "e", "inf",
           "nan", "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
           "bool_"]


def __getattr__(name):
    raise AttributeError(f"refms.numpy does not implement mindspore.numpy.{name} (it has the "
                         f"{len(__all__)} names of refms.numpy.__all__).")
