"""Operations answered from what is known before running: shapes, dtypes, constants.

``ops.Shape()(x)`` / ``ops.shape(x)`` is ``x.shape`` (a tuple of ints),
``ops.DType()(x)`` / ``ops.dtype(x)`` is ``x.dtype``, ``ops.Rank()(x)`` is
``x.ndim`` and ``ops.Size()(x)`` the number of elements.  In graph mode
these read the traced value's abstract shape and dtype, so they are
constants of the compiled graph, as in MindSpore.

``tuple_to_array`` and ``scalar_to_tensor`` turn Python constants into
Tensors with MindSpore's dtypes (ints -> Int32 in ``tuple_to_array``, a
scalar -> Float32 unless ``dtype`` is given).  ``partial`` binds leading
arguments (``functools.partial``, which the graph compiler understands);
``constexpr`` marks a function evaluated on constants at compile time —
refms runs Python between primitives in both modes, so it returns the
function itself.
"""
import functools
import numbers

from .. import dtype as mstype
from .._tensor import Tensor
from .primitive import constexpr, op_error

__all__ = ["Shape", "DType", "Rank", "Size", "Print", "shape", "dtype", "rank", "size",
           "tuple_to_array", "scalar_to_tensor", "partial", "constexpr", "tuple_len",
           "make_range", "TupleToArray", "ScalarToTensor", "ScalarCast", "is_tensor", "Partial"]


def _check(op, x):
    if not isinstance(x, Tensor):
        raise op_error(op, f"the input 'input_x' should be a Tensor, but got {type(x).__name__}.")


class _MetaOp:
    """Base of the callable classes (``ops.Shape()``); they take no attributes."""

    def __repr__(self):
        return f"Prim[{type(self).__name__}]"


class Shape(_MetaOp):
    """``Shape()(x)``: the shape of ``x`` as a tuple of ints."""

    def __call__(self, input_x):
        _check("Shape", input_x)
        return tuple(input_x.shape)


class DType(_MetaOp):
    """``DType()(x)``: the dtype of ``x`` (a :class:`refms.dtype.Type`)."""

    def __call__(self, input_x):
        _check("DType", input_x)
        return input_x.dtype


class Rank(_MetaOp):
    """``Rank()(x)``: the number of dimensions of ``x``."""

    def __call__(self, input_x):
        _check("Rank", input_x)
        return len(input_x.shape)


class Size(_MetaOp):
    """``Size()(x)``: the number of elements of ``x``."""

    def __call__(self, input_x):
        _check("Size", input_x)
        n = 1
        for d in input_x.shape:
            n *= d
        return n


class Print(_MetaOp):
    """``Print()(*values)``: print Tensors, strings, numbers, tuples and lists, each on its
    own line.

    In graph mode it becomes the graph's Print op (printed each time the graph
    runs); in PyNative it prints at once, each value as its ``repr`` (MindSpore 2.10,
    observed).
    """

    def __call__(self, *values):
        for value in values:
            if not isinstance(value, (Tensor, str, numbers.Number, tuple, list, type(None))):
                raise op_error("Print", f"the inputs should be Tensor, str, number, tuple, "
                                        f"list or None, but got {type(value).__name__}.")
        _PRINT[0](*values)
        return None


#: How :class:`Print` prints.  The Print op and its output format belong to the graph layer,
#: which builds on this one and installs itself here when imported
#: (:func:`refms.graph.builtins.print_op`: prints now, or emits the op while tracing).
_PRINT = [print]


def install_print(fn):
    """Called once by :mod:`refms.graph.builtins`: ``fn(*values)`` runs ``Print()(*values)``."""
    _PRINT[0] = fn


def shape(input_x):
    """The shape of ``input_x`` as a tuple of ints (``ops.shape``)."""
    return Shape()(input_x)


def dtype(x):
    """The dtype of ``x`` (``ops.dtype``)."""
    return DType()(x)


def is_tensor(obj):
    """True when ``obj`` is a Tensor (a Parameter is one); ``ops.is_tensor``, ``mindspore.is_tensor``."""
    return isinstance(obj, Tensor)


def rank(input_x):
    """The number of dimensions of ``input_x`` (``ops.rank``)."""
    return Rank()(input_x)


def size(input_x):
    """The number of elements of ``input_x`` (``ops.size``)."""
    return Size()(input_x)


