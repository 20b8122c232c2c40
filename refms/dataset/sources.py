"""Dataset sources built from Python data: ``NumpySlicesDataset`` and ``GeneratorDataset``.

``NumpySlicesDataset(data)`` slices ``data`` along its first axis, one row per
index (MindSpore ``dataset/engine/datasets_user_defined.py``)::

    dict {name: array}      -> one column per key, named by it
    tuple (a, b, ...)       -> one column per element: column_0, column_1, ...
    list or numpy array     -> a single column, column_0

``GeneratorDataset(source, column_names)`` reads rows from ``source``: a
callable returning an iterator, an iterable, or a *random-accessible* object
(``__getitem__`` and ``__len__``).  Each row is a tuple of arrays (a single
array is one column).

Both shuffle by default when the source is random-accessible (NumpySlices
always is): ``shuffle=None`` means True there.  The order is a permutation
drawn per epoch from the pipeline generator (:mod:`refms.dataset.config`);
it cannot equal MindSpore's, whose generator is its own C++ one.
"""
import numpy as np

from .._tensor import Tensor
from ..dtype import Type
from .config import check_num_parallel_workers, get_num_parallel_workers
from .dataset import Dataset, to_array
from .parallel import parallel_map
from .samplers import resolve_sampler

__all__ = ["NumpySlicesDataset", "GeneratorDataset"]


def _check_num_samples(num_samples):
    if num_samples is not None and (isinstance(num_samples, bool) or
                                    not isinstance(num_samples, int) or num_samples < 0):
        raise ValueError(f"The 'num_samples' must be None or a non-negative int, but got "
                         f"{num_samples!r}.")
    return num_samples or None


class _RandomAccessSource(Dataset):
    """Rows read by index in the order a sampler (:mod:`refms.dataset.samplers`) gives.

    Subclasses define ``__len__``, ``row_at(index)`` and ``get_col_names``; with
    ``num_parallel_workers`` > 1 rows are read by a pool of threads (or processes, for
    :class:`GeneratorDataset` with ``python_multiprocessing``), still in sampler order.
    """

    def __init__(self, shuffle=None, num_samples=None, sampler=None, num_shards=None,
                 shard_id=None, num_parallel_workers=None, op=None):
        super().__init__()
        if shuffle is not None and not isinstance(shuffle, bool):
            raise TypeError(f"The 'shuffle' must be bool or None, but got "
                            f"{type(shuffle).__name__}.")
        self.num_samples = _check_num_samples(num_samples)
        check_num_parallel_workers(num_parallel_workers, op or type(self).__name__)
        self.sampler = resolve_sampler(sampler, shuffle, self.num_samples, num_shards, shard_id,
                                       op or type(self).__name__)
        self.num_parallel_workers = num_parallel_workers or get_num_parallel_workers()
        self.use_processes = False

    def __len__(self):
        raise NotImplementedError

    def row_at(self, index):
        raise NotImplementedError

    def size(self):
        size = self.sampler.size(len(self))
        if size is None:
            return None
        return size if self.num_samples is None else min(size, self.num_samples)

    def indices(self, epoch):
        order = self.sampler.indices(len(self), epoch.generator(self), self)
        return order if self.num_samples is None else order[:self.num_samples]

    def rows(self, epoch):
        order = self.indices(epoch)
        if self.num_parallel_workers > 1 and len(order) > 1:
            yield from parallel_map(self.row_at, order, self.num_parallel_workers,
                                    self.use_processes)
            return
        for index in order:
            yield self.row_at(index)

    def labels(self, column):
        """Every row's value of ``column`` (for PKSampler)."""
        where = self.get_col_names().index(column) if column in self.get_col_names() else None
        if where is None:
            raise RuntimeError(f"For 'PKSampler', the class column '{column}' does not exist; the "
                               f"columns are {self.get_col_names()}.")
        return [self.row_at(i)[where].item() for i in range(len(self))]


