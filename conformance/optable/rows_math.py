"""Op-table rows for the math primitives: arithmetic, unary, comparison, cast, shape,
reduction, matmul, fill, indexing and HookBackward (``refms/ops/prims``).

Each row calls the primitive the way MindSpore code does (``ops.Add()(x, y)``,
``ops.ReduceSum(keep_dims=True)(x, axis)``) and states the numpy reference next
to it.  Expected dtypes that differ from numpy's are MindSpore's, checked on
MindSpore 2.10: e.g. ``Int32 / Int32`` is Float32 with ``Div``
but Int32 (truncated) with ``RealDiv``; int reductions keep their dtype.
"""
import operator
from functools import partial

import numpy as np

from . import ms
from .samples import bools, f32, i32, randn
from .spec import OpRow

#: The implementation under test (see the package docstring).
ops = ms.ops


# -- how rows call primitives and sample inputs -----------------------------------------------

def call(prim, *constants):
    """``prim(*tensors, *constants)``: the tensors first, then constant inputs (axis, shape...)."""
    def run(*tensors):
        return prim(*tensors, *constants)
    run.__name__ = f"{prim!r}{constants}"
    return run


def randint(low, high, *shapes, dtype=np.int32):
    """Integers in [low, high) of the given shapes."""
    def make(rng):
        return [rng.integers(low, high, shape).astype(dtype) for shape in shapes]
    return make


def nonzero(*shapes):
    """Samples kept away from zero (|x| > 0.5)."""
    def make(rng):
        samples = [rng.standard_normal(shape) for shape in shapes]
        return [np.where(x < 0, x - 0.5, x + 0.5).astype(np.float32) for x in samples]
    return make


def nonzero_divisor(x_shape, y_shape):
    """A numerator and a divisor kept away from zero (|y| > 0.5)."""
    def make(rng):
        x = rng.standard_normal(x_shape).astype(np.float32)
        return [x] + nonzero(y_shape)(rng)
    return make


def positive(*shapes):
    """Samples in [0.5, ∞)."""
    def make(rng):
        return [(np.abs(rng.standard_normal(shape)) + 0.5).astype(np.float32) for shape in shapes]
    return make


def spread(*shapes):
    """Normal samples with standard deviation 3 (several integers apart)."""
    def make(rng):
        return [(3 * rng.standard_normal(shape)).astype(np.float32) for shape in shapes]
    return make


def small_ints_as_float(*shapes):
    """Float32 values in {0, 1, 2}: comparisons then see plenty of ties."""
    def make(rng):
        return [rng.integers(0, 3, shape).astype(np.float32) for shape in shapes]
    return make


def identity_hook(grads):
    """A HookBackward function that keeps the gradients (returns None)."""
    return None


# -- arithmetic (refms/ops/prims/arithmetic.py) -----------------------------------------------

