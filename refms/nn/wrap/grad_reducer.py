"""``DistributedGradReducer``: average (or sum) gradients over the data-parallel group.

On ``n`` devices it all-reduces each gradient and, with ``mean=True``,
divides by ``degree`` (the group size).  refms runs on one device: the group
has one rank, the all-reduce of one gradient is that gradient and the
degree is 1, so the reducer returns the gradients unchanged — MindSpore's
result for a group of size 1.  A ``degree`` other than 1 would describe a
group that cannot exist here and raises ``ValueError``.
"""
from ...communication.management import get_group_size
from ..cell import Cell

__all__ = ["DistributedGradReducer"]


class DistributedGradReducer(Cell):
    """Gradients all-reduced over a one-device group: the identity."""

    def __init__(self, parameters, mean=None, degree=None, fusion_type=1, group=None):
        super().__init__(auto_prefix=False)
        if degree is None:
            degree = get_group_size()
        if isinstance(degree, bool) or not isinstance(degree, int) or degree != 1:
            raise ValueError(f"For 'DistributedGradReducer', refms runs on one device, so "
                             f"'degree' should be 1, but got {degree!r}.")
        self.mean = mean
        self.degree = degree
        self.parameters_count = len(parameters)

    def construct(self, grads):
        return grads
