"""Record MindSpore 2.10's ``nn.Adagrad`` (and ``nn.Lamb``'s argument errors) for
``tests/test_optimizers_more.py``.  MindSpore 2.10 has no CPU kernel for ``Lamb``
("Unsupported op [Lamb] on CPU"), so its steps are checked against the paper instead.

    GLOG_v=3 /work/msenv/bin/python tests/recorders/record_optimizers_more.py

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
    "Adagrad-defaults": ("Adagrad", {}),
    "Adagrad-lr-accum-decay": ("Adagrad", dict(accum=0.5, learning_rate=0.1, weight_decay=0.05,
                                               loss_scale=2.0)),
    "Adagrad-no-update-slots": ("Adagrad", dict(learning_rate=0.1, update_slots=False)),
}


def run_case(ms, name):
    kind, kwargs = CASES[name]
    net = _Net.build(ms)
    params = net.trainable_params()
    opt = getattr(ms.nn, kind)(params, **kwargs)
    steps = []
    for step in range(STEPS):
        opt(gradients(ms, params, step))
        steps.append({p.name: p.asnumpy().tolist() for p in params})
    return {"names": [p.name for p in opt.get_parameters()], "steps": steps}


def error_cases(ms):
    params = ms.nn.Dense(2, 2).trainable_params()
    return {
        "Lamb_beta1_one": _error(lambda: ms.nn.Lamb(params, 0.1, beta1=1.0)),
        "Lamb_eps_int": _error(lambda: ms.nn.Lamb(params, 0.1, eps=1)),
        "Lamb_no_lr": _error(lambda: ms.nn.Lamb(params)),
        "Adagrad_accum_int": _error(lambda: ms.nn.Adagrad(params, accum=1)),
        "Adagrad_accum_negative": _error(lambda: ms.nn.Adagrad(params, accum=-0.1)),
        "Adagrad_update_slots_int": _error(lambda: ms.nn.Adagrad(params, update_slots=1)),
    }


def run(ms):
    out = {name: run_case(ms, name) for name in CASES}
    out["errors"] = error_cases(ms)
    return out


if __name__ == "__main__":
    import mindspore
    with open(os.path.join(HERE, "optimizers_more.json"), "w") as f:
        json.dump({"mindspore": mindspore.__version__, **run(mindspore)}, f)
