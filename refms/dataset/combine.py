"""Pipelines built from several datasets, or cut into several: zip, concat, split, buckets.

::

    zip((a, b))          row i = a's row i + b's row i (columns must not repeat); stops at the
                         shortest
    a + b, a.concat(bs)  a's rows, then each b's
    split(sizes)         consecutive pieces (or a random partition with ``randomize``); float
                         sizes are fractions: round(f·n) each, the missing rows to the first
                         piece, extra rows off the first piece that can spare them
    bucket_batch_by_length(columns, boundaries, batch_sizes)
                         a row of length L goes to the bucket i with boundaries[i−1] ≤ L <
                         boundaries[i]; a full bucket is emitted as a (padded) batch; leftovers
                         are emitted at the end in bucket order (unless ``drop_remainder``)
"""
import numpy as np

from . import config
from .dataset import COMBINATORS, Dataset, BatchDataset, _pad_rows, _stack_column
from .iterators import Epoch

__all__ = ["ZipDataset", "ConcatDataset", "BucketBatchByLengthDataset", "split", "zip_datasets"]


def zip_datasets(datasets):
    """``refms.dataset.zip((a, b, ...))``: the datasets' columns side by side."""
    if not isinstance(datasets, tuple) or not datasets:
        raise TypeError("For 'zip', the 'datasets' must be a non-empty tuple of datasets.")
    return ZipDataset(list(datasets))


class ZipDataset(Dataset):
    def __init__(self, datasets):
        super().__init__(datasets)
        names = [n for d in datasets for n in d.get_col_names()]
        repeated = sorted({n for n in names if names.count(n) > 1})
        if repeated:
            raise ValueError(f"For 'zip', the datasets share the column names {repeated}; rename "
                             f"them first.")

    def size(self):
        sizes = [d.size() for d in self.children]
        return None if None in sizes else min(sizes)

    def get_col_names(self):
        return [n for d in self.children for n in d.get_col_names()]

    def rows(self, epoch):
        for parts in zip(*(d.rows(epoch) for d in self.children)):
            yield tuple(v for part in parts for v in part)


class ConcatDataset(Dataset):
    def __init__(self, datasets):
        super().__init__(datasets)
        names = datasets[0].get_col_names()
        for d in datasets[1:]:
            if d.get_col_names() != names:
                raise ValueError(f"For 'concat', every dataset must have the columns {names}, but "
                                 f"one has {d.get_col_names()}.")

    def size(self):
        sizes = [d.size() for d in self.children]
        return None if None in sizes else sum(sizes)

    def rows(self, epoch):
        for d in self.children:
            yield from d.rows(epoch)


class _Piece(Dataset):
    """Rows ``indices`` of a materialised parent (one piece of a split)."""

    def __init__(self, parent, indices):
        super().__init__([parent])
        self.indices = indices

    def size(self):
        return len(self.indices)

    def rows(self, epoch):
        table = self.children[0]._split_rows()
        for i in self.indices:
            yield table[i]


def split(dataset, sizes, randomize=True):
    n = dataset.get_dataset_size()
    if all(isinstance(s, float) for s in sizes):
        if not all(0 < s <= 1 for s in sizes) or abs(sum(sizes) - 1) > 1e-6:
            raise ValueError(f"For 'split', float sizes must be in (0, 1] and sum to 1, but got "
                             f"{sizes}.")
        counts = [int(round(s * n)) for s in sizes]
        if 0 in counts:
            raise RuntimeError(f"For 'split', the sizes {sizes} give an empty piece of a dataset "
                               f"of {n} rows.")
        difference = n - sum(counts)
        if difference > 0:
            counts[0] += difference
        else:
            for i, count in enumerate(counts):
                if count + difference > 0:
                    counts[i] += difference
                    break
    elif all(isinstance(s, int) and s > 0 for s in sizes):
        if sum(sizes) != n:
            raise RuntimeError(f"For 'split', the sizes {sizes} must sum to the dataset size {n}.")
        counts = list(sizes)
    else:
        raise ValueError(f"For 'split', the sizes must be all positive ints or all floats, but "
                         f"got {sizes}.")
    order = np.arange(n)
    if randomize:
        seed = config.get_seed()
        order = (np.random.default_rng(seed) if seed is not None else
                 np.random.default_rng()).permutation(n)
    cache = {}

    def rows():
        if "rows" not in cache:
            cache["rows"] = list(dataset.rows(Epoch(None, 0, dataset)))
        return cache["rows"]

    dataset._split_rows = rows
    pieces, start = [], 0
    for count in counts:
        pieces.append(_Piece(dataset, [int(i) for i in order[start:start + count]]))
        start += count
    return pieces


class BucketBatchByLengthDataset(Dataset):
    def __init__(self, child, column_names, bucket_boundaries, bucket_batch_sizes,
                 element_length_function=None, pad_info=None, pad_to_bucket_boundary=False,
                 drop_remainder=False):
        super().__init__([child])
        self.columns = [column_names] if isinstance(column_names, str) else list(column_names)
        self._indices = child._column_indices(self.columns, "bucket_batch_by_length")
        self.boundaries = list(bucket_boundaries)
        if any(b <= 0 for b in self.boundaries) or self.boundaries != sorted(set(self.boundaries)):
            raise ValueError(f"For 'bucket_batch_by_length', the 'bucket_boundaries' must be "
                             f"positive and strictly increasing, but got {self.boundaries}.")
        self.batch_sizes = list(bucket_batch_sizes)
        if len(self.batch_sizes) != len(self.boundaries) + 1:
            raise ValueError(f"For 'bucket_batch_by_length', 'bucket_batch_sizes' needs "
                             f"{len(self.boundaries) + 1} entries (one more than the "
                             f"boundaries), but got {len(self.batch_sizes)}.")
        if element_length_function is None and len(self.columns) != 1:
            raise ValueError("For 'bucket_batch_by_length', give 'element_length_function' when "
                             "more than one column is named.")
        self.length = element_length_function
        self.pad_info, self.pad_to_boundary = pad_info, pad_to_bucket_boundary
        self.drop_remainder = drop_remainder

    def size(self):
        return None

    def _bucket(self, length):
        for i, boundary in enumerate(self.boundaries):
            if length < boundary:
                return i
        return len(self.boundaries)

    def _emit(self, rows, bucket):
        names = self.children[0].get_col_names()
        out = []
        for i, name in enumerate(names):
            values = [row[i] for row in rows]
            if self.pad_info is not None and (name in self.pad_info or not self.pad_info):
                shape, value = self.pad_info.get(name, (None, 0))
                if self.pad_to_boundary and shape is None and bucket < len(self.boundaries):
                    shape = [self.boundaries[bucket] - 1] + [None] * (values[0].ndim - 1)
                values = _pad_rows(values, (shape, value), name)
            out.append(_stack_column(values, name))
        return tuple(out)

    def rows(self, epoch):
        buckets = [[] for _ in self.batch_sizes]
        for row in self.children[0].rows(epoch):
            if self.length is None:
                length = int(row[self._indices[0]].shape[0]) if row[self._indices[0]].ndim else 1
            else:
                length = int(self.length(*[row[i] for i in self._indices]))
            b = self._bucket(length)
            buckets[b].append(row)
            if len(buckets[b]) == self.batch_sizes[b]:
                yield self._emit(buckets[b], b)
                buckets[b] = []
        if not self.drop_remainder:
            for b, rows in enumerate(buckets):
                if rows:
                    yield self._emit(rows, b)


COMBINATORS.update(zip=ZipDataset, concat=ConcatDataset, split=split,
                   bucket_batch_by_length=BucketBatchByLengthDataset)
