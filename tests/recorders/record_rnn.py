"""Record MindSpore 2.10's recurrent layers and cells for ``tests/test_rnn.py``.

    GLOG_v=3 /work/msenv/bin/python tests/recorders/record_rnn.py

Every case builds the layer, copies the same weights (from a seeded numpy
generator, by parameter name) and inputs into it, and records the outputs and
the gradients of Σ r·outputs with respect to the input and every weight.
The seeded initial values and the exception types of bad arguments are
recorded too.  ``run(ms)`` is the same code for MindSpore and refms.
"""
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def error_name(error):
    """The built-in exception type an error is (refms raises subclasses such as
    ``NotATensorError(TypeError)``; MindSpore raises the built-in types)."""
    return next(c.__name__ for c in type(error).__mro__ if c.__module__ == "builtins")


# name, class, constructor kwargs, (seq_len, batch, input_size), extra inputs
LAYER_CASES = [
    ("rnn_tanh", "RNN", dict(input_size=3, hidden_size=5), (4, 3, 3), {}),
    ("rnn_relu_bi_nobias_batch_first", "RNN",
     dict(input_size=3, hidden_size=4, num_layers=2, nonlinearity="relu", has_bias=False,
          bidirectional=True, batch_first=True), (3, 4, 3), {}),
    ("rnn_tanh_seq_length", "RNN", dict(input_size=2, hidden_size=3), (5, 3, 2),
     {"seq_length": [5, 2, 3]}),
    ("lstm_two_layers_bi_hx", "LSTM",
     dict(input_size=3, hidden_size=4, num_layers=2, bidirectional=True), (4, 2, 3), {"hx": 1}),
    ("lstm_seq_length_bi", "LSTM", dict(input_size=3, hidden_size=4, bidirectional=True),
     (5, 3, 3), {"seq_length": [3, 5, 1]}),
    ("lstm_batch_first_nobias", "LSTM",
     dict(input_size=2, hidden_size=3, has_bias=False, batch_first=True), (2, 4, 2), {}),
    ("gru_two_layers_batch_first_hx", "GRU",
     dict(input_size=3, hidden_size=4, num_layers=2, batch_first=True), (3, 4, 3), {"hx": 1}),
    ("gru_seq_length_bi", "GRU", dict(input_size=3, hidden_size=3, bidirectional=True),
     (4, 3, 3), {"seq_length": [2, 4, 3]}),
]

# name, class, constructor kwargs, (batch, input_size, hidden_size)
CELL_CASES = [
    ("rnn_cell_tanh", "RNNCell", dict(input_size=3, hidden_size=4), (2, 3, 4)),
    ("rnn_cell_relu_nobias", "RNNCell",
     dict(input_size=3, hidden_size=4, nonlinearity="relu", has_bias=False), (2, 3, 4)),
    ("lstm_cell", "LSTMCell", dict(input_size=3, hidden_size=4), (3, 3, 4)),
    ("gru_cell", "GRUCell", dict(input_size=3, hidden_size=4), (3, 3, 4)),
]

INIT_SEED = 11

# Weights are drawn from U(-0.5, 0.5): MindSpore 2.10's CPU Tanh kernel departs from the
# correctly rounded tanh by up to 1e-4 near |z| = 5 (1e-6 at |z| = 3, measured), which would
# swamp float32 rounding in the comparison.


def _array(rng, shape):
    return rng.uniform(-1.0, 1.0, shape).astype(np.float32)


def _flatten(value):
    """Nested tuples of Tensors -> a flat list of Tensors, in order."""
    if isinstance(value, (tuple, list)):
        return [t for item in value for t in _flatten(item)]
    return [value]


