"""``Dataset.save``: one epoch of a pipeline written as MindRecord files (MindSpore ``save``).

MindSpore's ``SaveToDisk`` derives the MindRecord schema from the first row,
column by column (a name's punctuation becomes ``_``)::

    bool, int8, int16, uint8, uint16, int32  →  int32
    uint32, int64, uint64                    →  int64
    float16, float32                         →  float32
    float64                                  →  float64
    str (a 0-d array only)                   →  string
    bytes                                    →  bytes (any shape: the bytes)

A 0-d value is a scalar field (stored in the raw record, and indexed in the
``.db``); an array of shape (d₀, d₁, …) becomes a field of shape
[−1, d₁, …], so later rows may differ in their first dimension only.  Every
row is written by its own write call; a row without blob fields carries a
4-byte zero blob and one without scalar fields a MessagePack nil raw record
(MindSpore's C++ writer; its Python ``FileWriter`` writes other fillers).  With ``num_files`` = n the files are
``file_name0`` … and row i goes to file i mod n (MindSpore picks a file at
random for each row, so its files differ run to run; any reader sees the same
rows).  The index fields are the scalar fields in column order — MindSpore
lists them in the order of a hash map, which for a few columns is the same.
"""
import os
import string

import numpy as np

__all__ = ["save_dataset"]

_FIELD_TYPES = {"b": "int32", "int8": "int32", "int16": "int32", "uint8": "int32",
                "uint16": "int32", "int32": "int32", "uint32": "int64", "int64": "int64",
                "uint64": "int64", "float16": "float32", "float32": "float32",
                "float64": "float64"}


def _field_name(column):
    return "".join("_" if c in string.punctuation else c for c in column)


def _field_spec(name, value):
    """The schema entry of one column, from its value in the first row."""
    if value.dtype.kind == "U":
        if value.ndim:
            raise RuntimeError(f"Invalid data, mindrecord can not support multi-dimensional "
                               f"string tensor (column '{name}', shape {list(value.shape)}).")
        return {"type": "string"}
    if value.dtype.kind == "S":
        return {"type": "bytes"}
    kind = "b" if value.dtype.kind == "b" else value.dtype.name
    if kind not in _FIELD_TYPES:
        raise RuntimeError(f"Invalid type, unsupported data type: {value.dtype} (column "
                           f"'{name}').")
    spec = {"type": _FIELD_TYPES[kind]}
    if value.ndim:
        spec["shape"] = [-1] + [int(d) for d in value.shape[1:]]
    return spec


def _field_value(name, spec, value, number):
    if spec["type"] == "string":
        return str(value)
    if spec["type"] == "bytes":
        return b"".join(bytes(v) for v in np.asarray(value).reshape(-1))
    if "shape" in spec:
        if value.ndim != len(spec["shape"]) or list(value.shape[1:]) != spec["shape"][1:]:
            raise RuntimeError(f"Tensor with dynamic shape do not currently support saving. "
                               f"Except for the shape of dimension 0, the other dimension shapes "
                               f"must be fixed: column '{name}' of row {number} has shape "
                               f"{list(value.shape)}, the schema {spec['shape']}.")
        return value.astype(spec["type"])
    if value.ndim:
        raise RuntimeError(f"For 'save', column '{name}' is a scalar in the first row but row "
                           f"{number} has shape {list(value.shape)}.")
    return int(value) if spec["type"].startswith("int") else float(value)


def save_dataset(dataset, file_name, num_files=1, file_type="mindrecord"):
    """Write every row of one epoch of ``dataset`` to ``file_name`` (MindRecord)."""
    from ..mindrecord.writer import FileWriter
    if not isinstance(file_name, str) or not file_name:
        raise TypeError(f"For 'save', the 'file_name' must be a non-empty str, but got "
                        f"{file_name!r}.")
    if isinstance(num_files, bool) or not isinstance(num_files, int) or \
            not 1 <= num_files <= 1000:
        raise ValueError("num_files should between 0 and 1000.")
    if file_type != "mindrecord":
        raise ValueError(f"{file_type} dataset format is not supported.")
    if os.path.isdir(file_name):
        raise RuntimeError(f"SaveToDisk failed, dataset_path must not be a directory: "
                           f"{file_name}.")
    columns = [_field_name(c) for c in dataset.get_col_names()]
    iterator = dataset.create_tuple_iterator(output_numpy=True, num_epochs=1)
    writer, schema = None, None
    for number, row in enumerate(iterator):
        values = [np.asarray(v) for v in row]
        if writer is None:
            schema = {name: _field_spec(name, v) for name, v in zip(columns, values)}
            writer = FileWriter(file_name, shard_num=num_files)
            writer.add_schema(schema, "mindrecord")
            scalars = [n for n in columns if "shape" not in schema[n] and
                       schema[n]["type"] != "bytes"]
            if scalars:
                writer.add_index(scalars)
            writer._empty_blob_size = 4
            writer._empty_raw = b"\xc0"          # MessagePack nil
        record = {name: _field_value(name, schema[name], v, number)
                  for name, v in zip(columns, values)}
        writer._write_rows(number % num_files, [record])
    if writer is None:
        raise RuntimeError(f"For 'save', the dataset has no rows to write to {file_name}.")
    writer.commit()
