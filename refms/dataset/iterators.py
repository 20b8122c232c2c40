"""Iterators over a dataset: ``create_tuple_iterator`` and ``create_dict_iterator``.

An iterator runs the pipeline one epoch at a time.  Iterating it to the end
finishes an epoch; iterating it again (``for`` a second time, or ``next``
after the StopIteration) starts the next one, with a new shuffle order drawn
from the same generator, until ``num_epochs`` (−1: no limit) are done.  Rows
come out as refms Tensors, or numpy arrays with ``output_numpy=True``
(MindSpore ``dataset/engine/iterators.py``).
"""
import numpy as np

from .._tensor import Tensor
from . import config

__all__ = ["Epoch", "TupleIterator", "DictIterator"]


def _as_longlong(array):
    """Int64 columns typed ``np.longlong``, as MindSpore's pipeline hands them out (the same
    integers; numpy's ``repr`` then shows ``dtype=int64``)."""
    if isinstance(array, np.ndarray) and array.dtype.type is np.int64:
        return array.view(np.longlong)
    return array


class Epoch:
    """What one pass over the pipeline needs: its number and random generators.

    ``epoch.generator(node)`` is a generator of the node's own, seeded from
    (the iterator's seed, the epoch number, the node's place in the tree), so
    one node's draws never shift another's — a ``map`` that reads ahead with
    several workers leaves a later ``shuffle`` unchanged.  ``epoch.rng`` is the
    generator of the node that asks first (kept for simple uses).
    """

    def __init__(self, rng, number, root=None):
        rng = rng if rng is not None else np.random.default_rng()
        self.seed = int(rng.integers(0, 2 ** 63))
        self.number = number
        self._places = {}
        if root is not None:
            stack = [root]
            while stack:
                node = stack.pop()
                if id(node) not in self._places:
                    self._places[id(node)] = len(self._places)
                    stack.extend(reversed(node.children))
        self._generators = {}
        self.rng = np.random.default_rng([self.seed, number])

    def generator(self, node):
        key = id(node)
        if key not in self._generators:
            place = self._places.setdefault(key, len(self._places))
            self._generators[key] = np.random.default_rng([self.seed, self.number, place])
        return self._generators[key]


class _Iterator:
    def __init__(self, dataset, num_epochs, output_numpy):
        if isinstance(num_epochs, bool) or not isinstance(num_epochs, int) or \
                (num_epochs <= 0 and num_epochs != -1):
            raise ValueError(f"The 'num_epochs' must be -1 or a positive int, but got "
                             f"{num_epochs!r}.")
        self.dataset = dataset
        self.num_epochs = num_epochs
        self.output_numpy = output_numpy
        seed = config.get_seed()
        self._rng = np.random.default_rng(seed) if seed is not None else np.random.default_rng()
        self._epoch = 0
        self._rows = None

    def __iter__(self):
        return self

    def __next__(self):
        if self._rows is None:
            if self.num_epochs != -1 and self._epoch >= self.num_epochs:
                raise RuntimeError(f"The iterator has run its {self.num_epochs} epoch(s); create a "
                                   f"new iterator (or pass a larger 'num_epochs').")
            self._rows = self.dataset.rows(Epoch(self._rng, self._epoch, self.dataset))
        try:
            row = next(self._rows)
        except StopIteration:
            self._rows = None
            self._epoch += 1
            raise
        return self._convert(row)

    def _value(self, array, in_dict=False):
        if isinstance(array, dict):
            return {key: self._value(v, True) for key, v in array.items()}
        if not in_dict:                  # a dict's values are the user's objects, kept as they are
            array = _as_longlong(array)
        if self.output_numpy or array.dtype.kind in "USO":
            return array                 # strings stay numpy, as MindSpore keeps them
        return Tensor.from_numpy(np.array(array))    # a copy the tensor owns, numpy-backed

    def get_next(self):
        return next(self)

    def stop(self):
        self._rows = None


class TupleIterator(_Iterator):
    """Yields a list of column values per row (only ``columns``, when given)."""

    def __init__(self, dataset, columns, num_epochs, output_numpy):
        super().__init__(dataset, num_epochs, output_numpy)
        self._indices = None if columns is None else dataset._column_indices(columns, "iterator")

    def _convert(self, row):
        if self._indices is not None:
            row = tuple(row[i] for i in self._indices)
        return [self._value(a) for a in row]


class DictIterator(_Iterator):
    """Yields ``{column name: value}`` per row."""

    def __init__(self, dataset, num_epochs, output_numpy):
        super().__init__(dataset, num_epochs, output_numpy)
        self._names = dataset.get_col_names()

    def _convert(self, row):
        return {name: self._value(a) for name, a in zip(self._names, row)}
