"""Record MindSpore 2.10's behaviour on calls the MindSpore tutorials make, for
``tests/test_tutorials_compat.py``.

Each probe below is a small program taken from (or reduced from) a tutorial or
docs page, written against the ``ms`` namespace given, and returns plain Python
values: printed text, shapes, dtype names, values, or ``{"raises": name}`` when
it raises.  The same probes run on refms in the test::

    GLOG_v=3 /work/msenv/bin/python tests/recorders/record_tutorials.py

writes ``tests/recorders/tutorials.json``.
"""
import os

import numpy as np

from probe_set import ProbeSet, outcome

PROBE_SET = ProbeSet("tutorials.json", "record_tutorials.py")
probe = PROBE_SET.probe


# -- beginner/mixed_precision: loss scaling on CPU ----------------------------------------

def _model_kind(ms, amp_level, manager):
    net = ms.nn.Dense(3, 2)
    kwargs = {} if manager is None else {"loss_scale_manager": manager}

    def build():
        model = ms.train.Model(net, ms.nn.MSELoss(), ms.nn.SGD(net.trainable_params()),
                               amp_level=amp_level, **kwargs)
        return type(model.train_network).__name__
    return outcome(build)


@probe
def amp_cpu_loss_scale(ms):
    """Which training network Model builds on CPU for each level / loss scale manager."""
    return {
        "O2": _model_kind(ms, "O2", None),
        "O3": _model_kind(ms, "O3", None),
        "O2_fixed_no_drop": _model_kind(ms, "O2", ms.FixedLossScaleManager(
            drop_overflow_update=False)),
        "O2_fixed_drop": _model_kind(ms, "O2", ms.FixedLossScaleManager()),
        "O0_dynamic": _model_kind(ms, "O0", ms.DynamicLossScaleManager()),
        "build_train_network_fixed": outcome(lambda: type(ms.amp.build_train_network(
            ms.nn.Dense(3, 2), ms.nn.SGD(ms.nn.Dense(3, 2).trainable_params()), ms.nn.MSELoss(),
            level="O2", loss_scale_manager=ms.FixedLossScaleManager())).__name__),
    }


# -- beginner/dataset: tensors the pipeline yields print as numpy does ---------------------

REPR_VALUES = [np.array([1.5, 2.0, 0.1], np.float32), np.array([[1.5, 2.0], [3, 4]]),
               np.array([1, 2, 300], np.int32), np.array(3.5), np.array(7, np.int64),
               np.array([True, False]), np.arange(20, dtype=np.float32),
               np.arange(30, dtype=np.int64).reshape(3, 10), np.array([1e-5, 1e5], np.float32),
               np.array([1.0, np.nan, np.inf]), np.arange(2000, dtype=np.float32),
               np.array([1.5, 2], np.float16), np.zeros((2, 0), np.float32),
               np.arange(8, dtype=np.uint8).reshape(2, 2, 2)]


@probe
def numpy_backed_repr(ms):
    """repr of dataset outputs, of ``from_numpy`` tensors and of tensors made from them."""
    out = {"dataset": [], "dict": [], "from_numpy": [], "computed": []}
    for value in REPR_VALUES:
        dataset = ms.dataset.GeneratorDataset([(value,)], ["a"], shuffle=False)
        row = next(iter(dataset))
        out["dataset"].append(repr(row))
        out["dict"].append(repr(next(dataset.create_dict_iterator())))
        out["from_numpy"].append(repr(ms.Tensor.from_numpy(value.copy())))
    shared = ms.Tensor.from_numpy(np.array([1.5, 2.0], np.float32))
    out["computed"] = [repr(ms.Tensor(shared)), repr(shared + 0), repr(shared[0:1]),
                       repr(ms.Tensor(np.array([1.5, 2.0], np.float32)))]
    return out


# -- beginner/save_load and others: names at the top of the package -----------------------