ARITHMETIC = [
    OpRow("Add", ops.Add(), np.add, randn((2, 3), (2, 3))),
    OpRow("Add", ops.Add(), np.add, randn((2, 3), (3,)), id="Add-broadcast-row"),
    OpRow("Add", ops.Add(), np.add, randn((3, 1), (1, 4)), id="Add-broadcast-outer"),
    OpRow("Add", ops.Add(), np.add, randn((2, 1, 3), (4, 1)), id="Add-broadcast-rank3"),
    OpRow("Add", ops.add, np.add, lambda rng: [rng.standard_normal((2, 3)).astype(np.float32), 2.5],
          id="Add-python-float"),
    OpRow("Add", ops.add, np.add, randint(-5, 5, (2, 3), (2, 3)), id="Add-int32"),
    OpRow("Add", ops.add, np.add, lambda rng: [rng.integers(-5, 5, (2, 3)).astype(np.int32),
                                               rng.standard_normal((2, 3)).astype(np.float32)],
          out_dtype="Float32", id="Add-int32-float32"),
    OpRow("Add", ops.add, np.add, [np.array([1, 2, -3]), np.array([0.5, 1.5, 2.0], np.float16)],
          out_dtype="Float16", id="Add-int64-float16"),
    # Bool ⊕ Bool through the operators (MindSpore 2.10's Add/Sub primitives reject Bool inputs,
    # the Tensor operators accept them and stay Bool; checked on MindSpore 2.10).
    OpRow("Add", operator.add, np.add, [bools([True, False]), bools([True, True])],
          id="Add-bool-operator"),
    OpRow("Add", ops.Add(), np.add, randn((2, 3), (3,)),
          errors=[([np.ones((2, 3), np.float32), np.ones((4,), np.float32)], ValueError)],
          id="Add-broadcast-mismatch"),
    OpRow("Sub", ops.Sub(), np.subtract, randn((2, 3), (2, 3))),
    OpRow("Sub", ops.Sub(), np.subtract, randn((4, 1), (3,)), id="Sub-broadcast"),
    OpRow("Sub", operator.sub, np.not_equal,
          [bools([True, False, True]), bools([True, True, False])], id="Sub-bool-operator"),
    OpRow("Mul", ops.Mul(), np.multiply, randn((2, 3), (2, 3))),
    OpRow("Mul", ops.Mul(), np.multiply, randn((2, 1, 3), (5, 1)), id="Mul-broadcast"),
    OpRow("Mul", ops.mul, np.multiply, [i32([1, 2, 3]), bools([True, False, True])],
          id="Mul-int32-bool"),
    OpRow("RealDiv", ops.RealDiv(), np.true_divide, nonzero_divisor((2, 3), (2, 3)),
          domain="nonzero"),
    OpRow("RealDiv", ops.RealDiv(), np.true_divide, nonzero_divisor((2, 3), (3,)),
          domain="nonzero", id="RealDiv-broadcast"),
    OpRow("RealDiv", ops.RealDiv(), lambda x, y: np.trunc(x / y).astype(np.int32),
          [i32([3, -7, 8]), i32([2, 2, -3])], id="RealDiv-int32-truncates"),
    OpRow("Div", ops.Div(), np.true_divide, nonzero_divisor((3, 2), (3, 2)), domain="nonzero"),
    OpRow("Div", ops.Div(), np.true_divide, [i32([3, -7, 8]), i32([2, 2, -3])],
          out_dtype="Float32", id="Div-int32"),
    OpRow("FloorDiv", ops.FloorDiv(), np.floor_divide, nonzero_divisor((2, 3), (2, 3))),
    OpRow("FloorDiv", ops.FloorDiv(), np.floor_divide, [i32([7, -7, 7, -7]), i32([2, 2, -2, -2])],
          id="FloorDiv-int32"),
    OpRow("FloorMod", ops.FloorMod(), np.mod, nonzero_divisor((2, 3), (2, 3)), domain="nonzero"),
    OpRow("FloorMod", ops.FloorMod(), np.mod, [i32([7, -7, 7, -7]), i32([3, 3, -3, -3])],
          id="FloorMod-int32"),
    OpRow("Mod", ops.Mod(), np.fmod, nonzero_divisor((2, 3), (2, 3)), domain="nonzero"),
    OpRow("Mod", ops.Mod(), np.fmod, [i32([7, -7, 7, -7]), i32([3, 3, -3, -3])], id="Mod-int32"),
    OpRow("SquaredDifference", ops.SquaredDifference(), lambda x, y: np.square(x - y),
          randn((2, 3), (2, 3)),
          errors=[([bools([True]), bools([False])], TypeError),
                  ([np.ones((2, 3), np.float32), np.ones((3, 2), np.float32)], ValueError)]),
    OpRow("SquaredDifference", ops.SquaredDifference(), lambda x, y: np.square(x - y),
          randn((2, 1), (3,)), id="SquaredDifference-broadcast"),
    OpRow("SquaredDifference", ops.SquaredDifference(), lambda x, y: np.square(x - y),
          randint(-5, 5, (2, 3), (2, 3)), id="SquaredDifference-int32"),
    OpRow("Pow", ops.Pow(), np.power, positive((2, 3), (2, 3)), domain="positive"),
    OpRow("Pow", ops.pow, np.power, lambda rng: [rng.standard_normal((2, 3)).astype(np.float32), 3],
          id="Pow-python-int-exponent"),
    OpRow("Pow", ops.pow, np.power, [i32([1, -2, 3]), 2], id="Pow-int32-square"),
    OpRow("Maximum", ops.Maximum(), np.maximum, randn((2, 3), (2, 3))),
    OpRow("Maximum", ops.Maximum(), np.maximum, randn((2, 3), (3,)), id="Maximum-broadcast"),
    # ties: the value is unambiguous; the gradient splits 0.5/0.5 (test_autodiff checks it).
    OpRow("Maximum", ops.Maximum(), np.maximum, [f32([1, 2, 3]), f32([1, 0, 3])], grad=False,
          id="Maximum-ties"),
    OpRow("Maximum", ops.maximum, np.maximum, [i32([1, 5, -2]), 3], id="Maximum-int32-scalar"),
    OpRow("Maximum", ops.maximum, np.maximum, [i32([1, 5]), f32([2.5, 2.5])], out_dtype="Float32",
          id="Maximum-int32-float32"),
    OpRow("Minimum", ops.Minimum(), np.minimum, randn((2, 3), (2, 3))),
    OpRow("Minimum", ops.Minimum(), np.minimum, randn((4, 1), (1, 3)), id="Minimum-broadcast"),
    OpRow("Minimum", ops.Minimum(), np.minimum, [f32([1, 2, 3]), f32([1, 0, 3])], grad=False,
          id="Minimum-ties"),
]


