"""``MindDataset``: rows of MindRecord files (see :mod:`refms.mindrecord`).

Columns are the schema's fields in sorted order, or ``columns_list`` in its
order.  Values: int32/int64/float32/float64 scalars as 0-d arrays, shaped fields
as arrays of their shape, strings as 0-d ``str`` arrays and ``bytes`` fields as
a 1-element ``numpy.bytes_`` array (what MindSpore 2.10 yields).  Shuffled by
default (``shuffle`` may be a bool or a :class:`Shuffle` mode; every mode is
a global shuffle here).
"""
import enum

import numpy as np

from ..mindrecord.reader import ShardSet
from .sources import _RandomAccessSource

__all__ = ["MindDataset", "Shuffle"]


class Shuffle(str, enum.Enum):
    GLOBAL = "global"
    FILES = "files"
    INFILE = "infile"


class MindDataset(_RandomAccessSource):
    """MindDataset(dataset_files, columns_list=None, num_parallel_workers=None, shuffle=None,
    num_shards=None, shard_id=None, sampler=None, padded_sample=None, num_padded=None,
    num_samples=None, cache=None)"""

    def __init__(self, dataset_files, columns_list=None, num_parallel_workers=None, shuffle=None,
                 num_shards=None, shard_id=None, sampler=None, padded_sample=None,
                 num_padded=None, num_samples=None, cache=None):
        if isinstance(shuffle, Shuffle):
            shuffle = True
        super().__init__(shuffle, num_samples, sampler, num_shards, shard_id,
                         num_parallel_workers, "MindDataset")
        self.files = ShardSet(dataset_files)
        names = sorted(self.files.schema)
        if columns_list is not None:
            missing = [c for c in columns_list if c not in names]
            if missing:
                raise RuntimeError(f"For 'MindDataset', the columns {missing} of 'columns_list' "
                                   f"are not in the schema {names}.")
            names = list(columns_list)
        self.column_names = names
        self.padded_sample, self.num_padded = padded_sample, num_padded or 0

    def __len__(self):
        return len(self.files) + self.num_padded

    def row_at(self, index):
        if index >= len(self.files):
            row = self.padded_sample
        else:
            row = self.files.row(index)
        return tuple(np.asarray(row[name]) for name in self.column_names)

    def get_col_names(self):
        return list(self.column_names)
