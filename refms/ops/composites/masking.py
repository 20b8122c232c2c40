"""masked_fill: ``y = value`` where ``mask`` is True, ``x`` elsewhere (``Select`` with broadcasting).

The gradient reaches ``x`` where the mask is False and a Tensor ``value``
through the filled positions.
"""
import numbers

from ... import dtype as mstype
from ..._tensor import Tensor
from ..primitive import F, op_error
from ._common import check_tensor

__all__ = ["masked_fill"]


def masked_fill(input_x, mask, value):
    """``ops.masked_fill(input_x, mask, value)``; ``value`` a number or a 0-d Tensor."""
    check_tensor("masked_fill", "input_x", input_x)
    check_tensor("masked_fill", "mask", mask)
    if mask.dtype is not mstype.bool_:
        raise op_error("masked_fill", f"the dtype of 'mask' should be Bool, but got {mask.dtype}.")
    if isinstance(value, Tensor):
        fill = F.cast(value, input_x.dtype)
    elif isinstance(value, numbers.Number):
        fill = Tensor(value, input_x.dtype)
    else:
        raise op_error("masked_fill", f"the 'value' should be a number or a Tensor, but got "
                                      f"{type(value).__name__}.")
    shape = F.broadcast_to(input_x, tuple(mask.shape)).shape if len(mask.shape) > len(
        input_x.shape) else tuple(input_x.shape)
    return F.select(F.broadcast_to(mask, tuple(shape)), F.broadcast_to(fill, tuple(shape)),
                    F.broadcast_to(input_x, tuple(shape)))