class NumpySlicesDataset(_RandomAccessSource):
    """NumpySlicesDataset(data, column_names=None, num_samples=None, num_parallel_workers=1,
    shuffle=None, sampler=None, num_shards=None, shard_id=None)"""

    def __init__(self, data, column_names=None, num_samples=None, num_parallel_workers=1,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None):
        super().__init__(shuffle, num_samples, sampler, num_shards, shard_id, num_parallel_workers,
                         "NumpySlicesDataset")
        if isinstance(data, dict):
            names = [str(k) for k in data]
            columns = [to_array(v, "NumpySlicesDataset") for v in data.values()]
        elif isinstance(data, tuple):
            names = [f"column_{i}" for i in range(len(data))]
            columns = [to_array(v, "NumpySlicesDataset") for v in data]
        elif isinstance(data, (list, np.ndarray)):
            names = ["column_0"]
            columns = [to_array(data, "NumpySlicesDataset")]
        else:
            if not isinstance(data, Tensor):
                raise TypeError(f"For 'NumpySlicesDataset', the 'data' must be a list, tuple, dict "
                                f"or numpy array, but got {type(data).__name__}.")
            names, columns = ["column_0"], [data.asnumpy()]
        for name, column in zip(names, columns):
            if column.ndim == 0:
                raise ValueError(f"For 'NumpySlicesDataset', column '{name}' is a scalar; every "
                                 f"column must have a first axis to slice.")
        lengths = {len(c) for c in columns}
        if len(lengths) > 1:
            raise ValueError(f"For 'NumpySlicesDataset', all columns must have the same length, but "
                             f"got lengths {[len(c) for c in columns]} for columns {names}.")
        if column_names is not None:
            column_names = [column_names] if isinstance(column_names, str) else list(column_names)
            if len(column_names) != len(columns):
                raise ValueError(f"For 'NumpySlicesDataset', {len(column_names)} column names were "
                                 f"given for {len(columns)} columns.")
            names = column_names
        self.column_names = names
        self.columns = columns

    def __len__(self):
        return len(self.columns[0])

    def row_at(self, index):
        return tuple(np.array(c[index]) for c in self.columns)

    def get_col_names(self):
        return list(self.column_names)


class GeneratorDataset(_RandomAccessSource):
    """GeneratorDataset(source, column_names=None, column_types=None, schema=None,
    num_samples=None, num_parallel_workers=1, shuffle=None, ...)"""

    def __init__(self, source, column_names=None, column_types=None, schema=None,
                 num_samples=None, num_parallel_workers=1, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None, python_multiprocessing=True, max_rowsize=None):
        random_access = hasattr(source, "__getitem__") and hasattr(source, "__len__")
        if not random_access and sampler is not None:
            raise ValueError("For 'GeneratorDataset', a 'sampler' needs a random-accessible source "
                             "(with __getitem__ and __len__).")
        if not random_access and num_shards is not None:
            raise ValueError("For 'GeneratorDataset', 'num_shards' needs a random-accessible "
                             "source (with __getitem__ and __len__).")
        # An iterable source is read in its own order: MindSpore ignores shuffle there.
        super().__init__(shuffle if random_access else False, num_samples,
                         sampler if random_access else None, num_shards, shard_id,
                         num_parallel_workers, "GeneratorDataset")
        self.use_processes = bool(python_multiprocessing) and self.num_parallel_workers > 1
        if column_names is None:
            raise ValueError("For 'GeneratorDataset', the 'column_names' must be given.")
        self.column_names = [column_names] if isinstance(column_names, str) else \
            list(column_names)
        self.column_types = column_types
        self.source = source
        self.random_access = random_access

    def __len__(self):
        return len(self.source)

    def row_at(self, index):
        try:
            item = self.source[index]
        except Exception as e:
            raise RuntimeError(f"GeneratorDataset: the source failed on row {index}: "
                               f"{type(e).__name__}: {e}") from e
        return self._row(item)

    def _row(self, item):
        values = item if isinstance(item, (tuple, list)) else (item,)
        if len(values) != len(self.column_names):
            raise RuntimeError(f"For 'GeneratorDataset', the source produced {len(values)} values "
                               f"per row but {len(self.column_names)} column names were given: "
                               f"{self.column_names}.")
        row = tuple(to_array(v, "GeneratorDataset") for v in values)
        if self.column_types is not None:
            row = tuple(np.asarray(v, dtype=_numpy_type(t)) for v, t in zip(row, self.column_types))
        return row

    def size(self):
        if self.random_access:
            return super().size()
        return None

    def rows(self, epoch):
        if self.random_access:
            yield from super().rows(epoch)
            return
        iterable = self.source() if callable(self.source) else self.source
        for count, item in enumerate(iterable):
            if self.num_samples is not None and count >= self.num_samples:
                return
            yield self._row(item)

    def get_col_names(self):
        return list(self.column_names)


def _numpy_type(dtype):
    return dtype.np_type if isinstance(dtype, Type) else dtype
