"""Small helpers of the composite operations: argument checks in MindSpore's wording."""
from ... import dtype as mstype
from ..._tensor import Tensor
from ..keywords import NotATensorError
from ..primitive import op_error


class CompositeOp:
    """Base of the ``ops.Name()`` classes defined by composition (printed like a primitive)."""

    def __repr__(self):
        return f"Prim[{type(self).__name__}]"


def check_tensor(op, name, value):
    if not isinstance(value, Tensor):
        raise NotATensorError(f"For '{op}', the '{name}' should be a Tensor, but got "
                              f"{type(value).__name__}.")


def check_int(op, name, value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise op_error(op, f"the '{name}' should be int, but got {type(value).__name__}.")
    return value


def int_tensor(values):
    """An Int32 Tensor of Python ints (indices built at call time from static shapes)."""
    return Tensor(values, mstype.int32)
