"""Record MindSpore 2.10's ``nn.AdaFactor`` for ``tests/test_adafactor.py``.

    GLOG_v=3 /work/msenv/bin/python tests/recorders/record_adafactor.py

Each case builds a small network with fixed weights, runs the optimizer on a
fixed sequence of gradients and records every parameter after every step, and
the optimizer's state names.  ``run(ms)`` is the same code for MindSpore and refms.
"""
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def error_name(error):
    """The built-in exception type an error is (refms raises subclasses such as
    ``NotATensorError(TypeError)``; MindSpore raises the built-in types)."""
    return next(c.__name__ for c in type(error).__mro__ if c.__module__ == "builtins")


# name -> AdaFactor keyword arguments
CASES = {
    "defaults": {},
    "manual_lr_no_scale_no_first_moment_decay": dict(learning_rate=0.05, relative_step=False,
                                                     scale_parameter=False, beta1=None,
                                                     weight_decay=0.1),
    "manual_lr_scaled": dict(learning_rate=0.2, relative_step=False, beta1=0.5,
                             clip_threshold=0.5),
    "warmup_init": dict(warmup_init=True, decay_rate=0.5, eps=(1e-20, 1e-2)),
}
STEPS = 5


class _Net:
    """Dense(3, 2) and a (2, 3, 2) weight: rank 1, 2 and 3 parameters."""

    @staticmethod
    def build(ms):
        class Net(ms.nn.Cell):
            def __init__(self):
                super().__init__()
                rng = np.random.default_rng(0)
                self.dense = ms.nn.Dense(3, 2, weight_init=ms.Tensor(
                    rng.uniform(-1, 1, (2, 3)).astype(np.float32)), bias_init=ms.Tensor(
                    rng.uniform(-1, 1, (2,)).astype(np.float32)))
                self.cube = ms.Parameter(ms.Tensor(rng.uniform(-1, 1, (2, 3, 2)).astype(
                    np.float32)), name="cube")

            def construct(self, x):
                return self.dense(x)
        return Net()


def gradients(ms, params, step):
    rng = np.random.default_rng(100 + step)
    return tuple(ms.Tensor(rng.standard_normal(p.shape).astype(np.float32) * (step + 1))
                 for p in params)


def run_case(ms, kwargs):
    net = _Net.build(ms)
    params = net.trainable_params()
    opt = ms.nn.AdaFactor(params, **kwargs)
    steps = []
    for step in range(STEPS):
        opt(gradients(ms, params, step))
        steps.append({p.name: p.asnumpy().tolist() for p in params})
    return {"names": [p.name for p in opt.get_parameters()], "steps": steps,
            "afactor_step": opt.step.asnumpy().tolist()}


def _error(fn):
    try:
        fn()
    except Exception as error:         # noqa: BLE001  (the type is what is recorded)
        return error_name(error)
    return "no error"


def error_cases(ms):
    params = ms.nn.Dense(2, 2).trainable_params()
    make = ms.nn.AdaFactor
    return {
        "lr_with_relative_step": _error(lambda: make(params, learning_rate=0.1)),
        "warmup_without_relative_step": _error(lambda: make(params, learning_rate=0.1,
                                                            relative_step=False,
                                                            warmup_init=True)),
        "no_lr_no_relative_step": _error(lambda: make(params, relative_step=False)),
        "eps_three": _error(lambda: make(params, eps=(1e-30, 1e-3, 1.0))),
        "eps_int": _error(lambda: make(params, eps=(0, 1e-3))),
        "eps_negative": _error(lambda: make(params, eps=(-1e-30, 1e-3))),
        "clip_int": _error(lambda: make(params, clip_threshold=1)),
        "decay_rate_one": _error(lambda: make(params, decay_rate=1.0)),
        "weight_decay_one": _error(lambda: make(params, weight_decay=1.0)),
        "beta1_negative": _error(lambda: make(params, beta1=-0.1)),
        "relative_step_int": _error(lambda: make(params, relative_step=1)),
    }


def run(ms):
    out = {name: run_case(ms, kwargs) for name, kwargs in CASES.items()}
    out["errors"] = error_cases(ms)
    return out


if __name__ == "__main__":
    import mindspore
    with open(os.path.join(HERE, "adafactor.json"), "w") as f:
        json.dump({"mindspore": mindspore.__version__, **run(mindspore)}, f)
