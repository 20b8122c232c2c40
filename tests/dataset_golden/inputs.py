"""Inputs shared by the MindSpore recorder (record.py) and the refms tests.

Pure numpy: importable by both interpreters.  Every builder is deterministic.
"""
import numpy as np

MINDRECORD_SCHEMA = {"label": {"type": "int32"}, "img": {"type": "bytes"},
                     "a": {"type": "int64", "shape": [2, 3]},
                     "f": {"type": "float32", "shape": [-1]}, "name": {"type": "string"},
                     "x": {"type": "float64"}, "big": {"type": "int64"}}
SHARD_SCHEMA = {"label": {"type": "int64"}, "v": {"type": "float32", "shape": [3]}}


def mindrecord_rows(start, stop):
    """Rows whose blobs fill two 32 KB pages, ints of every compressed width, odd floats."""
    return [{"label": i - 3, "img": bytes([i % 256]) * (5000 + 37 * i),
             "a": np.array([[i * 1000 - 7, -i, 1 << (4 * i)], [-(1 << (3 * i)), 127 + i, 0]],
                           np.int64),
             "f": np.linspace(0, 1, 4, dtype=np.float32) * i, "name": f"n{i}" * (i + 1),
             "x": 0.1 * i, "big": 2 ** 40 + i} for i in range(start, stop)]


def shard_rows():
    return [{"label": i, "v": np.arange(3, dtype=np.float32) + i} for i in range(6)]


def write_mindrecords(FileWriter, folder):
    """The MindRecord files compared between MindSpore and refms (paths returned)."""
    import os
    two_calls = os.path.join(folder, "golden.mindrecord")
    writer = FileWriter(two_calls, shard_num=1, overwrite=True)
    writer.set_page_size(1 << 15)
    writer.set_header_size(1 << 14)
    writer.add_schema(MINDRECORD_SCHEMA, "golden")
    writer.write_raw_data(mindrecord_rows(0, 5))
    writer.write_raw_data(mindrecord_rows(5, 12))
    writer.commit()
    shards = os.path.join(folder, "shards.mindrecord")
    writer = FileWriter(shards, shard_num=3, overwrite=True)
    writer.set_page_size(1 << 15)
    writer.set_header_size(1 << 14)
    writer.add_schema(SHARD_SCHEMA, "shards")
    writer.add_index(["label"])
    writer.write_raw_data(shard_rows())
    writer.commit()
    return [two_calls] + [f"{shards}{i}" for i in range(3)]
