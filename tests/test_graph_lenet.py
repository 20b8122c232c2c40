"""LeNet-5 in both modes: forward, parameter gradients and training steps agree (issue 5).

The network is built from the same seed in each mode; PyNative runs op by op with the
tape, GRAPH_MODE compiles ``construct`` (and, for gradients, the gradient graph).
"""
import os
import sys

import numpy as np

import refms as ms
from refms import Tensor, ParameterTuple, nn, ops

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "examples"))
from lenet import LeNet5  # noqa: E402  (examples/lenet.py: the one LeNet-5 definition)


def data(batch=8):
    rng = np.random.default_rng(7)
    return (Tensor(rng.standard_normal((batch, 1, 32, 32)).astype(np.float32)),
            Tensor(rng.integers(0, 10, (batch,)).astype(np.int32)))


def build(mode):
    ms.set_context(mode=mode)
    ms.set_seed(3)
    net = LeNet5()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    return net, nn.WithLossCell(net, loss)


def forward_and_gradients(mode):
    net, with_loss = build(mode)
    x, labels = data()
    out = net(x).asnumpy()
    weights = ParameterTuple(net.trainable_params())
    grads = ops.GradOperation(get_by_list=True)(with_loss, weights)(x, labels)
    return out, [g.asnumpy() for g in grads], [p.name for p in weights]


def test_lenet_forward_and_parameter_gradients_agree():
    out_py, grads_py, names = forward_and_gradients(ms.PYNATIVE_MODE)
    out_graph, grads_graph, names_graph = forward_and_gradients(ms.GRAPH_MODE)
    assert names == names_graph and len(grads_py) == 8     # 2 conv weights, 3 dense w + b
    np.testing.assert_allclose(out_graph, out_py, rtol=1e-5, atol=1e-5)
    for name, g_py, g_graph in zip(names, grads_py, grads_graph):
        np.testing.assert_allclose(g_graph, g_py, rtol=1e-5, atol=1e-5, err_msg=name)


def training_losses(mode, steps=3):
    net, with_loss = build(mode)
    optimizer = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    step = nn.TrainOneStepCell(with_loss, optimizer)
    step.set_train()
    x, labels = data()
    losses = [float(step(x, labels).asnumpy()) for _ in range(steps)]
    return losses, [p.asnumpy() for p in net.trainable_params()]


def test_lenet_training_steps_agree():
    losses_py, weights_py = training_losses(ms.PYNATIVE_MODE)
    losses_graph, weights_graph = training_losses(ms.GRAPH_MODE)
    np.testing.assert_allclose(losses_graph, losses_py, rtol=1e-5, atol=1e-6)
    assert losses_graph[-1] < losses_graph[0]
    for w_py, w_graph in zip(weights_py, weights_graph):
        np.testing.assert_allclose(w_graph, w_py, rtol=1e-5, atol=1e-6)


def test_training_step_compiles_once_and_merges_the_duplicate_forward():
    """TrainOneStepCell calls the network, then its gradient: after CSE the forward runs once."""
    from refms.graph import ir_text
    net, with_loss = build(ms.GRAPH_MODE)
    step = nn.TrainOneStepCell(with_loss, nn.Momentum(net.trainable_params(), 0.01, 0.9))
    x, labels = data()
    text = ir_text(step, x, labels)
    assert text.count("= Conv2D(") == 2           # conv1 and conv2, forward once
    assert text.count("= Conv2DBackpropInput(") == 1   # conv1's input gradient is dead code
    step(x, labels)
    step(x, labels)
    assert len(step._graph_cache) == 1
