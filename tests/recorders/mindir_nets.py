"""The networks of the MindIR interop tests, built alike by MindSpore and refms.

``networks(ms)`` returns ``{name: (net, input Tensor)}`` for ``ms`` = mindspore or refms:
an MLP (Dense → ReLU → Dense) and LeNet-5, with weights drawn from fixed numpy seeds.
"""
import numpy as np


def networks(ms, seed=0):
    nn = ms.nn

    class MLP(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Dense(4, 8)
            self.relu = nn.ReLU()
            self.fc2 = nn.Dense(8, 3)

        def construct(self, x):
            return self.fc2(self.relu(self.fc1(x)))

    class LeNet5(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
            self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
            self.fc1 = nn.Dense(16 * 5 * 5, 120)
            self.fc2 = nn.Dense(120, 84)
            self.fc3 = nn.Dense(84, 10)
            self.relu = nn.ReLU()
            self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
            self.flatten = nn.Flatten()

        def construct(self, x):
            x = self.max_pool2d(self.relu(self.conv1(x)))
            x = self.max_pool2d(self.relu(self.conv2(x)))
            x = self.flatten(x)
            x = self.relu(self.fc1(x))
            x = self.relu(self.fc2(x))
            return self.fc3(x)

    rng = np.random.default_rng(seed)
    out = {}
    for name, net, shape in (("mlp", MLP(), (2, 4)), ("lenet", LeNet5(), (2, 1, 32, 32))):
        for param in net.get_parameters():
            param.set_data(ms.Tensor((rng.standard_normal(param.shape) * 0.2)
                                     .astype(np.float32)))
        out[name] = (net, ms.Tensor(rng.standard_normal(shape).astype(np.float32)))
    return out
