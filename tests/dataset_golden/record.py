"""Record MindSpore 2.10's dataset outputs for the refms tests (run with MindSpore's Python).

    GLOG_v=3 /path/to/mindspore-python tests/dataset_golden/record.py [section ...]

Sections write next to this file: ``mindrecord`` (MindSpore-written MindRecord
files: one checked in, the others' sha256 and index rows; what MindDataset
reads), and the others listed in SECTIONS.  Each runs MindSpore on inputs from
inputs.py or built here with fixed seeds.
"""
import hashlib
import json
import os
import shutil
import sqlite3
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import inputs  # noqa: E402


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def index_rows(path):
    connection = sqlite3.connect(path + ".db")
    sql = connection.execute("SELECT sql FROM sqlite_master WHERE name='INDEXES'").fetchone()[0]
    rows = connection.execute("SELECT * FROM INDEXES ORDER BY ROW_ID").fetchall()
    names = connection.execute("SELECT NAME FROM SHARD_NAME").fetchall()
    connection.close()
    return {"sql": sql, "rows": rows, "names": names}


def record_mindrecord():
    import mindspore.dataset as ds
    from mindspore.mindrecord import FileWriter
    folder = tempfile.mkdtemp()
    try:
        paths = inputs.write_mindrecords(FileWriter, folder)
        out = {"files": [os.path.basename(p) for p in paths],
               "sha256": [sha256(p) for p in paths],
               "index": [index_rows(p) for p in paths]}
        target = os.path.join(HERE, "mindrecord")
        os.makedirs(target, exist_ok=True)
        for suffix in ("", ".db"):
            shutil.copy(paths[0] + suffix, os.path.join(target, "golden.mindrecord" + suffix))
            os.chmod(os.path.join(target, "golden.mindrecord" + suffix), 0o644)
        data = ds.MindDataset(paths[0], shuffle=False)
        arrays = {"columns": np.array(data.get_col_names())}
        for i, row in enumerate(data.create_dict_iterator(output_numpy=True)):
            for name, value in row.items():
                arrays[f"{i}/{name}"] = value
        shards = ds.MindDataset(paths[1], shuffle=False)
        arrays["shard_labels"] = np.array([int(r[0]) for r in shards.create_tuple_iterator(
            columns=["label"], output_numpy=True)])
        one = ds.MindDataset([paths[2]], shuffle=False, columns_list=["v", "label"])
        arrays["one_shard_columns"] = np.array(one.get_col_names())
        arrays["one_shard_labels"] = np.array([int(r[1]) for r in one.create_tuple_iterator(
            output_numpy=True)])
        np.savez_compressed(os.path.join(target, "read.npz"), **arrays)
        with open(os.path.join(target, "written.json"), "w") as f:
            json.dump(out, f, indent=1)
    finally:
        shutil.rmtree(folder)


def rows_of(data, prefix, arrays):
    """Store every row of ``data`` (shuffle off) as arrays named prefix/row/column."""
    arrays[f"{prefix}/columns"] = np.array(data.get_col_names())
    arrays[f"{prefix}/size"] = np.array(data.get_dataset_size())
    count = 0
    for i, row in enumerate(data.create_dict_iterator(output_numpy=True)):
        for name, value in row.items():
            arrays[f"{prefix}/{i}/{name}"] = value
        count += 1
    arrays[f"{prefix}/rows"] = np.array(count)


def record_sources():
    import mindspore.dataset as ds
    sys.path.insert(0, os.path.join(HERE, "..", ".."))
    from refms.dataset.mnist import write_idx         # a pure-numpy IDX writer
    folder = tempfile.mkdtemp()
    arrays = {}
    try:
        ten, hundred = inputs.write_cifar(folder)
        picks = inputs.CIFAR_PICKS
        for usage in ("train", "test"):
            rows_of(ds.Cifar10Dataset(ten, usage=usage, sampler=ds.SubsetSampler(picks[:4])),
                    f"cifar10_{usage}", arrays)
        rows_of(ds.Cifar10Dataset(ten, usage="all", sampler=ds.SubsetSampler(picks)),
                "cifar10_all", arrays)
        rows_of(ds.Cifar100Dataset(hundred, usage="test", sampler=ds.SubsetSampler(picks[:4])),
                "cifar100_test", arrays)
        arrays["cifar10_all_size"] = np.array(ds.Cifar10Dataset(ten).get_dataset_size())
        mnist = inputs.write_mnist(os.path.join(folder, "mnist") + os.sep, write_idx) \
            if os.makedirs(os.path.join(folder, "mnist")) is None else None
        for usage in ("train", "test", "all"):
            rows_of(ds.MnistDataset(mnist, usage=usage, shuffle=False), f"mnist_{usage}", arrays)
        csv, text1, text2 = inputs.write_text_files(folder)
        rows_of(ds.CSVDataset(csv, shuffle=False), "csv_default", arrays)
        rows_of(ds.CSVDataset(os.path.join(folder, "b.csv"), column_defaults=[0, "", 0.0],
                              column_names=["a", "b", "c"],
                              shuffle=False), "csv_typed", arrays)
        rows_of(ds.TextFileDataset([text1, text2], shuffle=False), "text", arrays)
        images = os.path.join(HERE, "images")
        rows_of(ds.ImageFolderDataset(images, shuffle=False), "folder_raw", arrays)
        rows_of(ds.ImageFolderDataset(images, shuffle=False, decode=True,
                                      extensions=[".png", ".jpg"]), "folder_decoded",
                arrays)
        rows_of(ds.ImageFolderDataset(images, shuffle=False, extensions=[".png"],
                                      class_indexing={"dog": 0, "cat": 5, "emu": 1}),
                "folder_png", arrays)
        arrays["folder_class_indexing"] = np.array(json.dumps(
            ds.ImageFolderDataset(images).get_class_indexing()))
    finally:
        shutil.rmtree(folder)
    np.savez_compressed(os.path.join(HERE, "sources.npz"), **arrays)


SECTIONS = {"mindrecord": record_mindrecord, "sources": record_sources}

if __name__ == "__main__":
    for name in sys.argv[1:] or list(SECTIONS):
        SECTIONS[name]()
        print("recorded", name)