# -- unary (refms/ops/prims/unary.py) ----------------------------------------------------------

def erf(x):
    from scipy.special import erf as scipy_erf
    return scipy_erf(x)


def erfinv(x):
    from scipy.special import erfinv as scipy_erfinv
    return scipy_erfinv(x)


UNARY = [
    OpRow("Neg", ops.Neg(), np.negative, randn((2, 3))),
    OpRow("Neg", ops.Neg(), np.negative, [i32([1, -2, 0])], id="Neg-int32"),
    OpRow("Abs", ops.Abs(), np.abs, randn((2, 3)), domain="nonzero"),
    OpRow("Abs", ops.Abs(), np.abs, [i32([-4, 9, 0])], id="Abs-int32"),
    OpRow("Square", ops.Square(), np.square, randn((2, 3))),
    OpRow("Square", ops.Square(), np.square, [i32([1, -5])], id="Square-int32"),
    OpRow("Sqrt", ops.Sqrt(), np.sqrt, positive((2, 3)), domain="positive"),
    OpRow("Sqrt", ops.Sqrt(), np.sqrt, [i32([4, 9, 2])], out_dtype="Float32", id="Sqrt-int32"),
    OpRow("Rsqrt", ops.Rsqrt(), lambda x: 1 / np.sqrt(x), positive((2, 3)), domain="positive"),
    OpRow("Reciprocal", ops.Reciprocal(), np.reciprocal, nonzero((2, 3)), domain="nonzero"),
    OpRow("Reciprocal", ops.Reciprocal(), lambda x: 1 / x, [i32([1, 5])], out_dtype="Float32",
          id="Reciprocal-int32"),
    OpRow("Exp", ops.Exp(), np.exp, randn((2, 3))),
    OpRow("Log", ops.Log(), np.log, positive((2, 3)), domain="positive"),
    OpRow("Log1p", ops.Log1p(), np.log1p, positive((2, 3)), domain="positive"),
    OpRow("Expm1", ops.Expm1(), np.expm1, randn((2, 3))),
    OpRow("Sin", ops.Sin(), np.sin, randn((2, 3))),
    OpRow("Cos", ops.Cos(), np.cos, randn((2, 3))),
    OpRow("Erf", ops.Erf(), erf, randn((2, 3))),
    # inverse trigonometric functions (refms/ops/prims/trig.py): |x| < 1 for asin and acos
    OpRow("Asin", ops.Asin(), np.arcsin, [f32([[-0.8, -0.3, 0.0], [0.2, 0.5, 0.85]])],
          domain="unit", errors=[([i32([0, 1])], TypeError)]),
    OpRow("ACos", ops.ACos(), np.arccos, [f32([[-0.8, -0.3, 0.0], [0.2, 0.5, 0.85]])],
          domain="unit", errors=[([i32([0, 1])], TypeError)]),
    OpRow("Atan", ops.Atan(), np.arctan, spread((2, 3)), errors=[([i32([0, 1])], TypeError)]),
    OpRow("Atan2", ops.Atan2(), np.arctan2, spread((2, 3), (2, 3)), domain="nonzero",
          errors=[([i32([0, 1]), i32([1, 1])], TypeError),
                  ([np.ones((2, 3), np.float32), np.ones((3, 2), np.float32)], ValueError)]),
    OpRow("Atan2", ops.Atan2(), np.arctan2, spread((2, 1), (1, 3)), domain="nonzero",
          id="Atan2-broadcast"),
    OpRow("Erfinv", ops.Erfinv(), erfinv, [f32([[-0.8, -0.3, 0.0], [0.2, 0.5, 0.85]])],
          domain="unit", errors=[([i32([0, 1])], TypeError)]),
    # MatrixInverse (refms/ops/prims/linalg.py): diagonally dominant, so well conditioned
    OpRow("MatrixInverse", ops.MatrixInverse(), np.linalg.inv,
          lambda rng: [(rng.standard_normal((2, 3, 3)) + 4 * np.eye(3)).astype(np.float32)],
          rtol=1e-4, errors=[([np.ones((2, 3), np.float32)], ValueError),
                             ([np.eye(2, dtype=np.int32)], TypeError)]),
    OpRow("MatrixInverse", ops.MatrixInverse(adjoint=True),
          lambda x: np.linalg.inv(np.swapaxes(x, -1, -2)),
          lambda rng: [(rng.standard_normal((3, 3)) + 4 * np.eye(3)).astype(np.float32)],
          rtol=1e-4, id="MatrixInverse-adjoint"),
    # rounding: gradient zero almost everywhere (samples are never within h of a jump)
    OpRow("Floor", ops.Floor(), np.floor, spread((2, 3))),
    OpRow("Ceil", ops.Ceil(), np.ceil, spread((2, 3))),
    OpRow("Trunc", ops.Trunc(), np.trunc, spread((2, 3))),
    OpRow("Round", ops.Round(), np.round, spread((2, 3))),
    # halves round to even (MindSpore 2.10 CPU: [0.5, 1.5, 2.5, -0.5, -1.5] -> [0, 2, 2, -0, -2]).
    OpRow("Round", ops.Round(), np.round, [f32([0.5, 1.5, 2.5, -0.5, -1.5])], grad=False,
          id="Round-half-to-even"),
    OpRow("Sign", ops.Sign(), np.sign, [f32([-2.5, 0, 3])]),
    OpRow("Sign", ops.Sign(), np.sign, [i32([-3, 0, 2])], id="Sign-int32"),
]


