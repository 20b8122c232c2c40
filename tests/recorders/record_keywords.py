"""Record MindSpore 2.10's results of functional ops called with keyword arguments.

    GLOG_v=3 /work/msenv/bin/python tests/recorders/record_keywords.py

Writes ``tests/recorders/keywords.json``; ``CALLS`` is shared with
``tests/test_keywords.py``, which makes the same calls on refms.
"""
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

X = np.array([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]], np.float32)
Y = np.array([[2.0, 1.0, -1.0], [3.0, -0.5, 2.0]], np.float32)


def calls(ms):
    """(label, thunk) pairs: each thunk calls one op of ``ms.ops`` with keywords."""
    ops, T = ms.ops, ms.Tensor
    x, y = T(X), T(Y)
    return [
        ("add", lambda: ops.add(input=x, other=y)),
        ("sub", lambda: ops.sub(x, other=y)),
        ("mul", lambda: ops.mul(other=y, input=x)),
        ("maximum", lambda: ops.maximum(input=x, other=y)),
        ("pow", lambda: ops.pow(x, exponent=2.0)),
        ("where", lambda: ops.where(condition=x > y, input=x, other=y)),
        ("select", lambda: ops.select(x > 0, input=x, other=y)),
        ("expand_dims", lambda: ops.expand_dims(x, axis=0)),
        ("reshape", lambda: ops.reshape(x, shape=(3, 2))),
        ("transpose", lambda: ops.transpose(x, dims=(1, 0))),
        ("tile", lambda: ops.tile(x, dims=(2, 1))),
        ("gather", lambda: ops.gather(x, T(np.array([2, 0], np.int32)), axis=1)),
        ("mean", lambda: ops.mean(x, axis=1, keep_dims=True)),
        ("concat", lambda: ops.concat(tensors=(x, y), axis=1)),
        ("stack", lambda: ops.stack((x, y), axis=1)),
        ("squeeze", lambda: ops.squeeze(ops.expand_dims(x, 1), axis=1)),
        ("clamp", lambda: ops.clamp(x, min=-1.0, max=2.0)),
        ("softmax", lambda: ops.softmax(x, axis=0)),
        ("one_hot", lambda: ops.one_hot(T(np.array([0, 2], np.int32)), depth=3,
                                         on_value=T(5.0, ms.float32),
                                         off_value=T(-1.0, ms.float32))),
        ("argmin", lambda: ops.argmin(x, axis=1, keepdims=True)),
        ("cast", lambda: ops.cast(x, dtype=ms.int32)),
        ("relu", lambda: ops.relu(input=x)),
        ("sqrt", lambda: ops.sqrt(x=ops.abs(x))),
        ("unsqueeze", lambda: ops.unsqueeze(x, dim=2)),
        ("cumsum", lambda: ops.cumsum(x, axis=1)),
        ("matmul", lambda: ops.matmul(input=x, other=ops.transpose(y, (1, 0)))),
    ]


def main():
    import mindspore as ms
    out = {}
    for label, thunk in calls(ms):
        result = thunk()
        out[label] = {"value": result.asnumpy().tolist(), "dtype": str(result.dtype)}
    with open(os.path.join(HERE, "keywords.json"), "w") as f:
        json.dump(out, f, indent=0)


if __name__ == "__main__":
    main()
