"""``mint.unique``, ``mint.unique_consecutive`` and ``mint.histc``: counting values
(primitives in :mod:`refms.ops.prims.unique`)."""
from ..ops.prims.unique import HistcExt, Unique2, UniqueConsecutive, UniqueDim


def _chosen(values, inverse, counts, return_inverse, return_counts):
    """``values`` alone, or the tuple with the outputs asked for (MindSpore's convention)."""
    if not return_inverse and not return_counts:
        return values
    out = (values,)
    if return_inverse:
        out += (inverse,)
    if return_counts:
        out += (counts,)
    return out


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    """The distinct elements of ``input`` in ascending order (``dim``: distinct slices along
    it); ``return_inverse`` adds where each element went, ``return_counts`` how often each
    value occurs."""
    op = Unique2(sorted) if dim is None else UniqueDim(dim)
    values, inverse, counts = op(input)
    return _chosen(values, inverse, counts, return_inverse, return_counts)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    """Each run of equal neighbouring elements (slices along ``dim``) kept once."""
    values, inverse, counts = UniqueConsecutive(axis=dim)(input)
    return _chosen(values, inverse, counts, return_inverse, return_counts)


def histc(input, bins=100, min=0, max=0):                   # noqa: A002
    """Counts of ``input`` in ``bins`` equal-width bins of [min, max] (min = max: the data's
    range); elements outside are ignored."""
    return HistcExt(bins, min, max)(input)
