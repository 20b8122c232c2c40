"""RandomChoiceWithMask and ``ops.choice_with_mask`` (MindSpore 2.10).

``RandomChoiceWithMask(count=256, seed=0, seed2=0)(input_x)`` on a Bool tensor of rank 1 to 5
returns ``(index (count, rank) Int32, mask (count,) Bool)``: up to ``count`` distinct
positions where ``input_x`` is True, in random order, then zero rows whose mask is False
when there are fewer.  Seeds as the other random ops (:mod:`refms.ops.prims.random`); the
order cannot match MindSpore's stream, only its distribution.  No gradient.
"""
from ... import dtype as mstype
from ... import kernels
from ..primitive import register, functional, op_error, Abstract
from ._base import check_tensor, shape_str
from .random import _Random, _seed_pair

__all__ = ["RandomChoiceWithMask", "choice_with_mask"]


@register
class RandomChoiceWithMask(_Random):
    """(index, mask) of ``count`` random True positions of a Bool tensor."""
    n_tensor_inputs = 1
    n_outputs = 2

    def __init__(self, count=256, seed=0, seed2=0):
        if isinstance(count, bool) or not isinstance(count, int):
            raise op_error("RandomChoiceWithMask", f"the 'count' must be int, but got "
                                                   f"{type(count).__name__}.")
        if count <= 0:
            raise op_error("RandomChoiceWithMask", f"the 'count' must be greater than 0, but "
                                                   f"got {count}.", ValueError)
        self.count = count
        super().__init__(seed, seed2)

    def infer(self, input_x):
        op = "RandomChoiceWithMask"
        check_tensor(op, "input_x", input_x)
        if input_x.dtype is not mstype.bool_:
            raise op_error(op, f"the input argument[input_x] must be a type of {{Tensor[Bool]}}, "
                               f"but got Tensor[{input_x.dtype}].")
        if not 1 <= len(input_x.shape) <= 5:
            raise op_error(op, f"the rank of 'input_x' must be in [1, 5], but got shape "
                               f"{shape_str(input_x.shape)}.", ValueError)
        return (Abstract((self.count, len(input_x.shape)), mstype.int32),
                Abstract((self.count,), mstype.bool_))

    def forward(self, input_x):
        return kernels.call("choice_with_mask")(self.rng(), input_x, self.count)


def choice_with_mask(input_x, count=256, seed=None):
    """``ops.choice_with_mask(input_x, count=256, seed=None)``: a fresh RandomChoiceWithMask per
    call, seeded from the global seed and the per-op counter (as the other functional random
    ops)."""
    seed1, seed2 = _seed_pair("choice_with_mask", seed)
    return RandomChoiceWithMask(count, seed1, seed2)(input_x)


functional("choice_with_mask", choice_with_mask)