# -- comparison and logic (refms/ops/prims/compare.py) -----------------------------------------

COMPARE = [
    OpRow("Equal", ops.Equal(), np.equal, small_ints_as_float((3, 4), (3, 4))),
    OpRow("Equal", ops.equal, np.equal, [i32([1, 5]), f32([1.0, 2.0])], id="Equal-int32-float32"),
    OpRow("NotEqual", ops.NotEqual(), np.not_equal, small_ints_as_float((3, 4), (4,))),
    OpRow("Greater", ops.Greater(), np.greater, small_ints_as_float((3, 4), (3, 4))),
    OpRow("Greater", ops.greater, np.greater, [f32([1.0, 2.0]), 1], id="Greater-python-int"),
    OpRow("GreaterEqual", ops.GreaterEqual(), np.greater_equal, small_ints_as_float((3, 1), (4,))),
    OpRow("Less", ops.Less(), np.less, small_ints_as_float((3, 4), (3, 4))),
    OpRow("LessEqual", ops.LessEqual(), np.less_equal, small_ints_as_float((2, 3), (2, 3))),
    OpRow("LogicalAnd", ops.LogicalAnd(), np.logical_and,
          [bools([True, True, False, False]), bools([True, False, True, False])]),
    # MindSpore 2.10 takes non-Bool inputs too (nonzero is True).
    OpRow("LogicalAnd", ops.LogicalAnd(), np.logical_and, [f32([0, 1, 2]), f32([1, 1, 0])],
          grad=False, id="LogicalAnd-float32"),
    OpRow("LogicalOr", ops.LogicalOr(), np.logical_or,
          [bools([True, True, False, False]), bools([[True], [False]])]),
    OpRow("LogicalNot", ops.LogicalNot(), np.logical_not, [bools([True, False])]),
    OpRow("LogicalNot", ops.LogicalNot(), np.logical_not, [f32([0, 1, 2])],
          id="LogicalNot-float32"),
    OpRow("IsNan", ops.IsNan(), np.isnan, [f32([0, np.nan, np.inf, -np.inf, 1.5])]),
    OpRow("IsInf", ops.IsInf(), np.isinf, [f32([0, np.nan, np.inf, -np.inf, 1.5])]),
    OpRow("IsFinite", ops.IsFinite(), np.isfinite, [f32([0, np.nan, np.inf, -np.inf, 1.5])]),
]


# -- cast, identity, stop_gradient (refms/ops/prims/cast.py) ------------------------------------