def _check_scalars(op, values, allow_bool=False):
    for v in values:
        if (isinstance(v, bool) and not allow_bool) or not isinstance(v, (int, float)):
            raise op_error(op, f"the elements of 'input_x' should be int or float, but got "
                               f"{type(v).__name__}.")


def tuple_to_array(input_x):
    """A 1-D Tensor of a tuple of numbers; the first element decides the dtype.

    An int first gives Int32 (later floats are truncated: ``(1, 2.5)`` -> ``[1, 2]``),
    a float first gives Float32 — MindSpore 2.10's behaviour.  A ``range`` is taken as the
    tuple of its numbers and bools as the ints 1 and 0 (the model zoo's YOLO heads build
    their grids with ``tuple_to_array(range(n))``).
    """
    given = input_x
    if isinstance(input_x, range):
        input_x = tuple(input_x)
    if not isinstance(input_x, (tuple, list)) or len(input_x) == 0:
        raise op_error("TupleToArray", f"the 'input_x' should be a non-empty tuple, but got "
                                       f"{given!r}.")
    _check_scalars("TupleToArray", input_x, allow_bool=True)
    if isinstance(input_x[0], float):
        return Tensor([float(v) for v in input_x], mstype.float32)
    return Tensor([int(v) for v in input_x], mstype.int32)


def scalar_to_tensor(input_x, dtype=mstype.float32):
    """A 0-D Tensor of a Python number (Float32 unless ``dtype`` is given)."""
    if isinstance(input_x, bool) or not isinstance(input_x, (int, float)):
        raise op_error("ScalarToTensor", f"the 'input_x' should be int or float, but got "
                                         f"{type(input_x).__name__}.")
    return Tensor(input_x, dtype)


class TupleToArray(_MetaOp):
    """``TupleToArray()(t)`` = :func:`tuple_to_array`."""

    def __call__(self, input_x):
        return tuple_to_array(input_x)


class ScalarToTensor(_MetaOp):
    """``ScalarToTensor()(x, dtype)`` = :func:`scalar_to_tensor`."""

    def __call__(self, input_x, dtype=mstype.float32):
        return scalar_to_tensor(input_x, dtype)


class ScalarCast(_MetaOp):
    """``ScalarCast()(x, t)``: the Python number ``x`` as ``int`` (t = int64, truncating toward
    zero), ``float`` (float64) or ``bool`` (bool), as MindSpore 2.10 (recorded)."""

    def __call__(self, input_x, input_t):
        if not isinstance(input_x, (bool, int, float)):
            raise TypeError(f"For 'ScalarCast', the type of 'x' should be one of '['bool', "
                            f"'Number']', but got type '{type(input_x).__name__}'.")
        target = mstype.to_dtype(input_t)
        casts = {mstype.int64: int, mstype.float64: float, mstype.bool_: bool}
        if target not in casts:
            raise ValueError(f"For 'ScalarCast', the supported type is in the list: "
                             f"[mindspore.int64, mindspore.float64, mindspore.bool], but got "
                             f"{target}")
        return casts[target](input_x)


def partial(func, *args, **kwargs):
    """``func`` with leading arguments (and keyword arguments) bound:
    ``F.partial(fn, 1.0)(x) == fn(1.0, x)``, ``F.partial(add, x=2)(y=3) == add(x=2, y=3)``."""
    if not callable(func):
        raise TypeError(f"For 'partial', the 'func' should be callable, but got "
                        f"{type(func).__name__}.")
    return functools.partial(func, *args, **kwargs)


class Partial(_MetaOp):
    """``Partial()(func, *args)``: ``func`` with its leading arguments bound, as
    :func:`partial` (a ``functools.partial``; ``Partial()(fn, 1)(x) == fn(1, x)``)."""

    def __call__(self, *args):
        if not args:
            raise IndexError("For 'Partial', the inputs should be a function followed by its "
                             "leading arguments, but got nothing.")
        if not callable(args[0]):
            raise AttributeError(f"For 'Partial', the first input should be callable, but got "
                                 f"'{type(args[0]).__name__}' object.")
        return functools.partial(*args)


def tuple_len(data):
    """``len`` of a tuple or list."""
    return len(data)


def make_range(*args):
    """``range(...)`` as a tuple of ints (``F.make_range(start, stop, step)``)."""
    for a in args:
        if isinstance(a, bool) or not isinstance(a, int):
            raise TypeError(f"For 'make_range', the inputs should be int, but got "
                            f"{type(a).__name__}.")
    return tuple(range(*args))
