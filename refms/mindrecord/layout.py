"""The MindRecord file layout (MindSpore ``mindrecord``, format version 3.0).

One *shard* is a data file plus a SQLite index file (``<file>.db``)::

    data file := header region (header_size bytes) · page 0 · page 1 · ...
    header region := uint64 little-endian n · n bytes of JSON · zero padding
    page := page_size bytes; the file's last page is cut to the bytes it uses

The JSON header names the schema, the shard files, the index fields and lists
every page: ``{"page_id", "page_type": "BLOB_DATA" | "RAW_DATA", "page_type_id",
"page_size" (bytes used), "start_row_id", "end_row_id", "row_group_ids",
"shard_id"}``.  Every record in a page is ``uint64 little-endian length · body``:

* a RAW_DATA body is a MessagePack map of the row's scalar fields
  (:mod:`refms.mindrecord.msgpack`); a row with none gets the map ``{"id": 0}``
  (``FileWriter``) or nil (``Dataset.save``);
* a BLOB_DATA body holds the row's *blob fields* — ``bytes`` fields and fields
  with a ``shape`` — in sorted name order.  With one blob field the body is its
  bytes; with several each is ``uint64 big-endian length · bytes``; with none the
  body is as many zero bytes as the row's raw record (``FileWriter``) or 4 zero
  bytes (``Dataset.save``).

int32/int64 array fields are stored compressed: ``uint32 big-endian count ·
2-bit width codes (MSB first, padded to a byte) · each value little-endian in
1, 2, 4 or 8 bytes`` (code 0, 1, 2, 3: the smallest signed width holding it).
Other arrays are their little-endian bytes in C order.

A blob page is a *row group*; the raw pages record where each group's rows
start.  The ``.db`` file's table ``INDEXES`` gives every row's page ids and byte
ranges and the values of the index fields (MindSpore's reader queries it);
refms reads the pages directly and only writes the ``.db``.
"""
import json
import struct

import numpy as np

__all__ = ["FIELD_TYPES", "NUMPY_TYPES", "blob_fields", "check_schema", "encode_blob",
           "decode_blob", "compress_ints", "decompress_ints", "read_header", "HEADER_VERSION"]

HEADER_VERSION = "3.0"
FIELD_TYPES = ("int32", "int64", "float32", "float64", "string", "bytes")
NUMPY_TYPES = {"int32": np.int32, "int64": np.int64, "float32": np.float32,
               "float64": np.float64}
SQL_TYPES = {"int32": "INTEGER", "int64": "INTEGER", "float32": "REAL", "float64": "REAL",
             "string": "TEXT"}


def check_schema(schema):
    """Validate a schema dict ``{name: {"type": t[, "shape": [...]]}}`` (ValueError says why)."""
    if not isinstance(schema, dict) or not schema:
        raise ValueError("For 'add_schema', the schema must be a non-empty dict of "
                         "{field name: {'type': ..., 'shape': ...}}.")
    for name, spec in schema.items():
        if not isinstance(name, str) or not name or not (name[0].isalpha() or name[0] == "_") \
                or not all(c.isalnum() or c in "_-" for c in name):
            raise ValueError(f"For 'add_schema', the field name {name!r} is invalid: use letters, "
                             f"digits, '_' and '-', starting with a letter or '_'.")
        if not isinstance(spec, dict) or "type" not in spec:
            raise ValueError(f"For 'add_schema', field '{name}' must be a dict with a 'type'.")
        if spec["type"] not in FIELD_TYPES:
            raise ValueError(f"For 'add_schema', field '{name}' has type {spec['type']!r}; the "
                             f"types are {list(FIELD_TYPES)}.")
        extra = set(spec) - {"type", "shape"}
        if extra:
            raise ValueError(f"For 'add_schema', field '{name}' has unknown keys {sorted(extra)}.")
        if "shape" in spec:
            if spec["type"] in ("string", "bytes"):
                raise ValueError(f"For 'add_schema', field '{name}' of type {spec['type']} can "
                                 f"not have a shape.")
            shape = spec["shape"]
            if not isinstance(shape, list) or not shape or \
                    not all(isinstance(d, int) and (d > 0 or d == -1) for d in shape) or \
                    shape.count(-1) > 1:
                raise ValueError(f"For 'add_schema', field '{name}' has shape {shape!r}; a shape "
                                 f"is a list of positive ints with at most one -1.")


def blob_fields(schema):
    """The fields stored in blob pages: bytes and shaped fields, sorted by name."""
    return sorted(n for n, s in schema.items() if s["type"] == "bytes" or "shape" in s)


