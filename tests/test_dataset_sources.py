"""File-format sources against MindSpore 2.10: CIFAR-10/100, MNIST, CSV, text, ImageFolder.

tests/dataset_golden/sources.npz was recorded by record.py (section ``sources``)
on the inputs that inputs.py writes here again (and the checked-in images/).
"""
import json
import os
import sys

import numpy as np
import pytest

import refms.dataset as ds
from refms.dataset.mnist import write_idx

GOLDEN = os.path.join(os.path.dirname(__file__), "dataset_golden")
sys.path.insert(0, GOLDEN)
import inputs  # noqa: E402

IMAGES = os.path.join(GOLDEN, "images")


@pytest.fixture(scope="module")
def expected():
    return np.load(os.path.join(GOLDEN, "sources.npz"))


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = str(tmp_path_factory.mktemp("sources"))
    ten, hundred = inputs.write_cifar(folder)
    mnist = os.path.join(folder, "mnist")
    os.makedirs(mnist)
    inputs.write_mnist(mnist, write_idx)
    csv, text1, text2 = inputs.write_text_files(folder)
    return {"cifar10": ten, "cifar100": hundred, "mnist": mnist, "csv": csv,
            "csv_plain": os.path.join(folder, "b.csv"), "text": [text1, text2], "dir": folder}


def same_rows(data, prefix, expected):
    assert data.get_col_names() == expected[f"{prefix}/columns"].tolist()
    assert data.get_dataset_size() == int(expected[f"{prefix}/size"])
    count = 0
    for i, row in enumerate(data.create_dict_iterator(output_numpy=True)):
        for name, value in row.items():
            want = expected[f"{prefix}/{i}/{name}"]
            assert value.dtype == want.dtype and value.shape == want.shape, (prefix, i, name)
            np.testing.assert_array_equal(value, want, err_msg=f"{prefix} row {i} {name}")
        count += 1
    assert count == int(expected[f"{prefix}/rows"])


def test_cifar10_and_cifar100(files, expected):
    picks = inputs.CIFAR_PICKS
    for usage in ("train", "test"):
        same_rows(ds.Cifar10Dataset(files["cifar10"], usage=usage,
                                    sampler=ds.SubsetSampler(picks[:4])),
                  f"cifar10_{usage}", expected)
    same_rows(ds.Cifar10Dataset(files["cifar10"], usage="all", sampler=ds.SubsetSampler(picks)),
              "cifar10_all", expected)
    same_rows(ds.Cifar100Dataset(files["cifar100"], usage="test",
                                 sampler=ds.SubsetSampler(picks[:4])), "cifar100_test", expected)
    assert ds.Cifar10Dataset(files["cifar10"]).get_dataset_size() == \
        int(expected["cifar10_all_size"])


def test_mnist(files, expected):
    for usage in ("train", "test", "all"):
        same_rows(ds.MnistDataset(files["mnist"], usage=usage, shuffle=False), f"mnist_{usage}",
                  expected)


def test_csv_and_text_files(files, expected):
    same_rows(ds.CSVDataset(files["csv"], shuffle=False), "csv_default", expected)
    same_rows(ds.CSVDataset(files["csv_plain"], column_defaults=[0, "", 0.0],
                            column_names=["a", "b", "c"], shuffle=False), "csv_typed", expected)
    same_rows(ds.TextFileDataset(files["text"], shuffle=False), "text", expected)


def test_image_folder(expected):
    same_rows(ds.ImageFolderDataset(IMAGES, shuffle=False), "folder_raw", expected)
    same_rows(ds.ImageFolderDataset(IMAGES, shuffle=False, decode=True,
                                    extensions=[".png", ".jpg"]), "folder_decoded", expected)
    same_rows(ds.ImageFolderDataset(IMAGES, shuffle=False, extensions=[".png"],
                                    class_indexing={"dog": 0, "cat": 5, "emu": 1}),
              "folder_png", expected)
    assert ds.ImageFolderDataset(IMAGES).get_class_indexing() == \
        json.loads(str(expected["folder_class_indexing"]))


