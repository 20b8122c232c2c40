"""AssignAdd: ``variable ← variable + value`` in place (a Parameter update through ``Assign``)."""
from ..._tensor import Tensor
from ...parameter import Parameter
from ..primitive import F, op_error
from ._common import CompositeOp, check_tensor

__all__ = ["AssignAdd", "assign_add"]


def assign_add(variable, value):
    """``ops.assign_add(variable, value)``: returns the updated ``variable``."""
    if not isinstance(variable, Parameter):
        raise op_error("AssignAdd", f"the 'variable' should be a Parameter, but got "
                                    f"{type(variable).__name__}.")
    if not isinstance(value, Tensor):
        value = Tensor(value, variable.dtype)
    check_tensor("AssignAdd", "value", value)
    return F.assign(variable, F.cast(variable + value, variable.dtype))


class AssignAdd(CompositeOp):
    """``AssignAdd()(variable, value)`` = :func:`assign_add`."""

    def __call__(self, variable, value):
        return assign_add(variable, value)