@probe
def top_level_names(ms):
    """Values of names MindSpore also exposes at the top level."""
    return {
        "syntax_levels": [ms.STRICT, ms.COMPATIBLE, ms.LAX],
        "dtype_aliases": [str(getattr(ms, name)) for name in (
            "int", "float", "bool", "byte", "short", "long", "ubyte", "ushort", "intc", "uintc",
            "intp", "uintp", "cfloat", "cdouble")],
        "is_tensor": [ms.is_tensor(ms.Tensor(1)), ms.is_tensor(ms.Parameter(ms.Tensor(1.0))),
                      ms.is_tensor(np.ones(1)), ms.ops.is_tensor(1)],
        "same_objects": [ms.MAE is ms.train.MAE,
                         ms.build_train_network is ms.amp.build_train_network,
                         ms.FileWriter is ms.mindrecord.FileWriter,
                         ms.constexpr is ms.ops.constexpr],
    }


# -- debug/pynative: a grad_position past the inputs ---------------------------------------

@probe
def grad_position_out_of_range(ms):
    """The exception for ``grad_position`` past the inputs, in PyNative and compiled."""
    x = ms.Tensor(np.ones([1], np.float32))

    def double(a):
        return a * 2

    @ms.jit
    def compiled(a):
        return ms.grad(double, grad_position=1)(a)
    return {"pynative": [outcome(lambda: ms.grad(double, grad_position=p)(x))
                         for p in ((0, 1), 1, 2)],
            "value_and_grad": outcome(lambda: ms.value_and_grad(double, grad_position=(0, 1))(x)),
            "negative": outcome(lambda: ms.grad(double, grad_position=-1)(x)),
            "jit": outcome(lambda: compiled(x))}


# -- debug/pynative: mindspore.runtime ------------------------------------------------------

@probe
def runtime_module(ms):
    """The calls of ``mindspore.runtime`` a CPU script makes, and what they return."""
    rt = ms.runtime
    return {"launch_blocking": rt.launch_blocking(), "synchronize": rt.synchronize(),
            "memory": [rt.memory_allocated(), rt.max_memory_allocated(), rt.memory_reserved(),
                       rt.max_memory_reserved()],
            "stats": rt.memory_stats(), "empty_cache": rt.empty_cache(),
            "dispatch_threads_num": rt.dispatch_threads_num(4),
            "bad_threads": outcome(lambda: rt.dispatch_threads_num("a"))}


# -- compile/static_graph: a classmethod of a Cell is not static-graph syntax ---------------

@probe
def cell_classmethod_in_graph(ms):
    """A Cell's classmethod called from a jit construct raises; a staticmethod runs."""
    class WithClassmethod(ms.nn.Cell):
        @classmethod
        def func(cls, x, y):
            return x + y

        @ms.jit
        def construct(self, x, y):
            return self.func(x, y)

    class WithStaticmethod(ms.nn.Cell):
        @staticmethod
        def func(x, y):
            return x + y

        @ms.jit
        def construct(self, x, y):
            return self.func(x, y)
    args = (ms.tensor(1), ms.tensor(2))
    return {"classmethod": outcome(lambda: int(WithClassmethod()(*args))),
            "staticmethod": outcome(lambda: int(WithStaticmethod()(*args)))}


# -- dataset/eager, beginner/dataset: filter, flat_map, apply -----------------------------

def _two_columns(ms):
    return ms.dataset.NumpySlicesDataset({"a": [1, 2, 3, 4, 5, 6], "b": [10, 20, 30, 40, 50, 60]},
                                         shuffle=False)


def _rows(dataset):
    return [[v.tolist() for v in row] for row in dataset.create_tuple_iterator(output_numpy=True)]


