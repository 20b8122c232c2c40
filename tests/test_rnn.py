"""nn.RNN/LSTM/GRU and nn.RNNCell/LSTMCell/GRUCell (issue 13).

* Outputs and gradients (w.r.t. the input and every weight) against MindSpore 2.10,
  recorded by ``tests/recorders/record_rnn.py`` with the same weights copied in,
  in PyNative and in GRAPH_MODE;
* parameter names and shapes (checkpoints map), seeded initial values, error types;
* gradients against float64 central differences (random projections), including
  ``seq_length`` and the bidirectional ``ReverseSequence`` path.
"""
import json
import math
import os
import sys

import numpy as np
import pytest

import refms as ms
from refms import Tensor, nn
from refms.nn.layer import rnn_cells

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "recorders"))
try:
    import record_rnn
finally:
    sys.path.pop(0)

with open(os.path.join(HERE, "recorders", "rnn.json")) as _f:
    RECORDED = json.load(_f)

MODES = [ms.PYNATIVE_MODE, ms.GRAPH_MODE]


def assert_matches(ours, recorded, name):
    assert ours["output_dtypes"] == recorded["output_dtypes"], name
    for k, (a, b) in enumerate(zip(ours["outputs"], recorded["outputs"])):
        np.testing.assert_allclose(a, b, rtol=2e-5, atol=2e-6, err_msg=f"{name} output {k}")
    np.testing.assert_allclose(ours["grad_x"], recorded["grad_x"], rtol=2e-5, atol=2e-6,
                               err_msg=f"{name} grad x")
    assert sorted(ours["grad_params"]) == sorted(recorded["grad_params"]), name
    for param, grad in recorded["grad_params"].items():
        np.testing.assert_allclose(ours["grad_params"][param], grad, rtol=2e-5, atol=2e-6,
                                   err_msg=f"{name} grad {param}")


@pytest.mark.parametrize("mode", MODES, ids=["pynative", "graph"])
@pytest.mark.parametrize("k", range(len(record_rnn.LAYER_CASES)),
                         ids=[case[0] for case in record_rnn.LAYER_CASES])
def test_layers_match_mindspore(k, mode):
    ms.set_context(mode=mode)
    name = record_rnn.LAYER_CASES[k][0]
    assert_matches(record_rnn.layer_case(ms, k), RECORDED["layers"][name], name)


@pytest.mark.parametrize("mode", MODES, ids=["pynative", "graph"])
@pytest.mark.parametrize("k", range(len(record_rnn.CELL_CASES)),
                         ids=[case[0] for case in record_rnn.CELL_CASES])
def test_cells_match_mindspore(k, mode):
    ms.set_context(mode=mode)
    name = record_rnn.CELL_CASES[k][0]
    assert_matches(record_rnn.cell_case(ms, k), RECORDED["cells"][name], name)


def test_parameter_names_shapes_and_seeded_values_match_mindspore():
    for kind, names in RECORDED["parameter_names"].items():
        net = getattr(nn, kind)(3, 2, num_layers=2, bidirectional=True)
        assert [[n, list(p.shape)] for n, p in net.parameters_and_names()] == names, kind
    # Seeded: RNNCell, LSTM, LSTMCell, GRU, GRUCell built in turn.  The layers draw with
    # np.random.uniform, so their values are MindSpore's; the cells' Uniform initializers fill
    # from MindSpore's C++ generator (not reproduced: refms.initializer), so only their bounds
    # and the numpy draws they consume (seen in the next layer's values) can match.
    ours = record_rnn.initial_values(ms)
    for k, (net_ours, net_recorded) in enumerate(zip(ours, RECORDED["initial_values"])):
        assert [n for n, _ in net_ours] == [n for n, _ in net_recorded]
        for (name, a), (_, b) in zip(net_ours, net_recorded):
            if k in (1, 3):
                np.testing.assert_allclose(a, b, rtol=1e-6, err_msg=name)
            else:
                bound = 1 / math.sqrt(len(net_ours[1][1][0]))       # 1/sqrt(hidden_size)
                assert np.abs(a).max() <= bound and np.abs(b).max() <= bound, name
                assert np.shape(a) == np.shape(b), name


def test_errors_match_mindspore():
    ours = record_rnn.error_cases(ms)
    expected = dict(RECORDED["errors"])
    # MindSpore reads x.shape before checking x's type (AttributeError); refms checks first.
    assert expected.pop("x_list") == "AttributeError" and ours.pop("x_list") == "TypeError"
    assert ours == expected


