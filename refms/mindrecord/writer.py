"""``FileWriter``: write rows as MindRecord shards (MindSpore ``mindrecord.FileWriter``).

::

    writer = FileWriter("data.mindrecord", shard_num=1, overwrite=True)
    writer.add_schema({"image": {"type": "bytes"}, "label": {"type": "int32"}}, "desc")
    writer.add_index(["label"])                    # optional: the .db's index fields
    writer.write_raw_data([{"image": b"...", "label": 3}, ...])
    writer.commit()                                # pages, header and .db written

``FileWriter.open_for_append(name)`` reopens a committed file set to add rows.
With ``shard_num`` > 1 the files are ``data.mindrecord0`` ... and each
``write_raw_data`` call deals its rows in contiguous runs: ``n // shard_num``
rows to each file, one more to the first ``n % shard_num`` files (MindSpore
gives the extra rows to shards picked by a C++ random engine; files with
``n`` divisible by ``shard_num`` come out identical to MindSpore's).  Blob pages are written while rows arrive; raw
pages, the header and the index database at ``commit``.  The layout is
described in :mod:`refms.mindrecord.layout`.
"""
import bisect
import json
import os
import sqlite3
import struct

import numpy as np

from . import layout, msgpack

__all__ = ["FileWriter", "SUCCESS"]

SUCCESS = 0
_DEFAULT_HEADER_SIZE = 1 << 24
_DEFAULT_PAGE_SIZE = 1 << 25
# MindSpore's Python FileWriter gives a row without raw (scalar) fields the raw record
# {"id": 0}; its Dataset.save writes MessagePack nil there.
_EMPTY_RAW = msgpack.pack({"id": 0})


def _record_spans(data, path, page_id):
    """(begin, end) of each length-prefixed record body in one page's bytes."""
    pos, spans = 0, []
    while pos < len(data):
        n = struct.unpack_from("<Q", data, pos)[0] if pos + 8 <= len(data) else None
        if n is None or pos + 8 + n > len(data):
            raise RuntimeError(f"Invalid MindRecord file {path}: page {page_id} ends inside a "
                               f"record at byte {pos}.")
        spans.append((pos + 8, pos + 8 + n))
        pos += 8 + n
    return spans


