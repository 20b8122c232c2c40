"""Seed 002: "动态图模式应用" (tutorial notebook, MindSpore r1.7).

A notebook: the first three examples use the setup cell's imports and mode
(run as their ``prelude``); the later examples import what they use.  The
export lost the code's indentation; it is restored here, nothing else.
"""
from ..case import ExpectError, Page, Transcript, Uncased
from .seed000_pynative_r16 import HOOK_ORDER_2X

PAGE = Page(seed="002_dfb12797f1c85687.txt", title="动态图模式应用",
            english="Using PyNative mode", version="r1.7", compat="1.7",
            notebook=True)

SETUP = '''\
import numpy as np
import mindspore.ops as ops
import mindspore.nn as nn
from mindspore import Tensor, context

context.set_context(mode=context.PYNATIVE_MODE)
'''

HOOK_IMPORTS = '''\
import numpy as np
import mindspore
import mindspore.nn as nn
from mindspore import Tensor
from mindspore import context
from mindspore.ops import GradOperation

context.set_context(mode=context.PYNATIVE_MODE)
'''

CASES = [
    Transcript(
        id="pynative_r17.single_op", page=PAGE, section="动态图模式下的操作 / 执行单算子", area="ops",
        prelude=SETUP,
        script='''\
add = ops.Add()
x = Tensor(np.array([1, 2]).astype(np.float32))
y = Tensor(np.array([3, 5]).astype(np.float32))
z = add(x, y)
print("x:", x.asnumpy(), "\\ny:", y.asnumpy(), "\\nz:", z.asnumpy())
''',
        expected="x: [1. 2.] \ny: [3. 5.] \nz: [4. 7.]\n"),
    Transcript(
        id="pynative_r17.function", page=PAGE, section="动态图模式下的操作 / 执行函数", area="ops",
        prelude=SETUP,
        script='''\
add = ops.Add()

def add_func(x, y):
    z = add(x, y)
    z = add(z, x)
    return z

x = Tensor(np.array([1, 2]).astype(np.float32))
y = Tensor(np.array([3, 5]).astype(np.float32))
z = add_func(x, y)
print("x:", x.asnumpy(), "\\ny:", y.asnumpy(), "\\nz:", z.asnumpy())
''',
        expected="x: [1. 2.] \ny: [3. 5.] \nz: [5. 9.]\n"),
    Transcript(
        id="pynative_r17.network", page=PAGE, section="动态图模式下的操作 / 执行网络", area="cells",
        prelude=SETUP,
        script='''\
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
''',
        expected="x: [1. 2. 3.] \ny: [4. 5. 6.] \nz: [ 4. 10. 18.]\n"),
    Transcript(
        id="pynative_r17.sync_error", page=PAGE, section="动态图模式下同步执行", area="errors",
        script='''\
import numpy as np
import mindspore.context as context
import mindspore.nn as nn
from mindspore import Tensor
from mindspore import dtype as mstype
import mindspore.ops as ops

# 通过设置pynative_synchronize来使算子同步执行
context.set_context(mode=context.PYNATIVE_MODE, pynative_synchronize=True)

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
        expect_error=ExpectError("RuntimeError", "x = self.get_next()"),
        notes="The page shows a GPU queue message; the exception type and the line it is raised "
              "at (synchronous execution) are compared, not the platform's wording."),
    Transcript(
        id="pynative_r17.hook_backward", page=PAGE, section="Hook功能 / HookBackward算子", area="hooks",
        script='''\
import mindspore
from mindspore import ops
from mindspore import Tensor
from mindspore import context
from mindspore.ops import GradOperation

context.set_context(mode=context.PYNATIVE_MODE)

def hook_fn(grad_out):
    """打印梯度"""
    print("hook_fn print grad_out:", grad_out)

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
print("output:", output)
''',
        expected='''\
hook_fn print grad_out: (Tensor(shape=[], dtype=Float32, value= 2),)
output: (Tensor(shape=[], dtype=Float32, value= 4), Tensor(shape=[], dtype=Float32, value= 4))
'''),
    Transcript(
        id="pynative_r17.forward_pre_hook", page=PAGE, section="Hook功能 / Cell对象的register_forward_pre_hook功能",
        area="hooks",
        script='''\
import numpy as np
import mindspore
import mindspore.nn as nn
import mindspore.ops as ops
from mindspore import Tensor
from mindspore import context
from mindspore.ops import GradOperation

context.set_context(mode=context.PYNATIVE_MODE)

def forward_pre_hook_fn(cell_id, inputs):
    print("forward inputs: ", inputs)
    input_x = inputs[0]
    return input_x

class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.relu = nn.ReLU()
        self.handle = self.relu.register_forward_pre_hook(forward_pre_hook_fn)

    def construct(self, x, y):
        x = x + y
        x = self.relu(x)
        return x

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
''',
        expected='''\
forward inputs: (Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]),)
[2.]
forward inputs: (Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]),)
(Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00]), Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00]))
(Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00]), Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00]))
'''),
    Transcript(
        id="pynative_r17.forward_pre_hook_new_tensor", page=PAGE,
        section="Hook功能 / Cell对象的register_forward_pre_hook功能", area="hooks",
        script='''\