def test_graph_mode_is_compiled_once_and_agrees_with_pynative():
    net = nn.LSTM(3, 4, num_layers=2, bidirectional=True, batch_first=True)
    x = Tensor(np.random.default_rng(0).standard_normal((2, 5, 3)).astype(np.float32))
    lengths = Tensor(np.array([5, 2], np.int32))
    eager = net(x, None, lengths)
    ms.set_context(mode=ms.GRAPH_MODE)
    compiled = net(x, None, lengths)
    for a, b in zip(record_rnn._flatten(eager), record_rnn._flatten(compiled)):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-6, atol=1e-7)


def test_seq_length_masks_padding():
    """Steps past a row's length change neither its state nor anything else: the padded row's
    result equals the unpadded run; its outputs there are zero."""
    rng = np.random.default_rng(3)
    net = nn.GRU(2, 3, bidirectional=True)
    x = rng.standard_normal((6, 2, 2)).astype(np.float32)
    out, h = net(Tensor(x), None, Tensor(np.array([6, 4], np.int32)))
    short_out, short_h = net(Tensor(x[:4, 1:]))
    np.testing.assert_allclose(out.asnumpy()[:4, 1:], short_out.asnumpy(), rtol=1e-6, atol=1e-7)
    np.testing.assert_array_equal(out.asnumpy()[4:, 1], 0)
    np.testing.assert_allclose(h.asnumpy()[:, 1:], short_h.asnumpy(), rtol=1e-6, atol=1e-7)


def test_dropout_between_layers_in_training_only():
    ms.set_seed(0)
    net = nn.RNN(4, 64, num_layers=2, dropout=0.5)
    x = Tensor(np.ones((3, 2, 4), np.float32))
    evaluated = net(x)[0].asnumpy()
    np.testing.assert_array_equal(evaluated, net(x)[0].asnumpy())      # inference: no dropout
    net.set_train()
    trained = net(x)[0].asnumpy()
    assert not np.allclose(trained, evaluated)
    assert net.dropout_op.training and net.dropout_op.p == 0.5


def test_float16_input_runs_in_float16():
    net = nn.LSTM(2, 3)
    out, (h, c) = net(Tensor(np.ones((2, 1, 2), np.float16)))
    assert out.dtype == h.dtype == c.dtype == ms.float16
    ref, _ = net(Tensor(np.ones((2, 1, 2), np.float32)))
    np.testing.assert_allclose(out.asnumpy(), ref.asnumpy(), atol=2e-3)


# -- float64 gradients against central differences ----------------------------------------------

@pytest.fixture
def float64_inputs(monkeypatch):
    """MindSpore's cells (and layers given ``hx``) accept float16/float32 inputs only; the
    float64 checks below widen that set for their duration."""
    monkeypatch.setattr(rnn_cells, "INPUT_DTYPES", rnn_cells.INPUT_DTYPES + (ms.float64,))


def _f64(array):
    return Tensor(np.asarray(array, np.float64))


def check_gradients(net, inputs, eps=1e-6, rtol=1e-6, seed=0):
    """⟨∇(Σ r·f), v⟩ against (Σ r·f(θ + εv) − Σ r·f(θ − εv)) / 2ε for the first input and
    every trainable parameter (HIPS/autograd's random-projection test)."""
    rng = np.random.default_rng(seed)
    outs = record_rnn._flatten(net(*inputs))
    rs = [_f64(rng.standard_normal(o.shape)) for o in outs]

    def objective(*args):
        total = 0
        for o, r in zip(record_rnn._flatten(net(*args)), rs):
            total = total + (o * r).sum()
        return total

    params = net.trainable_params()
    gx, gparams = ms.grad(objective, 0, params)(*inputs)

    def value(*args):
        return float(objective(*args).asnumpy())

    base = inputs[0].asnumpy()
    v = rng.standard_normal(base.shape)
    rest = list(inputs[1:])
    numeric = (value(_f64(base + eps * v), *rest) - value(_f64(base - eps * v), *rest)) / (2 * eps)
    analytic = float((gx.asnumpy() * v).sum())
    assert math.isclose(analytic, numeric, rel_tol=rtol, abs_tol=1e-8), ("x", analytic, numeric)
    for param, grad in zip(params, gparams):
        original = param.asnumpy()
        v = rng.standard_normal(original.shape)
        param.set_data(_f64(original + eps * v))
        plus = value(*inputs)
        param.set_data(_f64(original - eps * v))
        minus = value(*inputs)
        param.set_data(_f64(original))
        numeric = (plus - minus) / (2 * eps)
        analytic = float((grad.asnumpy() * v).sum())
        assert math.isclose(analytic, numeric, rel_tol=rtol, abs_tol=1e-8), \
            (param.name, analytic, numeric)


