"""Seed 000: "PyNative模式应用" (programming guide, MindSpore r1.6).

Plain Markdown page; every code block is self-contained.  The page targets
GPU/Ascend in several examples: those lines run on CPU (recorded as edits).
"""
from ..case import PROPERTY, ExpectError, Page, Structured, Transcript, Uncased
from ._common import conv_in_ms_function, on_cpu

PAGE = Page(seed="000_1f0ba937f6d417c3.txt", title="PyNative模式应用",
            english="Using PyNative mode", version="r1.6", compat="1.6")

HOOK_ORDER_2X = ("MindSpore 2.x passes the gradient w.r.t. the cell's inputs as the hook's 2nd "
                 "argument and w.r.t. its output as the 3rd (r1.6/r1.7: the reverse), so 2.10 "
                 "prints the two tuples in the opposite order (semantics 5.3). refms reproduces "
                 "the page under compat 1.6/1.7.")


CASES = [
    Transcript(
        id="pynative_r16.single_op", page=PAGE, section="执行单算子", area="ops",
        script='''\
import numpy as np
import mindspore.ops as ops
from mindspore import context, Tensor

context.set_context(mode=context.PYNATIVE_MODE, device_target="CPU")

x = Tensor(np.ones([1, 3, 5, 5]).astype(np.float32))
y = Tensor(np.ones([1, 3, 5, 5]).astype(np.float32))
z = ops.add(x, y)
print(z.asnumpy())
''',
        expected='''\
[[[[2. 2. 2. 2. 2.]
   [2. 2. 2. 2. 2.]
   [2. 2. 2. 2. 2.]
   [2. 2. 2. 2. 2.]
   [2. 2. 2. 2. 2.]]

  [[2. 2. 2. 2. 2.]
   [2. 2. 2. 2. 2.]
   [2. 2. 2. 2. 2.]
   [2. 2. 2. 2. 2.]
   [2. 2. 2. 2. 2.]]

  [[2. 2. 2. 2. 2.]
   [2. 2. 2. 2. 2.]
   [2. 2. 2. 2. 2.]
   [2. 2. 2. 2. 2.]
   [2. 2. 2. 2. 2.]]]]
'''),
    Transcript(
        id="pynative_r16.function", page=PAGE, section="执行函数", area="ops",
        script='''\
import numpy as np
from mindspore import context, Tensor
import mindspore.ops as ops

context.set_context(mode=context.PYNATIVE_MODE, device_target="CPU")

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
        id="pynative_r16.network", page=PAGE, section="执行网络", area="cells",
        script='''\
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
''',
        expected="[ 4. 10. 18.]\n"),
    Transcript(
        id="pynative_r16.ms_function_method", page=PAGE, section="提升PyNative性能", area="staging",
        script='''\
import numpy as np
import mindspore.nn as nn
from mindspore import context, Tensor
import mindspore.ops as ops
from mindspore import ms_function

context.set_context(mode=context.PYNATIVE_MODE, device_target="GPU")

class TensorAddNet(nn.Cell):
    def __init__(self):
        super(TensorAddNet, self).__init__()
        self.add = ops.Add()

    @ms_function
    def construct(self, x, y):
        res = self.add(x, y)
        return res

x = Tensor(np.ones([4, 4]).astype(np.float32))
y = Tensor(np.ones([4, 4]).astype(np.float32))
net = TensorAddNet()

z = net(x, y) # Staging mode
add = ops.Add()
res = add(x, z) # PyNative mode
print(res.asnumpy())
''',
        edits=(on_cpu("GPU"),),
        expected='''\
[[3. 3. 3. 3.]
 [3. 3. 3. 3.]
 [3. 3. 3. 3.]
 [3. 3. 3. 3.]]
'''),
    Transcript(
        id="pynative_r16.ms_function_fn", page=PAGE, section="提升PyNative性能", area="staging",
        script='''\
import numpy as np
import mindspore.nn as nn
from mindspore import context, Tensor
import mindspore.ops as ops
from mindspore import ms_function

context.set_context(mode=context.PYNATIVE_MODE, device_target="GPU")

add = ops.Add()

@ms_function
def add_fn(x, y):
    res = add(x, y)
    return res

x = Tensor(np.ones([4, 4]).astype(np.float32))
y = Tensor(np.ones([4, 4]).astype(np.float32))
z = add_fn(x, y)
print(z.asnumpy())
''',
        edits=(on_cpu("GPU"),),
        expected='''\
[[2. 2. 2. 2.]
 [2. 2. 2. 2.]
 [2. 2. 2. 2.]
 [2. 2. 2. 2.]]
'''),
    Structured(
        id="pynative_r16.ms_function_conv", page=PAGE, section="提升PyNative性能", area="staging",
        body=conv_in_ms_function, tier=PROPERTY,
        documented="a (2, 4, 3, 3) float32 array of values of order 0.01-0.1 "
                   "(unseeded Normal(0.01) weights and np.random.randn input)",
        notes="Output depends on unseeded random weights and input: checked are the shape, the "
              "dtype, equality with a numpy convolution of the weights actually drawn, and that "
              "the weights follow the page's default init Normal(sigma=0.01).",
        differs_in="2.10",
        later="MindSpore 2.x initialises Conv2d weights with HeUniform(sqrt(5)) = U(+-1/sqrt(fan_in)) "
              "instead of Normal(0.01) (semantics 8.1); r1.x releases reproduce the page, and "
              "refms does under compat 1.6."),
    Transcript(
        id="pynative_r16.sync_error", page=PAGE, section="PyNative下同步执行", area="errors",
        script='''\
import numpy as np
import mindspore.context as context
import mindspore.nn as nn
from mindspore import Tensor
from mindspore import dtype as mstype
import mindspore.ops as ops

context.set_context(mode=context.PYNATIVE_MODE, device_target="Ascend", pynative_synchronize=True)

class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.get_next = ops.GetNext([mstype.float32], [(1, 1)], 1, "test")

    def construct(self, x1,):
        x = self.get_next()
        x = x + x1
        return x

context.set_context()
x1 = np.random.randn(1, 1).astype(np.float32)
net = Net()
output = net(Tensor(x1))
print(output.asnumpy())
''',
        edits=(on_cpu("Ascend"),),
        expect_error=ExpectError("RuntimeError", "x = self.get_next()"),
        notes="The page shows the Ascend runtime's message; each platform words it differently "
              "(MindSpore 2.10 CPU: 'Unsupported op [GetNext] on CPU'), so the exception type and "
              "the line it is raised at (synchronous execution) are compared, not the message."),
    Transcript(
        id="pynative_r16.hook_backward", page=PAGE, section="Hook功能 / HookBackward算子", area="hooks",
        script='''\
import mindspore
from mindspore import ops
from mindspore import Tensor
from mindspore import context
from mindspore.ops import GradOperation

context.set_context(mode=context.PYNATIVE_MODE, device_target="GPU")

def hook_fn(grad_out):
    print(grad_out)

grad_all = GradOperation(get_all=True)
hook = ops.HookBackward(hook_fn)
def hook_test(x, y):
    z = x * y
    z = hook(z)
    z = z * y
    return z

def net(x, y):
    return grad_all(hook_test)(x, y)

output = net(Tensor(1, mindspore.float32), Tensor(2, mindspore.float32))
print(output)
''',
        edits=(on_cpu("GPU"),),
        expected='''\
(Tensor(shape=[], dtype=Float32, value= 2),)
(Tensor(shape=[], dtype=Float32, value= 4), Tensor(shape=[], dtype=Float32, value= 4))
'''),
    Transcript(
        id="pynative_r16.cell_backward_hook", page=PAGE,
        section="Hook功能 / nn.Cell对象的register_backward_hook功能", area="hooks",
        script='''\
import numpy as np
import mindspore
import mindspore.nn as nn
from mindspore import Tensor
from mindspore import context
from mindspore.ops import GradOperation

context.set_context(mode=context.PYNATIVE_MODE, device_target="GPU")

def cell_hook_function(cell_id, grad_input, grad_output):
    print(grad_input)
    print(grad_output)

class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.conv = nn.Conv2d(1, 2, kernel_size=2, stride=1, padding=0, weight_init="ones", pad_mode="valid")
        self.bn = nn.BatchNorm2d(2, momentum=0.99, eps=0.00001, gamma_init="ones")
        self.bn.register_backward_hook(cell_hook_function)
        self.relu = nn.ReLU()

    def construct(self, x):
        x = self.conv(x)
        x = self.bn(x)
        x = self.relu(x)
        return x

grad_all = GradOperation(get_all=True)
output = grad_all(Net())(Tensor(np.ones([1, 1, 2, 2]).astype(np.float32)))
print(output)
''',
        edits=(on_cpu("GPU"),),
        expected='''\
(Tensor(shape=[1, 2, 1, 1], dtype=Float32, value=
[[[[ 1.00000000e+00]],
  [[ 1.00000000e+00]]]]),)
(Tensor(shape=[1, 2, 1, 1], dtype=Float32, value=
[[[[ 9.99994993e-01]],
  [[ 9.99994993e-01]]]]),)
(Tensor(shape=[1, 1, 2, 2], dtype=Float32, value=
[[[[ 1.99998999e+00, 1.99998999e+00],
   [ 1.99998999e+00, 1.99998999e+00]]]]),)
''',
        differs_in="2.10",
        later=HOOK_ORDER_2X),
    Transcript(
        id="pynative_r16.custom_bprop", page=PAGE, section="自定义bprop功能", area="bprop",
        script='''\
import mindspore
import mindspore.nn as nn
from mindspore import Tensor
from mindspore import context
from mindspore.ops import GradOperation

context.set_context(mode=context.PYNATIVE_MODE, device_target="GPU")

class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()

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
''',
        edits=(on_cpu("GPU"),),
        expected="(Tensor(shape=[], dtype=Float32, value= 3), Tensor(shape=[], dtype=Float32, value= 2))\n"),
]

# 构建网络: the page's LeNet5 definition. Not a case (no output); tests/test_cell_seed_examples.py
# builds it and runs a forward pass.
LENET5 = '''\
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

UNCASED = [
    Uncased(PAGE, "设置模式", "`context.set_context(mode=context.PYNATIVE_MODE)`",
            "one statement, no output (the mode switch is exercised by every case)"),
    Uncased(PAGE, "构建网络", "LeNet5 class definition", "definition only, no output"),
    Uncased(PAGE, "设置Loss函数及优化器", "`net_loss = ...; net_opt = nn.Momentum(network..., config.lr, ...)`",
            "fragment: `network` and `config` come from ModelZoo's lenet, not the page; no output"),
    Uncased(PAGE, "保存模型参数", "CheckpointConfig / ModelCheckpoint", "fragment using ModelZoo's `config`; no output"),
    Uncased(PAGE, "训练网络", "Model(network, ...) with callbacks", "fragment needing ModelZoo's dataset and config; no output"),
    Uncased(PAGE, "PyNative下同步执行", "`context.set_context(pynative_synchronize=True)`",
            "one statement; its effect is case pynative_r16.sync_error"),
    Uncased(PAGE, "Hook功能 / nn.Cell对象的register_backward_hook功能", "`def cell_hook_function(...)`",
            "definition only; used by case pynative_r16.cell_backward_hook"),
]