def compress_ints(array):
    """int32/int64 values in MindRecord's variable-width form (see the module docstring)."""
    values = np.asarray(array).reshape(-1).astype(np.int64)
    codes = np.full(values.shape, 3, np.uint8)
    for code, dtype in ((2, np.int32), (1, np.int16), (0, np.int8)):
        info = np.iinfo(dtype)
        codes[(values >= info.min) & (values <= info.max)] = code
    packed = bytearray((len(values) * 2 + 7) // 8)
    for i, code in enumerate(codes):
        packed[i // 4] |= int(code) << (6 - 2 * (i % 4))
    widths = ("<i1", "<i2", "<i4", "<i8")
    body = b"".join(np.array(v, widths[c]).tobytes() for v, c in zip(values, codes))
    return struct.pack(">I", len(values)) + bytes(packed) + body


def decompress_ints(data, dtype, where):
    """The inverse of :func:`compress_ints` (ValueError naming ``where`` when malformed)."""
    if len(data) < 4:
        raise ValueError(f"{where}: a compressed integer field needs 4 bytes of count.")
    n = struct.unpack_from(">I", data, 0)[0]
    pos = 4 + (n * 2 + 7) // 8
    out = np.empty(n, dtype)
    widths = ("<i1", "<i2", "<i4", "<i8")
    for i in range(n):
        code = (data[4 + i // 4] >> (6 - 2 * (i % 4))) & 3
        size = 1 << code
        if pos + size > len(data):
            raise ValueError(f"{where}: the compressed integers end early.")
        out[i] = np.frombuffer(data, widths[code], 1, pos)[0]
        pos += size
    return out


def _field_bytes(name, spec, value, where):
    if spec["type"] == "bytes":
        if not isinstance(value, (bytes, bytearray, np.bytes_)):
            raise TypeError(f"{where}: field '{name}' is of type bytes but got "
                            f"{type(value).__name__}.")
        return bytes(value)
    array = np.asarray(value)
    if array.dtype.kind not in "iuf" and array.dtype != bool:
        raise TypeError(f"{where}: field '{name}' must be a numeric array, got dtype "
                        f"{array.dtype}.")
    array = array.astype(NUMPY_TYPES[spec["type"]])
    shape = spec["shape"]
    if -1 not in shape and int(np.prod(shape)) != array.size:
        raise ValueError(f"{where}: field '{name}' has {array.size} values but its shape is "
                         f"{shape}.")
    if spec["type"] in ("int32", "int64"):
        return compress_ints(array)
    return array.astype(array.dtype.newbyteorder("<")).tobytes()


def encode_blob(schema, blobs, row, empty_size, where):
    """The BLOB_DATA body of one row (``empty_size`` zero bytes when there are no blob fields)."""
    if not blobs:
        return bytes(empty_size)
    parts = [_field_bytes(n, schema[n], row[n], where) for n in blobs]
    if len(parts) == 1:
        return parts[0]
    return b"".join(struct.pack(">Q", len(p)) + p for p in parts)


def decode_blob(schema, blobs, body, where):
    """``{field: numpy value}`` from one BLOB_DATA body."""
    if not blobs:
        return {}
    if len(blobs) == 1:
        parts = [body]
    else:
        parts, pos = [], 0
        for name in blobs:
            if pos + 8 > len(body):
                raise ValueError(f"{where}: blob field '{name}' is cut short.")
            n = struct.unpack_from(">Q", body, pos)[0]
            if pos + 8 + n > len(body):
                raise ValueError(f"{where}: blob field '{name}' needs {n} bytes but the record "
                                 f"holds {len(body) - pos - 8}.")
            parts.append(body[pos + 8:pos + 8 + n])
            pos += 8 + n
    out = {}
    for name, data in zip(blobs, parts):
        spec = schema[name]
        if spec["type"] == "bytes":
            out[name] = np.array([bytes(data)])
            continue
        dtype = np.dtype(NUMPY_TYPES[spec["type"]])
        if spec["type"] in ("int32", "int64"):
            values = decompress_ints(data, dtype, f"{where}, field '{name}'")
        else:
            if len(data) % dtype.itemsize:
                raise ValueError(f"{where}: field '{name}' holds {len(data)} bytes, not a "
                                 f"multiple of {dtype.itemsize}.")
            values = np.frombuffer(data, dtype.newbyteorder("<")).astype(dtype)
        try:
            out[name] = values.reshape(spec["shape"])
        except ValueError:
            raise ValueError(f"{where}: field '{name}' has {values.size} values, which do not "
                             f"fit its shape {spec['shape']}.") from None
    return out


def read_header(path):
    """The JSON header of a MindRecord data file (ValueError naming the file when invalid)."""
    with open(path, "rb") as f:
        head = f.read(8)
        if len(head) < 8:
            raise ValueError(f"Invalid MindRecord file {path}: it is shorter than its 8-byte "
                             f"header length.")
        n = struct.unpack("<Q", head)[0]
        text = f.read(n) if n < (1 << 31) else b""
    if len(text) != n:
        raise ValueError(f"Invalid MindRecord file {path}: the header claims {n} bytes but the "
                         f"file ends first.")
    try:
        header = json.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"Invalid MindRecord file {path}: its header is not JSON ({e}).") from None
    for key in ("header_size", "page_size", "page", "schema", "shard_addresses"):
        if key not in header:
            raise ValueError(f"Invalid MindRecord file {path}: the header has no '{key}'.")
    return header