CAST = [
    # float -> int truncates toward zero (checked on MindSpore 2.10).
    OpRow("Cast", call(ops.Cast(), ms.int32), lambda x: x.astype(np.int32),
          [f32([2.7, -2.7, 0.5, -0.5])], grad=False, id="Cast-float32-int32"),
    OpRow("Cast", call(ops.Cast(), ms.float16), lambda x: x.astype(np.float16),
          randn((2, 3)), grad=False, rtol=1e-3, id="Cast-float32-float16"),
    OpRow("Cast", call(ops.Cast(), ms.float64), lambda x: x.astype(np.float64),
          randn((2, 3)), id="Cast-to-float64"),
    OpRow("Cast", call(ops.Cast(), ms.bool_), lambda x: x.astype(np.bool_),
          [f32([0, 0.3, -2])], grad=False, id="Cast-float32-bool"),
    OpRow("Cast", call(ops.Cast(), ms.float32), lambda x: x.astype(np.float32),
          [bools([True, False])], id="Cast-bool-float32"),
    OpRow("Cast", call(ops.Cast(), ms.int64), lambda x: x.astype(np.int64),
          [i32([1, -2])], id="Cast-int32-int64"),
    OpRow("Identity", ops.Identity(), np.copy, randn((2, 3))),
    OpRow("StopGradient", ops.StopGradient(), np.copy, randn((2, 3))),
]


# -- shape manipulation (refms/ops/prims/shape.py) ---------------------------------------------

SHAPE = [
    # Constant inputs (shape, perm, axis) sit in the sample list, so error cases can vary them.
    OpRow("Reshape", ops.Reshape(), np.reshape, lambda rng: [randn((2, 3, 4))(rng)[0], (6, 4)],
          errors=[([np.ones((2, 3), np.float32), (6, 4)], ValueError),
                  ([np.ones((6, 4), np.float32), (-1, -1)], ValueError),
                  ([np.ones((6, 4), np.float32), (-1, 5)], ValueError)]),
    OpRow("Reshape", ops.Reshape(), np.reshape, lambda rng: [randn((2, 3, 4))(rng)[0], (-1, 2)],
          id="Reshape-inferred-dim"),
    OpRow("Transpose", ops.Transpose(), np.transpose,
          lambda rng: [randn((2, 3, 4))(rng)[0], (2, 0, 1)],
          errors=[([np.ones((2, 3, 4), np.float32), (0, 0, 1)], ValueError),
                  ([np.ones((2, 3, 4), np.float32), (1, 0)], ValueError)]),
    OpRow("ExpandDims", ops.ExpandDims(), np.expand_dims, lambda rng: [randn((2, 3))(rng)[0], 0],
          errors=[([np.ones((2, 3), np.float32), 5], ValueError),
                  ([np.ones((2, 3), np.float32), -4], ValueError)]),
    OpRow("ExpandDims", ops.ExpandDims(), np.expand_dims, lambda rng: [randn((2, 3))(rng)[0], -1],
          id="ExpandDims-last"),
    OpRow("Squeeze", ops.Squeeze(), np.squeeze, randn((2, 1, 3, 1))),
    OpRow("Squeeze", ops.Squeeze(1), partial(np.squeeze, axis=1), randn((2, 1, 3, 1)),
          id="Squeeze-axis"),
    OpRow("Squeeze", ops.Squeeze((1, -1)), partial(np.squeeze, axis=(1, 3)), randn((2, 1, 3, 1)),
          id="Squeeze-axes"),
    OpRow("Flatten", ops.Flatten(), lambda x: x.reshape(x.shape[0], -1), randn((2, 3, 4))),
    OpRow("BroadcastTo", ops.BroadcastTo((4, 2, 3)), partial(np.broadcast_to, shape=(4, 2, 3)),
          randn((2, 1))),
    OpRow("BroadcastTo", ops.BroadcastTo((2, -1, 3)), partial(np.broadcast_to, shape=(2, 1, 3)),
          randn((1, 3)), id="BroadcastTo-keep-dim"),
    OpRow("BroadcastTo", ops.BroadcastTo((4, 5)), partial(np.broadcast_to, shape=(4, 5)),
          randn((1, 5)), errors=[([np.ones((2, 3), np.float32)], ValueError)],
          id="BroadcastTo-mismatch"),
    OpRow("Tile", call(ops.Tile(), (2, 1)), partial(np.tile, reps=(2, 1)), randn((2, 3))),
    OpRow("Tile", call(ops.Tile(), (2, 1, 2)), partial(np.tile, reps=(2, 1, 2)), randn((2, 3)),
          id="Tile-more-multiples"),
    # fewer multiples than axes: padded with leading 1s (MindSpore 2.10: (1, 3) by (2,) -> (1, 6)).
    OpRow("Tile", call(ops.Tile(), (2,)), partial(np.tile, reps=(2,)), randn((2, 3)),
          id="Tile-fewer-multiples"),
]


