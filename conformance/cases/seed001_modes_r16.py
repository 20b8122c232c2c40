"""Seed 001: "动态图与静态图" (tutorial notebook, MindSpore r1.6).

A notebook: cells share one namespace, so a case whose cell relies on earlier
cells (imports, the mode set in the setup cell) runs them first as its
``prelude`` (their output is not compared).  The export lost the code's
indentation; it is restored here, nothing else.  The setup cell runs in
GRAPH_MODE, the r1.6 default.
"""
import math

import numpy as np

from .. import compare
from ..case import PROPERTY, Page, Structured, Transcript, Uncased
from ._common import check_normal_weights, conv2d_reference, conv_in_ms_function, on_cpu

PAGE = Page(seed="001_04360f85b8688927.txt", title="动态图与静态图",
            english="PyNative and graph modes", version="r1.6", compat="1.6",
            notebook=True)

SETUP = '''\
import numpy as np
import mindspore.nn as nn
from mindspore import context, Tensor, ParameterTuple, ms_function
import mindspore.ops as ops
from mindspore.common.initializer import Normal
from mindspore.nn import WithLossCell, Momentum

# 设定为Graph模式,也可替换为PYNATIVE_MODE
context.set_context(mode=context.GRAPH_MODE, device_target="Ascend")
'''

LENET = '''\
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

# 实例化网络
net = LeNet5()
'''

GRAD_WRAP = '''\
class GradWrap(nn.Cell):
    """求函数输入梯度"""
    def __init__(self, network):
        super(GradWrap, self).__init__(auto_prefix=False)
        self.network = network
        # 用Tuple的形式包装weight
        self.weights = ParameterTuple(filter(lambda x: x.requires_grad, network.get_parameters()))

    def construct(self, x, label):
        weights = self.weights
        # 返回值为梯度
        return ops.GradOperation(get_by_list=True)(self.network, weights)(x, label)
'''

# The notebook reaches the training cell in PyNative mode, set by the cell of
# "PyNative模式说明 / 性能优化"; only that cell's set_context line is replayed.
PYNATIVE_LINE = '''\
# 仍设定为PyNative模式
context.set_context(mode=context.PYNATIVE_MODE, device_target="Ascend")
'''


def _conv_single_op(ms, check):
    """执行单算子: Conv2d(3, 4, 3) on ones, GRAPH_MODE; random weights, so properties only."""
    ms.context.set_context(mode=ms.context.GRAPH_MODE)
    conv = ms.nn.Conv2d(3, 4, 3, bias_init='zeros')
    input_data = ms.Tensor(np.ones([1, 3, 5, 5]).astype(np.float32))
    output = conv(input_data)
    check.shape(output, (1, 4, 5, 5), "output")
    check.dtype(output, "Float32", "output")
    weight = conv.weight.asnumpy()
    expected = conv2d_reference(np.ones([1, 3, 5, 5]), weight, padding=(1, 1, 1, 1))
    check.close(output.asnumpy(), expected, 1e-5, "output against a numpy convolution with the drawn weights")
    check_normal_weights(check, weight, 0.01, "default weight init")


def _loss_is_ln10(stdouts):
    """The printed loss is one float32 number within 1e-5 of ln(10) = 2.3025851."""
    text = stdouts[0].strip()
    tokens = compare.tokenize(text)
    if len(tokens) != 1 or tokens[0].kind != "number" or compare.same_number_kind("1", tokens[0].text):
        return [f"printed {text!r}; the page prints one float, 2.3025854"]
    value = float(tokens[0].text)
    if abs(value - math.log(10)) > 1e-5:
        return [f"loss {value} is not ln(10) = {math.log(10):.7f} to 1e-5 (the page prints 2.3025854)"]
    return []


