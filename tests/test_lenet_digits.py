"""LeNet-5 end to end: seed 001's GradWrap training step and the digits example.

Seed 001 ("梯度求取", r1.6) prints the loss ``2.3025854`` of an untrained
LeNet-5 on inputs of 0.01.  With r1.x initialisation (Normal(0.01)
convolutions, zero biases) the logits are ~1e-7, so the loss is ln 10 plus
a few 1e-7 that depend on the random weights: 2.10 prints 2.302585 or
2.3025854 depending on the seed.  The check is therefore ln 10 to 5e-7.
"""
import importlib.util
import os

import numpy as np
import pytest

import refms as ms
from refms import ParameterTuple, Tensor, context, nn, ops
from refms.common.initializer import Normal
from refms.nn import Momentum, WithLossCell

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class LeNet5(nn.Cell):
    """Lenet网络结构 (seed 001)"""

    def __init__(self, num_class=10, num_channel=1):
        super(LeNet5, self).__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode='valid')
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode='valid')
        self.fc1 = nn.Dense(16 * 5 * 5, 120, weight_init=Normal(0.02))
        self.fc2 = nn.Dense(120, 84, weight_init=Normal(0.02))
        self.fc3 = nn.Dense(84, num_class, weight_init=Normal(0.02))
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        x = self.conv1(x)
        x = self.relu(x)
        x = self.max_pool2d(x)
        x = self.conv2(x)
        x = self.relu(x)
        x = self.max_pool2d(x)
        x = self.flatten(x)
        x = self.fc1(x)
        x = self.relu(x)
        x = self.fc2(x)
        x = self.relu(x)
        x = self.fc3(x)
        return x


class GradWrap(nn.Cell):
    """求函数输入梯度"""

    def __init__(self, network):
        super(GradWrap, self).__init__(auto_prefix=False)
        self.network = network
        self.weights = ParameterTuple(filter(lambda x: x.requires_grad, network.get_parameters()))

    def construct(self, x, label):
        weights = self.weights
        return ops.GradOperation(get_by_list=True)(self.network, weights)(x, label)


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
def test_seed001_gradwrap_training_step(mode, capsys):
    ms.set_context(compat="1.6")
    context.set_context(mode=mode)
    ms.set_seed(0)
    net = LeNet5()
    optimizer = Momentum(filter(lambda x: x.requires_grad, net.get_parameters()), 0.1, 0.9)
    criterion = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
    net_with_criterion = WithLossCell(net, criterion)
    train_network = GradWrap(net_with_criterion)
    train_network.set_train()
    input_data = Tensor(np.ones([32, 1, 32, 32]).astype(np.float32) * 0.01)
    label = Tensor(np.ones([32]).astype(np.int32))
    output = net(Tensor(input_data))
    loss_output = criterion(output, label)
    grads = train_network(input_data, label)
    success = optimizer(grads)
    loss = loss_output.asnumpy()
    print(loss)
    printed = capsys.readouterr().out.strip()
    assert abs(float(printed) - np.log(10)) < 5e-7
    assert success == (True,) * 8 and len(grads) == 8
    assert int(optimizer.global_step.asnumpy()[0]) == 1


def _load_example():
    path = os.path.join(ROOT, "examples", "lenet_digits.py")
    spec = importlib.util.spec_from_file_location("lenet_digits", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_lenet_digits_example_reaches_95_percent(mode, capsys):
    pytest.importorskip("sklearn", reason="the digits example needs scikit-learn")
    example = _load_example()
    status = example.main(["--mode", mode, "--min-accuracy", "0.95"])
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("LeNet-5 on sklearn digits: 1438 train / 359 test images")
    epochs = [line for line in lines if line.startswith("epoch ")]
    assert len(epochs) == 15
    first, last = (float(line.split("loss ")[1].split()[0]) for line in (epochs[0], epochs[-1]))
    assert last < first / 10
    accuracy = float(next(line for line in lines if line.startswith("test accuracy")).split()[-1])
    assert accuracy >= 0.95, out
    assert status == 0
