"""The seed pages' examples that use ``nn.Cell``, run as documented (STYLE.md 11).

Each case is the page's example (indentation restored where the notebook
export flattened it), run with ``mindspore`` replaced by ``refms`` under the
``compat`` version of its page; what it prints must equal the page's output
after collapsing runs of whitespace (DESIGN.md: the pages' collapsed spaces
are an export artefact).  Where MindSpore 2.10 prints something else, the
2.10 output is a second case (SEMANTICS.md 5.3).

Sources: ``000`` = r1.6 "PyNative模式应用" (seeds/000_1f0ba937f6d417c3.txt),
``002`` = r1.7 notebook "动态图模式应用", ``003`` = 2.0-era migration guide "网络搭建".
"""
import contextlib
import io
from dataclasses import dataclass

import numpy as np
import pytest

import refms as ms


@dataclass
class SeedExample:
    source: str         # seed page and section
    compat: str         # the MindSpore version whose behaviour the page documents
    code: str           # the example as printed on the page
    output: str         # the documented output


def run_example(code, compat):
    """Run MindSpore example code against refms under ``compat``; return what it printed."""
    ms.set_context(compat=compat)
    program = code.replace("mindspore", "refms")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(program, "<seed example>", "exec"), {"__name__": "__seed_example__"})
    return printed.getvalue()


def collapse(text):
    return " ".join(text.split())


HEADER = '''
import numpy as np
import mindspore
import mindspore.nn as nn
import mindspore.ops as ops
from mindspore import Tensor
from mindspore import context
from mindspore.ops import GradOperation

context.set_context(mode=context.PYNATIVE_MODE)
'''

BN_NET = '''
class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.conv = nn.Conv2d(1, 2, kernel_size=2, stride=1, padding=0, weight_init="ones", pad_mode="valid")
        self.bn = nn.BatchNorm2d(2, momentum=0.99, eps=0.00001, gamma_init="ones")
        self.handle = self.bn.register_backward_hook(backward_hook_function)
        self.relu = nn.ReLU()

    def construct(self, x):
        x = self.conv(x)
        x = self.bn(x)
        x = self.relu(x)
        return x

def backward_hook_function(cell_id, grad_input, grad_output):
    print(grad_input)
    print(grad_output)
'''

BN_RUN = '''
net = Net()
grad_all = GradOperation(get_all=True)
output = grad_all(net)(Tensor(np.ones([1, 1, 2, 2]).astype(np.float32)))
print(output)
net.handle.remove()
output = grad_all(net)(Tensor(np.ones([1, 1, 2, 2]).astype(np.float32)))
print("-------------\\n", output)
'''

ONE = "(Tensor(shape=[1, 2, 1, 1], dtype=Float32, value=\n[[[[ 1.00000000e+00]],\n [[ 1.00000000e+00]]]]),)"
BN_SCALE = ("(Tensor(shape=[1, 2, 1, 1], dtype=Float32, value=\n[[[[ 9.99994993e-01]],\n"
            " [[ 9.99994993e-01]]]]),)")
INPUT_GRAD = ("(Tensor(shape=[1, 1, 2, 2], dtype=Float32, value=\n[[[[ 1.99998999e+00, 1.99998999e+00],\n"
              " [ 1.99998999e+00, 1.99998999e+00]]]]),)")

RELU_NET = '''
class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.relu = nn.ReLU()
        self.handle = self.relu.register_forward_pre_hook(forward_pre_hook_fn)

    def construct(self, x, y):
        x = x + y
        x = self.relu(x)
        return x
'''

COMBINED = HEADER + '''
def forward_pre_hook_fn(cell_id, inputs):
    print("forward inputs: ", inputs)
    input_x = inputs[0]
    return input_x

def forward_hook_fn(cell_id, inputs, outputs):
    print("forward inputs: ", inputs)
    print("forward outputs: ", outputs)
    outputs = outputs + outputs
    return outputs

def backward_hook_fn(cell_id, grad_input, grad_output):
    print("grad input: ", grad_input)
    print("grad output: ", grad_output)

class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.relu = nn.ReLU()
        self.handle = self.relu.register_forward_pre_hook(forward_pre_hook_fn)
        self.handle2 = self.relu.register_forward_hook(forward_hook_fn)
        self.handle3 = self.relu.register_backward_hook(backward_hook_fn)

    def construct(self, x, y):
        x = x + y
        x = self.relu(x)
        return x

net = Net()
grad = GradOperation(get_all=True)
gradient = grad(net)(Tensor(np.ones([1]).astype(np.float32)), Tensor(np.ones([1]).astype(np.float32)))
print(gradient)
'''

TWO = "Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00])"
ONE1 = "Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00])"

BPROP = HEADER + '''
class Net(nn.Cell):
    def construct(self, x, y):
        z = x * y
        z = z * y
        return z

    def bprop(self, x, y, out, dout):
        x_dout = x + y
        y_dout = x * y
        return x_dout, y_dout

grad_all = GradOperation(get_all=True)
output = grad_all(Net())(Tensor(1, mindspore.float32), Tensor(2, mindspore.float32))
print(output)
'''

