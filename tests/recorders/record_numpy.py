"""Record MindSpore 2.10's ``mindspore.numpy`` on the functions mindspore-ai/models uses most,
for ``tests/test_numpy.py``.

    GLOG_v=3 /work/msenv/bin/python tests/recorders/record_numpy.py

Each case is a call written against the namespace ``np`` (``mindspore.numpy`` or
``refms.numpy``) and ``T`` (the ``Tensor`` class); the recording keeps the value and
dtype of each output, or the exception type.
"""
import json
import os

import numpy

HERE = os.path.dirname(os.path.abspath(__file__))


def error_name(error):
    """The built-in exception type an error is (refms raises subclasses such as
    ``NotATensorError(TypeError)``; MindSpore raises the built-in types)."""
    return next(c.__name__ for c in type(error).__mro__ if c.__module__ == "builtins")


def cases(np, T, ms):
    """(name, thunk) pairs."""
    a = np.arange(6).reshape(2, 3)
    f = T(numpy.array([[0.5, -1.5, 2.0], [3.0, 0.25, -4.0]], numpy.float32))
    i64 = T(numpy.array([1, 2, 3], numpy.int64))
    return [
        # creation
        ("array-int-list", lambda: np.array([1, 2, 3])),
        ("array-float-list", lambda: np.array([[1.0, 2], [3, 4]])),
        ("array-bool", lambda: np.array([True, False])),
        ("array-scalar", lambda: np.array(3.5)),
        ("array-dtype", lambda: np.array([1, 2], np.float32)),
        ("array-tensor-int64", lambda: np.array(i64)),
        ("array-numpy-rejected", lambda: np.array(numpy.array([1, 2]))),
        ("asarray-nested-tuple", lambda: np.asarray(((1, 2), (3, 4)), np.float32)),
        ("arange-int", lambda: np.arange(5)),
        ("arange-start-stop-step", lambda: np.arange(1, 10, 3)),
        ("arange-float", lambda: np.arange(0.0, 2.0, 0.5)),
        ("arange-dtype", lambda: np.arange(4, dtype=np.float32)),
        ("zeros", lambda: np.zeros((2, 3))),
        ("zeros-int-shape-dtype", lambda: np.zeros(3, np.int32)),
        ("ones", lambda: np.ones(2)),
        ("full-int", lambda: np.full((2,), 3)),
        ("full-float", lambda: np.full((2, 2), 1.5)),
        ("full-bool", lambda: np.full((2,), True)),
        ("eye", lambda: np.eye(2, 3, 1)),
        ("eye-square", lambda: np.eye(3)),
        ("linspace", lambda: np.linspace(0, 1, 5)),
        ("linspace-no-endpoint", lambda: np.linspace(0, 1, 4, endpoint=False)),
        ("zeros_like", lambda: np.zeros_like(a)),
        ("ones_like-dtype", lambda: np.ones_like(a, dtype=np.float32)),
        ("full_like", lambda: np.full_like(f, 2)),
        ("meshgrid", lambda: np.meshgrid(np.arange(2), np.arange(3))),
        ("meshgrid-ij", lambda: np.meshgrid(np.arange(2), np.arange(3), indexing="ij")),
        ("diag-of-matrix", lambda: np.diag(a)),
        ("diag-of-vector", lambda: np.diag(np.arange(3))),
        ("diag-offset", lambda: np.diag(np.arange(2), 1)),
        ("tril", lambda: np.tril(np.ones((3, 3)))),
        ("triu-k", lambda: np.triu(np.ones((3, 3)), 1)),
        ("copy", lambda: np.copy(a)),
        # shapes
        ("reshape", lambda: np.reshape(a, (3, 2))),
        ("reshape-minus-one", lambda: np.reshape(a, -1)),
        ("concatenate", lambda: np.concatenate((a, a), axis=1)),
        ("concatenate-axis-none", lambda: np.concatenate((a, a), axis=None)),
        ("stack", lambda: np.stack((a, a), 1)),
        ("vstack", lambda: np.vstack((a, a))),
        ("vstack-1d", lambda: np.vstack((np.arange(3), np.arange(3)))),
        ("split-sections", lambda: np.split(np.arange(6), 3)),
        ("split-indices", lambda: np.split(np.arange(6), [1, 4])),
        ("split-axis", lambda: np.split(a, 3, axis=1)),
        ("tile", lambda: np.tile(a, 2)),
        ("tile-tuple", lambda: np.tile(np.arange(2), (2, 2))),
        ("repeat-flat", lambda: np.repeat(a, 2)),
        ("repeat-axis", lambda: np.repeat(a, 2, axis=1)),
        ("expand_dims", lambda: np.expand_dims(a, 0)),
        ("squeeze", lambda: np.squeeze(np.ones((1, 3, 1)))),
        ("squeeze-axis", lambda: np.squeeze(np.ones((1, 3, 1)), 2)),
        ("broadcast_to", lambda: np.broadcast_to(np.arange(3), (2, 3))),
        ("flip-all", lambda: np.flip(a)),
        ("flip-axis", lambda: np.flip(a, 1)),
        ("transpose", lambda: np.transpose(a)),
        ("transpose-axes", lambda: np.transpose(np.ones((2, 3, 4)), (1, 0, 2))),
        ("swapaxes", lambda: np.swapaxes(a, 0, 1)),
        ("ravel", lambda: np.ravel(a)),
        ("pad", lambda: np.pad(a, 1)),
        ("pad-widths-value", lambda: np.pad(f, ((0, 1), (2, 0)), constant_values=9.0)),
        ("take_along_axis", lambda: np.take_along_axis(a, np.array([[0], [2]]), 1)),
        # math
        ("sum-int", lambda: np.sum(a)),
        ("sum-axis-keepdims", lambda: np.sum(f, axis=0, keepdims=True)),
        ("mean-int", lambda: np.mean(a)),
        ("mean-axis", lambda: np.mean(f, axis=1)),
        ("where", lambda: np.where(a > 2, a, 0)),
        ("where-scalars", lambda: np.where(a > 2, 1.0, 0.0)),
        ("where-one-arg", lambda: np.where(a > 2)),
        ("clip", lambda: np.clip(a, 1, 4)),
        ("clip-none", lambda: np.clip(f, None, 1.0)),
        ("norm", lambda: np.norm(f)),
        ("norm-axis", lambda: np.norm(f, axis=1)),
        ("sqrt-int", lambda: np.sqrt(a)),
        ("sqrt", lambda: np.sqrt(np.abs(f))),
        ("log", lambda: np.log(np.abs(f))),
        ("exp", lambda: np.exp(f)),
        ("power", lambda: np.power(f, 2)),
        ("power-tensors", lambda: np.power(a, a)),
        ("square", lambda: np.square(a)),
        ("abs", lambda: np.abs(f)),
        ("reciprocal", lambda: np.reciprocal(f)),
        ("tanh", lambda: np.tanh(f)),
        ("sin-cos", lambda: (np.sin(f), np.cos(f))),
        ("minimum", lambda: np.minimum(f, 0.5)),
        ("maximum-tensors", lambda: np.maximum(f, np.flip(f))),
        ("multiply", lambda: np.multiply(f, f)),
        ("multiply-scalar", lambda: np.multiply(f, 2.5)),
        ("divide", lambda: np.divide(a, 2)),
        ("divide-tensors", lambda: np.divide(f, np.abs(f) + 1)),
        ("add", lambda: np.add(a, 1)),
        ("subtract", lambda: np.subtract(f, a)),
        ("floor_divide", lambda: np.floor_divide(a, 4)),
        ("mod", lambda: np.mod(a, 4)),
        ("matmul", lambda: np.matmul(a, np.transpose(a))),
        ("amax", lambda: np.amax(f)),
        ("amax-axis", lambda: np.amax(f, axis=1)),
        ("amin-axis-keepdims", lambda: np.amin(f, axis=0, keepdims=True)),
        ("argmax", lambda: np.argmax(f)),
        ("argmax-axis", lambda: np.argmax(f, axis=0)),
        ("greater", lambda: np.greater(a, 2)),
        ("less", lambda: np.less(f, 0)),
        ("greater_equal", lambda: np.greater_equal(a, a)),
        ("isinf", lambda: np.isinf(np.divide(f, 0))),
        ("constants", lambda: (T(numpy.array(np.pi, numpy.float64)), T(np.inf))),
        ("dtype-names", lambda: (np.zeros(1, np.int32), np.zeros(1, np.uint8),
                                 np.zeros(1, np.float16))),
    ]


def _encode(value):
    if isinstance(value, (tuple, list)):
        return {"items": [_encode(v) for v in value]}
    return {"dtype": str(value.dtype), "shape": list(value.shape),
            "value": value.asnumpy().tolist()}


def run(np, T, ms):
    out = {}
    for name, thunk in cases(np, T, ms):
        try:
            out[name] = _encode(thunk())
        except Exception as error:     # noqa: BLE001  (the type is what is recorded)
            out[name] = {"error": error_name(error)}
    return out


if __name__ == "__main__":
    import mindspore
    import mindspore.numpy as mnp
    with open(os.path.join(HERE, "numpy.json"), "w") as f:
        json.dump({"mindspore": mindspore.__version__, **run(mnp, mindspore.Tensor, mindspore)},
                  f)
