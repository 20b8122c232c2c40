"""MindRecord: refms writes MindSpore 2.10's bytes and reads MindSpore-written files.

The golden data (tests/dataset_golden/mindrecord) was recorded by record.py with
MindSpore 2.10: a file it wrote, what its MindDataset read back, and the sha256
and index rows of every file it wrote for inputs.write_mindrecords.
"""
import hashlib
import json
import os
import re
import shutil
import sqlite3
import sys

import numpy as np
import pytest

import refms.dataset as ds
from refms.mindrecord import FileWriter, FileReader
from refms.mindrecord import msgpack
from refms.mindrecord.layout import compress_ints, decompress_ints

GOLDEN = os.path.join(os.path.dirname(__file__), "dataset_golden")
sys.path.insert(0, GOLDEN)
import inputs  # noqa: E402

RECORDED = os.path.join(GOLDEN, "mindrecord")


def recorded_json():
    with open(os.path.join(RECORDED, "written.json")) as f:
        return json.load(f)


def test_written_files_are_byte_identical_to_mindspore(tmp_path):
    written = recorded_json()
    paths = inputs.write_mindrecords(FileWriter, str(tmp_path))
    assert [os.path.basename(p) for p in paths] == written["files"]
    for path, digest, index in zip(paths, written["sha256"], written["index"]):
        with open(path, "rb") as f:
            assert hashlib.sha256(f.read()).hexdigest() == digest, path
        connection = sqlite3.connect(path + ".db")
        sql = connection.execute("SELECT sql FROM sqlite_master WHERE name='INDEXES'").fetchone()
        assert sql[0] == index["sql"]
        rows = connection.execute("SELECT * FROM INDEXES ORDER BY ROW_ID").fetchall()
        assert [list(r) for r in rows] == index["rows"]
        assert [list(r) for r in connection.execute("SELECT NAME FROM SHARD_NAME")] == \
            index["names"]
        connection.close()


def test_reads_mindspore_written_file_as_mindspore_does():
    expected = np.load(os.path.join(RECORDED, "read.npz"))
    data = ds.MindDataset(os.path.join(RECORDED, "golden.mindrecord"), shuffle=False)
    assert data.get_col_names() == expected["columns"].tolist()
    assert data.get_dataset_size() == 12
    rows = list(data.create_dict_iterator(output_numpy=True))
    for i, row in enumerate(rows):
        for name, value in row.items():
            want = expected[f"{i}/{name}"]
            assert value.dtype == want.dtype and value.shape == want.shape, (i, name)
            np.testing.assert_array_equal(value, want)


def test_shard_sets_and_columns_list(tmp_path):
    expected = np.load(os.path.join(RECORDED, "read.npz"))
    paths = inputs.write_mindrecords(FileWriter, str(tmp_path))
    labels = [int(r[0]) for r in ds.MindDataset(paths[1], shuffle=False).create_tuple_iterator(
        columns=["label"], output_numpy=True)]
    assert labels == expected["shard_labels"].tolist()            # one file brings its set
    one = ds.MindDataset([paths[2]], shuffle=False, columns_list=["v", "label"])
    assert one.get_col_names() == expected["one_shard_columns"].tolist()
    assert [int(r[1]) for r in one.create_tuple_iterator(output_numpy=True)] == \
        expected["one_shard_labels"].tolist()


def test_round_trip_sharded_shuffled_and_file_reader(tmp_path):
    path = str(tmp_path / "rt.mindrecord")
    writer = FileWriter(path, shard_num=2)
    writer.add_schema({"id": {"type": "int64"}, "v": {"type": "float64", "shape": [2]},
                       "s": {"type": "string"}}, "rt")
    writer.write_raw_data([{"id": i, "v": np.array([i, -i], np.float64), "s": "é" * i}
                           for i in range(9)])
    writer.commit()
    with pytest.raises(RuntimeError, match="already exist"):
        FileWriter(path, shard_num=2)
    data = ds.MindDataset(path + "0", shuffle=False)
    assert [int(r[0]) for r in data.create_tuple_iterator(columns=["id"])] == list(range(9))
    shuffled = [int(r["id"]) for r in ds.MindDataset(path + "1").create_dict_iterator()]
    assert sorted(shuffled) == list(range(9))
    halves = [[int(r[0]) for r in ds.MindDataset(path + "0", shuffle=False, num_shards=2,
                                                  shard_id=k).create_tuple_iterator(
        columns=["id"], output_numpy=True)] for k in range(2)]
    assert halves == [[0, 2, 4, 6, 8], [1, 3, 5, 7, 0]]
    rows = list(FileReader(path + "0").get_next())
    assert rows[4]["s"] == "éééé" and rows[4]["v"].tolist() == [4.0, -4.0]


