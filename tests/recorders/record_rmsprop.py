"""Record MindSpore 2.10's ``nn.RMSProp`` for ``tests/test_rmsprop.py``.

    GLOG_v=3 /work/msenv/bin/python tests/recorders/record_rmsprop.py

The network, gradients and step count of ``record_adafactor.py``; every parameter after every
step, the optimizer's state names and the errors of bad arguments.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from record_adafactor import _Net, gradients, STEPS, _error  # noqa: E402

CASES = {
    "defaults": {},
    "momentum_eps": dict(learning_rate=0.05, decay=0.8, momentum=0.9, epsilon=1e-6),
    "centered": dict(learning_rate=0.01, centered=True, momentum=0.5),
    "weight_decay_loss_scale": dict(learning_rate=0.02, weight_decay=0.1, loss_scale=4.0),
}


def run_case(ms, kwargs):
    net = _Net.build(ms)
    params = net.trainable_params()
    opt = ms.nn.RMSProp(params, **kwargs)
    steps = []
    for step in range(STEPS):
        opt(gradients(ms, params, step))
        steps.append({p.name: p.asnumpy().tolist() for p in params})
    return {"names": [p.name for p in opt.get_parameters()], "steps": steps}


def error_cases(ms):
    params = ms.nn.Dense(2, 2).trainable_params()
    make = ms.nn.RMSProp
    return {
        "decay_int": _error(lambda: make(params, decay=1)),
        "decay_negative": _error(lambda: make(params, decay=-0.1)),
        "momentum_int": _error(lambda: make(params, momentum=0)),
        "epsilon_zero": _error(lambda: make(params, epsilon=0.0)),
        "centered_int": _error(lambda: make(params, centered=1)),
        "use_locking_str": _error(lambda: make(params, use_locking="no")),
    }


def run(ms):
    out = {name: run_case(ms, kwargs) for name, kwargs in CASES.items()}
    out["errors"] = error_cases(ms)
    return out


if __name__ == "__main__":
    import mindspore
    with open(os.path.join(HERE, "rmsprop.json"), "w") as f:
        json.dump({"mindspore": mindspore.__version__, **run(mindspore)}, f)
