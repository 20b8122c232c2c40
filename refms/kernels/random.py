"""Reference random kernels (numpy).  ``rng`` is the op's host ``numpy.random.Generator``
(seeded by ``set_seed`` and the op's seeds); a device backend draws from its own generator
seeded the same way::

    uniform_real(rng, shape)               -> float32 in [0, 1)
    standard_normal(rng, shape)            -> float32 ~ N(0, 1)
    uniform_int(rng, shape, low, high)     -> int32 in [low, high)
    bernoulli(rng, shape, p, np_dtype)     -> 1 with probability p, else 0, as ``np_dtype``
    choice_with_mask(rng, x, count)        -> (count distinct True positions, Int32; mask)
"""
import numpy as np

from . import reference


@reference
def uniform_real(rng, shape):
    return rng.random(tuple(shape), dtype=np.float32)


@reference
def standard_normal(rng, shape):
    return rng.standard_normal(tuple(shape), dtype=np.float32)


@reference
def uniform_int(rng, shape, low, high):
    return rng.integers(low, high, size=tuple(shape), dtype=np.int32)


@reference
def bernoulli(rng, shape, p, np_dtype):
    """keep-masks: uᵢ < p for uᵢ uniform in [0, 1) (float64 draws, as before)."""
    return (rng.random(tuple(shape)) < p).astype(np_dtype)


@reference
def choice_with_mask(rng, x, count):
    """(index (count, rank) Int32, mask (count,) Bool): ``count`` distinct True positions of ``x``
    in random order, then zero rows with mask False when ``x`` has fewer."""
    positions = np.argwhere(np.asarray(x, dtype=bool)).astype(np.int32)
    chosen = positions[rng.permutation(len(positions))[:count]]
    index = np.zeros((count, max(np.ndim(x), 1)), dtype=np.int32)
    index[:len(chosen)] = chosen.reshape(len(chosen), -1)
    mask = np.arange(count) < len(chosen)
    return index, mask