@probe
def dataset_filter_flat_map_apply(ms):
    """Rows kept by filter, sizes, names; flat_map's rows; apply; the errors."""
    ds = ms.dataset
    seen = []

    def above_two(a):
        seen.append([type(a).__name__, str(a.dtype), list(a.shape)])
        return a > 2
    kept = _two_columns(ms).filter(above_two, input_columns=["a"])
    even = _two_columns(ms).filter(lambda a: a % 2 == 0, input_columns="a").batch(2)
    one = ds.NumpySlicesDataset([1, 2, 3], column_names=["x"], shuffle=False)
    doubled = one.flat_map(lambda x: ds.NumpySlicesDataset([int(x)] * 2, column_names=["x"],
                                                            shuffle=False))
    return {"kept": _rows(kept), "predicate_input": seen[0],
            "size": kept.get_dataset_size(), "names": kept.get_col_names(),
            "all_columns": _rows(_two_columns(ms).filter(lambda a, b: a + b > 40)),
            "batched": _rows(even), "batched_size": even.get_dataset_size(),
            "truthy_result": len(_rows(_two_columns(ms).filter(lambda a: "yes",
                                                               input_columns="a"))),
            "not_callable": outcome(lambda: _two_columns(ms).filter(3)),
            "unknown_column": outcome(lambda: _rows(_two_columns(ms).filter(above_two,
                                                                            input_columns=["zz"]))),
            "flat_map": _rows(doubled), "flat_map_size": doubled.get_dataset_size(),
            "apply_size": _two_columns(ms).apply(lambda d: d.batch(4)).get_dataset_size(),
            "apply_not_dataset": outcome(lambda: _two_columns(ms).apply(lambda d: 3))}


# -- dataset/sampler: a user sampler that is a sequence ------------------------------------

@probe
def sequence_sampler(ms):
    """A sampler object with only __getitem__ and __len__, and a Sampler with __iter__."""
    class Indices:
        def __init__(self):
            self.index_ids = [3, 4, 3, 2, 0, 11, 5, 5, 5, 9, 1, 11, 11, 11, 11, 8]

        def __getitem__(self, index):
            return self.index_ids[index]

        def __len__(self):
            return len(self.index_ids)

    class EverySecond(ms.dataset.Sampler):
        def __iter__(self):
            for i in range(0, 10, 2):
                yield i
    letters = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"]
    return [[str(row[0]) for row in ms.dataset.NumpySlicesDataset(
        letters, column_names=["data"], sampler=sampler).create_tuple_iterator(output_numpy=True)]
        for sampler in (Indices(), EverySecond())]


# -- dataset/python_objects and others: int64 arrays are typed longlong ---------------------

@probe
def int64_arrays_repr(ms):
    """repr of int64 arrays from asnumpy and from the dataset pipeline."""
    t = ms.Tensor(np.array([1, 2]))
    dataset = ms.dataset.GeneratorDataset(
        [(np.array([1, 2], np.int64), np.array(3, np.int32), np.array(1.5))], ["a", "b", "c"],
        shuffle=False)
    return {"asnumpy": [repr(t.asnumpy()), repr((t + 1).asnumpy()),
                        repr(ms.tensor([1, 2]).asnumpy()), repr(ms.ops.arange(3).asnumpy())],
            "from_numpy": repr(ms.Tensor.from_numpy(np.array([1, 2])).asnumpy()),
            "output_numpy": repr(next(dataset.create_tuple_iterator(output_numpy=True))),
            "dict": repr(next(dataset.create_dict_iterator(output_numpy=True))),
            "tensor_asnumpy": repr(next(iter(dataset))[0].asnumpy()),
            "float": repr(ms.Tensor(np.array([1.5])).asnumpy())}


# -- dataset/augment: sync_wait / sync_update ------------------------------------------------

@probe
def sync_wait_update(ms):
    """The tutorial's policy update between steps, and the errors of sync_update."""
    class Augment:
        def __init__(self):
            self.ep_num = 0
            self.step_num = 0

        def preprocess(self, value):
            return np.array((value + self.step_num ** self.ep_num - 1),)

        def update(self, data):
            self.ep_num = data["ep_num"]
            self.step_num = data["step_num"]
    dataset = ms.dataset.NumpySlicesDataset(list(range(1, 4)), shuffle=False)
    aug = Augment()
    dataset = dataset.sync_wait(condition_name="policy", callback=aug.update)
    dataset = dataset.map(operations=[aug.preprocess])
    iterator = dataset.create_tuple_iterator(num_epochs=3)
    seen, step = [], 0
    for epoch in range(3):
        for row in iterator:
            seen.append(int(row[0].asnumpy()))
            step += 1
            dataset.sync_update(condition_name="policy", data={"ep_num": epoch, "step_num": step})
    other = ms.dataset.NumpySlicesDataset([1, 2], shuffle=False).sync_wait(condition_name="p")
    return {"rows": seen,
            "unknown_name": outcome(lambda: other.sync_update(condition_name="q")),
            "zero_update": outcome(lambda: other.sync_update(condition_name="p", num_batch=0)),
            "zero_wait": outcome(lambda: ms.dataset.NumpySlicesDataset([1]).sync_wait(
                condition_name="p", num_batch=0))}