CASES = [
    Structured(
        id="modes_r16.conv_single_op", page=PAGE, section="执行方式 / 执行单算子", area="graph-mode",
        body=_conv_single_op, tier=PROPERTY,
        documented="a (1, 4, 5, 5) float32 array; rows 1-3 and columns 1-3 repeat (ones input, "
                   "'same' padding); values of order 0.01-0.1",
        notes="Unseeded Normal(0.01) weights: checked are the shape, the dtype, equality with a "
              "numpy convolution of the drawn weights, and the weights' distribution.",
        differs_in="2.10",
        later="MindSpore 2.x initialises Conv2d weights with HeUniform(sqrt(5)) instead of "
              "Normal(0.01) (semantics 8.1); r1.x and refms compat 1.6 follow the page."),
    Transcript(
        id="modes_r16.function", page=PAGE, section="执行方式 / 执行普通函数", area="graph-mode",
        prelude=SETUP, edits=(on_cpu("Ascend"),),
        script='''\
def add_func(x, y):
    z = ops.add(x, y)
    z = ops.add(z, x)
    return z

x = Tensor(np.ones([3, 3], dtype=np.float32))
y = Tensor(np.ones([3, 3], dtype=np.float32))
output = add_func(x, y)
print(output.asnumpy())
''',
        expected='''\
[[3. 3. 3.]
 [3. 3. 3.]
 [3. 3. 3.]]
'''),
    Transcript(
        id="modes_r16.network", page=PAGE, section="执行方式 / 执行网络", area="graph-mode",
        prelude=SETUP, edits=(on_cpu("Ascend"),),
        script='''\
import numpy as np
import mindspore.nn as nn
import mindspore.ops as ops
from mindspore import context, Tensor

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
''',
        expected="[ 4. 10. 18.]\n"),
    Transcript(
        id="modes_r16.ms_function_fn", page=PAGE, section="PyNative模式说明 / 性能优化", area="staging",
        prelude=SETUP, edits=(on_cpu("Ascend"),),
        script='''\
# 导入ms_function
from mindspore import ms_function

# 仍设定为PyNative模式
context.set_context(mode=context.PYNATIVE_MODE, device_target="Ascend")

add = ops.Add()

# 使用装饰器编译计算图
@ms_function
def add_fn(x, y):
    res = add(x, y)
    return res

x = Tensor(np.ones([4, 4]).astype(np.float32))
y = Tensor(np.ones([4, 4]).astype(np.float32))
z = add_fn(x, y)
print(z.asnumpy())
''',
        expected='''\
[[2. 2. 2. 2.]
 [2. 2. 2. 2.]
 [2. 2. 2. 2.]
 [2. 2. 2. 2.]]
'''),
    Structured(
        id="modes_r16.ms_function_conv", page=PAGE, section="PyNative模式说明 / 性能优化", area="staging",
        body=conv_in_ms_function, tier=PROPERTY,
        documented="a (2, 4, 3, 3) float32 array of values of order 0.01-0.1",
        notes="Same example as pynative_r16.ms_function_conv, in the notebook's PyNative mode.",
        differs_in="2.10",
        later="MindSpore 2.x initialises Conv2d weights with HeUniform(sqrt(5)) instead of "
              "Normal(0.01) (semantics 8.1); r1.x and refms compat 1.6 follow the page."),
    Transcript(
        id="modes_r16.lenet_grad_loss", page=PAGE, section="PyNative模式说明 / 梯度求取", area="training",
        prelude=SETUP + PYNATIVE_LINE + LENET + GRAD_WRAP, edits=(on_cpu("Ascend"),),
        script='''\
# 设定优化器、损失函数
optimizer = Momentum(filter(lambda x: x.requires_grad, net.get_parameters()), 0.1, 0.9)
criterion = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')

# 通过WithLossCell获取Loss值
net_with_criterion = WithLossCell(net, criterion)

# 调用GradWrap
train_network = GradWrap(net_with_criterion)
train_network.set_train()

# 产生输入数据
input_data = Tensor(np.ones([32, 1, 32, 32]).astype(np.float32) * 0.01)
label = Tensor(np.ones([32]).astype(np.int32))
output = net(Tensor(input_data))

# 利用前向网络计算loss
loss_output = criterion(output, label)

# 求得梯度
grads = train_network(input_data, label)

# 输出loss
success = optimizer(grads)
loss = loss_output.asnumpy()
print(loss)
''',
        expected="2.3025854\n", tier=PROPERTY, check=_loss_is_ln10,
        notes="With r1.6's default init (Normal(0.01) conv weights, Normal(0.02) dense weights, "
              "zero biases) and inputs of 0.01 every logit is of order 1e-6, so the loss is ln(10) "
              "up to ~1e-6 and its 7th decimal depends on the unseeded weights: MindSpore with "
              "that init printed 2.302585 and 2.3025851 on different runs, the page 2.3025854. "
              "Checked: one float within 1e-5 of ln(10).",
        differs_in="2.10",
        later="MindSpore 2.x's default init (HeUniform weights, Uniform biases) gives non-zero "
              "logits and a loss that varies from run to run (2.2689974 and 2.217453 on two 2.10 "
              "runs; semantics 8.2); r1.x releases reproduce the page, and refms does under "
              "compat 1.6."),
    Transcript(
        id="modes_r16.jit_fallback", page=PAGE, section="动静统一 / JIT Fallback", area="graph-mode",
        edits=(on_cpu("GPU"),),
        script='''\
import numpy as np
import mindspore.nn as nn
from mindspore import context, Tensor

context.set_context(mode=context.GRAPH_MODE, device_target="GPU")

class Net(nn.Cell):
    def construct(self):
        x = np.array([1, 2, 3])
        y = Tensor(x)
        return y

net = Net()
print(net())

''',
        expected="[1 2 3]\n"),
]

UNCASED = [
    Uncased(PAGE, "执行方式", "setup cell (imports, GRAPH_MODE)",
            "no output; the prelude of the cases that need its state"),
    Uncased(PAGE, "PyNative模式说明 / 梯度求取", "LeNet5 cell", "definition only; prelude of modes_r16.lenet_grad_loss"),
    Uncased(PAGE, "PyNative模式说明 / 梯度求取", "GradWrap cell", "definition only; prelude of modes_r16.lenet_grad_loss"),
]