def test_msgpack_and_int_compression_round_trip():
    for value in [0, 127, 128, 255, 256, 65535, 65536, 2 ** 32, -1, -32, -33, -128, -129,
                  -32769, -2 ** 40, 0.5, 0.1, "", "x" * 31, "y" * 32, "z" * 300]:
        assert msgpack.unpack(msgpack.pack(value)) == value
    assert msgpack.pack(-33) == b"\xd0\xdf" and msgpack.pack(0.5) == b"\xca?\x00\x00\x00"
    values = np.array([0, -1, 127, 128, -129, 40000, -2 ** 31, 2 ** 40], np.int64)
    np.testing.assert_array_equal(decompress_ints(compress_ints(values), np.int64, "t"), values)


def test_truncated_and_corrupted_files_name_the_file(tmp_path):
    source = os.path.join(RECORDED, "golden.mindrecord")
    cut = str(tmp_path / "cut.mindrecord")
    with open(source, "rb") as f:
        data = f.read()
    with open(cut, "wb") as f:
        f.write(data[:len(data) - 1000])
    with pytest.raises(RuntimeError, match="cut.mindrecord.*truncated"):
        ds.MindDataset(cut)
    header = str(tmp_path / "header.mindrecord")
    with open(header, "wb") as f:
        f.write(data[:100])
    with pytest.raises(ValueError, match="header.mindrecord.*header"):
        ds.MindDataset(header)
    bad = bytearray(data)
    bad[16384 + 32768 + 8] = 0xc1                         # the first raw record's type byte
    corrupt = str(tmp_path / "corrupt.mindrecord")
    with open(corrupt, "wb") as f:
        f.write(bytes(bad))
    with pytest.raises(RuntimeError, match="corrupt.mindrecord, row 0"):
        list(ds.MindDataset(corrupt, shuffle=False))


def test_writer_rejects_bad_schemas_and_rows(tmp_path):
    writer = FileWriter(str(tmp_path / "w.mindrecord"))
    with pytest.raises(ValueError, match="type"):
        writer.add_schema({"a": {"type": "int8"}})
    writer.add_schema({"a": {"type": "int32"}, "b": {"type": "bytes"}})
    with pytest.raises(ValueError, match="blob field"):
        writer.add_index(["b"])
    with pytest.raises(ValueError, match="lacks the fields"):
        writer.write_raw_data([{"a": 1}])
    with pytest.raises(TypeError, match="field 'a' is int32"):
        writer.write_raw_data([{"a": "x", "b": b""}])


def more_json():
    with open(os.path.join(RECORDED, "more.json")) as f:
        return json.load(f)


def index_table(path):
    """(CREATE statement, rows as {column: value} dicts) of a shard's .db."""
    connection = sqlite3.connect(path + ".db")
    sql = connection.execute("SELECT sql FROM sqlite_master WHERE name='INDEXES'").fetchone()[0]
    cursor = connection.execute("SELECT * FROM INDEXES ORDER BY ROW_ID")
    names = [c[0] for c in cursor.description]
    rows = [dict(zip(names, row)) for row in cursor.fetchall()]
    connection.close()
    return sql, rows


def test_open_for_append_writes_mindsporess_bytes(tmp_path):
    """Rows appended in a second session: the bytes MindSpore writes for the same calls."""
    recorded = more_json()["append"]
    paths = inputs.append_mindrecords(FileWriter, str(tmp_path))
    for path in paths:
        want = recorded[os.path.basename(path)]
        with open(path, "rb") as f:
            assert hashlib.sha256(f.read()).hexdigest() == want["sha256"], path
        connection = sqlite3.connect(path + ".db")
        rows = connection.execute("SELECT * FROM INDEXES ORDER BY ROW_ID").fetchall()
        connection.close()
        assert [list(r) for r in rows] == want["index"]["rows"]
    rows = list(ds.MindDataset(paths[0], shuffle=False).create_dict_iterator(output_numpy=True))
    assert [int(r["label"]) for r in rows] == [r["label"] for r in inputs.mindrecord_rows(0, 12)]
    values = sorted(float(r["v"][0]) for r in ds.MindDataset(
        paths[1], shuffle=False).create_dict_iterator(output_numpy=True))
    assert values == [-3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0]