def test_bad_files_name_file_and_row(files, tmp_path):
    with pytest.raises(RuntimeError, match=r"notes\.txt decode failed"):
        list(ds.ImageFolderDataset(IMAGES, shuffle=False, decode=True))
    cut = tmp_path / "cifar"
    cut.mkdir()
    with open(os.path.join(files["cifar10"], "test_batch.bin"), "rb") as f:
        (cut / "test_batch.bin").write_bytes(f.read()[:-5])
    with pytest.raises(RuntimeError, match=r"test_batch\.bin holds .* truncated"):
        ds.Cifar10Dataset(str(cut), usage="test")
    bad_csv = tmp_path / "bad.csv"
    bad_csv.write_text("1,x,\n")
    with pytest.raises(RuntimeError, match=r"bad\.csv parse failed at line 1, type does not "
                                           r"match \(column 2"):
        list(ds.CSVDataset(str(bad_csv), column_defaults=[0, "", 0.0],
                           column_names=["a", "b", "c"]))
    with pytest.raises(ValueError, match="does not exist"):
        ds.Cifar10Dataset(str(tmp_path / "missing"))


def test_distributed_and_pk_samplers_on_sources(files):
    # MindSpore 2.10 shard i of k reads positions i, i+k, ... wrapping round (checked there)
    shards = [[int(r[0]) for r in ds.NumpySlicesDataset(np.arange(10), column_names=["a"],
                                                        num_shards=3, shard_id=k, shuffle=False)]
              for k in range(3)]
    assert shards == [[0, 3, 6, 9], [1, 4, 7, 0], [2, 5, 8, 1]]
    start = ds.NumpySlicesDataset(np.arange(10), column_names=["a"],
                                  sampler=ds.SequentialSampler(2, 5))
    assert [int(r[0]) for r in start] == [2, 3, 4, 5, 6]
    subset = ds.NumpySlicesDataset(np.arange(10), column_names=["a"],
                                   sampler=ds.SubsetSampler([3, 1, 4]))
    assert [int(r[0]) for r in subset] == [3, 1, 4]
    pk = ds.ImageFolderDataset(IMAGES, sampler=ds.PKSampler(2), extensions=[".png"])
    labels = [int(r[1]) for r in pk.create_tuple_iterator(output_numpy=True)]
    assert labels == [0, 0, 1, 1, 2, 2] and pk.get_dataset_size() is not None
    weighted = ds.NumpySlicesDataset(np.arange(4), column_names=["a"],
                                     sampler=ds.WeightedRandomSampler([0, 0, 1, 0], 5))
    assert [int(r[0]) for r in weighted] == [2] * 5
    random = [int(r[0]) for r in ds.NumpySlicesDataset(
        np.arange(6), column_names=["a"], sampler=ds.RandomSampler(num_samples=4))]
    assert len(set(random)) == 4


def test_samplers_choose_mindspores_rows(files, expected):
    folder = files["mnist"]
    # PKSampler draws a class's rows at random in MindSpore too: compare the labels, and
    # check each image is a file of its class and every file of a small class is used
    for prefix, k in (("sampler_pk", 2), ("sampler_pk_repeat", 4)):
        data = ds.ImageFolderDataset(IMAGES, sampler=ds.PKSampler(k), extensions=[".png"])
        rows = list(data.create_tuple_iterator(output_numpy=True))
        assert [int(r[1]) for r in rows] == \
            [int(expected[f"{prefix}/{i}/label"]) for i in range(int(expected[f"{prefix}/rows"]))]
        files = {}
        for cls, label in (("cat", 0), ("dog", 1), ("emu", 2)):
            for name in os.listdir(os.path.join(IMAGES, cls)):
                if name.endswith(".png"):
                    with open(os.path.join(IMAGES, cls, name), "rb") as f:
                        files[f.read()] = label
        assert all(files[r[0].tobytes()] == int(r[1]) for r in rows)
        if k == 4:
            assert len({r[0].tobytes() for r in rows}) == 6
    for shard in range(3):
        same_rows(ds.MnistDataset(folder, usage="all", num_shards=3, shard_id=shard,
                                  shuffle=False), f"sampler_shard{shard}", expected)
    same_rows(ds.MnistDataset(folder, sampler=ds.SequentialSampler(1, 3)), "sampler_sequential",
              expected)
    same_rows(ds.MnistDataset(folder, sampler=ds.SubsetSampler([5, 0, 2])), "sampler_subset",
              expected)
    same_rows(ds.MnistDataset(folder, sampler=[4, 1]), "sampler_list", expected)
    same_rows(ds.MnistDataset(folder, num_samples=4, shuffle=False), "sampler_num_samples",
              expected)