class _Shard:
    """One data file being written: blob pages streamed, raw records kept for commit."""

    def __init__(self, path, shard_id, page_size, header_size, resume=False):
        self.path, self.shard_id = path, shard_id
        self.page_size, self.header_size = page_size, header_size
        if resume:
            self.file = open(path, "r+b")
        else:
            self.file = open(path, "wb")
            self.file.write(bytes(header_size))
        self.pages = []            # header page entries, in page_id order
        self.blob_page = None      # the blob page being filled: (entry, bytearray)
        self.raw = []              # (row group, raw record bytes) not yet placed in a raw page
        self.raw_page = None       # the raw page being filled: (entry, bytearray)
        self.raw_rows = []         # per row: (raw page id, start, end, row group)
        self.index = []            # per row: [blob page id, start, end]
        self.rows = 0
        self.saved = 0

    def resume(self, header):
        """Pick up a committed shard where its writer stopped (``open_for_append``).

        The last blob page and the last raw page are reopened and keep filling,
        as they would have in the writer that wrote them; the per-row page
        positions for the .db come from walking the pages.
        """
        pages = sorted(header["page"], key=lambda p: p["page_id"])
        self.pages = [dict(p, row_group_ids=[dict(g) for g in p["row_group_ids"]]) for p in pages]
        blob_pages = [p for p in self.pages if p["page_type"] == "BLOB_DATA"]
        raw_pages = [p for p in self.pages if p["page_type"] == "RAW_DATA"]
        for entry in blob_pages:
            data = self._read_page(entry)
            for begin, end in _record_spans(data, self.path, entry["page_id"]):
                self.index.append([entry["page_id"], begin - 8, end])
        records = []
        for entry in raw_pages:
            data = self._read_page(entry)
            starts = [g["offset"] for g in entry["row_group_ids"]]
            for begin, end in _record_spans(data, self.path, entry["page_id"]):
                group = entry["row_group_ids"][bisect.bisect_right(starts, begin - 8) - 1]["id"]
                self.raw_rows.append((entry["page_id"], begin - 8, end, group))
                records.append(bytes(data[begin:end]))
        if len(self.index) != len(self.raw_rows):
            raise RuntimeError(f"Invalid MindRecord file {self.path}: {len(self.raw_rows)} raw "
                               f"records but {len(self.index)} blob records.")
        self.rows = len(self.index)
        if blob_pages:
            self.blob_page = (blob_pages[-1], bytearray(self._read_page(blob_pages[-1])))
        if raw_pages:
            self.raw_page = (raw_pages[-1], bytearray(self._read_page(raw_pages[-1])))
        return records

    def _read_page(self, entry):
        self.file.seek(self.header_size + entry["page_id"] * self.page_size)
        data = self.file.read(entry["page_size"])
        if len(data) != entry["page_size"]:
            raise RuntimeError(f"Invalid MindRecord file {self.path}: page {entry['page_id']} "
                               f"needs {entry['page_size']} bytes but the file ends first.")
        return data

    def _flush_blob(self):
        if self.blob_page is not None:
            entry, data = self.blob_page
            self.file.seek(self.header_size + entry["page_id"] * self.page_size)
            self.file.write(bytes(data))
            entry["page_size"] = len(data)
            self.blob_page = None

    def add(self, blob, raw):
        record = struct.pack("<Q", len(blob)) + blob
        if len(record) > self.page_size or len(raw) + 8 > self.page_size:
            raise ValueError(f"For 'write_raw_data', row {self.rows} of {self.path} needs "
                             f"{len(record)} bytes but a page holds {self.page_size}; raise it "
                             f"with set_page_size.")
        if self.blob_page is None or len(self.blob_page[1]) + len(record) > self.page_size:
            self._flush_blob()
            group = sum(p["page_type"] == "BLOB_DATA" for p in self.pages)
            entry = {"end_row_id": self.rows, "page_id": len(self.pages), "page_size": 0,
                     "page_type": "BLOB_DATA", "page_type_id": group,
                     "row_group_ids": [{"id": 0, "offset": 0}], "shard_id": self.shard_id,
                     "start_row_id": self.rows}
            self.pages.append(entry)
            self.blob_page = (entry, bytearray())
        entry, data = self.blob_page
        start = len(data)
        data.extend(record)
        entry["end_row_id"] = self.rows + 1
        self.index.append([entry["page_id"], start, len(data)])
        self.raw.append((entry["page_type_id"], struct.pack("<Q", len(raw)) + raw))
        self.rows += 1

    def place_raw(self):
        """Put the raw records of the rows written so far into raw pages (end of a write call)."""
        for group, record in self.raw:
            if self.raw_page is None or len(self.raw_page[1]) + len(record) > self.page_size:
                if self.raw_page is not None:
                    self._write_page(*self.raw_page)
                raw_type = sum(p["page_type"] == "RAW_DATA" for p in self.pages)
                entry = {"end_row_id": 0, "page_id": len(self.pages), "page_size": 0,
                         "page_type": "RAW_DATA", "page_type_id": raw_type, "row_group_ids": [],
                         "shard_id": self.shard_id, "start_row_id": 0}
                self.pages.append(entry)
                self.raw_page = (entry, bytearray())
            entry, data = self.raw_page
            if not entry["row_group_ids"] or entry["row_group_ids"][-1]["id"] != group:
                entry["row_group_ids"].append({"id": group, "offset": len(data)})
            self.raw_rows.append((entry["page_id"], len(data), len(data) + len(record), group))
            data.extend(record)
            entry["page_size"] = len(data)
        self.raw = []

    def finish(self, header_fields, index_fields, index_values):
        self._flush_blob()
        self.place_raw()
        if self.raw_page is not None:
            self._write_page(*self.raw_page)
        rows_raw = self.raw_rows
        self.file.truncate(self._end())
        header = {}
        for key in ("header_size", "index_fields", "page", "page_size", "compression_size",
                    "schema", "shard_addresses", "shard_id", "statistics", "version"):
            header[key] = self.pages if key == "page" else \
                self.shard_id if key == "shard_id" else header_fields[key]
        text = json.dumps(header, separators=(",", ":")).encode("utf-8")
        if len(text) + 8 > self.header_size:
            raise ValueError(f"For 'commit', the header of {self.path} needs {len(text) + 8} bytes "
                             f"but the header size is {self.header_size}; raise it with "
                             f"set_header_size.")
        self.file.seek(0)
        self.file.write(struct.pack("<Q", len(text)) + text)
        self.file.close()
        self._write_db(rows_raw, index_fields, index_values)

    def _write_page(self, entry, data):
        self.file.seek(self.header_size + entry["page_id"] * self.page_size)
        self.file.write(bytes(data))
        entry["page_size"] = len(data)

    def _end(self):
        if not self.pages:
            return self.header_size
        last = max(self.pages, key=lambda p: p["page_id"])
        return self.header_size + last["page_id"] * self.page_size + last["page_size"]

    def _write_db(self, rows_raw, index_fields, index_values):
        import sqlite3
        db_path = self.path + ".db"
        if os.path.exists(db_path):
            os.remove(db_path)
        columns = "".join(f",INC_{i} INT, {name}_0 {layout.SQL_TYPES[kind]}"
                          for i, (name, kind) in enumerate(index_fields))
        keys = "".join(f",INC_{i}" for i in range(len(index_fields)))
        connection = sqlite3.connect(db_path)
        try:
            connection.execute(
                "CREATE TABLE INDEXES(  ROW_ID               INT  NOT NULL, PAGE_ID_RAW          "
                "INT  NOT NULL, PAGE_OFFSET_RAW      INT  NOT NULL, PAGE_OFFSET_RAW_END  INT  NOT "
                "NULL, ROW_GROUP_ID         INT  NOT NULL, PAGE_ID_BLOB         INT  NOT NULL, "
                "PAGE_OFFSET_BLOB     INT  NOT NULL, PAGE_OFFSET_BLOB_END INT  NOT NULL"
                f"{columns}, PRIMARY KEY(ROW_ID{keys}))")
            connection.execute("CREATE TABLE SHARD_NAME(NAME TEXT NOT NULL)")
            connection.execute("INSERT INTO SHARD_NAME VALUES (?)", (os.path.basename(self.path),))
            marks = ",".join("?" * (8 + 2 * len(index_fields)))
            for row, ((raw_page, raw_start, raw_end, group), blob, values) in enumerate(
                    zip(rows_raw, self.index, index_values)):
                extra = []
                for value in values:
                    extra += [0, value]
                connection.execute(f"INSERT INTO INDEXES VALUES ({marks})",
                                   [row, raw_page, raw_start, raw_end, group] + blob + extra)
            connection.commit()
        finally:
            connection.close()


