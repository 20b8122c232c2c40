"""Datasets: sources, pipeline operations, iterators, epochs and seeds, MNIST IDX files.

Shapes, dtypes, column names and sizes follow MindSpore 2.10 (checked when
this suite was written); shuffle orders cannot, only their properties.
"""
import numpy as np
import pytest

import refms as ms
import refms.dataset as ds
from refms import Tensor
from refms.dataset import transforms, vision
from refms.dataset.mnist import read_idx, write_idx


@pytest.fixture(autouse=True)
def fresh_dataset_seed():
    """The pipeline seed is process state like the global seed: put it back after each test."""
    saved = dict(ds.config._STATE)
    yield
    ds.config._STATE.clear()
    ds.config._STATE.update(saved)


def xy_dataset(shuffle=False):
    return ds.NumpySlicesDataset({"x": np.arange(10).reshape(5, 2).astype(np.float32),
                                  "y": np.arange(5).astype(np.int32)}, shuffle=shuffle)


def test_numpy_slices_columns_shapes_and_tensors():
    d = xy_dataset()
    assert d.get_col_names() == ["x", "y"] and d.get_dataset_size() == 5
    assert d.output_shapes() == [[2], []]
    assert d.output_types() == [np.float32, np.int32]
    x, y = next(iter(d.create_tuple_iterator()))
    assert isinstance(x, Tensor) and x.dtype is ms.float32 and x.shape == (2,)
    assert y.dtype is ms.int32 and y.shape == ()
    row = next(iter(d.create_dict_iterator(output_numpy=True)))
    assert list(row) == ["x", "y"] and isinstance(row["x"], np.ndarray)


def test_numpy_slices_data_forms():
    assert ds.NumpySlicesDataset(([1, 2, 3], [4, 5, 6]), shuffle=False).get_col_names() == \
        ["column_0", "column_1"]
    single = ds.NumpySlicesDataset([1.5, 2.5], shuffle=False)
    assert single.get_col_names() == ["column_0"]
    assert next(iter(single))[0].dtype is ms.float64            # numpy's default, as MindSpore
    named = ds.NumpySlicesDataset(np.arange(6), column_names=["a"], shuffle=False)
    assert [int(r[0]) for r in named] == [0, 1, 2, 3, 4, 5]
    with pytest.raises(ValueError, match="same length"):
        ds.NumpySlicesDataset({"a": [1, 2], "b": [1]})


def test_batch_sizes_and_drop_remainder():
    assert [r[0].shape for r in xy_dataset().batch(2)] == [(2, 2), (2, 2), (1, 2)]
    assert xy_dataset().batch(2).get_dataset_size() == 3
    assert xy_dataset().batch(2, drop_remainder=True).get_dataset_size() == 2
    assert [r[1].shape for r in xy_dataset().batch(2, drop_remainder=True)] == [(2,), (2,)]
    with pytest.raises(ValueError, match="batch_size"):
        xy_dataset().batch(0)


def test_batch_of_different_shapes_is_an_error():
    d = ds.GeneratorDataset(lambda: iter([(np.ones(2),), (np.ones(3),)]), ["a"])
    with pytest.raises(RuntimeError, match="different shapes"):
        list(d.batch(2))


def test_shuffle_is_a_permutation_reproducible_under_a_seed():
    ms.set_seed(1)
    first = [int(r[0]) for r in ds.NumpySlicesDataset(np.arange(20), column_names=["a"])]
    again = [int(r[0]) for r in ds.NumpySlicesDataset(np.arange(20), column_names=["a"])]
    assert sorted(first) == list(range(20)) and first == again and first != list(range(20))
    ms.set_seed(2)
    other = [int(r[0]) for r in ds.NumpySlicesDataset(np.arange(20), column_names=["a"])]
    assert other != first
    ds.config.set_seed(1)
    assert ds.config.get_seed() == 1
    ms.set_seed(7)                                        # the later seed wins
    assert ds.config.get_seed() == 7


def test_every_epoch_of_one_iterator_gets_a_new_order():
    ds.config.set_seed(3)
    iterator = ds.NumpySlicesDataset(np.arange(10), column_names=["a"]).create_tuple_iterator(
        num_epochs=2, output_numpy=True)
    epoch1 = [int(r[0]) for r in iterator]
    epoch2 = [int(r[0]) for r in iterator]
    assert sorted(epoch1) == sorted(epoch2) == list(range(10)) and epoch1 != epoch2
    with pytest.raises(RuntimeError, match="2 epoch"):
        next(iterator)


