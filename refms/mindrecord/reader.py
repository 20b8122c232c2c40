"""Reading MindRecord shards: ``FileReader`` and the row access ``MindDataset`` uses.

A :class:`ShardSet` opens every shard named by the files given (one file of a
set brings all of its ``shard_addresses``, as in MindSpore), walks each shard's
pages in ``page_id`` order and pairs the n-th raw record with the n-th blob
record.  Rows are numbered shard by shard.  Any inconsistency — a page past
the end of the file, a record longer than its page, counts that disagree —
is a ``RuntimeError`` naming the file, page and row.
"""
import mmap
import os
import struct

import numpy as np

from . import layout, msgpack

__all__ = ["ShardSet", "FileReader"]


def _records(data, start, end, path, page):
    """(begin, end) file offsets of each length-prefixed record in ``data[start:end]``."""
    pos, out = start, []
    while pos < end:
        if pos + 8 > end:
            raise RuntimeError(f"Invalid MindRecord file {path}: page {page} ends inside a record "
                               f"length at byte {pos - start}.")
        n = struct.unpack_from("<Q", data, pos)[0]
        if pos + 8 + n > end:
            raise RuntimeError(f"Invalid MindRecord file {path}: a record of page {page} at byte "
                               f"{pos - start} needs {n} bytes but the page holds "
                               f"{end - pos - 8}.")
        out.append((pos + 8, pos + 8 + n))
        pos += 8 + n
    return out


class _Shard:
    def __init__(self, path):
        self.path = path
        self.header = layout.read_header(path)
        schemas = self.header["schema"]
        if len(schemas) != 1:
            raise RuntimeError(f"Invalid MindRecord file {path}: expected one schema, found "
                               f"{len(schemas)}.")
        self.schema = schemas[0]["schema"]
        self.blobs = schemas[0].get("blob_fields", layout.blob_fields(self.schema))
        size = os.path.getsize(path)
        header_size, page_size = self.header["header_size"], self.header["page_size"]
        raw, blob = [], []
        with open(path, "rb") as f:
            self.data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)   # pages read lazily
        for page in sorted(self.header["page"], key=lambda p: p["page_id"]):
            start = header_size + page["page_id"] * page_size
            if start + page["page_size"] > size:
                raise RuntimeError(f"Invalid MindRecord file {path}: page {page['page_id']} "
                                   f"({page['page_type']}) needs bytes up to "
                                   f"{start + page['page_size']} but the file has {size}; "
                                   f"the file is truncated.")
            records = _records(self.data, start, start + page["page_size"], path,
                               page["page_id"])
            (raw if page["page_type"] == "RAW_DATA" else blob).extend(records)
        if len(raw) != len(blob):
            raise RuntimeError(f"Invalid MindRecord file {path}: {len(raw)} raw records but "
                               f"{len(blob)} blob records.")
        self.raw, self.blob = raw, blob

    def row(self, index):
        where = f"MindRecord file {self.path}, row {index}"
        try:
            values = msgpack.unpack(self.data[slice(*self.raw[index])])
        except (ValueError, IndexError, UnicodeDecodeError, struct.error) as e:
            raise RuntimeError(f"Invalid {where}: its raw record is not valid ({e}).") from None
        out = {}
        if not isinstance(values, dict):          # nil: a row without scalar fields
            values = {}
        for name, value in values.items():
            if name not in self.schema:           # the {"id": 0} filler of such rows
                continue
            kind = self.schema[name]["type"]
            out[name] = np.array(value) if kind == "string" else \
                np.array(value, layout.NUMPY_TYPES[kind])
        try:
            out.update(layout.decode_blob(self.schema, self.blobs,
                                              self.data[slice(*self.blob[index])], where))
        except ValueError as e:
            raise RuntimeError(f"Invalid {e}") from None
        return out


class ShardSet:
    """All rows of a set of MindRecord shards, by index."""

    def __init__(self, dataset_files):
        if isinstance(dataset_files, str):
            if not os.path.isfile(dataset_files):
                raise ValueError(f"The file {os.path.abspath(dataset_files)} does not exist or "
                                 f"permission denied!")
            folder = os.path.dirname(os.path.abspath(dataset_files))
            first = layout.read_header(dataset_files)
            names = first["shard_addresses"]
            paths = [dataset_files] if len(names) == 1 else \
                [os.path.join(folder, name) for name in names]
        else:
            paths = list(dataset_files)
        for path in paths:
            if not os.path.isfile(path):
                raise ValueError(f"The file {os.path.abspath(path)} does not exist or permission "
                                 f"denied!")
        self.shards = [_Shard(p) for p in paths]
        self.schema = self.shards[0].schema
        for shard in self.shards[1:]:
            if shard.schema != self.schema:
                raise RuntimeError(f"The MindRecord files {paths[0]} and {shard.path} have "
                                   f"different schemas.")
        self.starts = np.cumsum([0] + [len(s.raw) for s in self.shards])

    def __len__(self):
        return int(self.starts[-1])

    def row(self, index):
        shard = int(np.searchsorted(self.starts, index, side="right")) - 1
        return self.shards[shard].row(index - int(self.starts[shard]))


class FileReader:
    """FileReader(file_name, num_consumer=4, columns=None, operator=None): rows as dicts."""

    def __init__(self, file_name, num_consumer=4, columns=None, operator=None):
        self._set = ShardSet(file_name)
        self._columns = columns

    def get_next(self):
        for i in range(len(self._set)):
            row = self._set.row(i)
            if self._columns is not None:
                row = {k: row[k] for k in self._columns}
            yield {k: (v.item() if v.ndim == 0 else (v[0] if v.dtype.kind == "S" else v))
                   for k, v in row.items()}

    def close(self):
        pass