# -- reductions (refms/ops/prims/reduce.py) ----------------------------------------------------

def _numpy_axis(axis):
    """MindSpore's ``axis=()`` means every axis; numpy spells that ``None``."""
    return None if axis == () else axis


def reduction_rows(prim_class, numpy_fn):
    """Four rows per reduction: all axes, one axis, two kept axes, a negative axis."""
    rows = []
    for axis, keep_dims in (((), False), (1, False), ((0, 2), True), (-1, False)):
        rows.append(OpRow(
            prim_class.__name__, call(prim_class(keep_dims), axis),
            partial(numpy_fn, axis=_numpy_axis(axis), keepdims=keep_dims), randn((2, 3, 4)),
            rtol=1e-5, atol=1e-5,
            id=f"{prim_class.__name__}-axis{axis}" + ("-keep" if keep_dims else "")))
    return rows


REDUCE = (
    reduction_rows(ops.ReduceSum, np.sum)
    + reduction_rows(ops.ReduceMean, np.mean)
    + reduction_rows(ops.ReduceMax, np.max)
    + reduction_rows(ops.ReduceMin, np.min)
    + reduction_rows(ops.ReduceProd, np.prod)
    + [
        OpRow("ReduceSum", call(ops.ReduceSum(), 1), partial(np.sum, axis=1, dtype=np.int32),
              randint(-5, 5, (2, 3)), id="ReduceSum-int32-keeps-dtype"),
        OpRow("ReduceSum", ops.ReduceSum(), np.sum, lambda rng: [randn((2, 3))(rng)[0], 1],
              errors=[([np.ones((2, 3), np.float32), 5], ValueError),
                      ([np.ones((2, 3), np.float32), -3], ValueError),
                      ([np.ones((2, 3), np.float32), (0, 2)], ValueError)],
              id="ReduceSum-axis-input"),
        OpRow("ReduceProd", call(ops.ReduceProd(), 1), partial(np.prod, axis=1),
              [f32([[2, 0, 3], [1, 4, -1]])], grad=False, id="ReduceProd-with-zero"),
        OpRow("ReduceAll", call(ops.ReduceAll(), ()), np.all,
              [bools([[True, False], [True, True]])]),
        OpRow("ReduceAll", call(ops.ReduceAll(True), 1), partial(np.all, axis=1, keepdims=True),
              [bools([[True, False], [True, True]])], id="ReduceAll-axis-keep"),
        OpRow("ReduceAny", call(ops.ReduceAny(), 0), partial(np.any, axis=0),
              [bools([[True, False], [False, False]])]),
        OpRow("ReduceAny", call(ops.ReduceAny(), ()), np.any, [f32([0, 0.5, 0])], grad=False,
              id="ReduceAny-float32"),
    ]
)


def exclusive_products(x):
    """yᵢ = Π_{j≠i} xⱼ along the last axis, without division."""
    columns = [np.prod(np.delete(x, i, axis=-1), axis=-1) for i in range(x.shape[-1])]
    return np.stack(columns, axis=-1)


REDUCE += [
    OpRow("ExclusiveCumprodBoth", ops.ExclusiveCumprodBoth(), exclusive_products, randn((2, 4))),
    OpRow("ExclusiveCumprodBoth", ops.ExclusiveCumprodBoth(), exclusive_products,
          [f32([[2, 0, 3, 5], [0, 0, 1, 2]])], grad=False, id="ExclusiveCumprodBoth-zeros"),
]


# -- matrix products (refms/ops/prims/matmul.py) -----------------------------------------------

def t(x):
    """Swap the last two axes."""
    return np.swapaxes(x, -1, -2)


