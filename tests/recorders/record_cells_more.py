"""Record MindSpore 2.10's nn.Linear, nn.MatMul, nn.SyncBatchNorm and nn.MaxPool1d for
``tests/test_cells_more.py``.

    GLOG_v=3 /work/msenv/bin/python tests/recorders/record_cells_more.py

Each case copies fixed weights into the cell and records its outputs and the gradients of
Σ r·output with respect to the inputs and the weights; printed forms, parameter names and
the exception types of bad arguments too.  ``run(ms)`` is the same code for MindSpore and refms.
"""
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def error_name(error):
    """The built-in exception type an error is (refms raises subclasses such as
    ``NotATensorError(TypeError)``; MindSpore raises the built-in types)."""
    return next(c.__name__ for c in type(error).__mro__ if c.__module__ == "builtins")


def _f32(rng, *shape):
    return rng.standard_normal(shape).astype(np.float32)


def _cases(ms):
    nn = ms.nn
    return [
        ("Linear", lambda: nn.Linear(3, 2), [(4, 3)]),
        ("Linear-3d-nobias", lambda: nn.Linear(3, 4, bias=False), [(2, 5, 3)]),
        ("MatMul", lambda: nn.MatMul(), [(2, 3), (3, 4)]),
        ("MatMul-batch-broadcast", lambda: nn.MatMul(), [(2, 1, 3, 4), (5, 4, 2)]),
        ("MatMul-transposes", lambda: nn.MatMul(True, True), [(3, 2), (4, 3)]),
        ("MatMul-vectors", lambda: nn.MatMul(), [(3,), (3,)]),
        ("MatMul-vector-matrix", lambda: nn.MatMul(), [(3,), (2, 3, 4)]),
        ("SyncBatchNorm-train-4d", lambda: nn.SyncBatchNorm(3).set_train(), [(2, 3, 4, 5)]),
        ("SyncBatchNorm-train-2d", lambda: nn.SyncBatchNorm(3, momentum=0.5).set_train(),
         [(6, 3)]),
        ("SyncBatchNorm-eval", lambda: nn.SyncBatchNorm(3), [(2, 3, 2, 2)]),
        ("MaxPool1d", lambda: nn.MaxPool1d(3, 2), [(2, 3, 7)]),
        ("MaxPool1d-same", lambda: nn.MaxPool1d(3, 2, "same"), [(2, 2, 8)]),
        ("MaxPool1d-pad", lambda: nn.MaxPool1d(3, 1, "pad", padding=1), [(1, 2, 5)]),
        ("MaxPool1d-2d-input", lambda: nn.MaxPool1d(2), [(3, 6)]),
    ]


def run_case(ms, k):
    name, build, shapes = _cases(ms)[k]
    rng = np.random.default_rng(k)
    net = build()
    for name_, param in sorted(net.parameters_and_names()):
        values = _f32(rng, *param.shape)
        if "variance" in name_:
            values = np.abs(values) + 0.5
        param.set_data(ms.Tensor(values))
    inputs = [ms.Tensor(_f32(rng, *s)) for s in shapes]
    out = net(*inputs)
    r = ms.Tensor(_f32(rng, *out.shape))

    def objective(*xs):
        return (net(*xs) * r).sum()

    params = net.trainable_params()
    positions = tuple(range(len(inputs)))
    if params:
        grads, grad_params = ms.grad(objective, positions, params)(*inputs)
    else:
        grads, grad_params = ms.grad(objective, positions)(*inputs), ()
    grads = grads if isinstance(grads, tuple) else (grads,)
    record = {"output": out.asnumpy().tolist(), "dtype": str(out.dtype),
              "grads": [g.asnumpy().tolist() for g in grads],
              "grad_params": {p.name: g.asnumpy().tolist() for p, g in zip(params, grad_params)},
              "names": [n for n, _ in net.parameters_and_names()]}
    if "SyncBatchNorm" in name:
        record["moving"] = [net.moving_mean.asnumpy().tolist(),
                            net.moving_variance.asnumpy().tolist()]
    return record


def _error(fn):
    try:
        fn()
    except Exception as error:         # noqa: BLE001  (the type is what is recorded)
        return error_name(error)
    return "no error"


def run(ms):
    nn, T = ms.nn, ms.Tensor
    out = {name: run_case(ms, k) for k, (name, _, _) in enumerate(_cases(ms))}
    out["repr"] = [repr(nn.Linear(3, 2)), repr(nn.Linear(3, 2, bias=False)), repr(nn.MatMul()),
                   repr(nn.MaxPool1d(3, 2)), repr(nn.MaxPool1d(2, 1, "same"))]
    out["errors"] = {
        "Linear_in_zero": _error(lambda: nn.Linear(0, 2)),
        "Linear_bias_int": _error(lambda: nn.Linear(2, 2, bias=1)),
        "Linear_weight_shape": _error(lambda: nn.Linear(2, 3, weight_init=T(np.ones((2, 3),
                                                                                 np.float32)))),
        "MatMul_transpose_int": _error(lambda: nn.MatMul(1)),
        "MatMul_mismatch": _error(lambda: nn.MatMul()(T(np.ones((2, 3), np.float32)),
                                                      T(np.ones((4, 2), np.float32)))),
        "SyncBatchNorm_3d": _error(lambda: nn.SyncBatchNorm(3)(T(np.ones((2, 3, 4),
                                                                         np.float32)))),
        "SyncBatchNorm_features": _error(lambda: nn.SyncBatchNorm(0)),
        "MaxPool1d_4d": _error(lambda: nn.MaxPool1d(2)(T(np.ones((1, 2, 3, 4), np.float32)))),
        "MaxPool1d_padding_valid": _error(lambda: nn.MaxPool1d(2, padding=1)),
        "MaxPool1d_kernel_zero": _error(lambda: nn.MaxPool1d(0)),
    }
    return out


if __name__ == "__main__":
    import mindspore
    with open(os.path.join(HERE, "cells_more.json"), "w") as f:
        json.dump({"mindspore": mindspore.__version__, **run(mindspore)}, f)