def test_open_for_append_needs_the_file_and_its_index(tmp_path):
    with pytest.raises(RuntimeError, match="missing.mindrecord is not exists"):
        FileWriter.open_for_append(str(tmp_path / "missing.mindrecord"))
    path = str(tmp_path / "a.mindrecord")
    writer = FileWriter(path)
    writer.add_schema({"a": {"type": "int32"}})
    writer.write_raw_data([{"a": 1}])
    writer.commit()
    os.remove(path + ".db")
    with pytest.raises(RuntimeError, match="a.mindrecord.db is not exists"):
        FileWriter.open_for_append(path)


def index_names(sql):
    return re.findall(r"(\w+)_0 (?:INTEGER|REAL|TEXT)", sql)


@pytest.mark.parametrize("name", sorted(inputs.save_pipelines(ds)))
def test_dataset_save_writes_what_mindspore_writes(tmp_path, name):
    """Dataset.save against MindSpore's save of the same pipeline: the same bytes, except
    that MindSpore lists the index fields in the iteration order of a C++ hash map and
    refms in column order; where those differ, the index values agree column by column."""
    want = more_json()["save"][name]
    path = str(tmp_path / (name + ".mindrecord"))
    inputs.save_pipelines(ds)[name].save(path)
    sql, rows = index_table(path)
    ours, theirs = index_names(sql), index_names(want["index"]["sql"])
    with open(path, "rb") as f:
        same_bytes = hashlib.sha256(f.read()).hexdigest() == want["sha256"]
    assert same_bytes == (ours == theirs)
    assert sorted(ours) == sorted(theirs)
    assert len(rows) == len(want["index"]["rows"])
    for got, recorded in zip(rows, want["index"]["rows"]):
        assert list(got.values())[:8] == recorded[:8]
        assert {n: got[n + "_0"] for n in theirs} == dict(zip(theirs, recorded[9::2]))


def test_dataset_save_values_types_and_shards(tmp_path):
    path = str(tmp_path / "cols.mindrecord")
    source = inputs.save_pipelines(ds)["save_columns"]
    source.save(path)
    rows = list(ds.MindDataset(path, shuffle=False).create_dict_iterator(output_numpy=True))
    first = next(source.create_dict_iterator(output_numpy=True, num_epochs=1))
    assert rows[0]["image"].dtype == np.int32 and rows[0]["image"].shape == (4, 5, 3)
    np.testing.assert_array_equal(rows[0]["image"], first["image"])
    assert rows[0]["big"].dtype == np.int64 and rows[0]["flag"].dtype == np.int32
    assert rows[0]["half"].dtype == np.float32 and str(rows[3]["word"]) == "w3" * 4
    shards = str(tmp_path / "sharded.mindrecord")
    source.save(shards, num_files=3)
    labels = sorted(int(r["label"]) for r in ds.MindDataset(shards + "0", shuffle=False)
                    .create_dict_iterator(output_numpy=True))
    assert labels == more_json()["save_sharded_labels"]
    for k in range(3):                                # refms deals the rows in turn
        assert len(list(ds.MindDataset([f"{shards}{k}"], shuffle=False))) == 3
    with pytest.raises(RuntimeError, match="already exist"):
        source.save(path)
    with pytest.raises(ValueError, match="num_files"):
        source.save(str(tmp_path / "x.mindrecord"), num_files=0)
    with pytest.raises(ValueError, match="not supported"):
        source.save(str(tmp_path / "x.mindrecord"), file_type="tfrecord")

    def ragged():
        for i in range(3):
            yield (np.zeros((2, i + 1), np.float32),)
    with pytest.raises(RuntimeError, match="dynamic shape"):
        ds.GeneratorDataset(ragged, ["d"], shuffle=False).save(str(tmp_path / "r.mindrecord"))

    def strings():
        yield (np.array(["a", "b"]),)
    with pytest.raises(RuntimeError, match="multi-dimensional string"):
        ds.GeneratorDataset(strings, ["s"], shuffle=False).save(str(tmp_path / "s.mindrecord"))