def test_buffer_shuffle():
    ds.config.set_seed(0)
    d = ds.NumpySlicesDataset(np.arange(12), column_names=["a"], shuffle=False).shuffle(4)
    values = [int(r[0]) for r in d]
    assert sorted(values) == list(range(12)) and values != list(range(12))
    assert values[0] < 4                                # drawn from the first buffer of 4
    with pytest.raises(ValueError, match="buffer_size"):
        d.shuffle(1)


def test_map_repeat_project_rename_take_skip():
    d = ds.NumpySlicesDataset(np.arange(4), column_names=["a"], shuffle=False)
    assert [int(r[0]) for r in d.map(lambda a: a * 2, input_columns=["a"])] == [0, 2, 4, 6]
    assert [int(r[0]) for r in d.repeat(2)] == [0, 1, 2, 3] * 2
    assert d.repeat(2).get_dataset_size() == 8
    two = xy_dataset().map(lambda x: (x.sum(), x.max()), input_columns="x",
                           output_columns=["s", "m"])
    assert two.get_col_names() == ["s", "m", "y"]
    assert [r.tolist() for r in next(iter(two.create_tuple_iterator(output_numpy=True)))] == \
        [1.0, 1.0, 0]
    assert xy_dataset().project(["y"]).get_col_names() == ["y"]
    assert xy_dataset().rename("x", "image").get_col_names() == ["image", "y"]
    assert [int(r[1]) for r in xy_dataset().take(2)] == [0, 1]
    assert [int(r[1]) for r in xy_dataset().skip(3)] == [3, 4]
    assert xy_dataset().skip(3).get_dataset_size() == 2


def test_map_defaults_to_the_first_column_and_chains_operations():
    d = xy_dataset().map([transforms.TypeCast(ms.int32), lambda x: x + 1])
    x, y = next(iter(d.create_tuple_iterator(output_numpy=True)))
    assert x.dtype == np.int32 and x.tolist() == [1, 2] and y == 0


def test_generator_dataset_sources():
    def gen():
        for i in range(3):
            yield np.array([i]), np.array(i * 10)

    d = ds.GeneratorDataset(gen, ["data", "label"])
    assert d.get_dataset_size() == 3
    assert [int(r[1]) for r in d] == [0, 10, 20]
    assert [int(r[1]) for r in d] == [0, 10, 20]             # a callable restarts every epoch

    class Source:
        def __getitem__(self, i):
            return np.array([i], np.float32), np.int32(i)

        def __len__(self):
            return 4

    rows = list(ds.GeneratorDataset(Source(), ["data", "label"], shuffle=False))
    assert [int(r[1]) for r in rows] == [0, 1, 2, 3] and rows[0][0].dtype is ms.float32
    shuffled = [int(r[1]) for r in ds.GeneratorDataset(Source(), ["data", "label"])]
    assert sorted(shuffled) == [0, 1, 2, 3]
    batches = list(ds.GeneratorDataset(Source(), ["data", "label"], shuffle=False)
                   .batch(3).create_dict_iterator(output_numpy=True))
    assert batches[0]["data"].shape == (3, 1) and batches[1]["label"].tolist() == [3]
    assert ds.GeneratorDataset(Source(), ["d", "l"], num_samples=2).get_dataset_size() == 2
    # An iterable source is read in order even with shuffle=True (MindSpore 2.10 does so).
    assert [int(r[1]) for r in ds.GeneratorDataset(gen, ["data", "label"], shuffle=True)] == \
        [int(r[1]) for r in ds.GeneratorDataset(gen, ["data", "label"])]
    with pytest.raises(RuntimeError, match="2 values per row"):
        list(ds.GeneratorDataset(gen, ["data"]))


# -- vision and transforms ------------------------------------------------------------------

