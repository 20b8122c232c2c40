"""LeNet-5 runs on a backend that is not numpy, in both modes, with a counted host fallback.

The toy backend (tests/toy_backend.py) keeps its values in :class:`ToyArray`,
which is not a numpy array, and lacks the ``max_pool2d`` kernel.  With it as
the default backend, the parameters, inputs, activations and gradients of
examples/lenet.py live on it; PyNative and GRAPH_MODE forward and parameter
gradients give the CPU backend's results; each max-pool runs through the
host and is counted by ``refms.kernels.fallback_counts()``; no other kernel
falls back.  Nothing in refms/ops/prims names the backend.
"""
import os
import sys

import numpy as np
import pytest

import refms as ms
from refms import Tensor, ParameterTuple, kernels, nn, ops
from toy_backend import ToyArray, make_toy_backend

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "examples"))
from lenet import LeNet5  # noqa: E402  (examples/lenet.py: the one LeNet-5 definition)

MISSING = "max_pool2d"


@pytest.fixture
def toy():
    kernels.register_backend(make_toy_backend(missing=(MISSING,)))
    kernels.reset_fallback_counts()
    yield
    kernels.unregister_backend("toy")
    kernels.reset_fallback_counts()


def on_backend(tensor, name):
    expected = ToyArray if name == "toy" else np.ndarray
    return isinstance(tensor._value(), expected)


def lenet_forward_and_gradients(mode, backend):
    """LeNet-5's logits and parameter gradients, everything created on ``backend``."""
    previous = kernels.set_default_backend(backend)
    try:
        ms.set_context(mode=mode)
        ms.set_seed(3)
        net = LeNet5()
        with_loss = nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                          reduction="mean"))
        rng = np.random.default_rng(7)
        x = Tensor(rng.standard_normal((4, 1, 32, 32)).astype(np.float32))
        labels = Tensor(rng.integers(0, 10, (4,)).astype(np.int32))
        weights = ParameterTuple(net.trainable_params())
        assert all(on_backend(t, backend) for t in (x, labels, *weights))
        out = net(x)
        grads = ops.GradOperation(get_by_list=True)(with_loss, weights)(x, labels)
        assert on_backend(out, backend)
        assert all(on_backend(g, backend) for g in grads)
        return out.asnumpy(), [g.asnumpy() for g in grads]
    finally:
        kernels.set_default_backend(previous)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def test_lenet_runs_on_the_toy_backend_and_equals_cpu(toy, mode):
    out_cpu, grads_cpu = lenet_forward_and_gradients(mode, "cpu")
    assert kernels.fallback_counts() == {}
    out_toy, grads_toy = lenet_forward_and_gradients(mode, "toy")
    np.testing.assert_allclose(out_toy, out_cpu, rtol=1e-6, atol=1e-7)
    assert len(grads_toy) == len(grads_cpu) == 8      # 2 conv weights, 3 dense w + b
    for g_toy, g_cpu in zip(grads_toy, grads_cpu):
        np.testing.assert_allclose(g_toy, g_cpu, rtol=1e-6, atol=1e-7)
    counts = kernels.fallback_counts()
    assert set(counts) == {("toy", MISSING)}, counts
    # forward: two pools in net(x) and two in the loss's forward; backward: MaxPoolGrad
    # recomputes the argmax of each pool
    assert counts[("toy", MISSING)] >= 4


def lenet_training(mode, backend, steps=2):
    """Losses and weights after ``steps`` Momentum steps, everything on ``backend``."""
    previous = kernels.set_default_backend(backend)
    try:
        ms.set_context(mode=mode)
        ms.set_seed(3)
        net = LeNet5()
        with_loss = nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                          reduction="mean"))
        step = nn.TrainOneStepCell(with_loss, nn.Momentum(net.trainable_params(), 0.01, 0.9))
        step.set_train()
        rng = np.random.default_rng(7)
        x = Tensor(rng.standard_normal((4, 1, 32, 32)).astype(np.float32))
        labels = Tensor(rng.integers(0, 10, (4,)).astype(np.int32))
        losses = [float(step(x, labels).asnumpy()) for _ in range(steps)]
        assert all(on_backend(p, backend) for p in net.trainable_params())   # updated in place
        return losses, [p.asnumpy() for p in net.trainable_params()]
    finally:
        kernels.set_default_backend(previous)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def test_lenet_training_steps_on_the_toy_backend_equal_cpu(toy, mode):
    losses_cpu, weights_cpu = lenet_training(mode, "cpu")
    losses_toy, weights_toy = lenet_training(mode, "toy")
    np.testing.assert_allclose(losses_toy, losses_cpu, rtol=1e-5)
    assert losses_toy[1] < losses_toy[0]
    for w_toy, w_cpu in zip(weights_toy, weights_cpu):
        np.testing.assert_allclose(w_toy, w_cpu, rtol=1e-5, atol=1e-7)
    assert set(kernels.fallback_counts()) == {("toy", MISSING)}