# -- dataset/optimize: num_parallel_workers is bounded by the CPU count ---------------------

@probe
def num_parallel_workers_bounds(ms):
    """Which worker counts sources and operations accept (bounds from this machine's CPUs)."""
    ds = ms.dataset
    cpus = os.cpu_count()

    def source(workers):
        return lambda: ds.NumpySlicesDataset([1, 2], num_parallel_workers=workers) and "ok"
    return {"source": [outcome(source(w)) for w in (1, cpus, cpus + 1, 0, True, 2.0)],
            "map": [outcome(lambda w=w: ds.NumpySlicesDataset([1, 2]).map(
                lambda x: x, num_parallel_workers=w) and "ok") for w in (cpus, cpus + 1, -1)],
            "batch": outcome(lambda: ds.NumpySlicesDataset([1, 2]).batch(
                1, num_parallel_workers=cpus + 1)),
            "filter": outcome(lambda: ds.NumpySlicesDataset([1, 2]).filter(
                lambda x: True, num_parallel_workers=cpus + 1)),
            # a missing folder is reported before the worker count
            "missing_folder_first": [_names_the_folder(source, cpus + 1) for source in (
                ds.ImageFolderDataset, ds.MnistDataset, ds.Cifar10Dataset)]}


def _names_the_folder(source, workers):
    """The error type of a source on a missing folder with too many workers, and whether its
    message is about the folder (checked first) rather than the worker count."""
    try:
        source("no-such-folder", num_parallel_workers=workers)
    except Exception as error:      # noqa: BLE001 - the type and the subject are recorded
        return [type(error).__name__, "folder" in str(error)]
    return "no error"


# -- dataset/eager: text transforms under their 2.x path ------------------------------------

@probe
def unicode_char_tokenizer(ms):
    """UnicodeCharTokenizer from mindspore.dataset.text.transforms, with and without offsets."""
    import importlib
    text = importlib.import_module(ms.__name__ + ".dataset.text.transforms")
    tokens, starts, ends = text.UnicodeCharTokenizer(with_offsets=True)("a\u5317b")
    return {"same_class": text.UnicodeCharTokenizer is ms.dataset.text.UnicodeCharTokenizer,
            "tokens": repr(text.UnicodeCharTokenizer()("Welcome to Beijing !")),
            "offsets": [tokens.tolist(), starts.tolist(), ends.tolist(), str(starts.dtype)],
            "empty": repr(text.UnicodeCharTokenizer()("")),
            "not_scalar": outcome(lambda: text.UnicodeCharTokenizer()(np.array(["ab", "c"]))),
            "to_number": repr(text.ToNumber(ms.int32)(["123456"])),
            "vision_path": importlib.import_module(
                ms.__name__ + ".dataset.vision.transforms").Resize is ms.dataset.vision.Resize}


# -- compile/static_graph_expert_programming: lazy_inline and no_inline ---------------------

@probe
def inline_hints(ms):
    """Cells with a lazy_inline __init__ and no_inline functions compute as without them."""
    class Scaled(ms.nn.Cell):
        @ms.lazy_inline
        def __init__(self, a):
            super().__init__()
            self.a = a

        def construct(self, x):
            return x * self.a

    class Plain(ms.nn.Cell):
        @ms.lazy_inline(policy="front")
        def __init__(self):
            super().__init__()

        def construct(self, x):
            return x

    @ms.no_inline
    def plus_one(x):
        return x + 1

    @ms.jit
    def twice(x):
        return plus_one(x) * 2
    return [float(Scaled(2)(ms.Tensor(3.0))), float(Plain()(ms.Tensor(1.0))),
            float(plus_one(ms.Tensor(1.0))), float(twice(ms.Tensor(1.0)))]