def _objective(ms, net, kind, weights):
    """A Cell computing Σ_k Σ r_k · output_k (weights r_k fixed arrays; written per output
    structure so that GRAPH_MODE compiles it)."""
    r = [ms.Tensor(w) for w in weights]

    class Objective(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.net = net

        def construct(self, *inputs):
            out = self.net(*inputs)
            if kind == "LSTM":
                return (out[0] * r[0]).sum() + (out[1][0] * r[1]).sum() + (out[1][1] * r[2]).sum()
            if kind == "LSTMCell":
                return (out[0] * r[0]).sum() + (out[1] * r[1]).sum()
            if kind in ("RNN", "GRU"):
                return (out[0] * r[0]).sum() + (out[1] * r[1]).sum()
            return (out * r[0]).sum()

    return Objective()


def _record(ms, net, kind, inputs, seed):
    """Outputs, and gradients with respect to inputs[0] and every parameter (by name)."""
    rng = np.random.default_rng(seed)
    for _, param in sorted(net.parameters_and_names()):     # halved: pre-activations stay in
        param.set_data(ms.Tensor(0.5 * _array(rng, param.shape)))   # |z| < 3, see below
    outs = _flatten(net(*inputs))
    weights = [rng.standard_normal(o.shape).astype(np.float32) for o in outs]
    objective = _objective(ms, net, kind, weights)
    params = net.trainable_params()
    grad_x, grad_params = ms.grad(objective, grad_position=0, weights=params)(*inputs)
    return {"outputs": [o.asnumpy().tolist() for o in outs],
            "output_dtypes": [str(o.dtype) for o in outs],
            "grad_x": grad_x.asnumpy().tolist(),
            "grad_params": {p.name: g.asnumpy().tolist() for p, g in zip(params, grad_params)}}


def layer_inputs(ms, kind, kwargs, shape, extra, seed):
    rng = np.random.default_rng(seed + 1000)
    seq_len, batch, input_size = shape
    x_shape = (batch, seq_len, input_size) if kwargs.get("batch_first") else shape
    inputs = [ms.Tensor(_array(rng, x_shape))]
    directions = 2 if kwargs.get("bidirectional") else 1
    h_shape = (kwargs.get("num_layers", 1) * directions, batch, kwargs["hidden_size"])
    hx = None
    if extra.get("hx"):
        hx = ms.Tensor(_array(rng, h_shape))
        if kind == "LSTM":
            hx = (hx, ms.Tensor(_array(rng, h_shape)))
    inputs.append(hx)
    if "seq_length" in extra:
        inputs.append(ms.Tensor(np.array(extra["seq_length"], np.int32)))
    return inputs


def _error(fn):
    try:
        fn()
    except Exception as error:         # noqa: BLE001  (the type is what is recorded)
        return error_name(error)
    return "no error"


def error_cases(ms):
    """Bad arguments and inputs -> the exception type's name."""
    nn, T = ms.nn, ms.Tensor
    x = T(np.ones((2, 3, 4), np.float32))
    h = T(np.zeros((1, 3, 5), np.float32))
    cell_x = T(np.ones((3, 4), np.float32))
    cell_h = T(np.zeros((3, 5), np.float32))
    return {
        "dropout_int": _error(lambda: nn.LSTM(4, 5, dropout=0)),
        "dropout_one": _error(lambda: nn.GRU(4, 5, dropout=1.0)),
        "hidden_zero": _error(lambda: nn.RNN(4, 0)),
        "num_layers_float": _error(lambda: nn.RNN(4, 5, num_layers=1.0)),
        "bidirectional_int": _error(lambda: nn.RNN(4, 5, bidirectional=1)),
        "nonlinearity_bad": _error(lambda: nn.RNN(4, 5, nonlinearity="sigmoid")),
        "cell_nonlinearity_bad": _error(lambda: nn.RNNCell(4, 5, nonlinearity="sigmoid")),
        "cell_has_bias_int": _error(lambda: nn.GRUCell(4, 5, has_bias=1)),
        "lstm_cell_old_args": _error(lambda: nn.LSTMCell(4, 5, batch_size=2)),
        "x_int32": _error(lambda: nn.RNN(4, 5)(T(np.ones((2, 3, 4), np.int32)))),
        "x_float64": _error(lambda: nn.GRU(4, 5)(T(np.ones((2, 3, 4), np.float64)))),
        "x_list": _error(lambda: nn.RNN(4, 5)([[1.0]])),
        "hx_dtype_mismatch": _error(lambda: nn.RNN(4, 5)(x, T(np.zeros((1, 3, 5), np.float16)))),
        "lstm_hx_tensor": _error(lambda: nn.LSTM(4, 5)(x, h)),
        "lstm_hx_three": _error(lambda: nn.LSTM(4, 5)(x, (h, h, h))),
        "seq_length_float": _error(lambda: nn.GRU(4, 5)(x, h, T(np.ones(3, np.float32)))),
        "seq_length_size": _error(lambda: nn.GRU(4, 5)(x, h, T(np.ones(2, np.int32)))),
        "cell_x_int": _error(lambda: nn.GRUCell(4, 5)(T(np.ones((3, 4), np.int32)), cell_h)),
        "cell_hx_list": _error(lambda: nn.RNNCell(4, 5)(cell_x, [[0.0]])),
        "lstm_cell_hx_tensor": _error(lambda: nn.LSTMCell(4, 5)(cell_x, cell_h)),
    }


def initial_values(ms):
    """Parameters of seeded layers and cells, built one after another."""
    ms.set_seed(INIT_SEED)
    nets = [ms.nn.RNNCell(2, 3), ms.nn.LSTM(2, 3, num_layers=2, bidirectional=True),
            ms.nn.LSTMCell(3, 2), ms.nn.GRU(2, 2, has_bias=False), ms.nn.GRUCell(2, 3)]
    return [[[name, p.asnumpy().tolist()] for name, p in net.parameters_and_names()]
            for net in nets]


def layer_case(ms, k):
    """Record LAYER_CASES[k]."""
    _, kind, kwargs, shape, extra = LAYER_CASES[k]
    net = getattr(ms.nn, kind)(**kwargs)
    return _record(ms, net, kind, layer_inputs(ms, kind, kwargs, shape, extra, k), k)


def cell_case(ms, k):
    """Record CELL_CASES[k]."""
    _, kind, kwargs, (batch, input_size, hidden) = CELL_CASES[k]
    net = getattr(ms.nn, kind)(**kwargs)
    rng = np.random.default_rng(k + 2000)
    x = ms.Tensor(_array(rng, (batch, input_size)))
    h = ms.Tensor(_array(rng, (batch, hidden)))
    hx = (h, ms.Tensor(_array(rng, (batch, hidden)))) if kind == "LSTMCell" else h
    return _record(ms, net, kind, [x, hx], k + 100)


def run(ms):
    """The same calls on MindSpore or refms; returns plain Python values."""
    out = {"layers": {}, "cells": {}}
    for k, case in enumerate(LAYER_CASES):
        out["layers"][case[0]] = layer_case(ms, k)
    for k, case in enumerate(CELL_CASES):
        out["cells"][case[0]] = cell_case(ms, k)
    out["parameter_names"] = {
        kind: [[name, list(p.shape)] for name, p in
               getattr(ms.nn, kind)(3, 2, num_layers=2, bidirectional=True).parameters_and_names()]
        for kind in ("RNN", "LSTM", "GRU")}
    out["initial_values"] = initial_values(ms)
    out["errors"] = error_cases(ms)
    return out


if __name__ == "__main__":
    import mindspore
    with open(os.path.join(HERE, "rnn.json"), "w") as f:
        json.dump({"mindspore": mindspore.__version__, **run(mindspore)}, f)