F64 = ms.float64
GRADIENT_CASES = [
    ("RNN tanh", lambda: nn.RNN(3, 4, dtype=F64), (4, 2, 3), None),
    ("RNN relu two layers bidirectional", lambda: nn.RNN(3, 4, num_layers=2, nonlinearity="relu",
                                                        bidirectional=True, dtype=F64),
     (3, 2, 3), None),
    ("LSTM two layers bidirectional seq_length",
     lambda: nn.LSTM(3, 4, num_layers=2, bidirectional=True, dtype=F64), (5, 3, 3), [5, 2, 3]),
    ("LSTM batch_first no bias", lambda: nn.LSTM(2, 3, has_bias=False, batch_first=True,
                                                 dtype=F64), (2, 4, 2), None),
    ("GRU bidirectional seq_length", lambda: nn.GRU(3, 4, bidirectional=True, dtype=F64),
     (4, 3, 3), [1, 4, 2]),
    ("GRU two layers", lambda: nn.GRU(2, 3, num_layers=2, dtype=F64), (3, 2, 2), None),
]


@pytest.mark.parametrize("build, shape, lengths", [c[1:] for c in GRADIENT_CASES],
                         ids=[c[0] for c in GRADIENT_CASES])
def test_layer_gradients_match_central_differences(build, shape, lengths):
    rng = np.random.default_rng(1)
    net = build()
    inputs = [_f64(rng.standard_normal(shape)), None]
    if lengths is not None:
        inputs.append(Tensor(np.array(lengths, np.int32)))
    check_gradients(net, inputs)


def test_layer_gradients_with_initial_state(float64_inputs):
    rng = np.random.default_rng(2)
    net = nn.LSTM(2, 3, num_layers=2, dtype=F64)
    x = _f64(rng.standard_normal((3, 2, 2)))
    hx = (_f64(rng.standard_normal((2, 2, 3))), _f64(rng.standard_normal((2, 2, 3))))
    check_gradients(net, [x, hx])


@pytest.mark.parametrize("build, hidden", [
    (lambda: nn.RNNCell(3, 4, dtype=F64), None),
    (lambda: nn.RNNCell(3, 4, nonlinearity="relu", dtype=F64), None),
    (lambda: nn.LSTMCell(3, 4, dtype=F64), "lstm"),
    (lambda: nn.GRUCell(3, 4, has_bias=False, dtype=F64), None),
], ids=["RNNCell tanh", "RNNCell relu", "LSTMCell", "GRUCell no bias"])
def test_cell_gradients_match_central_differences(build, hidden, float64_inputs):
    rng = np.random.default_rng(4)
    net = build()
    x = _f64(rng.standard_normal((2, 3)))
    h = _f64(rng.standard_normal((2, 4)))
    hx = (h, _f64(rng.standard_normal((2, 4)))) if hidden == "lstm" else h
    check_gradients(net, [x, hx])


def test_reverse_sequence_values_and_gradient():
    x = np.arange(24, dtype=np.float64).reshape(4, 3, 2)
    lengths = np.array([4, 0, 2], np.int32)
    y = ms.ops.ReverseSequence(0, 1)(Tensor(x), Tensor(lengths)).asnumpy()
    expected = x.copy()
    for b, n in enumerate(lengths):
        expected[:n, b] = x[:n, b][::-1]
    np.testing.assert_array_equal(y, expected)
    dout = np.random.default_rng(0).standard_normal(x.shape)
    grad = ms.grad(lambda t: (ms.ops.reverse_sequence(t, Tensor(lengths), 0, 1)
                              * Tensor(dout)).sum())(Tensor(x)).asnumpy()
    expected_grad = dout.copy()
    for b, n in enumerate(lengths):
        expected_grad[:n, b] = dout[:n, b][::-1]
    np.testing.assert_array_equal(grad, expected_grad)
    with pytest.raises(RuntimeError, match="seq_lengths"):
        ms.ops.ReverseSequence(0, 1)(Tensor(x), Tensor(np.array([5, 1, 1], np.int32)))
    with pytest.raises(TypeError, match="seq_lengths"):
        ms.ops.ReverseSequence(0, 1)(Tensor(x), Tensor(np.ones(3, np.float32)))
    with pytest.raises(ValueError, match="batch_dim"):
        ms.ops.ReverseSequence(1, 1)(Tensor(x), Tensor(lengths))
