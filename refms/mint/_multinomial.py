"""``mint.multinomial``: category indices drawn from each row of non-negative weights.

A row ``w`` of ``input`` (1-D, or 2-D for one distribution per row) defines the categorical
distribution ``P(j) = w_j / Σ w``; the output holds ``num_samples`` draws per row, Int64.

* With replacement — inverse-CDF sampling: for ``u ~ U[0, 1)`` the draw is the number of
  running sums ``c_j = w_0 + … + w_j`` with ``c_j ≤ u·c_{n−1}``, the j whose interval
  ``[c_{j−1}, c_j)`` holds ``u·Σ w`` (an interval of weight 0 is empty: never drawn).
* Without replacement — Efraimidis & Spirakis, "Weighted random sampling with a
  reservoir" (2006): with ``u_j ~ U[0, 1)`` independent, the keys ``log(1 − u_j) / w_j``
  sorted decreasingly give the categories in the order of successive draws, each next one
  chosen with probability proportional to its weight among those not drawn yet; the first
  ``num_samples`` are the sample (``TopK``).  A weight of 0 has the key −∞.

The uniforms come from ``ops.uniform`` (seeded as the other functional random ops:
``set_seed`` makes a program reproducible).  MindSpore 2.10 has this kernel on Ascend only;
its values cannot be matched, its distribution and rules are.
"""
import numbers

from .. import dtype as mstype
from .._tensor import Tensor
from ..ops import functional as F
from ..ops.primitive import op_error

__all__ = ["multinomial", "sample"]


def multinomial(input, num_samples, replacement=False, *, generator=None):  # noqa: A002
    """``num_samples`` category indices per row of the weights ``input`` (Int64)."""
    return sample(input, num_samples, replacement)


def sample(input, num_samples, replacement, seed=None):   # noqa: A002
    """The draws of ``mint.multinomial`` (and of ``ops.multinomial``, which casts them to Int32
    and passes its ``seed`` to ``ops.uniform``)."""

    def uniform(shape):
        return F.uniform(shape, F.scalar_to_tensor(0.0), F.scalar_to_tensor(1.0), seed)

    if not isinstance(input, Tensor):
        raise TypeError(f"For 'multinomial', the 'input' must be a Tensor, but got "
                        f"{type(input).__name__}.")
    if isinstance(num_samples, bool) or not isinstance(num_samples, numbers.Integral):
        raise TypeError(f"For 'multinomial', the 'num_samples' must be an int, but got "
                        f"{type(num_samples).__name__}.")
    if len(input.shape) not in (1, 2):
        raise op_error("MultinomialExt", f"input[x] dimension must be 1 or 2, but got rank "
                                         f"{len(input.shape)}.", ValueError)
    n = input.shape[-1]
    if num_samples <= 0:
        raise RuntimeError(f"For 'multinomial', the 'num_samples' must be positive, but got "
                           f"{num_samples}.")
    if not replacement and num_samples > n:
        raise RuntimeError(f"For 'multinomial', without replacement 'num_samples' "
                           f"({num_samples}) must not exceed the number of categories ({n}).")
    weights = input if input.dtype.kind == "float" else F.cast(input, mstype.float32)
    lead = tuple(weights.shape[:-1])
    if replacement:
        running = F.cumsum(weights, -1)                              # c_j, (..., n)
        total = running[..., n - 1:]                                 # Σ w, (..., 1)
        target = uniform(lead + (num_samples,)) * total            # u·Σ w, (..., k)
        below = F.less_equal(F.expand_dims(running, -2), F.expand_dims(target, -1))
        index = F.reduce_sum(F.cast(below, mstype.int64), -1, False)
        return F.minimum(index, n - 1)                               # u·Σ w rounded up to Σ w
    positive = F.greater(weights, 0.0)
    safe = F.select(positive, weights, F.ones_like(weights))
    keys = F.log(1.0 - uniform(lead + (n,))) / safe
    keys = F.select(positive, keys, F.fill(keys.dtype, tuple(keys.shape), float("-inf")))
    _, index = F.topk(keys, num_samples)
    return F.cast(index, mstype.int64)
