"""Record MindSpore 2.10's behaviour on calls the MindSpore tutorials make, for
``tests/test_tutorials_compat.py``.

Each probe below is a small program taken from (or reduced from) a tutorial or
docs page, written against the ``ms`` namespace given, and returns plain Python
values: printed text, shapes, dtype names, values, or ``{"raises": name}`` when
it raises.  The same probes run on refms in the test::

    GLOG_v=3 /work/msenv/bin/python tests/recorders/record_tutorials.py

writes ``tests/recorders/tutorials.json``.
"""
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PROBES = {}


def probe(fn):
    """Register ``fn(ms)`` as a probe under its name."""
    PROBES[fn.__name__] = fn
    return fn


def outcome(fn, *args):
    """``fn(*args)``, or ``{"raises": exception class name}``."""
    try:
        return fn(*args)
    except Exception as error:           # the exception type is the recorded behaviour
        return {"raises": type(error).__name__}


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
        "same_objects": [ms.MAE is ms.train.MAE, ms.build_train_network is ms.amp.build_train_network,
                         ms.FileWriter is ms.mindrecord.FileWriter, ms.constexpr is ms.ops.constexpr],
    }


def run(ms):
    return {name: fn(ms) for name, fn in PROBES.items()}


if __name__ == "__main__":
    import mindspore
    with open(os.path.join(HERE, "tutorials.json"), "w") as f:
        json.dump({"mindspore": mindspore.__version__, **run(mindspore)}, f, indent=0)
