"""Record MindSpore 2.10's ``ops.ScatterNdUpdate`` and ``ops.ScatterAdd`` for
``tests/test_scatter_update.py``.

    GLOG_v=3 /work/msenv/bin/python tests/recorders/record_scatter_update.py

Each case updates a Parameter inside a Cell's construct (so GRAPH_MODE can compile it) and
records the returned value and the Parameter afterwards; also the errors of bad inputs.
"""
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def error_name(error):
    """The built-in exception type an error is (refms raises subclasses such as
    ``NotATensorError(TypeError)``; MindSpore raises the built-in types)."""
    return next(c.__name__ for c in type(error).__mro__ if c.__module__ == "builtins")


CASES = {
    # name: (op, x shape, indices, updates shape)
    "nd-update-elements-repeated": ("ScatterNdUpdate", (3, 4), [[0, 1], [2, 3], [0, 1]], (3,)),
    "nd-update-rows-repeated": ("ScatterNdUpdate", (3, 2), [[1], [1]], (2, 2)),
    "nd-update-3d-slices": ("ScatterNdUpdate", (2, 3, 2), [[1, 0], [0, 2]], (2, 2)),
    "add-2d-indices": ("ScatterAdd", (4, 2), [[0, 2], [2, 3]], (2, 2, 2)),
    "add-repeated": ("ScatterAdd", (3,), [1, 1, 0], (3,)),
}


def make_cell(ms, op, x_shape):
    class Update(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.x = ms.Parameter(ms.Tensor(np.arange(np.prod(x_shape), dtype=np.float32)
                                            .reshape(x_shape)), name="x")
            self.op = getattr(ms.ops, op)()

        def construct(self, indices, updates):
            return self.op(self.x, indices, updates)
    return Update()


def run_case(ms, name):
    op, x_shape, indices, updates_shape = CASES[name]
    cell = make_cell(ms, op, x_shape)
    updates = np.random.default_rng(len(name)).standard_normal(updates_shape).astype(np.float32)
    out = cell(ms.Tensor(np.array(indices, np.int32)), ms.Tensor(updates))
    return {"returned": out.asnumpy().tolist(), "parameter": cell.x.asnumpy().tolist()}


def _error(fn):
    try:
        fn()
    except Exception as error:         # noqa: BLE001  (the type is what is recorded)
        return error_name(error)
    return "no error"


def error_cases(ms):
    T = ms.Tensor
    x = ms.Parameter(T(np.zeros((3, 2), np.float32)), name="x")
    return {
        "nd_update_float_indices": _error(lambda: ms.ops.ScatterNdUpdate()(
            x, T(np.array([[1.0]], np.float32)), T(np.ones((1, 2), np.float32)))),
        "nd_update_bad_updates_shape": _error(lambda: ms.ops.ScatterNdUpdate()(
            x, T(np.array([[1]], np.int32)), T(np.ones((1, 3), np.float32)))),
        "add_bad_updates_shape": _error(lambda: ms.ops.ScatterAdd()(
            x, T(np.array([1], np.int32)), T(np.ones((2, 2), np.float32)))),
        "nd_update_locking_int": _error(lambda: ms.ops.ScatterNdUpdate(1)),
    }


def run(ms):
    out = {name: run_case(ms, name) for name in CASES}
    out["errors"] = error_cases(ms)
    return out


if __name__ == "__main__":
    import mindspore
    with open(os.path.join(HERE, "scatter_update.json"), "w") as f:
        json.dump({"mindspore": mindspore.__version__, **run(mindspore)}, f)
