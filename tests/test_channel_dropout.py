"""nn.Dropout1d/2d/3d, ops.Dropout2D/Dropout3D and ops.dropout1d/2d/3d (issue 13).

What does not depend on the random masks is compared with MindSpore 2.10's recorded
results (``tests/recorders/record_channel_dropout.py``); the masks are checked by their
law (one decision per sample and channel, keep rate, scaling) and, in PyNative and
GRAPH_MODE, the gradient dy·mask/keep_prob.  Op-table rows: ``conformance/optable/rows_nn.py``.
"""
import json
import os
import sys

import numpy as np
import pytest

import refms as ms
from refms import Tensor, nn, ops

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "recorders"))
try:
    import record_channel_dropout
finally:
    sys.path.pop(0)

with open(os.path.join(HERE, "recorders", "channel_dropout.json")) as _f:
    RECORDED = json.load(_f)


def test_matches_mindspore():
    ours = record_channel_dropout.run(ms)
    for key, value in ours.items():
        assert value == RECORDED[key], key


@pytest.mark.parametrize("layer, shape", [(nn.Dropout2d(0.3), (50, 40, 2, 3)),
                                          (nn.Dropout3d(0.3), (50, 40, 2, 1, 2)),
                                          (nn.Dropout1d(0.3), (50, 40, 3))],
                         ids=["Dropout2d", "Dropout3d", "Dropout1d"])
def test_whole_channels_dropped_at_the_rate_and_rest_scaled(layer, shape):
    x = np.random.default_rng(0).uniform(1, 2, shape).astype(np.float32)
    y = layer.set_train()(Tensor(x)).asnumpy()
    kept = (y != 0).reshape(shape[:2] + (-1,))
    assert (kept == kept[..., :1]).all()                       # one decision per channel
    assert abs(kept[..., 0].mean() - 0.7) < 0.03               # 2000 channels: ±3.3σ
    np.testing.assert_allclose(y[y != 0], (x / 0.7)[y != 0], rtol=1e-6)


def test_new_instances_repeat_the_stream_and_calls_continue_it():
    x = Tensor(np.ones((4, 16, 1, 1), np.float32))
    drop = ops.Dropout2D(0.5)
    first, second = drop(x)[1].asnumpy(), drop(x)[1].asnumpy()
    assert not np.array_equal(first, second)
    np.testing.assert_array_equal(ops.Dropout2D(0.5)(x)[1].asnumpy(), first)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def test_gradient_is_dout_times_mask_over_keep_prob(mode):
    ms.set_context(mode=mode)
    x = Tensor(np.random.default_rng(1).standard_normal((3, 6, 2, 2)).astype(np.float32))
    u = np.random.default_rng(2).standard_normal((3, 6, 2, 2)).astype(np.float32)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.drop = nn.Dropout2d(0.4).set_train()

        def construct(self, x):
            return (self.drop(x) * Tensor(u)).sum()

    grad = ms.grad(Net())(x).asnumpy()
    mask = ops.Dropout2D(0.6)(x)[1].asnumpy()               # a new instance: the same stream
    np.testing.assert_allclose(grad, u * mask / 0.6, rtol=1e-6)


def test_integer_inputs_truncate_like_mindspore():
    x = Tensor(np.array([1, 3, -7, 100], np.int32).reshape(1, 4, 1, 1))
    y, mask = ops.Dropout2D(0.75)(x)
    expected = np.trunc(np.array([1, 3, -7, 100]) * np.float32(1 / 0.75)) * mask.asnumpy().ravel()
    np.testing.assert_array_equal(y.asnumpy().ravel(), expected)
    assert y.dtype == ms.int32
