"""Pipeline operations against MindSpore 2.10: zip, concat, split, take/skip, repeat, batch
(drop_remainder, per_batch_map, output_columns), padded_batch, bucket_batch_by_length, map
with several columns, project and rename.  The pipelines are inputs.pipeline_cases, built
with refms here and with MindSpore by record.py (section ``pipeline``), shuffle off."""
import builtins
import os
import sys

import numpy as np
import pytest

import refms.dataset as ds

GOLDEN = os.path.join(os.path.dirname(__file__), "dataset_golden")
sys.path.insert(0, GOLDEN)
import inputs  # noqa: E402

RECORDED = np.load(os.path.join(GOLDEN, "pipeline.npz"))
CASES = inputs.pipeline_cases(ds)


@pytest.mark.parametrize("name", list(CASES))
def test_pipeline_matches_mindspore(name):
    if name + "/error" in RECORDED.files:
        kind = str(RECORDED[name + "/error"]).split(":")[0]
        with pytest.raises(getattr(builtins, kind)):
            list(CASES[name]().create_tuple_iterator(output_numpy=True))
        return
    data = CASES[name]()
    assert data.get_col_names() == RECORDED[f"{name}/columns"].tolist()
    assert data.get_dataset_size() == int(RECORDED[f"{name}/size"])
    assert [str(t) for t in data.output_types()] == RECORDED[f"{name}/types"].tolist()
    rows = list(data.create_dict_iterator(output_numpy=True))
    assert len(rows) == int(RECORDED[f"{name}/rows"])
    for i, row in enumerate(rows):
        for column, value in row.items():
            if isinstance(value, dict):                  # dict-valued column, key by key
                assert list(value) == RECORDED[f"{name}/{i}/{column}.keys"].tolist()
                items = [(f"{column}.{key}", v) for key, v in value.items()]
            else:
                items = [(column, value)]
            for key, got in items:
                want = RECORDED[f"{name}/{i}/{key}"]
                assert got.dtype == want.dtype and got.shape == want.shape, (i, key)
                np.testing.assert_array_equal(got, want)


def test_map_errors_name_row_operation_and_columns():
    def bad(x):
        if int(x) == 2:
            raise ValueError("no twos")
        return x

    data = ds.NumpySlicesDataset({"x": np.arange(4)}, shuffle=False).map(bad, "x")
    with pytest.raises(RuntimeError, match=r"operation bad failed on row 2 \(input columns "
                                           r"\['x'\]\): ValueError: no twos"):
        list(data)
    with pytest.raises(ValueError, match="column 'nope' does not exist"):
        ds.NumpySlicesDataset({"x": np.arange(4)}).map(bad, "nope")


def test_shuffle_buffer_and_epochs():
    ds.config.set_seed(0)
    data = ds.NumpySlicesDataset({"x": np.arange(10)}, shuffle=False)
    # a buffer of 2 can move a row at most one buffer-fill ahead: row 0 leaves in the first 2
    first = [int(r[0]) for r in data.shuffle(2)]
    assert sorted(first) == list(range(10)) and first.index(0) <= 1
    iterator = data.shuffle(10).create_tuple_iterator(num_epochs=2, output_numpy=True)
    epoch1 = [int(r[0]) for r in iterator]
    epoch2 = [int(r[0]) for r in iterator]
    assert sorted(epoch1) == sorted(epoch2) == list(range(10)) and epoch1 != epoch2
    with pytest.raises(RuntimeError, match="epoch"):
        next(iterator)
    assert data.output_shapes() == [[]] and data.output_types() == [np.int64]


def test_random_split_is_a_partition():
    ds.config.set_seed(1)
    a, b = ds.NumpySlicesDataset({"x": np.arange(10)}, shuffle=False).split([0.7, 0.3])
    left, right = [int(r[0]) for r in a], [int(r[0]) for r in b]
    assert len(left) == 7 and len(right) == 3 and sorted(left + right) == list(range(10))


#: Workers for the parallel tests: more than one where the machine allows (MindSpore, and refms,
#: refuse more workers than CPUs).
WORKERS = min(3, os.cpu_count() or 1)


class SlowSquares:
    """A random-access source (module level, so forked workers can use it)."""

    def __getitem__(self, index):
        return np.array([index * index], np.int64), np.array(index % 3, np.int32)

    def __len__(self):
        return 23


@pytest.mark.parametrize("processes", [False, True])
def test_generator_workers_give_the_single_worker_rows(processes):
    def run(workers):
        ds.config.set_seed(11)
        data = ds.GeneratorDataset(SlowSquares(), ["sq", "mod"], num_parallel_workers=workers,
                                   python_multiprocessing=processes)
        data = data.map(lambda x: x + np.random.default_rng(int(x[0])).integers(0, 5), "sq",
                        num_parallel_workers=workers, python_multiprocessing=processes)
        return [(r[0].tolist(), r[1].tolist()) for r in
                data.batch(5).create_tuple_iterator(output_numpy=True, num_epochs=1)]

    single = run(1)
    assert run(WORKERS) == single
    assert sum(len(batch[1]) for batch in single) == 23


def test_worker_errors_surface_and_do_not_hang():
    class Broken(SlowSquares):
        def __getitem__(self, index):
            if index == 7:
                raise OSError("disk gone")
            return super().__getitem__(index)

    data = ds.GeneratorDataset(Broken(), ["sq", "mod"], shuffle=False,
                              num_parallel_workers=WORKERS)
    with pytest.raises(RuntimeError, match=r"GeneratorDataset: the source failed on row 7: "
                                           r"OSError: disk gone"):
        list(data)


def test_config_worker_default_and_prefetch():
    """A map without num_parallel_workers takes the config's count; results keep row order."""
    saved = (ds.config.get_num_parallel_workers(), ds.config.get_prefetch_size())
    try:
        ds.config.set_num_parallel_workers(3)
        ds.config.set_prefetch_size(2)
        data = ds.GeneratorDataset(SlowSquares(), ["sq", "mod"], shuffle=False)
        data = data.map(lambda m: m + np.int32(1), "mod")           # workers from the config
        assert data.num_parallel_workers == 3
        assert [int(r[1]) for r in data] == [i % 3 + 1 for i in range(23)]
        with pytest.raises(TypeError, match="positive int"):
            ds.config.set_num_parallel_workers(0)
    finally:
        ds.config.set_num_parallel_workers(saved[0])
        ds.config.set_prefetch_size(saved[1])


def test_dict_valued_column_values_become_tensors():
    from refms import Tensor
    row = next(iter(CASES["dict_column"]().create_dict_iterator(num_epochs=1)))
    assert isinstance(row["d"]["v"], Tensor) and row["d"]["v"].shape == (2,)
    assert isinstance(row["x"], Tensor) and CASES["dict_column"]().output_shapes()[0] == [0]
