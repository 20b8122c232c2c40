"""Training on the ``gpu`` backend equals training on the CPU (PyNative and GRAPH_MODE).

``set_context(device_target="GPU")`` runs here on the CPU shim build of the CUDA library
(the same Python layer, dispatcher and kernels' logic as on a GPU), with small batches;
the ``gpu``-marked twins in ``tests/test_cuda_gpu.py`` run the same on a real device.

Checked: parameters live on the device (their storage is a DeviceArray), the losses and
the updated weights equal a CPU run from the same initial weights within 1e-4, and how
many kernel calls went through the host (``refms.kernels.fallback_counts``; the goal
is none).  A primitive whose forward still computes with numpy cannot run on device
arrays; such a test is skipped, naming the primitive.
"""
import os
import sys
import traceback

import numpy as np
import pytest

import refms as ms
from refms import kernels, nn
from refms._cuda import backend, device, loader
from refms._cuda.device import DeviceArray

from cuda_support import shim_library_path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples"))
from lenet import LeNet5  # noqa: E402


@pytest.fixture
def shim_gpu(monkeypatch):
    """device_target='GPU' backed by the shim build for one test."""
    path = shim_library_path()
    if path.startswith("no "):
        pytest.skip(path)
    monkeypatch.setenv(loader.ENV_LIBRARY, path)
    loader.reset()
    device.reset_runtime()
    yield
    ms.set_context(device_target="CPU")
    backend.unregister()
    loader.reset()
    device.reset_runtime()


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(8, 16)
        self.fc2 = nn.Dense(16, 3)
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


class ResidualNet(nn.Cell):
    """conv-BN-ReLU-conv-BN plus the input, ReLU, global average pool, Dense: a ResNet block."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(4, 4, 3, pad_mode="same", has_bias=False)
        self.bn1 = nn.BatchNorm2d(4)
        self.conv2 = nn.Conv2d(4, 4, 3, pad_mode="same", has_bias=False)
        self.bn2 = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()
        self.pool = ms.ops.ReduceMean(keep_dims=False)
        self.fc = nn.Dense(4, 3)

    def construct(self, x):
        y = self.relu(self.bn1(self.conv1(x)))
        y = self.relu(self.bn2(self.conv2(y)) + x)
        return self.fc(self.pool(y, (2, 3)))


def momentum(params):
    return nn.Momentum(params, 0.1, 0.9)


def adam(params):
    return nn.Adam(params, learning_rate=0.01, weight_decay=1e-4)


def _train(make_net, data, labels, target, mode, steps=2, make_optimizer=momentum):
    """Losses and final weights of ``steps`` optimizer steps on ``target``."""
    ms.set_context(device_target=target, mode=mode)
    ms.set_seed(3)
    net = make_net()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), make_optimizer(net.trainable_params()))
    step.set_train()
    kernels.reset_fallback_counts()
    try:
        losses = [float(step(ms.Tensor(data), ms.Tensor(labels)).asnumpy()) for _ in range(steps)]
    except TypeError as exc:
        if "numpy cannot compute on a DeviceArray" in str(exc):
            pytest.skip(f"a primitive on this path still computes with numpy: {_numpy_site(exc)}")
        raise
    on_device = all(isinstance(p._data, DeviceArray) for p in net.trainable_params())
    weights = [p.asnumpy() for p in net.trainable_params()]
    return losses, weights, on_device, kernels.fallback_counts()


def _numpy_site(exc):
    """'file:line in function' of the primitive code that handed a DeviceArray to numpy."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "refms" in f.filename
              and "_cuda" not in f.filename]
    site = frames[-1] if frames else None
    return f"{os.path.relpath(site.filename)}:{site.lineno} in {site.name}" if site else str(exc)


