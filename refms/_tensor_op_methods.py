"""Tensor methods that are a functional op with the tensor as its first input (MindSpore 2.10).

``x.maximum(y)`` is ``ops.maximum(x, y)``, ``x.gather(indices, axis)`` is
``ops.gather(x, indices, axis)``: one table, method name -> functional op name, installed on
:class:`refms.Tensor` when :mod:`refms._tensor` is defined.  The methods look the op up at
call time through the accessor ``install`` is given (the ops layer is built on top of
the tensor layer, so this module imports nothing of refms), so they take the op's
arguments and keywords and give its results, gradients and errors.  A few methods with
arguments of their own follow the table (``expand``, ``clone``, ``repeat``, ``std``).
"""
import numpy as np

__all__ = ["OP_METHODS", "install"]

#: Set by ``install``: the Tensor class and a function returning the functional ops.
_BOUND = {"tensor": None, "ops": None}


def _ops():
    return _BOUND["ops"]()

#: Tensor method -> the functional op it calls with the tensor first.
OP_METHODS = {
    # arithmetic and comparison
    "multinomial": "multinomial",
    "add": "add", "sub": "sub", "subtract": "subtract", "mul": "mul", "multiply": "multiply",
    "div": "div", "true_divide": "true_divide", "maximum": "maximum", "minimum": "minimum",
    "equal": "equal", "not_equal": "not_equal", "less": "less", "less_equal": "less_equal",
    "greater": "greater", "greater_equal": "greater_equal",
    "logical_and": "logical_and", "logical_or": "logical_or", "logical_not": "logical_not",
    # element-wise functions
    "neg": "neg", "negative": "negative", "absolute": "absolute", "ceil": "ceil",
    "floor": "floor", "round": "round", "trunc": "trunc", "cos": "cos", "sin": "sin",
    "reciprocal": "reciprocal", "rsqrt": "rsqrt", "sign": "sign", "erf": "erf",
    "log1p": "log1p", "expm1": "expm1", "isnan": "isnan", "isinf": "isinf",
    "isfinite": "isfinite",
    # along axes
    "softmax": "softmax", "argsort": "argsort", "sort": "sort", "topk": "topk",
    "flip": "flip", "split": "split",
    # indexing
    "gather": "gather", "gather_nd": "gather_nd", "masked_select": "masked_select",
}


#: Methods whose second operand may be a list or tuple of numbers (MindSpore 2.10 makes it a
#: Tensor for these two; the others raise TypeError, as the ops do).
SEQUENCE_OPERAND = {"add", "sub"}


def _op_method(method_name, op_name):
    def method(self, *args, **kwargs):
        if method_name in SEQUENCE_OPERAND and args and isinstance(args[0], (list, tuple)):
            args = (_BOUND["tensor"](args[0]),) + args[1:]
        return getattr(_ops(), op_name)(self, *args, **kwargs)
    method.__name__ = method.__qualname__ = method_name
    method.__doc__ = f"``ops.{op_name}(self, ...)`` (MindSpore's ``Tensor.{method_name}``)."
    return method


def expand(self, size):
    """``Tensor.expand(size)``: broadcast to ``size`` (``ops.broadcast_to``; −1 keeps a size)."""
    return _ops().broadcast_to(self, size)


def clone(self):
    """``Tensor.clone()``: a new tensor with the same values; the gradient flows through."""
    return _ops().identity(self)


def repeat(self, *repeats):
    """``Tensor.repeat(*repeats)`` (MindSpore 2.10, PyTorch's meaning): tile the tensor
    ``repeats[i]`` times along axis ``i``, the tensor first given leading axes of size 1 when
    ``repeats`` is longer than its rank (``ops.tile``).  ``repeats`` may be one tuple."""
    if len(repeats) == 1 and isinstance(repeats[0], (tuple, list)):
        repeats = tuple(repeats[0])
    for r in repeats:
        if isinstance(r, bool) or not isinstance(r, int) or r < 0:
            raise TypeError(f"For 'Tensor.repeat', every repeat must be a non-negative int, "
                            f"but got {repeats!r}.")
    if len(repeats) < len(self.shape):
        raise ValueError(f"For 'Tensor.repeat', the number of repeats ({len(repeats)}) must be "
                         f"at least the rank of the tensor ({len(self.shape)}).")
    return _ops().tile(self, tuple(repeats))


def std(self, axis=None, ddof=0, keepdims=False):
    """``Tensor.std(axis=None, ddof=0, keepdims=False)``:
    √(Σ (x − mean)² / (N − ddof)) over ``axis`` (all axes when None)."""
    F = _ops()
    axes = () if axis is None else axis
    mean = F.reduce_mean(self, axes, True)
    squares = F.reduce_sum(F.square(self - mean), axes, keepdims)
    shape = self.shape
    if axis is None:
        count = int(np.prod(shape))
    else:
        chosen = (axis,) if isinstance(axis, int) else tuple(axis)
        count = int(np.prod([shape[a] for a in chosen]))
    return F.sqrt(squares / float(count - ddof))


def var(self, axis=None, ddof=0, keepdims=False):
    """``Tensor.var(axis=None, ddof=0, keepdims=False)``: Σ (x − mean)² / (N − ddof) over ``axis``."""
    return _ops().square(std(self, axis, ddof, keepdims))


def where(self, condition, y):
    """``Tensor.where(condition, y)``: ``ops.where(condition, self, y)``."""
    return _ops().where(condition, self, y)


def select(self, dim, index):
    """``Tensor.select(dim, index)``: the slice at ``index`` along ``dim``, that axis removed."""
    for name, value in (("dim", dim), ("index", index)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"For 'Tensor.select', the '{name}' must be int, but got "
                            f"{type(value).__name__}.")
    rank = len(self.shape)
    if not -rank <= dim < rank:
        raise ValueError(f"For 'Tensor.select', the 'dim' must be in [{-rank}, {rank}), but got "
                         f"{dim}.")
    dim %= rank
    if not -self.shape[dim] <= index < self.shape[dim]:
        raise ValueError(f"For 'Tensor.select', the 'index' must be in [{-self.shape[dim]}, "
                         f"{self.shape[dim]}), but got {index}.")
    return self[(slice(None),) * dim + (index,)]


def install(cls, ops):
    """Add the table's methods and the ones above to ``cls`` where it has none of its own;
    ``ops()`` returns the namespace of functional ops they call."""
    _BOUND["tensor"], _BOUND["ops"] = cls, ops
    for name, op in OP_METHODS.items():
        if name not in cls.__dict__:
            setattr(cls, name, _op_method(name, op))
    for fn in (expand, clone, repeat, std, var, where, select):
        if fn.__name__ not in cls.__dict__:
            setattr(cls, fn.__name__, fn)