EXAMPLES = [
    SeedExample("000 执行网络", "1.6", '''
import numpy as np
import mindspore.nn as nn
import mindspore.ops as ops
from mindspore import context, Tensor

context.set_context(mode=context.PYNATIVE_MODE, device_target="CPU")

class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.mul = ops.Mul()

    def construct(self, x, y):
        return self.mul(x, y)

x = Tensor(np.array([1.0, 2.0, 3.0]).astype(np.float32))
y = Tensor(np.array([4.0, 5.0, 6.0]).astype(np.float32))

net = Net()
print(net(x, y))
''', "[ 4. 10. 18.]"),
    SeedExample("002 执行网络", "1.7", HEADER + '''
class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.mul = ops.Mul()

    def construct(self, x, y):
        return self.mul(x, y)

net = Net()
x = Tensor(np.array([1.0, 2.0, 3.0]).astype(np.float32))
y = Tensor(np.array([4.0, 5.0, 6.0]).astype(np.float32))
z = net(x, y)

print("x:", x.asnumpy(), "\\ny:", y.asnumpy(), "\\nz:", z.asnumpy())
''', "x: [1. 2. 3.] \ny: [4. 5. 6.] \nz: [ 4. 10. 18.]"),
    SeedExample("000 register_backward_hook", "1.6", HEADER + BN_NET + '''
grad_all = GradOperation(get_all=True)
output = grad_all(Net())(Tensor(np.ones([1, 1, 2, 2]).astype(np.float32)))
print(output)
''', "\n".join([ONE, BN_SCALE, INPUT_GRAD])),
    SeedExample("002 register_backward_hook", "1.7", HEADER + BN_NET + BN_RUN,
                "\n".join([ONE, BN_SCALE, INPUT_GRAD, "-------------\n", INPUT_GRAD])),
    SeedExample("002 register_backward_hook as 2.10 prints it", "2.10", HEADER + BN_NET + BN_RUN,
                "\n".join([BN_SCALE, ONE, INPUT_GRAD, "-------------\n", INPUT_GRAD])),
    SeedExample("002 register_forward_pre_hook", "1.7", HEADER + '''
def forward_pre_hook_fn(cell_id, inputs):
    print("forward inputs: ", inputs)
    input_x = inputs[0]
    return input_x
''' + RELU_NET + '''
grad = GradOperation(get_all=True)
net = Net()

x = Tensor(np.ones([1]).astype(np.float32))
y = Tensor(np.ones([1]).astype(np.float32))

output = net(x, y)
print(output)
gradient = grad(net)(x, y)
print(gradient)
net.handle.remove()
gradient = grad(net)(x, y)
print(gradient)
''', f'''forward inputs: ({TWO},)
[2.]
forward inputs: ({TWO},)
({ONE1}, {ONE1})
({ONE1}, {ONE1})'''),
    SeedExample("002 register_forward_pre_hook returning a new Tensor", "1.7", HEADER + '''
def forward_pre_hook_fn(cell_id, inputs):
    print("forward inputs: ", inputs)
    return Tensor(np.ones([1]).astype(np.float32))
''' + RELU_NET + '''
grad = GradOperation(get_all=True)
net = Net()

x = Tensor(np.ones([1]).astype(np.float32))
y = Tensor(np.ones([1]).astype(np.float32))

gradient = grad(net)(x, y)
print(gradient)
''', f'''forward inputs: ({TWO},)
(Tensor(shape=[1], dtype=Float32, value= [ 0.00000000e+00]), Tensor(shape=[1], dtype=Float32, value= [ 0.00000000e+00]))'''),
    SeedExample("002 register_forward_hook", "1.7", HEADER + '''
def forward_hook_fn(cell_id, inputs, outputs):
    print("forward inputs: ", inputs)
    print("forward outputs: ", outputs)
    outputs = outputs + outputs
    return outputs

class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.relu = nn.ReLU()
        self.handle = self.relu.register_forward_hook(forward_hook_fn)

    def construct(self, x, y):
        x = x + y
        x = self.relu(x)
        return x

grad = GradOperation(get_all=True)
net = Net()

x = Tensor(np.ones([1]).astype(np.float32))
y = Tensor(np.ones([1]).astype(np.float32))

gradient = grad(net)(x, y)
print(gradient)
net.handle.remove()
gradient = grad(net)(x, y)
print(gradient)
''', f'''forward inputs: ({TWO},)
forward outputs: [2.]
({TWO}, {TWO})
({ONE1}, {ONE1})'''),
    SeedExample("002 combined hooks", "1.7", COMBINED, f'''forward inputs: ({TWO},)
forward inputs: ({TWO},)
forward outputs: [2.]
grad input: ({TWO},)
grad output: ({TWO},)
({TWO}, {TWO})'''),
    SeedExample("002 combined hooks as 2.10 prints it", "2.10", COMBINED, f'''forward inputs: ({TWO},)
forward inputs: ({TWO},)
forward outputs: [2.]
grad input: ({TWO},)
grad output: ({ONE1},)
({TWO}, {TWO})'''),
    SeedExample("000 自定义bprop功能", "1.6", BPROP,
                "(Tensor(shape=[], dtype=Float32, value= 3), Tensor(shape=[], dtype=Float32, value= 2))"),
    SeedExample("002 自定义bprop功能", "1.7", BPROP,
                "(Tensor(shape=[], dtype=Float32, value= 3), Tensor(shape=[], dtype=Float32, value= 2))"),
    SeedExample("003 网络基本构成单元 Cell", "2.0", '''
import mindspore.nn as nn
import mindspore.ops as ops

class MyCell(nn.Cell):
    def __init__(self, forward_net):
        super(MyCell, self).__init__(auto_prefix=True)
        self.net = forward_net
        self.relu = ops.ReLU()

    def construct(self, x):
        y = self.net(x)
        return self.relu(y)

inner_net = nn.Conv2d(120, 240, 4, has_bias=False)
my_net = MyCell(inner_net)
print(my_net.trainable_params())
''', "[Parameter (name=net.weight, shape=(240, 120, 4, 4), dtype=Float32, requires_grad=True)]"),
    SeedExample("003 参数冻结", "2.0", '''
import mindspore.nn as nn

net = nn.Dense(2, 1, has_bias=True)
print(net.trainable_params())

for param in net.trainable_params():
    param_name = param.name
    if "bias" in param_name:
        param.requires_grad = False
print(net.trainable_params())
''', '''[Parameter (name=weight, shape=(1, 2), dtype=Float32, requires_grad=True), Parameter (name=bias, shape=(1,), dtype=Float32, requires_grad=True)]
[Parameter (name=weight, shape=(1, 2), dtype=Float32, requires_grad=True)]'''),
]


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.source for e in EXAMPLES])
def test_seed_example_prints_the_documented_output(example):
    assert collapse(run_example(example.code, example.compat)) == collapse(example.output)


