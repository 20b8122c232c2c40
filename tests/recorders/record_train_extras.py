"""Record MindSpore 2.10's MAE/MSE metrics and loss scalers for ``tests/test_train_extras.py``.

    GLOG_v=3 /work/msenv/bin/python tests/recorders/record_train_extras.py
"""
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

UPDATES = [(np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([[1.5, 2.0], [3.0, 3.0]])),
           (np.array([1.0]), np.array([0.0])),
           (np.array([0.1, 0.2, 0.6, 0.9]), np.array([0.1, 0.25, 0.7, 0.9]))]
AMSGRAD_GRADIENTS = [[1.0, -2.0], [0.1, 0.5], [-3.0, 0.2], [0.0, 4.0]]
FINITE = [True, True, True, False, True, False, False, True, True, True, True]


def run(ms):
    """The same calls on MindSpore or refms; returns plain Python values."""
    T = ms.Tensor
    out = {}
    for name in ("MAE", "MSE"):
        metric = getattr(ms.train, name)()
        metric.clear()
        values = []
        for y_pred, y in UPDATES:
            metric.update(T(y_pred), T(y))
            values.append(float(metric.eval()))
        out[name] = values
    scaler = ms.amp.DynamicLossScaler(1024, 2, 3)
    out["scaled"] = float(scaler.scale(T(2.0, ms.float32)).asnumpy())
    out["unscaled"] = [float(v.asnumpy()) for v in scaler.unscale((T(2048.0, ms.float32),
                                                                     T(1.0, ms.float32)))]
    scales = []
    for finite in FINITE:
        scaler.adjust(T(finite))
        scales.append(float(scaler.scale_value.asnumpy()))
    out["dynamic_scales"] = scales
    static = ms.amp.StaticLossScaler(8.0)
    out["static"] = [float(static.scale(T(2.0, ms.float32)).asnumpy()),
                     float(static.unscale(T(16.0, ms.float32)).asnumpy()),
                     bool(static.adjust(T(True)))]
    out["all_finite"] = [bool(ms.amp.all_finite((T([1.0, np.inf], ms.float32),)).asnumpy()),
                         bool(ms.amp.all_finite((T([1.0], ms.float32),
                                                 T([2.0, 3.0], ms.float32))).asnumpy())]
    net = ms.nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    adam = ms.nn.Adam(net.trainable_params(), learning_rate=0.1, use_amsgrad=True)
    out["amsgrad_parameter_names"] = [p.name for p in adam.get_parameters()]
    steps = []
    for g in AMSGRAD_GRADIENTS:
        adam((T(np.array([g], np.float32)), T(np.array([0.5], np.float32))))
        steps.append(net.weight.asnumpy().ravel().tolist() + net.bias.asnumpy().tolist())
    out["amsgrad_steps"] = steps
    return out


if __name__ == "__main__":
    import mindspore
    with open(os.path.join(HERE, "train_extras.json"), "w") as f:
        json.dump({"mindspore": mindspore.__version__, **run(mindspore)}, f, indent=0)