def test_vision_operations():
    image = np.arange(16, dtype=np.uint8).reshape(4, 4, 1)
    np.testing.assert_allclose(vision.Rescale(1 / 16, 0.5)(image)[0, 1, 0], 1 / 16 + 0.5)
    assert vision.HWC2CHW()(image).shape == (1, 4, 4)
    assert vision.Resize((8, 8))(image).shape == (8, 8, 1)
    constant = np.full((3, 3), 7.0, np.float32)
    np.testing.assert_allclose(vision.Resize((6, 5))(constant), np.full((6, 5), 7.0))
    ramp = np.tile(np.arange(4, dtype=np.float32), (2, 1))
    np.testing.assert_allclose(vision.Resize((2, 8))(ramp)[0],
                               [0, 0.25, 0.75, 1.25, 1.75, 2.25, 2.75, 3])
    assert vision.Pad(2)(image).shape == (8, 8, 1)
    normalized = vision.Normalize([1.0], [2.0])(np.full((2, 2, 1), 5.0, np.float32))
    np.testing.assert_allclose(normalized, 2.0)


# -- MNIST ------------------------------------------------------------------------------------

@pytest.fixture
def mnist_dir(tmp_path):
    images = (np.arange(5 * 28 * 28).reshape(5, 28, 28) % 256).astype(np.uint8)
    write_idx(tmp_path / "train-images-idx3-ubyte", images)
    write_idx(tmp_path / "train-labels-idx1-ubyte", np.array([3, 1, 4, 1, 5], np.uint8))
    write_idx(tmp_path / "t10k-images-idx3-ubyte", np.zeros((2, 28, 28), np.uint8))
    write_idx(tmp_path / "t10k-labels-idx1-ubyte", np.array([8, 9], np.uint8))
    return tmp_path


def test_idx_files_round_trip(tmp_path):
    for array in (np.arange(6, dtype=np.uint8).reshape(2, 3), np.array([1.5, -2.0], np.float32),
                  np.array([[-3]], np.int32)):
        write_idx(tmp_path / "f", array)
        loaded = read_idx(tmp_path / "f")
        assert loaded.dtype == array.dtype
        np.testing.assert_array_equal(loaded, array)
    (tmp_path / "bad").write_bytes(b"\x00\x00\x08\x01\x00\x00\x00\x05\x01")
    with pytest.raises(ValueError, match="needs 5 bytes"):
        read_idx(tmp_path / "bad")
    (tmp_path / "bad").write_bytes(b"\x01\x02")
    with pytest.raises(ValueError, match="magic number"):
        read_idx(tmp_path / "bad")


def test_mnist_dataset(mnist_dir):
    d = ds.MnistDataset(str(mnist_dir), usage="train", shuffle=False)
    assert d.get_col_names() == ["image", "label"] and d.get_dataset_size() == 5
    row = next(iter(d.create_dict_iterator(output_numpy=True)))
    assert row["image"].shape == (28, 28, 1) and row["image"].dtype == np.uint8
    assert row["label"].dtype == np.uint32 and row["label"].shape == () and row["label"] == 3
    labels = [int(r["label"]) for r in ds.MnistDataset(str(mnist_dir), shuffle=False)
              .create_dict_iterator(output_numpy=True)]
    assert labels == [8, 9, 3, 1, 4, 1, 5]                      # 'all': test files first
    assert ds.MnistDataset(str(mnist_dir), usage="test").get_dataset_size() == 2
    assert ds.MnistDataset(str(mnist_dir), num_samples=3).get_dataset_size() == 3
    with pytest.raises(ValueError, match="does not exist"):
        ds.MnistDataset(str(mnist_dir / "nope"))


def test_mnist_count_mismatch_is_reported(mnist_dir):
    write_idx(mnist_dir / "t10k-labels-idx1-ubyte", np.array([8, 9, 7], np.uint8))
    with pytest.raises(RuntimeError, match="images number: 2, labels number: 3"):
        ds.MnistDataset(str(mnist_dir), usage="test")


def test_mnist_pipeline_feeds_a_network(mnist_dir):
    d = ds.MnistDataset(str(mnist_dir), usage="train", shuffle=False)
    d = d.map([vision.Rescale(1 / 255, 0), vision.HWC2CHW()], input_columns="image")
    d = d.map(transforms.TypeCast(ms.int32), input_columns="label").batch(2)
    image, label = next(iter(d))
    assert image.shape == (2, 1, 28, 28) and image.dtype is ms.float32 and label.dtype is ms.int32


def test_tfrecord_dataset_is_absent_with_the_reason():
    import refms.dataset as ds
    with pytest.raises(AttributeError, match="TFRecord files needs TensorFlow"):
        ds.TFRecordDataset
