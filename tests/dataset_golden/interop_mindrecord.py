"""MindRecord interop, run by hand with both interpreters (reported in the dataset notes).

    python tests/dataset_golden/interop_mindrecord.py write DIR            # refms writes
    /path/to/mindspore-python tests/dataset_golden/interop_mindrecord.py read DIR
    python tests/dataset_golden/interop_mindrecord.py check DIR            # refms reads

``write`` (refms's Python) writes inputs.write_mindrecords, inputs.append_mindrecords
(files extended with ``FileWriter.open_for_append``) and ``Dataset.save`` of
inputs.save_pipelines into DIR; ``read`` (MindSpore's Python) opens them with
MindSpore's MindDataset and checks every row, then appends rows to refms's saved
file with its own ``open_for_append``; ``check`` (refms) reads that file back.
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import inputs  # noqa: E402


def write(folder):
    sys.path.insert(0, os.path.join(HERE, "..", ".."))
    import refms.dataset as ds
    from refms.mindrecord import FileWriter
    print("refms wrote", inputs.write_mindrecords(FileWriter, folder))
    print("refms wrote and appended", inputs.append_mindrecords(FileWriter, folder))
    for name, data in inputs.save_pipelines(ds).items():
        data.save(os.path.join(folder, name + ".mindrecord"))
    print("refms saved", sorted(inputs.save_pipelines(ds)))


def read_saved(ds, folder):
    """MindSpore reads refms's saves and its appended files; then appends to one save."""
    from mindspore.mindrecord import FileWriter
    for name, data in inputs.save_pipelines(ds).items():
        want = list(data.create_dict_iterator(output_numpy=True, num_epochs=1))
        got = list(ds.MindDataset(os.path.join(folder, name + ".mindrecord"), shuffle=False)
                   .create_dict_iterator(output_numpy=True))
        assert len(got) == len(want), name
        for g, w in zip(got, want):
            for column, value in w.items():
                key = "".join(c if c.isalnum() or c == "_" else "_" for c in column)
                if value.dtype.kind == "U":
                    assert str(g[key]) == str(value), (name, column)
                else:
                    np.testing.assert_array_equal(g[key], value.astype(g[key].dtype),
                                                  err_msg=f"{name}, column {column}")
    appended = list(ds.MindDataset(os.path.join(folder, "appended.mindrecord"), shuffle=False)
                    .create_dict_iterator(output_numpy=True))
    assert [int(r["label"]) for r in appended] == [r["label"] for r in
                                                   inputs.mindrecord_rows(0, 12)]
    blobs = sorted(float(r["v"][0]) for r in ds.MindDataset(
        os.path.join(folder, "blob_only.mindrecord0"), shuffle=False).create_dict_iterator(
        output_numpy=True))
    assert blobs == [-3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0], blobs
    writer = FileWriter.open_for_append(os.path.join(folder, "save_renamed.mindrecord"))
    writer.write_raw_data([{"y_0": 100 + i, "x_1": 0.25 * i} for i in range(3)])
    writer.commit()
    print(f"MindSpore read refms's {len(inputs.save_pipelines(ds))} saved pipelines and its "
          f"appended files: all values equal; it appended 3 rows to save_renamed.mindrecord")


def check(folder):
    sys.path.insert(0, os.path.join(HERE, "..", ".."))
    import refms.dataset as ds
    rows = list(ds.MindDataset(os.path.join(folder, "save_renamed.mindrecord"), shuffle=False)
                .create_dict_iterator(output_numpy=True))
    labels = [int(r["y_0"]) for r in rows]
    assert labels == list(range(-2, 7)) + [100, 101, 102], labels
    assert [float(r["x_1"]) for r in rows[-3:]] == [0.0, 0.25, 0.5]
    print(f"refms read the {len(rows)} rows of save_renamed.mindrecord after MindSpore's append")


def read(folder):
    import mindspore.dataset as ds
    rows = list(ds.MindDataset(os.path.join(folder, "golden.mindrecord"), shuffle=False)
                .create_dict_iterator(output_numpy=True))
    expected = inputs.mindrecord_rows(0, 12)
    assert len(rows) == len(expected)
    for got, want in zip(rows, expected):
        for name, value in want.items():
            if isinstance(value, bytes):
                assert got[name].tobytes().rstrip(b"\0") == value.rstrip(b"\0"), name
            else:
                np.testing.assert_array_equal(got[name], np.asarray(value).astype(got[name].dtype))
    shards = [int(r[0]) for r in ds.MindDataset(os.path.join(folder, "shards.mindrecord0"),
                                                shuffle=False).create_tuple_iterator(
        columns=["label"], output_numpy=True)]
    assert sorted(shards) == [r["label"] for r in inputs.shard_rows()], shards
    print(f"MindSpore read {len(rows)} rows of golden.mindrecord and {len(shards)} rows of the "
          f"3-shard set written by refms: all values equal")
    read_saved(ds, folder)


if __name__ == "__main__":
    {"write": write, "read": read, "check": check}[sys.argv[1]](sys.argv[2])
