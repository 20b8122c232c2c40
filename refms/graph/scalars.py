"""Python floats computed inside a graph are single precision, as MindSpore's are.

MindSpore's IR keeps a float scalar as ``FP32Imm``, a 32-bit float: what a
graph computes from numbers (``a * 2``, ``x.shape[0] * 0.1``, ``float(-123.6)``)
is rounded to float32 and comes back to Python as that value widened to double
(``-123.5999984741211``).  A literal, global or attribute the graph returns as it
is, or an argument passed through, keeps its Python value (MindSpore 2.10, recorded by
``tests/recorders/record_tutorials.py``, "graph_float_scalars"; the tutorial
"Python built-in functions", ``float``).

refms evaluates such arithmetic on the Python values while compiling and rounds
each float result of a scalar operation with ``float32_scalar``.
"""
import builtins
import operator

import numpy as np

__all__ = ["SCALAR_FLOAT_OPS", "float32_scalar"]

#: The Python operations on numbers whose float results a graph keeps in single precision.
SCALAR_FLOAT_OPS = frozenset({
    operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv, operator.mod,
    operator.pow, operator.neg, operator.pos, builtins.float, builtins.abs})


def float32_scalar(value):
    """``value`` rounded to the nearest float32, as a Python float."""
    return float(np.float32(value))
