"""MindRecord interop, run by hand with both interpreters (reported in the dataset notes).

    python tests/dataset_golden/interop_mindrecord.py write DIR            # refms writes
    /path/to/mindspore-python tests/dataset_golden/interop_mindrecord.py read DIR

``write`` (refms's Python) writes inputs.write_mindrecords into DIR; ``read``
(MindSpore's Python) opens them with MindSpore's MindDataset and checks every
row against inputs.mindrecord_rows / inputs.shard_rows, printing what it read.
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import inputs  # noqa: E402


def write(folder):
    sys.path.insert(0, os.path.join(HERE, "..", ".."))
    from refms.mindrecord import FileWriter
    print("refms wrote", inputs.write_mindrecords(FileWriter, folder))


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


if __name__ == "__main__":
    {"write": write, "read": read}[sys.argv[1]](sys.argv[2])