def _compare(make_net, data, labels, mode, make_optimizer=momentum):
    cpu_losses, cpu_weights, cpu_on_device, _ = _train(make_net, data, labels, "CPU", mode,
                                                       make_optimizer=make_optimizer)
    gpu_losses, gpu_weights, gpu_on_device, fallbacks = _train(make_net, data, labels, "GPU", mode,
                                                               make_optimizer=make_optimizer)
    assert not cpu_on_device and gpu_on_device
    np.testing.assert_allclose(gpu_losses, cpu_losses, rtol=1e-4, atol=1e-5)
    for gpu_w, cpu_w in zip(gpu_weights, cpu_weights):
        np.testing.assert_allclose(gpu_w, cpu_w, rtol=1e-4, atol=1e-5)
    return fallbacks


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def test_mlp_training_step_on_gpu_equals_cpu(shim_gpu, mode):
    rng = np.random.default_rng(0)
    data = rng.standard_normal((6, 8)).astype(np.float32)
    labels = rng.integers(0, 3, (6,)).astype(np.int32)
    fallbacks = _compare(MLP, data, labels, mode)
    assert fallbacks == {}, f"kernels that ran through the host: {fallbacks}"


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def test_lenet_training_step_on_gpu_equals_cpu(shim_gpu, mode):
    rng = np.random.default_rng(0)
    data = rng.standard_normal((2, 1, 32, 32)).astype(np.float32)
    labels = rng.integers(0, 10, (2,)).astype(np.int32)
    fallbacks = _compare(LeNet5, data, labels, mode)
    assert fallbacks == {}, f"kernels that ran through the host: {fallbacks}"


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def test_residual_block_with_batchnorm_and_adam_on_gpu_equals_cpu(shim_gpu, mode):
    rng = np.random.default_rng(1)
    data = rng.standard_normal((2, 4, 6, 6)).astype(np.float32)
    labels = rng.integers(0, 3, (2,)).astype(np.int32)
    fallbacks = _compare(ResidualNet, data, labels, mode, make_optimizer=adam)
    assert fallbacks == {}, f"kernels that ran through the host: {fallbacks}"


def test_new_tensors_live_on_the_gpu_and_print_from_the_host(shim_gpu):
    ms.set_context(device_target="GPU")
    t = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert isinstance(t._data, DeviceArray)
    np.testing.assert_array_equal(t.asnumpy(), np.arange(6).reshape(2, 3))
    assert "5." in str(t)
    ms.set_context(device_target="CPU")
    assert isinstance(ms.Tensor([1.0])._data, np.ndarray)


def _gather(x, index):
    try:
        return ms.ops.gather(x, index, 0)
    except TypeError as exc:
        if "numpy cannot compute on a DeviceArray" in str(exc):
            pytest.skip(f"Gather still computes with numpy: {_numpy_site(exc)}")
        raise


def test_bad_gather_index_surfaces_at_the_next_synchronizing_point(shim_gpu):
    """pynative_synchronize=False (the default): the op returns; the error comes later, naming it."""
    ms.set_context(device_target="GPU")
    x = ms.Tensor(np.arange(10, dtype=np.float32).reshape(5, 2))
    out = _gather(x, ms.Tensor(np.array([1, 7], np.int32)))       # no error yet
    doubled = out * 2                                             # more work queued after it
    with pytest.raises(RuntimeError, match=r"For 'Gather' \(CUDA kernel 'take'\), the index 7 is out "
                                           r"of range \[-5, 5\) \(the kernel ran asynchronously; "
                                           r"reported at the next synchronizing point"):
        doubled.asnumpy()


def test_bad_gather_index_raises_at_the_op_with_pynative_synchronize(shim_gpu):
    ms.set_context(device_target="GPU", pynative_synchronize=True)
    x = ms.Tensor(np.arange(10, dtype=np.float32).reshape(5, 2))
    with pytest.raises(RuntimeError, match=r"For 'Gather' \(CUDA kernel 'take'\), the index 7 is out "
                                           r"of range \[-5, 5\)\.$"):
        _gather(x, ms.Tensor(np.array([1, 7], np.int32)))


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def test_a_bad_label_in_a_loss_names_the_primitive_that_launched_the_kernel(shim_gpu, mode):
    """The launch records the running primitive; the late error names it, in both modes."""
    ms.set_context(device_target="GPU", mode=mode)
    ms.set_seed(0)
    net = nn.WithLossCell(MLP(), nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))
    data, labels = ms.Tensor(np.ones((4, 8), np.float32)), ms.Tensor(np.array([0, 2, 5, 1], np.int32))
    with pytest.raises(RuntimeError, match=r"For 'SparseSoftmaxCrossEntropyWithLogits' \(CUDA kernel "
                                           r"'sparse_softmax_cross_entropy'\), the index 5 is out of "
                                           r"range \[0, 3\) \(the kernel ran asynchronously"):
        net(data, labels).asnumpy()                        # 3 classes: the label 5 is bad