LENET_000 = '''
import mindspore.nn as nn
from mindspore.common.initializer import Normal

class LeNet5(nn.Cell):
    def __init__(self, num_class=10, num_channel=1, include_top=True):
        super(LeNet5, self).__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode='valid')
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode='valid')
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.include_top = include_top
        if self.include_top:
            self.flatten = nn.Flatten()
            self.fc1 = nn.Dense(16 * 5 * 5, 120, weight_init=Normal(0.02))
            self.fc2 = nn.Dense(120, 84, weight_init=Normal(0.02))
            self.fc3 = nn.Dense(84, num_class, weight_init=Normal(0.02))

    def construct(self, x):
        x = self.conv1(x)
        x = self.relu(x)
        x = self.max_pool2d(x)
        x = self.conv2(x)
        x = self.relu(x)
        x = self.max_pool2d(x)
        if not self.include_top:
            return x
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        x = self.fc3(x)
        return x
'''

LENET_001 = '''
import mindspore.nn as nn
from mindspore.common.initializer import Normal

class LeNet5(nn.Cell):
    """
    Lenet网络结构
    """
    def __init__(self, num_class=10, num_channel=1):
        super(LeNet5, self).__init__()
        # 定义所需要的运算
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode='valid')
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode='valid')
        self.fc1 = nn.Dense(16 * 5 * 5, 120, weight_init=Normal(0.02))
        self.fc2 = nn.Dense(120, 84, weight_init=Normal(0.02))
        self.fc3 = nn.Dense(84, num_class, weight_init=Normal(0.02))
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        # 使用定义好的运算构建前向网络
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
'''


@pytest.mark.parametrize("source,compat", [(LENET_000, "1.6"), (LENET_001, "1.6"),
                                           (LENET_000, "2.10")], ids=["000", "001", "000-2.10"])
def test_lenet_definitions_construct_and_run_forward(source, compat):
    ms.set_context(compat=compat, mode=ms.PYNATIVE_MODE)
    namespace = {}
    exec(compile(source.replace("mindspore", "refms"), "<seed LeNet5>", "exec"), namespace)
    net = namespace["LeNet5"]()
    assert [p.name for p in net.get_parameters()] == [
        "conv1.weight", "conv2.weight", "fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias",
        "fc3.weight", "fc3.bias"]
    x = ms.Tensor(np.ones([32, 1, 32, 32]).astype(np.float32) * 0.01)
    out = net(x)
    assert out.shape == (32, 10) and out.dtype == ms.float32
    if compat == "1.6":      # r1.x defaults: N(0, 0.01²) conv weights, zero biases
        assert np.all(net.fc1.bias.asnumpy() == 0)
        assert np.abs(net.conv1.weight.asnumpy()).max() < 0.06
