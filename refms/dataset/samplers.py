"""Samplers: which row indices a random-access source reads, in which order.

A sampler turns the source's row count ``n`` (and, for ``PKSampler``, its
labels) into a list of indices for one epoch, drawing any randomness from the
epoch's generator (:mod:`refms.dataset.config`)::

    SequentialSampler(start_index, num_samples)   start, start+1, ...
    RandomSampler(replacement, num_samples)       a permutation (or n draws with replacement)
    SubsetSampler(indices) / SubsetRandomSampler  the given indices, in order / shuffled
    WeightedRandomSampler(weights, num_samples)   draws with probability ∝ weights
    DistributedSampler(num_shards, shard_id)      shard i takes positions i, i+k, i+2k, ... of
                                                  the (optionally shuffled) order, wrapping
                                                  around so every shard has ⌈n / k⌉ rows
    PKSampler(num_val, class_column)              num_val rows of every class, classes in
                                                  sorted order, the rows of a class drawn at
                                                  random (as MindSpore)

The shuffled orders cannot equal MindSpore's (its generator is its own C++
one); which rows are chosen and how many can, and the tests check those.
"""
import numpy as np

__all__ = ["Sampler", "SequentialSampler", "RandomSampler", "SubsetSampler",
           "SubsetRandomSampler", "WeightedRandomSampler", "DistributedSampler", "PKSampler",
           "resolve_sampler"]


def _count(value, name, sampler, allow_none=True):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ValueError(f"For '{sampler}', the '{name}' must be a non-negative int, but got "
                         f"{value!r}.")
    return int(value)


class Sampler:
    """The base: ``indices(n, rng, source)`` gives one epoch's indices.

    A subclass written by a user may instead define ``__iter__`` yielding indices
    (MindSpore's Python samplers); ``self.dataset_size`` is set before iterating.
    """

    def __init__(self, num_samples=None):
        self.num_samples = _count(num_samples, "num_samples", type(self).__name__) or None
        self.dataset_size = None

    def indices(self, n, rng, source=None):
        self.dataset_size = n
        return self._limit(list(iter(self)))

    def _limit(self, indices):
        return indices if self.num_samples is None else indices[:self.num_samples]

    def size(self, n):
        """Indices per epoch for a source of n rows (None: unknown until sampling)."""
        return None


class SequentialSampler(Sampler):
    def __init__(self, start_index=None, num_samples=None):
        super().__init__(num_samples)
        self.start_index = _count(start_index, "start_index", "SequentialSampler") or 0

    def indices(self, n, rng, source=None):
        if self.start_index >= n and n:
            raise RuntimeError(f"For 'SequentialSampler', the 'start_index' {self.start_index} "
                               f"must be less than the dataset size {n}.")
        return self._limit(list(range(self.start_index, n)))

    def size(self, n):
        return len(self._limit(range(self.start_index, n)))


class RandomSampler(Sampler):
    def __init__(self, replacement=False, num_samples=None):
        super().__init__(num_samples)
        if not isinstance(replacement, bool):
            raise TypeError(f"For 'RandomSampler', the 'replacement' must be bool, but got "
                            f"{type(replacement).__name__}.")
        self.replacement = replacement

    def indices(self, n, rng, source=None):
        if self.replacement:
            count = n if self.num_samples is None else self.num_samples
            return [int(i) for i in rng.integers(0, n, count)]
        return self._limit([int(i) for i in rng.permutation(n)])

    def size(self, n):
        if self.replacement and self.num_samples is not None:
            return self.num_samples
        return n if self.num_samples is None else min(n, self.num_samples)


class SubsetSampler(Sampler):
    def __init__(self, indices, num_samples=None):
        super().__init__(num_samples)
        if isinstance(indices, (int, np.integer)):
            indices = [indices]
        self.subset = [_count(i, "indices", type(self).__name__, False) for i in indices]

    def _checked(self, n):
        bad = [i for i in self.subset if i >= n]
        if bad:
            raise RuntimeError(f"For '{type(self).__name__}', the indices {bad} are out of range "
                               f"for a dataset of {n} rows.")
        return list(self.subset)

    def indices(self, n, rng, source=None):
        return self._limit(self._checked(n))

    def size(self, n):
        return len(self._limit(self.subset))


class SubsetRandomSampler(SubsetSampler):
    def indices(self, n, rng, source=None):
        chosen = self._checked(n)
        return self._limit([chosen[int(i)] for i in rng.permutation(len(chosen))])


