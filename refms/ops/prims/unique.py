"""Unique2, UniqueConsecutive and HistcExt: counting values (``mint.unique``,
``mint.unique_consecutive``, ``mint.histc``; MindSpore 2.10's primitive names).

* ``Unique2(sorted)(x)`` -> ``(values, inverse, counts)``: the distinct elements of x in
  ascending order, for each element of x the position of its value in ``values``
  (shaped like x), and how often each value occurs.  refms always sorts (``sorted=False``
  leaves the order unspecified in MindSpore's documentation; ascending is one such order).
* ``UniqueConsecutive(return_idx, return_counts, axis)(x)``: the same for runs of equal neighbours (``[1, 1, 2, 1]`` ->
  ``[1, 2, 1]``, counts ``[2, 1, 1]``); ``dim`` None flattens, an int compares whole slices.
* ``HistcExt(bins, min, max)(x)``: counts of x in ``bins`` equal-width bins of [min, max]
  (min = max = 0: the range of the data); elements outside are ignored, ``max`` falls in
  the last bin (``torch.histc``'s definition, which ``mint.histc`` documents).

Their outputs have data-dependent lengths (``-1`` in the shape rule) and no gradient
(listed in ``NON_DIFFERENTIABLE``).  Kernels: :mod:`refms.kernels.counting`.
"""
from ... import dtype as mstype
from ... import kernels
from ..primitive import Primitive, Abstract, register, op_error
from ._base import check_tensor, normalize_axis

__all__ = ["Unique2", "UniqueConsecutive", "HistcExt"]


def _check_dim(op, dim, x):
    if dim is None:
        return None
    if len(x.shape) == 0:
        raise op_error(op, "the 'dim' must be None for a 0-d input.", ValueError)
    return normalize_axis(op, dim, len(x.shape), "dim")


def _outputs(x, dim):
    """Abstract (values, inverse, counts) of a unique op along ``dim`` (None: flattened)."""
    if dim is None:
        values, inverse = Abstract((-1,), x.dtype), Abstract(tuple(x.shape), mstype.int64)
    else:
        shape = list(x.shape)
        shape[dim] = -1
        values, inverse = Abstract(shape, x.dtype), Abstract((x.shape[dim],), mstype.int64)
    return values, inverse, Abstract((-1,), mstype.int64)


@register
class Unique2(Primitive):
    """(distinct values ascending, inverse indices, counts) of x (flattened)."""
    n_tensor_inputs = 1
    n_outputs = 3

    def __init__(self, sorted=True):                        # noqa: A002  (MindSpore's name)
        self.sorted = sorted

    def infer(self, x):
        check_tensor("Unique2", "input", x)
        return _outputs(x, None)

    def forward(self, x):
        return kernels.call("unique")(x, None)


@register
class UniqueDim(Primitive):
    """(distinct slices along ``dim`` ascending, inverse indices, counts) of x."""
    n_tensor_inputs = 1
    n_outputs = 3

    def __init__(self, dim):
        self.dim = dim

    def infer(self, x):
        check_tensor("UniqueDim", "input", x)
        return _outputs(x, _check_dim("UniqueDim", self.dim, x))

    def forward(self, x):
        return kernels.call("unique")(x, self.dim % len(x.shape))


@register
class UniqueConsecutive(Primitive):
    """(one element/slice per run of equal neighbours, inverse indices, run lengths)."""
    n_tensor_inputs = 1
    n_outputs = 3

    def __init__(self, return_idx=False, return_counts=False, axis=None, *, dim=None):
        # MindSpore 2.10's parameters; the three outputs are always computed.
        self.return_idx, self.return_counts = return_idx, return_counts
        self.dim = axis if dim is None else dim

    def infer(self, x):
        check_tensor("UniqueConsecutive", "input", x)
        return _outputs(x, _check_dim("UniqueConsecutive", self.dim, x))

    def forward(self, x):
        dim = None if self.dim is None else self.dim % len(x.shape)
        return kernels.call("unique_consecutive")(x, dim)


@register
class HistcExt(Primitive):
    """(bins,) counts of x in equal-width bins of [min, max] (same dtype as x)."""
    n_tensor_inputs = 1

    def __init__(self, bins=100, min=0.0, max=0.0):         # noqa: A002  (MindSpore's names)
        op = "HistcExt"
        if isinstance(bins, bool) or not isinstance(bins, int):
            raise op_error(op, f"the 'bins' must be int, but got {type(bins).__name__}.")
        if bins <= 0:
            raise op_error(op, f"the 'bins' must be greater than 0, but got {bins}.", ValueError)
        for name, value in (("min", min), ("max", max)):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise op_error(op, f"the '{name}' must be a number, but got "
                                   f"{type(value).__name__}.")
        if min > max:
            raise op_error(op, f"max must be larger than min, but got min {min} and max {max}.",
                           ValueError)
        self.bins, self.min, self.max = bins, float(min), float(max)

    def infer(self, x):
        check_tensor("HistcExt", "input", x)
        if x.dtype.kind not in ("float", "int", "uint"):
            raise op_error("HistcExt", f"the dtype of 'input' should be a number type, but got "
                                       f"{x.dtype}.")
        return Abstract((self.bins,), x.dtype)

    def forward(self, x):
        low, high = self.min, self.max
        if low == high and x.size:
            low = float(kernels.to_host(kernels.call("reduce_min")(x, (), False)))
            high = float(kernels.to_host(kernels.call("reduce_max")(x, (), False)))
        if low == high:                             # torch.histc widens an empty range by 1
            low, high = low - 1.0, high + 1.0
        return kernels.call("histc")(x, self.bins, low, high)