# -- API docs: ops functions computed like their mint twins ---------------------------------

def _values(out):
    """A result as [dtype, shape, values rounded to 4 decimals] (tuples: a list of those)."""
    if isinstance(out, (tuple, list)):
        return [_values(o) for o in out]
    array = out.asnumpy()
    values = array.astype(np.float64).round(4).ravel().tolist() if array.dtype.kind in "fc" \
        else array.ravel().tolist()
    return [str(out.dtype), list(array.shape), values]


@probe
def ops_mint_based(ms):
    """ops functions on fixed inputs (values), and the random ones (shapes and dtypes)."""
    ops, T = ms.ops, ms.Tensor
    x = T(np.array([[0.5, -1.5, 2.0, 3.0], [4.0, 0.0, -2.5, 1.0], [1.5, 2.5, -0.5, 0.25]],
                   np.float32))
    p = T(np.array([[0.1, 0.2, 0.3, 0.4], [0.9, 0.8, 0.7, 0.6], [0.5, 0.5, 0.25, 0.75]],
                   np.float32))
    sq = T(np.array([[2.0, 1.0], [1.0, 3.0]], np.float32))
    v = T(np.array([1.0, -2.0], np.float32))
    i = T(np.array([[1, 0, 3], [2, 2, 0]], np.int32))
    calls = {
        "tril": lambda: ops.tril(x), "triu": lambda: ops.triu(x, 1),
        "logsumexp": lambda: ops.logsumexp(x, 1), "cosh": lambda: ops.cosh(x),
        "arctan2": lambda: ops.arctan2(x, p), "log2": lambda: ops.log2(p),
        "cumprod": lambda: ops.cumprod(x, 1),    # (ops.roll: no CPU kernel in MindSpore 2.10)
        "cumprod_int": lambda: ops.cumprod(i, 1),
        "cumprod_int64": lambda: ops.cumprod(T(np.array([1, 2, 3, 0, 5])), 0),
        "mm": lambda: ops.mm(sq, sq), "outer": lambda: ops.outer(v, v),
        "inverse": lambda: ops.inverse(sq), "trace": lambda: ops.trace(sq),
        "nonzero": lambda: ops.nonzero(x), "unbind": lambda: ops.unbind(sq, 1),
        "hstack": lambda: ops.hstack((sq, sq)), "ravel": lambda: ops.ravel(sq),
        "nan_to_num": lambda: ops.nan_to_num(T(np.array([np.nan, np.inf, 1.0], np.float32)), 0.0),
        "logical_xor": lambda: ops.logical_xor(x > 0, p > 0.4),
        "searchsorted": lambda: ops.searchsorted(T(np.array([1.0, 2.0, 3.0], np.float32)),
                                                 T(np.array([2.5, 0.5], np.float32))),
        "addcmul": lambda: ops.addcmul(x, p, p, T(0.5)),
        "addcdiv": lambda: ops.addcdiv(x, p, p + 1, T(2.0)),
        "all": lambda: ops.all(x > -3, 1), "any": lambda: ops.any(x > 3),
        "chunk": lambda: ops.chunk(x, 2, 1), "cummax": lambda: ops.cummax(x, 1),
        "cummin": lambda: ops.cummin(x, 0), "diff": lambda: ops.diff(x),
        "eq": lambda: ops.eq(x, p), "fmod": lambda: ops.fmod(x, T(1.5)),
        "frac": lambda: ops.frac(x), "index_select": lambda: ops.index_select(
            x, 1, T(np.array([3, 0], np.int32))),
        "lerp": lambda: ops.lerp(x, p, 0.25), "median": lambda: ops.median(x),
        "median_axis0": lambda: ops.median(x, 0, True), "mv": lambda: ops.mv(sq, v),
        "nansum": lambda: ops.nansum(T(np.array([[1.0, np.nan], [2.0, 3.0]], np.float32)), 0),
        "narrow": lambda: ops.narrow(x, 1, 1, 2),
        "repeat_interleave": lambda: ops.repeat_interleave(sq, 2, 0),
        "scatter": lambda: ops.scatter(x[:2], 1, i, p[:2, :3]),
        "t": lambda: ops.t(sq), "xlogy": lambda: ops.xlogy(p, p + 1),
        "std": lambda: ops.std(x), "std_axis": lambda: ops.std(x, 1, 1, True),
        "var": lambda: ops.var(x, 0), "std_mean": lambda: ops.std_mean(x, 1),
        "var_mean": lambda: ops.var_mean(x, None, 1),
        "count_nonzero": lambda: ops.count_nonzero(x), "count_nonzero_axis": lambda:
            ops.count_nonzero(x, 1, True, ms.float32),
    }
    out = {name: outcome(lambda call=call: _values(call())) for name, call in calls.items()}
    random = {"randn": ops.randn(2, 3), "randn_tuple": ops.randn((2, 3), dtype=ms.float16),
              "rand": ops.rand(4), "randn_like": ops.randn_like(x), "rand_like": ops.rand_like(sq),
              "randint": ops.randint(0, 5, (3, 2)), "randint_i32": ops.randint(0, 5, (2,),
                                                                               dtype=ms.int32)}
    out["random"] = {name: [str(r.dtype), list(r.shape)] for name, r in random.items()}
    out["rand_range"] = bool((random["rand"] >= 0).all() and (random["rand"] < 1).all())
    return out


