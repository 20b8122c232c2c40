"""Text sources: ``TextFileDataset`` (one row per line) and ``CSVDataset``.

``TextFileDataset(files)``: column ``text``, each non-empty line of each file
(in the order given) as a 0-d ``str`` array; empty lines are skipped, as in
MindSpore.

``CSVDataset(files, field_delim=',', column_defaults=None, column_names=None)``:
the first line of the first file names the columns unless ``column_names`` is
given (then every line is data).  Fields follow RFC 4180 quoting (a quoted field
may hold the delimiter).  ``column_defaults`` gives each column's type by an
example value — int → int32, float → float32, str → str — and an empty numeric
field is an error, as in MindSpore; without it every field is a string.
Both shuffle by default (``shuffle=False`` keeps file order).
"""
import csv
import os

import numpy as np

from .sources import _RandomAccessSource

__all__ = ["TextFileDataset", "CSVDataset"]


def _file_list(dataset_files, op):
    files = [dataset_files] if isinstance(dataset_files, str) else list(dataset_files)
    if not files:
        raise ValueError(f"For '{op}', the 'dataset_files' is empty.")
    for path in files:
        if not os.path.isfile(path):
            raise ValueError(f"The file {path} does not exist or permission denied!")
    return files


def _shuffle_flag(shuffle):
    if shuffle is None or isinstance(shuffle, bool):
        return shuffle
    return True            # a Shuffle mode: a global shuffle here


class TextFileDataset(_RandomAccessSource):
    """TextFileDataset(dataset_files, num_samples=None, num_parallel_workers=None, shuffle=None,
    num_shards=None, shard_id=None, cache=None)"""

    def __init__(self, dataset_files, num_samples=None, num_parallel_workers=None, shuffle=None,
                 num_shards=None, shard_id=None, cache=None):
        super().__init__(_shuffle_flag(shuffle), num_samples, None, num_shards, shard_id,
                         num_parallel_workers, "TextFileDataset")
        self.lines = []
        for path in _file_list(dataset_files, "TextFileDataset"):
            with open(path, encoding="utf-8") as f:
                self.lines += [line.rstrip("\r\n") for line in f if line.rstrip("\r\n")]

    def __len__(self):
        return len(self.lines)

    def row_at(self, index):
        return (np.array(self.lines[index]),)

    def get_col_names(self):
        return ["text"]


class CSVDataset(_RandomAccessSource):
    """CSVDataset(dataset_files, field_delim=',', column_defaults=None, column_names=None,
    num_samples=None, num_parallel_workers=None, shuffle=None, num_shards=None, shard_id=None,
    cache=None)"""

    def __init__(self, dataset_files, field_delim=",", column_defaults=None, column_names=None,
                 num_samples=None, num_parallel_workers=None, shuffle=None, num_shards=None,
                 shard_id=None, cache=None):
        super().__init__(_shuffle_flag(shuffle), num_samples, None, num_shards, shard_id,
                         num_parallel_workers, "CSVDataset")
        files = _file_list(dataset_files, "CSVDataset")
        self.rows_ = []
        names = list(column_names) if column_names is not None else None
        for file_number, path in enumerate(files):
            with open(path, newline="", encoding="utf-8") as f:
                lines = list(csv.reader(f, delimiter=field_delim))
            first = 0
            if column_names is None:
                if not lines:
                    raise RuntimeError(f"Invalid csv, csv file: {path} is empty; its first line "
                                       f"must name the columns.")
                if names is None:
                    names = lines[0]
                first = 1
            for number, fields in enumerate(lines[first:], start=first + 1):
                if len(fields) != len(names):
                    raise RuntimeError(f"Invalid csv, csv file: {path} line {number} has "
                                       f"{len(fields)} fields but there are {len(names)} "
                                       f"columns {names}.")
                self.rows_.append(tuple(self._convert(fields, column_defaults, path, number)))
        self.column_names = names

    @staticmethod
    def _convert(fields, defaults, path, number):
        for i, text in enumerate(fields):
            default = defaults[i] if defaults is not None and i < len(defaults) else ""
            if isinstance(default, str):
                yield np.array(text)
                continue
            kind = np.int32 if isinstance(default, int) else np.float32
            try:
                yield np.array(int(text) if kind is np.int32 else float(text), kind)
            except ValueError:
                raise RuntimeError(f"Invalid csv, csv file: {path} parse failed at line {number}, "
                                   f"type does not match (column {i}: {text!r} is not "
                                   f"{'an int' if kind is np.int32 else 'a float'}).") from None

    def __len__(self):
        return len(self.rows_)

    def row_at(self, index):
        return self.rows_[index]

    def get_col_names(self):
        return list(self.column_names)