MATMUL = [
    OpRow("MatMul", ops.MatMul(), np.matmul, randn((2, 3), (3, 4)),
          errors=[([np.ones((2, 3), np.float32), np.ones((2, 3), np.float32)], ValueError),
                  ([np.ones((2, 3), np.float32), np.ones((3, 2), np.float16)], TypeError),
                  ([np.ones((2, 2, 3), np.float32), np.ones((3, 2), np.float32)], ValueError)]),
    OpRow("MatMul", ops.MatMul(transpose_a=True), lambda a, b: t(a) @ b, randn((3, 2), (3, 4)),
          id="MatMul-transpose_a"),
    OpRow("MatMul", ops.MatMul(transpose_b=True), lambda a, b: a @ t(b), randn((2, 3), (4, 3)),
          id="MatMul-transpose_b"),
    OpRow("MatMul", ops.MatMul(True, True), lambda a, b: t(a) @ t(b), randn((3, 2), (4, 3)),
          errors=[([np.ones((3, 2), np.float32), np.ones((3, 4), np.float32)], ValueError)],
          id="MatMul-transpose_both"),
    OpRow("BatchMatMul", ops.BatchMatMul(), np.matmul, randn((2, 3, 4), (2, 4, 5)),
          errors=[([np.ones((2, 3, 4), np.float32), np.ones((2, 3, 4), np.float32)], ValueError),
                  ([np.ones((2, 3, 4), np.float32), np.ones((2, 4, 5), np.float64)], TypeError)]),
    OpRow("BatchMatMul", ops.BatchMatMul(True, False), lambda a, b: t(a) @ b,
          randn((2, 4, 3), (2, 4, 5)), id="BatchMatMul-transpose_a"),
    OpRow("BatchMatMul", ops.BatchMatMul(False, True), lambda a, b: a @ t(b),
          randn((2, 2, 3, 4), (2, 2, 5, 4)), id="BatchMatMul-transpose_b-rank4"),
    OpRow("BatchMatMul", ops.BatchMatMul(True, True), lambda a, b: t(a) @ t(b),
          randn((2, 4, 3), (2, 5, 4)), id="BatchMatMul-transpose_both"),
]


# -- constant-valued tensors (refms/ops/prims/fill.py) -----------------------------------------

FILL = [
    OpRow("Zeros", call(ops.Zeros(), (2, 3), ms.float32), partial(np.zeros, (2, 3), np.float32),
          []),
    OpRow("Zeros", call(ops.Zeros(), (2, 3), ms.int32), partial(np.zeros, (2, 3), np.int32),
          [], id="Zeros-int32"),
    OpRow("Ones", call(ops.Ones(), 3, ms.float32), partial(np.ones, (3,), np.float32), []),
    OpRow("Ones", call(ops.Ones(), (2, 2), ms.bool_), partial(np.ones, (2, 2), np.bool_), [],
          id="Ones-bool"),
    OpRow("Fill", call(ops.Fill(), ms.float32, (2,), 3), partial(np.full, (2,), 3, np.float32),
          []),
    OpRow("Fill", call(ops.Fill(), ms.int32, (2, 2), 2.7), partial(np.full, (2, 2), 2, np.int32),
          [], id="Fill-int32-from-float"),
    OpRow("ZerosLike", ops.ZerosLike(), np.zeros_like, randn((2, 3))),
    OpRow("OnesLike", ops.OnesLike(), np.ones_like, [i32([1, 5])]),
    OpRow("OnesLike", ops.OnesLike(), np.ones_like, randn((2, 3)), id="OnesLike-float32"),
]


# -- indexing (refms/ops/prims/getitem.py) -----------------------------------------------------
# The same index function runs on the Tensor (the implementation's GetItem) and on the numpy array (reference).

def item_1(x):
    return x[1]


def item_last(x):
    return x[-1]


def item_0_1(x):
    return x[0, 1]


def columns_1_to_3(x):
    return x[:, 1:3]


def every_other_row_reversed(x):
    return x[::2, ::-1]


def new_axis_then_1(x):
    return x[None, 1]


def ellipsis_then_0(x):
    return x[..., 0]


def rows_by_list(x):
    return x[:, [2, 0]]


def take(x, index):
    return x[index]