# -- compile/python_builtin_functions: float scalars a graph computes are float32 -----------

FLOAT_GLOBAL = 0.1


@probe
def graph_float_scalars(ms):
    """Python floats a jit function computes (float32), returns as they are, or passes through."""
    @ms.jit
    def arithmetic(a):
        return 0.1, a, a * 2, a + 0.1, float(3), 1.5, a / 3, float(-123.6), abs(-0.1), -a

    @ms.jit
    def from_shape(x):
        return x.shape[0] * 0.1, float(x.shape[0]) / 3, FLOAT_GLOBAL, FLOAT_GLOBAL * 1
    return {"arithmetic": [list(arithmetic(0.1)), list(arithmetic(2.2))],
            "from_shape": list(from_shape(ms.Tensor([1.0, 2.0, 3.0])))}


# -- dataset/augment: Posterize and Solarize -----------------------------------------------

@probe
def posterize_solarize(ms):
    """The deterministic grey-level operations (and their random twins at a fixed draw)."""
    vision = ms.dataset.vision
    image = (np.arange(48, dtype=np.int64).reshape(4, 4, 3) * 5 + 7).astype(np.uint8)
    calls = {
        "posterize": lambda: vision.Posterize(3)(image),
        "solarize": lambda: vision.Solarize(128)(image),
        "solarize_range": lambda: vision.Solarize((50, 150))(image),
        "random_posterize_fixed": lambda: vision.RandomPosterize((4, 4))(image),
        "random_posterize_default": lambda: vision.RandomPosterize()(image),
        "random_solarize_fixed": lambda: vision.RandomSolarize((100, 100))(image),
        "gray": lambda: np.stack([vision.Posterize(2)(image[..., 0]),
                                  vision.Solarize(60.5)(image[..., 0])]),
    }
    out = {name: outcome(lambda call=call: call().tolist()) for name, call in calls.items()}
    out["errors"] = [outcome(bad) for bad in (
        lambda: vision.Posterize(9), lambda: vision.Solarize(300),
        lambda: vision.Solarize((150, 50)), lambda: vision.RandomPosterize((5, 3)),
        lambda: vision.Posterize(3)(image.astype(np.float32)))]
    return out


# -- custom_program/operation: ops.Custom with a Python function ----------------------------

