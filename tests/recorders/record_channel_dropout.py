"""Record MindSpore 2.10's channel dropout layers and functions for ``tests/test_channel_dropout.py``.

    GLOG_v=3 /work/msenv/bin/python tests/recorders/record_channel_dropout.py

Masks are random (and MindSpore's generator is not reproduced), so what is
recorded is what does not depend on them: printed forms, inference-mode
identity, shapes and dtypes, the keep-all and drop-all results, and the
exception types of bad arguments.  ``run(ms)`` is the same code for MindSpore and refms.
"""
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def error_name(error):
    """The built-in exception type an error is (refms raises subclasses such as
    ``NotATensorError(TypeError)``; MindSpore raises the built-in types)."""
    return next(c.__name__ for c in type(error).__mro__ if c.__module__ == "builtins")


def _error(fn):
    try:
        fn()
    except Exception as error:         # noqa: BLE001  (the type is what is recorded)
        return error_name(error)
    return "no error"


def run(ms):
    nn, ops, T = ms.nn, ms.ops, ms.Tensor
    x4 = T(np.arange(24, dtype=np.float32).reshape(2, 3, 2, 2))
    x5 = T(np.arange(24, dtype=np.float32).reshape(2, 3, 2, 2, 1))
    x3 = T(np.arange(12, dtype=np.float32).reshape(2, 3, 2))
    out = {"repr": [repr(nn.Dropout1d(0.4)), repr(nn.Dropout2d(0.2)), repr(nn.Dropout3d(0.3)),
                    repr(nn.Dropout2d())]}
    layers = [(nn.Dropout1d(0.5), x3), (nn.Dropout2d(0.5), x4), (nn.Dropout3d(0.5), x5)]
    out["inference_identity"] = [bool((layer(x).asnumpy() == x.asnumpy()).all())
                                 for layer, x in layers]
    trained = []
    for layer, x in layers:
        layer.set_train()
        y = layer(x)
        trained.append([list(y.shape), str(y.dtype)])
    out["trained_shapes"] = trained
    out["keep_all"] = [nn.Dropout2d(0.0).set_train()(x4).asnumpy().tolist(),
                       ops.dropout3d(x5, 0.0).asnumpy().tolist()]
    out["drop_all"] = [nn.Dropout2d(1.0).set_train()(x4).asnumpy().tolist(),
                       ops.dropout1d(x3, 1.0).asnumpy().tolist()]
    out["functional_not_training"] = [ops.dropout2d(x4, 0.5, False).asnumpy().tolist(),
                                      ops.dropout1d(x3, 0.5, False).asnumpy().tolist()]
    out["prim_outputs"] = [[str(t.dtype) for t in ops.Dropout2D(0.5)(x4)],
                           [str(t.dtype) for t in ops.Dropout3D(0.5)(x5)]]
    out["errors"] = {
        "Dropout2d_p_int": _error(lambda: nn.Dropout2d(1)),
        "Dropout2d_p_range": _error(lambda: nn.Dropout2d(1.5)),
        "Dropout3d_p_negative": _error(lambda: nn.Dropout3d(-0.1)),
        "Dropout1d_p_int": _error(lambda: nn.Dropout1d(0)),
        "Dropout2D_keep_int": _error(lambda: ops.Dropout2D(1)),
        "Dropout3D_keep_range": _error(lambda: ops.Dropout3D(1.1)),
        "Dropout2D_rank3": _error(lambda: ops.Dropout2D(0.5)(x3)),
        "Dropout3D_rank4": _error(lambda: ops.Dropout3D(0.5)(x4)),
        "Dropout2D_bool": _error(lambda: ops.Dropout2D(0.5)(T(np.ones((1, 1, 1, 1), np.bool_)))),
        "Dropout2D_list": _error(lambda: ops.Dropout2D(0.5)([1.0])),
        "dropout2d_training_int": _error(lambda: ops.dropout2d(x4, 0.5, 1)),
        "dropout1d_p_int": _error(lambda: ops.dropout1d(x3, 1)),
        "dropout1d_rank4": _error(lambda: ops.dropout1d(x4, 0.5)),
        "dropout1d_list": _error(lambda: ops.dropout1d([1.0], 0.5)),
        "Dropout2d_layer_rank3": _error(lambda: nn.Dropout2d(0.5).set_train()(x3)),
    }
    return out


if __name__ == "__main__":
    import mindspore
    with open(os.path.join(HERE, "channel_dropout.json"), "w") as f:
        json.dump({"mindspore": mindspore.__version__, **run(mindspore)}, f)