GETITEM = [
    OpRow("GetItem", item_1, item_1, randn((3, 4)), id="GetItem-int",
          errors=[([np.ones((1, 4), np.float32)], IndexError)]),
    OpRow("GetItem", item_last, item_last, randn((3, 4)), id="GetItem-negative-int"),
    OpRow("GetItem", item_0_1, item_0_1, randn((3, 4)), id="GetItem-int-pair-0d"),
    OpRow("GetItem", columns_1_to_3, columns_1_to_3, randn((3, 4)), id="GetItem-slice"),
    OpRow("GetItem", every_other_row_reversed, every_other_row_reversed, randn((5, 4)),
          id="GetItem-step-slices"),
    OpRow("GetItem", new_axis_then_1, new_axis_then_1, randn((3, 4)), id="GetItem-None"),
    OpRow("GetItem", ellipsis_then_0, ellipsis_then_0, randn((2, 3, 4)), id="GetItem-ellipsis"),
    OpRow("GetItem", rows_by_list, rows_by_list, randn((3, 4)), id="GetItem-list"),
    # an int tensor gathers rows; repeated indices accumulate in the gradient (ScatterIndexAdd)
    OpRow("GetItem", take, take, lambda rng: [rng.standard_normal((3, 4)).astype(np.float32),
                                              np.array([0, 2, 0])], id="GetItem-int-tensor"),
    OpRow("GetItem", take, take, lambda rng: [rng.standard_normal((3, 4)).astype(np.float32),
                                              np.array(2, np.int32)], id="GetItem-0d-int-tensor"),
    OpRow("GetItem", take, take, lambda rng: [rng.standard_normal((2, 3)).astype(np.float32),
                                              bools([[True, False, True], [False, True, False]])],
          id="GetItem-bool-mask"),
    OpRow("GetItem", take, take, lambda rng: [rng.standard_normal((3, 2)).astype(np.float32),
                                              bools([True, False, True])], id="GetItem-bool-rows"),
]


def scatter_reference(updates):
    result = np.zeros((4, 3), updates.dtype)
    np.add.at(result, np.array([0, 2, 0]), updates)
    return result


GETITEM += [
    OpRow("ScatterIndexAdd", call(ops.ScatterIndexAdd(), (4, 3), np.array([0, 2, 0])),
          scatter_reference, randn((3, 3))),
]


# -- SetItem (refms/ops/prims/getitem.py): ``y[index] = value`` on a copy; the same function runs
# on the Tensor (Tensor.__setitem__) and on numpy (reference).  The written slots pass no gradient
# to the old value; the value gets dout[index] summed to its shape (every written slot counts).

def write_rows_1_2(x, v):
    y = x * 1
    y[1:3] = v
    return y


def write_item_0_1(x, v):
    y = x * 1
    y[0, 1] = v
    return y


def write_broadcast_row(x, v):
    y = x * 1
    y[1:3] = v
    return y


def write_number(x):
    y = x * 1
    y[..., 0] = 2.5
    return y


def write_wrong_shape(x, v):
    y = x * 1
    y[0] = v             # a (1, 4) value for the (4,) region raises in MindSpore 2.10 too
    return y


GETITEM += [
    OpRow("SetItem", write_rows_1_2, write_rows_1_2, randn((4, 3), (2, 3)), id="SetItem-slice"),
    OpRow("SetItem", write_item_0_1, write_item_0_1, randn((3, 4), ()), id="SetItem-0d-value"),
    OpRow("SetItem", write_broadcast_row, write_broadcast_row, randn((3, 4), (4,)),
          id="SetItem-broadcast-value",
          # a value that does not broadcast to the (2, 4) region: MindSpore 2.10 raises
          errors=[([np.ones((3, 4), np.float32), np.ones((3, 4), np.float32)], ValueError)]),
    OpRow("SetItem", write_number, write_number, randn((3, 4)), id="SetItem-number"),
    # a value that does not broadcast to the region, or has more axes than it (even of size
    # 1): MindSpore 2.10 raises ValueError
    OpRow("SetItem", write_wrong_shape, write_wrong_shape, randn((3, 4), (4,)), id="SetItem-row",
          errors=[([np.ones((3, 4), np.float32), np.ones((3,), np.float32)], ValueError),
                  ([np.ones((3, 4), np.float32), np.ones((1, 4), np.float32)], ValueError)]),
]


# -- HookBackward (refms/ops/prims/hook.py): identity forward; a hook returning None keeps grads

HOOK = [
    OpRow("HookBackward", ops.HookBackward(identity_hook), np.copy, randn((2, 3))),
    OpRow("HookBackward", ops.HookBackward(identity_hook), lambda x, y: (x, y),
          randn((2, 3), (3,)), id="HookBackward-two-inputs"),
]


ROWS = ARITHMETIC + UNARY + COMPARE + CAST + SHAPE + REDUCE + MATMUL + FILL + GETITEM + HOOK