@probe
def custom_pyfunc(ms):
    """A pyfunc Custom op: forward, dtype rule, graph mode, bprop, and what raises."""
    ops = ms.ops

    def add3(x, y):
        return x + y * 3

    def square_grad(x, dout):
        return 2.0 * x * dout

    grad_op = ops.Custom(square_grad, lambda x, _: x, lambda x, _: x, func_type="pyfunc")

    def bprop(x, out, dout):
        return (grad_op(x, dout),)
    plain = ops.Custom(add3, lambda x, y: x, lambda x, y: x, func_type="pyfunc")
    summed = ops.Custom(lambda x: x.sum(keepdims=True).astype(np.float64), (1,), ms.float64,
                        func_type="pyfunc")
    square = ops.Custom(lambda x: x * x, lambda x: x, lambda x: x, bprop=bprop,
                        func_type="pyfunc")
    a = ms.Tensor(np.array([1.0, 2.0], np.float32))
    b = ms.Tensor(np.array([0.5, 1.0], np.float32))

    @ms.jit
    def twice(x, y):
        return plain(x, y) * 2

    def squared(x):
        return square(x)

    @ms.jit
    def square_grad_graph(x):
        return ms.grad(squared)(x)
    return {"forward": _values(plain(a, b)), "fixed_rule": _values(summed(a)),
            "jit": _values(twice(a, b)), "grad": _values(ms.grad(squared)(a)),
            "grad_graph": _values(square_grad_graph(a)),
            "no_bprop": outcome(lambda: ms.grad(lambda x, y: plain(x, y).sum())(a, b)),
            "aot": outcome(lambda: ops.Custom(add3, lambda x, y: x, lambda x, y: x,
                                              func_type="aot")(a, b))}


# -- dataset/python_objects: dict-valued columns ------------------------------------------

@probe
def dict_columns(ms):
    """Dicts from map and per_batch_map, printed as the tutorial prints them."""
    ds = ms.dataset

    def numbers():
        for i in range(6):
            yield i

    def to_dict(col1):
        return {"original_col1": col1, "square": col1 ** 2}

    def per_batch(col1, batch_info):
        return {"original_col1": col1, "index": np.arange(3)}, {"copied_col1": col1}
    mapped = ds.GeneratorDataset(numbers, ["col1"]).map(to_dict, ["col1"])
    batched = ds.GeneratorDataset(numbers, ["col1"]).batch(
        3, per_batch_map=per_batch, output_columns=["col1", "col2"])
    return {"map": [repr(d) for d in mapped.create_dict_iterator(num_epochs=1,
                                                                output_numpy=True)],
            "map_tensors": [repr(d) for d in mapped.create_dict_iterator(num_epochs=1)],
            "per_batch_map": [repr(d) for d in batched.create_dict_iterator(num_epochs=1,
                                                                           output_numpy=True)]}


# -- API docs: grad / value_and_grad with sens_param ----------------------------------------

@probe
def grad_sens_param(ms):
    """The sensitivity given as the last argument, in PyNative and compiled, with has_aux."""
    T = ms.Tensor

    def product(x, y):
        return x * y

    def two_outputs(x):
        return x * 2, x * 3

    @ms.jit
    def compiled(a, b, s):
        return ms.grad(product, 0, sens_param=True)(a, b, s)
    x = T(np.array([1.0, 2.0], np.float32))
    return {"grad": _values(ms.grad(product, 0, sens_param=True)(T(2.0), T(3.0), T(5.0))),
            "value_and_grad": _values(ms.value_and_grad(product, (0, 1), sens_param=True)(
                T(2.0), T(3.0), T(5.0))),
            "vector": _values(ms.grad(product, 1, sens_param=True)(
                x, x, T(np.array([0.5, 2.0], np.float32)))),
            "jit": _values(compiled(T(2.0), T(3.0), T(5.0))),
            "has_aux": _values(ms.grad(two_outputs, 0, has_aux=True, sens_param=True)(
                T(2.0), T(4.0)))}


if __name__ == "__main__":
    PROBE_SET.record()