class FileWriter:
    """FileWriter(file_name, shard_num=1, overwrite=False)"""

    def __init__(self, file_name, shard_num=1, overwrite=False):
        if not isinstance(file_name, str) or not file_name:
            raise ValueError(f"For 'FileWriter', the 'file_name' must be a non-empty str, but got "
                             f"{file_name!r}.")
        if isinstance(shard_num, bool) or not isinstance(shard_num, int) or \
                not 1 <= shard_num <= 1000:
            raise ValueError(f"For 'FileWriter', the 'shard_num' must be an int in [1, 1000], but "
                             f"got {shard_num!r}.")
        folder = os.path.dirname(os.path.abspath(file_name))
        if not os.path.isdir(folder):
            raise ValueError(f"For 'FileWriter', the folder {folder} does not exist.")
        self.paths = [file_name] if shard_num == 1 else \
            [f"{file_name}{i}" for i in range(shard_num)]
        for path in self.paths:
            for existing in (path, path + ".db"):
                if os.path.exists(existing):
                    if not overwrite:
                        raise RuntimeError(f"Invalid file, mindrecord files already exist. Please "
                                           f"check file path: {existing}.")
                    os.remove(existing)
        self.header_size = _DEFAULT_HEADER_SIZE
        self.page_size = _DEFAULT_PAGE_SIZE
        self.schema = None
        self.desc = None
        self.index_fields = None
        self._shards = None
        self._committed = False
        self._appending = None          # open_for_append: the header of the files
        self._empty_blob_size = None    # blob body without blob fields: the raw size (None) or n
        self._empty_raw = _EMPTY_RAW    # raw record of a row without raw fields

    @classmethod
    def open_for_append(cls, file_name):
        """A writer that adds rows to the committed MindRecord file set holding ``file_name``.

        Rows continue where the last ``write_raw_data`` stopped (its last blob and
        raw pages keep filling), so writing n rows, committing, reopening and
        writing m more gives the bytes of one writer writing n then m rows.
        """
        if not isinstance(file_name, str) or not os.path.isfile(file_name):
            raise RuntimeError(f"The input: {file_name} is not exists.")
        if not os.path.isfile(file_name + ".db"):
            raise RuntimeError(f"The input: {file_name}.db is not exists.")
        header = layout.read_header(file_name)
        folder = os.path.dirname(os.path.abspath(file_name))
        names = header["shard_addresses"]
        writer = cls.__new__(cls)
        writer.paths = [file_name] if len(names) == 1 else \
            [os.path.join(folder, name) for name in names]
        for path in writer.paths:
            if not os.path.isfile(path):
                raise RuntimeError(f"The input: {path} is not exists.")
        entry = header["schema"][0]
        writer.header_size, writer.page_size = header["header_size"], header["page_size"]
        writer.schema = {name: dict(spec) for name, spec in entry["schema"].items()}
        writer.desc = entry.get("desc", "")
        writer.index_fields = [f["index_field"] for f in header["index_fields"] or []]
        writer._shards = None
        writer._committed = False
        writer._appending = header
        writer._empty_blob_size = None
        writer._empty_raw = _EMPTY_RAW
        return writer

    def set_header_size(self, header_size):
        """Bytes reserved for the JSON header: a power of two in [16 KB, 128 MB]."""
        self.header_size = _check_size(header_size, "header_size", 1 << 14, 1 << 27)
        return SUCCESS

    def set_page_size(self, page_size):
        """Bytes per page: a power of two in [32 KB, 256 MB]."""
        self.page_size = _check_size(page_size, "page_size", 1 << 15, 1 << 28)
        return SUCCESS

    def add_schema(self, content, desc=None):
        """Set the schema ``{field: {"type": ..., "shape": [...]}}``; returns the schema id 0."""
        if self.schema is not None:
            raise RuntimeError("For 'add_schema', only one schema can be added.")
        layout.check_schema(content)
        self.schema = {name: dict(spec) for name, spec in content.items()}
        self.desc = desc if desc is not None else ""
        return 0

    def add_index(self, index_fields):
        """Choose the fields the .db indexes (scalar fields only); default: all of them."""
        if self.schema is None:
            raise RuntimeError("For 'add_index', call add_schema first.")
        if not isinstance(index_fields, list) or not index_fields:
            raise ValueError("For 'add_index', the 'index_fields' must be a non-empty list.")
        for name in index_fields:
            spec = self.schema.get(name)
            if spec is None:
                raise ValueError(f"For 'add_index', field '{name}' is not in the schema.")
            if spec["type"] == "bytes" or "shape" in spec:
                raise ValueError(f"For 'add_index', field '{name}' is a blob field (bytes or "
                                 f"shaped) and can not be indexed.")
        self.index_fields = list(index_fields)
        return SUCCESS

    def _open(self):
        self._blobs = layout.blob_fields(self.schema)
        self._raw_fields = sorted(n for n in self.schema if n not in self._blobs)
        if self.index_fields is None:
            self.index_fields = list(self._raw_fields)
        resume = self._appending is not None
        self._shards = [_Shard(p, i, self.page_size, self.header_size, resume)
                        for i, p in enumerate(self.paths)]
        self._index_values = [[] for _ in self.paths]
        self._int_blobs = [n for n in self._blobs if self.schema[n]["type"] in ("int32", "int64")]
        self._saved = 0
        if resume:
            self._saved = self._appending.get("compression_size", 0)
            for shard, values in zip(self._shards, self._index_values):
                for record in shard.resume(layout.read_header(shard.path)):
                    raw = msgpack.unpack(record)
                    values.append([raw[n] for n in self.index_fields])

    def write_raw_data(self, raw_data, parallel_writer=False):
        """Append rows (dicts holding every schema field) to the shards."""
        if self.schema is None:
            raise RuntimeError("For 'write_raw_data', call add_schema first.")
        if self._committed:
            raise RuntimeError("For 'write_raw_data', the writer has been committed.")
        if not isinstance(raw_data, list) or not all(isinstance(r, dict) for r in raw_data):
            raise ValueError("For 'write_raw_data', the 'raw_data' must be a list of dicts.")
        n, shards = len(raw_data), len(self.paths)
        counts = [n // shards + (1 if i < n % shards else 0) for i in range(shards)]
        start = 0
        for shard, count in enumerate(counts):
            self._write_rows(shard, raw_data[start:start + count])
            start += count
        return SUCCESS

    def _write_rows(self, shard_index, rows):
        """Append ``rows`` to one shard, as one write call (their raw records placed at the end)."""
        if self._shards is None:
            self._open()
        shard = self._shards[shard_index]
        for row in rows:
            self._add(shard, row, self._index_values[shard_index])
        shard.place_raw()

    def _add(self, shard, row, values):
        where = f"row {shard.rows} of {shard.path}"
        missing = [n for n in self.schema if n not in row]
        if missing:
            raise ValueError(f"For 'write_raw_data', {where} lacks the fields {missing}.")
        raw = {}
        for name in self._raw_fields:
            raw[name] = _scalar(name, self.schema[name]["type"], row[name], where)
        raw_bytes = msgpack.pack(raw) if raw else self._empty_raw
        empty = len(raw_bytes) if self._empty_blob_size is None else self._empty_blob_size
        blob = layout.encode_blob(self.schema, self._blobs, row, empty, where)
        self._saved += sum(np.asarray(row[n]).size * np.dtype(layout.NUMPY_TYPES[
            self.schema[n]["type"]]).itemsize for n in self._int_blobs) - \
            sum(len(layout.compress_ints(row[n])) for n in self._int_blobs)
        shard.add(blob, raw_bytes)
        values.append([raw[n] for n in self.index_fields])

    def commit(self):
        """Write the pages, headers and index databases; the files are complete after this."""
        if self.schema is None:
            raise RuntimeError("For 'commit', call add_schema first.")
        if self._committed:
            return SUCCESS
        if self._shards is None:
            self._open()
        schema = {name: {key: self.schema[name][key] for key in sorted(self.schema[name])}
                  for name in sorted(self.schema)}
        schema_entry = {"blob_fields": self._blobs, "desc": self.desc, "schema": schema}
        fields = {"header_size": self.header_size, "page_size": self.page_size,
                  "index_fields": [{"index_field": n, "schema_id": 0} for n in self.index_fields]
                  or None,
                  "compression_size": max(self._saved, 0), "schema": [schema_entry],
                  "shard_addresses": [os.path.basename(p) for p in self.paths],
                  "statistics": None, "version": layout.HEADER_VERSION}
        kinds = [(n, self.schema[n]["type"]) for n in self.index_fields]
        for shard, values in zip(self._shards, self._index_values):
            shard.finish(fields, kinds, values)
        self._committed = True
        return SUCCESS


def _check_size(value, name, low, high):
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high or \
            value & (value - 1):
        raise ValueError(f"For 'set_{name}', the '{name}' must be a power of 2 in [{low}, {high}], "
                         f"but got {value!r}.")
    return value


def _scalar(name, kind, value, where):
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if kind == "string":
        if not isinstance(value, str):
            raise TypeError(f"For 'write_raw_data', {where}: field '{name}' is a string but got "
                            f"{type(value).__name__}.")
        return value
    if kind in ("int32", "int64"):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"For 'write_raw_data', {where}: field '{name}' is {kind} but got "
                            f"{type(value).__name__} {value!r}.")
        info = np.iinfo(layout.NUMPY_TYPES[kind])
        if not info.min <= int(value) <= info.max:
            raise ValueError(f"For 'write_raw_data', {where}: field '{name}' value {value} is out "
                             f"of the {kind} range.")
        return int(value)
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"For 'write_raw_data', {where}: field '{name}' is {kind} but got "
                        f"{type(value).__name__} {value!r}.")
    return float(value)