import numpy as np
import mindspore
import mindspore.nn as nn
from mindspore import Tensor
from mindspore import context
from mindspore.ops import GradOperation

context.set_context(mode=context.PYNATIVE_MODE)

def forward_pre_hook_fn(cell_id, inputs):
    print("forward inputs: ", inputs)
    return Tensor(np.ones([1]).astype(np.float32))

class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.relu = nn.ReLU()
        self.handle = self.relu.register_forward_pre_hook(forward_pre_hook_fn)

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
''',
        expected='''\
forward inputs: (Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]),)
(Tensor(shape=[1], dtype=Float32, value= [ 0.00000000e+00]), Tensor(shape=[1], dtype=Float32, value= [ 0.00000000e+00]))
'''),
    Transcript(
        id="pynative_r17.forward_hook", page=PAGE, section="Hook功能 / Cell对象的register_forward_hook功能",
        area="hooks",
        script=HOOK_IMPORTS + '''
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
''',
        expected='''\
forward inputs: (Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]),)
forward outputs: [2.]
(Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]), Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]))
(Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00]), Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00]))
'''),
    Transcript(
        id="pynative_r17.backward_hook", page=PAGE, section="Hook功能 / Cell对象的register_backward_hook功能",
        area="hooks",
        script=HOOK_IMPORTS + '''
def backward_hook_function(cell_id, grad_input, grad_output):
    print(grad_input)
    print(grad_output)

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

net = Net()
grad_all = GradOperation(get_all=True)
output = grad_all(net)(Tensor(np.ones([1, 1, 2, 2]).astype(np.float32)))
print(output)
net.handle.remove()
output = grad_all(net)(Tensor(np.ones([1, 1, 2, 2]).astype(np.float32)))
print("-------------\\n", output)
''',
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
-------------
 (Tensor(shape=[1, 1, 2, 2], dtype=Float32, value=
[[[[ 1.99998999e+00, 1.99998999e+00],
 [ 1.99998999e+00, 1.99998999e+00]]]]),)
''',
        differs_in="2.10",
        later=HOOK_ORDER_2X),
    Transcript(
        id="pynative_r17.hooks_combined", page=PAGE, section="Hook功能 / Cell对象的register_backward_hook功能",
        area="hooks",
        script=HOOK_IMPORTS + '''
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
''',
        expected='''\
forward inputs: (Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]),)
forward inputs: (Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]),)
forward outputs: [2.]
grad input: (Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]),)
grad output: (Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]),)
(Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]), Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]))
''',
        differs_in="2.10",
        later="MindSpore 2.x wraps the backward hook around the forward hooks' operations too and "
              "swapped the meaning of the hook's arguments (semantics 5.3, 5.4): 2.10 prints "
              "`grad input: ... value= [ 2.00000000e+00]` then `grad output: ... value= "
              "[ 1.00000000e+00]`; the final gradients are the same. r1.7 and refms compat 1.7 "
              "follow the page."),
    Transcript(
        id="pynative_r17.custom_bprop", page=PAGE, section="自定义bprop功能", area="bprop",
        script='''\
import mindspore
import mindspore.nn as nn
from mindspore import Tensor
from mindspore import context
from mindspore.ops import GradOperation

context.set_context(mode=context.PYNATIVE_MODE)

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
''',
        expected="(Tensor(shape=[], dtype=Float32, value= 3), Tensor(shape=[], dtype=Float32, value= 2))\n"),
]

UNCASED = [
    Uncased(PAGE, "动态图模式下的操作", "setup cell (imports, PYNATIVE_MODE)",
            "no output; the prelude of the first three cases"),
    Uncased(PAGE, "Hook功能 / Cell对象的register_forward_pre_hook功能", "`def forward_pre_hook_fn(cell_id, inputs)`",
            "definition only; the examples after it are cases"),
    Uncased(PAGE, "Hook功能 / Cell对象的register_forward_hook功能", "`def forward_hook_fn(cell_id, inputs, outputs)`",
            "definition only; the example after it is a case"),
    Uncased(PAGE, "Hook功能 / Cell对象的register_backward_hook功能",
            "`def backward_hook_function(cell_id, grad_input, grad_output)`",
            "definition only; the examples after it are cases"),
]
