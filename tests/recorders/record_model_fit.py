"""Record MindSpore 2.10's ``Model.fit`` for ``tests/test_model_fit.py``.

    GLOG_v=3 /work/msenv/bin/python tests/recorders/record_model_fit.py

A Dense network with fixed weights trains on a fixed dataset with a validation
dataset; a recording callback logs every hook call with what ``cb_params`` shows
then (mode, epoch, step, batch count, metrics and eval results at epoch end).
The final weights and the errors of bad arguments are recorded too.
``run(ms)`` is the same code for MindSpore and refms.
"""
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def error_name(error):
    """The built-in exception type an error is (refms raises subclasses such as
    ``NotATensorError(TypeError)``; MindSpore raises the built-in types)."""
    return next(c.__name__ for c in type(error).__mro__ if c.__module__ == "builtins")


HOOKS = ("on_train_begin", "on_train_epoch_begin", "on_train_step_end", "on_train_epoch_end",
         "on_train_end", "on_eval_begin", "on_eval_epoch_begin", "on_eval_step_end",
         "on_eval_epoch_end", "on_eval_end")

# name -> fit keyword arguments (epochs 4)
CASES = {
    "every_epoch": {},
    "every_second_epoch": {"valid_frequency": 2},
    "listed_epochs": {"valid_frequency": [1, 4]},
    "no_validation": {"valid_dataset": None},
    "initial_epoch": {"initial_epoch": 2},
}


def _round(value):
    """Floats to 6 significant digits (what the recording compares), recursively."""
    if isinstance(value, dict):
        return {k: _round(v) for k, v in sorted(value.items())}
    if isinstance(value, (list, tuple)):
        return [_round(v) for v in value]
    if isinstance(value, (float, np.floating)):
        return float(f"{float(value):.6g}")
    return value


def make_recorder(ms):
    class Recorder(ms.train.Callback):
        def __init__(self):
            super().__init__()
            self.log = []

        def _record(self, hook, run_context):
            cb = run_context.original_args()
            entry = [hook, cb.get("mode"), cb.get("cur_epoch_num"), cb.get("cur_step_num"),
                     cb.get("batch_num")]
            if hook in ("on_train_epoch_end", "on_eval_end"):
                entry.append(_round(dict(cb.get("metrics") or {})))
                entry.append(_round(dict(cb.get("eval_results") or {})))
            self.log.append(entry)

    for hook in HOOKS:
        def method(self, run_context, hook=hook):
            self._record(hook, run_context)
        setattr(Recorder, hook, method)
    return Recorder()


def datasets(ms):
    rng = np.random.default_rng(5)
    x = rng.standard_normal((12, 3)).astype(np.float32)
    y = (x @ np.array([[1.0], [-2.0], [0.5]], np.float32)).ravel() > 0
    labels = y.astype(np.int32)
    vx = rng.standard_normal((6, 3)).astype(np.float32)
    vy = ((vx @ np.array([[1.0], [-2.0], [0.5]], np.float32)).ravel() > 0).astype(np.int32)
    train = ms.dataset.NumpySlicesDataset({"x": x, "y": labels}, shuffle=False).batch(4)
    valid = ms.dataset.NumpySlicesDataset({"x": vx, "y": vy}, shuffle=False).batch(3)
    return train, valid


def build(ms):
    net = ms.nn.Dense(3, 2, weight_init=ms.Tensor(np.array([[0.1, 0.2, -0.3], [0.0, -0.1, 0.2]],
                                                           np.float32)), bias_init="zeros")
    loss = ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = ms.nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    model = ms.train.Model(net, loss, opt, metrics={"accuracy", "loss"})
    return net, model


def run_case(ms, kwargs):
    net, model = build(ms)
    train, valid = datasets(ms)
    recorder = make_recorder(ms)
    args = {"valid_dataset": valid, **kwargs}
    model.fit(4, train, callbacks=[recorder], **args)
    return {"log": recorder.log, "weight": _round(net.weight.asnumpy().tolist()),
            "bias": _round(net.bias.asnumpy().tolist())}


def _error(fn):
    try:
        fn()
    except Exception as error:         # noqa: BLE001  (the type is what is recorded)
        return error_name(error)
    return "no error"


def error_cases(ms):
    net, model = build(ms)
    train, valid = datasets(ms)
    no_metrics = ms.train.Model(net, ms.nn.MSELoss(), ms.nn.SGD(net.trainable_params()))

    class OldStyle(ms.train.Callback):
        def epoch_end(self, run_context):
            pass

    return {
        "valid_frequency_str": _error(lambda: model.fit(1, train, valid, valid_frequency="1")),
        "valid_without_metrics": _error(lambda: no_metrics.fit(1, train, valid)),
        "old_style_callback": _error(lambda: model.fit(1, train, valid, callbacks=OldStyle())),
        "epoch_zero": _error(lambda: model.fit(0, train, valid)),
        "initial_epoch_too_large": _error(lambda: model.fit(2, train, valid, initial_epoch=2)),
        "valid_sink_int": _error(lambda: model.fit(1, train, valid, valid_dataset_sink_mode=1)),
    }


def run(ms):
    out = {name: run_case(ms, kwargs) for name, kwargs in CASES.items()}
    out["errors"] = error_cases(ms)
    return out


if __name__ == "__main__":
    import mindspore
    with open(os.path.join(HERE, "model_fit.json"), "w") as f:
        json.dump({"mindspore": mindspore.__version__, **run(mindspore)}, f)
