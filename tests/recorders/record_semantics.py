"""Record MindSpore 2.10's behaviour on the edge cases of ``tests/test_semantics.py``.

    GLOG_v=3 /work/msenv/bin/python tests/recorders/record_semantics.py

Each case runs in its own MindSpore process (a failed op's error would
otherwise resurface on the next op).  Writes ``semantics.json``: per case the
output's dtype, shape and values, or the exception type.
"""
import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def cases(ms):
    """label -> thunk, written against the ``ms`` namespace (MindSpore or refms)."""
    ops, T = ms.ops, ms.Tensor
    i32 = lambda: T(np.array([[1, 2, 3], [4, 5, 6]], np.int32))      # noqa: E731
    f32 = lambda *s: T(np.arange(int(np.prod(s)), dtype=np.float32).reshape(s))  # noqa: E731
    bools = lambda: T(np.array([True, False, True]))                  # noqa: E731
    bn_inputs = lambda: (T(np.arange(8, dtype=np.float32).reshape(2, 2, 2, 1)),  # noqa: E731
                         T(np.array([1.0, 2.0], np.float32)), T(np.array([0.5, -1.0], np.float32)),
                         T(np.array([1.0, 2.0], np.float32)), T(np.array([4.0, 0.25], np.float32)))
    return {
        "ops.sum-int32": lambda: ops.sum(i32()),
        "ops.sum-int32-dim": lambda: ops.sum(i32(), 1),
        "ops.sum-bool": lambda: ops.sum(bools()),
        "ops.sum-dtype": lambda: ops.sum(i32(), dtype=ms.int32),
        "ops.prod-int32": lambda: ops.prod(i32()),
        "ReduceSum-int32": lambda: ops.ReduceSum()(i32()),
        "Tensor.prod-int32": lambda: i32().prod(),
        "Tensor.sum-bool": lambda: bools().sum(),
        "flatten-1d": lambda: ops.flatten(f32(5)),
        "flatten-0d": lambda: ops.flatten(T(2.0, ms.float32)),
        "flatten-4d": lambda: ops.flatten(f32(2, 1, 3, 2)),
        "Flatten-1d": lambda: ops.Flatten()(f32(5)),
        "squeeze-non1-axis": lambda: ops.squeeze(f32(2, 1, 3), 0),
        "squeeze-mixed-axes": lambda: ops.squeeze(f32(2, 1, 3), (0, 1)),
        "Squeeze-non1-axis": lambda: ops.Squeeze(2)(f32(2, 1, 3)),
        "Tensor.max-none-keepdims": lambda: f32(2, 3).max(axis=None, keepdims=True),
        "Tensor.min-none-keepdims": lambda: f32(2, 3).min(keepdims=True),
        "Tensor.max-axis-keepdims": lambda: f32(2, 3).max(axis=0, keepdims=True),
        "ReduceMax-no-axis-grad": lambda: ms.grad(lambda v: ops.ReduceMax()(v))(
            T(np.array([1.0, 3.0, 3.0, 2.0], np.float32))),
        "max-tie-grad": lambda: ms.grad(lambda v: v.max())(
            T(np.array([1.0, 3.0, 3.0, 2.0], np.float32))),
        "BatchNorm-inference": lambda: ops.BatchNorm(is_training=False)(*bn_inputs()),
        "exp-int32": lambda: ops.exp(i32()),
        "log-int32": lambda: ops.log(i32()),
        "sin-int32": lambda: ops.sin(i32()),
        "cos-int32": lambda: ops.cos(i32()),
        "floor-int32": lambda: ops.floor(i32()),
        "ceil-int32": lambda: ops.ceil(i32()),
        "isinf-int32": lambda: ops.isinf(i32()),
        "isnan-int32": lambda: ops.isnan(i32()),
        "erf-int32": lambda: ops.erf(i32()),
        "expm1-int32": lambda: ops.expm1(i32()),
        "log1p-int32": lambda: ops.log1p(i32()),
        "rsqrt-int32": lambda: ops.rsqrt(i32()),
        "sqrt-int32": lambda: ops.sqrt(i32()),
        "exp-bool": lambda: ops.exp(bools()),
        "round-int32": lambda: ops.round(i32()),
    }


def describe(result):
    results = result if isinstance(result, tuple) else (result,)
    return [{"dtype": str(r.dtype), "shape": list(r.shape), "value": r.asnumpy().tolist()}
            for r in results]


def run_one(label):
    import mindspore as ms
    try:
        out = {"outputs": describe(cases(ms)[label]())}
    except Exception as exc:                    # noqa: BLE001  (the type is the record)
        out = {"error": type(exc).__name__}
    print(json.dumps(out))


def main():
    import mindspore as ms
    labels = list(cases(ms))
    record = {"mindspore": ms.__version__, "cases": {}}
    for label in labels:
        proc = subprocess.run([sys.executable, __file__, label], capture_output=True, text=True,
                              env=dict(os.environ, GLOG_v="3"))
        record["cases"][label] = json.loads(proc.stdout.strip().splitlines()[-1])
    with open(os.path.join(HERE, "semantics.json"), "w") as f:
        json.dump(record, f, indent=0)


if __name__ == "__main__":
    if len(sys.argv) > 1:
        run_one(sys.argv[1])
    else:
        main()