class WeightedRandomSampler(Sampler):
    def __init__(self, weights, num_samples=None, replacement=True):
        super().__init__(num_samples)
        weights = np.asarray(weights, np.float64)
        if weights.ndim != 1 or not weights.size or (weights < 0).any() or weights.sum() <= 0:
            raise ValueError("For 'WeightedRandomSampler', the 'weights' must be a non-empty list "
                             "of non-negative numbers with a positive sum.")
        self.weights = weights
        self.replacement = replacement

    def indices(self, n, rng, source=None):
        count = len(self.weights) if self.num_samples is None else self.num_samples
        if not self.replacement and count > int((self.weights > 0).sum()):
            raise RuntimeError(f"For 'WeightedRandomSampler', {count} samples without replacement "
                               f"need as many positive weights.")
        p = self.weights / self.weights.sum()
        drawn = rng.choice(len(p), size=count, replace=self.replacement, p=p)
        bad = [int(i) for i in drawn if i >= n]
        if bad:
            raise RuntimeError(f"For 'WeightedRandomSampler', {len(self.weights)} weights were "
                               f"given for a dataset of {n} rows.")
        return [int(i) for i in drawn]

    def size(self, n):
        return len(self.weights) if self.num_samples is None else self.num_samples


class DistributedSampler(Sampler):
    def __init__(self, num_shards, shard_id, shuffle=True, num_samples=None, offset=-1):
        super().__init__(num_samples)
        if isinstance(num_shards, bool) or not isinstance(num_shards, int) or num_shards < 1:
            raise ValueError(f"For 'DistributedSampler', the 'num_shards' must be a positive int, "
                             f"but got {num_shards!r}.")
        if isinstance(shard_id, bool) or not isinstance(shard_id, int) or \
                not 0 <= shard_id < num_shards:
            raise ValueError(f"For 'DistributedSampler', the 'shard_id' must be in [0, "
                             f"{num_shards - 1}], but got {shard_id!r}.")
        self.num_shards, self.shard_id, self.shuffle = num_shards, shard_id, bool(shuffle)

    def indices(self, n, rng, source=None):
        order = rng.permutation(n) if self.shuffle else np.arange(n)
        per_shard = -(-n // self.num_shards)
        positions = self.shard_id + self.num_shards * np.arange(per_shard)
        return self._limit([int(order[p % n]) for p in positions]) if n else []

    def size(self, n):
        return len(self._limit(range(-(-n // self.num_shards))))


class PKSampler(Sampler):
    def __init__(self, num_val, num_class=None, shuffle=False, class_column="label",
                 num_samples=None):
        super().__init__(num_samples)
        self.num_val = _count(num_val, "num_val", "PKSampler", False)
        if num_class is not None:
            raise NotImplementedError("For 'PKSampler', 'num_class' is not supported yet (as in "
                                      "MindSpore 2.10).")
        self.shuffle, self.class_column = shuffle, class_column

    def indices(self, n, rng, source=None):
        if source is None or not hasattr(source, "labels"):
            raise RuntimeError("For 'PKSampler', the source must provide class labels.")
        labels = source.labels(self.class_column)
        out = []
        classes = sorted(set(labels))
        if self.shuffle:
            classes = [classes[int(i)] for i in rng.permutation(len(classes))]
        for label in classes:
            members = [i for i, value in enumerate(labels) if value == label]
            # MindSpore draws each class's rows at random (even with shuffle=False, which only
            # keeps the classes in order): without replacement when the class has enough rows,
            # else every row once plus random repeats
            if len(members) >= self.num_val:
                picks = rng.choice(len(members), self.num_val, replace=False)
            else:
                extra = rng.choice(len(members), self.num_val - len(members))
                picks = rng.permutation(np.concatenate([np.arange(len(members)), extra]))
            out += [members[int(k)] for k in picks]
        return self._limit(out)


def resolve_sampler(sampler, shuffle, num_samples, num_shards, shard_id, op):
    """The sampler a source uses, from MindSpore's overlapping source arguments."""
    if sampler is not None:
        if shuffle is not None or num_shards is not None:
            raise RuntimeError(f"For '{op}', 'sampler' can not be given together with 'shuffle' "
                               f"or 'num_shards'.")
        if isinstance(sampler, (list, tuple)):
            return SubsetSampler(list(sampler), num_samples)
        if isinstance(sampler, Sampler):
            return sampler
        if hasattr(sampler, "__iter__") or hasattr(sampler, "__getitem__"):
            return _IterableSampler(sampler, num_samples)      # iterable, or a sequence
        raise TypeError(f"For '{op}', the 'sampler' must be a Sampler or a list of indices, but "
                        f"got {type(sampler).__name__}.")
    if (num_shards is None) != (shard_id is None):
        raise RuntimeError(f"For '{op}', 'num_shards' and 'shard_id' must be given together.")
    shuffle = True if shuffle is None else shuffle
    if num_shards is not None:
        return DistributedSampler(num_shards, shard_id, shuffle, num_samples)
    return RandomSampler(num_samples=num_samples) if shuffle else \
        SequentialSampler(num_samples=num_samples)


class _IterableSampler(Sampler):
    """A user object whose ``__iter__`` yields indices, or a sequence of them (``__getitem__``
    and ``__len__``, read in order as Python iterates a sequence)."""

    def __init__(self, source, num_samples):
        super().__init__(num_samples)
        self.source = source

    def indices(self, n, rng, source=None):
        if hasattr(self.source, "dataset_size"):
            self.source.dataset_size = n
        return self._limit([int(i) for i in self.source])
