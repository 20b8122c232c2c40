"""``filter``, ``flat_map`` and ``apply``: pipeline operations that choose or expand rows.

``dataset.filter(predicate, input_columns=None)``
    keeps the rows for which ``predicate(*columns)`` is true.  The predicate gets
    the row's values of ``input_columns`` (all columns when None) as numpy
    arrays, 0-d for scalars, and its result is read with Python's ``bool`` (a
    one-element array counts by its element).  How many rows remain is known
    only by iterating, so ``get_dataset_size`` runs the pipeline once.
``dataset.flat_map(func)``
    replaces each row by the rows of the dataset ``func(value)`` returns; the
    child must have one column, whose value ``func`` gets as a numpy array.
``dataset.apply(apply_func)``
    is ``apply_func(dataset)``, which must return a Dataset.

(MindSpore ``dataset/engine/datasets.py``: ``Dataset.filter``, ``flat_map``, ``apply``.)
"""
from .dataset import COMBINATORS, Dataset

__all__ = ["FilterDataset", "FlatMapDataset", "apply_dataset"]


class FilterDataset(Dataset):
    """The child's rows for which ``predicate`` holds."""

    def __init__(self, child, predicate, input_columns=None):
        super().__init__([child])
        if not callable(predicate):
            raise TypeError(f"For 'filter', the 'predicate' must be a Python function or a "
                            f"callable object, but got {type(predicate).__name__}.")
        self.predicate = predicate
        self.input_columns = [input_columns] if isinstance(input_columns, str) else input_columns

    def size(self):
        return None                     # known only by running the predicate

    def _indices(self):
        names = self.children[0].get_col_names()
        if self.input_columns is None:
            return list(range(len(names)))
        missing = [c for c in self.input_columns if c not in names]
        if missing:
            # MindSpore checks the columns when the pipeline starts (a RuntimeError there)
            raise RuntimeError(f"For 'filter', the input column {missing[0]!r} does not exist; "
                               f"the columns are {names}.")
        return [names.index(c) for c in self.input_columns]

    def rows(self, epoch):
        indices = self._indices()
        for row in self.children[0].rows(epoch):
            if bool(self.predicate(*(row[i] for i in indices))):
                yield row


class FlatMapDataset(Dataset):
    """Each row of a one-column child replaced by the rows of ``func(value)``, a Dataset."""

    def __init__(self, child, func):
        super().__init__([child])
        if not callable(func):
            raise TypeError(f"For 'flat_map', the 'func' must be callable, but got "
                            f"{type(func).__name__}.")
        self.func = func

    def size(self):
        return None

    def get_col_names(self):
        for row in self.children[0].rows(_first_epoch()):
            return self._expand(row).get_col_names()
        return self.children[0].get_col_names()

    def _expand(self, row):
        if len(row) != 1:
            raise RuntimeError(f"For 'flat_map', the dataset must have one column, but it has "
                               f"{len(row)}.")
        produced = self.func(row[0])
        if not isinstance(produced, Dataset):
            raise TypeError(f"For 'flat_map', 'func' must return a Dataset, but returned "
                            f"{type(produced).__name__}.")
        return produced

    def rows(self, epoch):
        for row in self.children[0].rows(epoch):
            yield from self._expand(row).rows(epoch)


def apply_dataset(dataset, apply_func):
    """``dataset.apply(apply_func)``: ``apply_func(dataset)``, checked to be a Dataset."""
    if not callable(apply_func):
        raise TypeError(f"For 'apply', the 'apply_func' must be callable, but got "
                        f"{type(apply_func).__name__}.")
    result = apply_func(dataset)
    if not isinstance(result, Dataset):
        raise TypeError(f"For 'apply', 'apply_func' must return a Dataset, but returned "
                        f"{type(result).__name__}.")
    return result


def _first_epoch():
    from .iterators import Epoch
    return Epoch(None, 0)


COMBINATORS.update(filter=FilterDataset, flat_map=FlatMapDataset, apply=apply_dataset)
