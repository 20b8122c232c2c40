"""Seed 004: "动静态图" (tutorial notebook, MindSpore master of the 2.0 era).

Cells ``In [n]`` share one namespace; ``In [1]`` (imports, ``MyNet``, ``x``,
``y``) is the prelude of every case.
"""
from ..case import Page, Transcript, Uncased

PAGE = Page(seed="004_5326c27612eb1da5.txt", title="动静态图",
            english="Graph and PyNative modes", version="master (2.0 era)", compat="2.0",
            notebook=True)

IN_1 = '''\
import numpy as np
import mindspore.nn as nn
import mindspore.ops as ops
import mindspore as ms

class MyNet(nn.Cell):
    """自定义网络，实现两个张量的加法"""
    def __init__(self):
        super(MyNet, self).__init__()
        self.add = ops.Add()

    def construct(self, x, y):
        return self.add(x, y)

x = ms.Tensor(np.array([1.0, 2.0, 3.0]).astype(np.float32))
y = ms.Tensor(np.array([4.0, 5.0, 6.0]).astype(np.float32))
'''

CASES = [
    Transcript(
        id="modes_20.graph_mode_switch", page=PAGE, section="动静态图介绍 / 模式切换 (In [2])", area="graph-mode",
        prelude=IN_1,
        script='''\
import mindspore as ms

ms.set_context(mode=ms.GRAPH_MODE)

net = MyNet()
print(net(x, y))
''',
        expected="[5. 7. 9.]\n"),
    Transcript(
        id="modes_20.pynative_mode_switch", page=PAGE, section="动静态图介绍 / 模式切换 (In [3])", area="cells",
        prelude=IN_1,
        script='''\
ms.set_context(mode=ms.PYNATIVE_MODE)

net = MyNet()
print(net(x, y))
''',
        expected="[5. 7. 9.]\n"),
    Transcript(
        id="modes_20.graph_mode_net", page=PAGE, section="静态图 / 静态图模式代码示例 (In [4])", area="graph-mode",
        prelude=IN_1,
        script='''\
# 设置运行模式为静态图模式
ms.set_context(mode=ms.GRAPH_MODE)

class Net(nn.Cell):
    """自定义网络，实现两个张量的乘法"""
    def __init__(self):
        super(Net, self).__init__()
        self.mul = ops.Mul()

    def construct(self, x, y):
        """定义执行代码"""
        return self.mul(x, y)

x = ms.Tensor(np.array([1.0, 2.0, 3.0]).astype(np.float32))
y = ms.Tensor(np.array([4.0, 5.0, 6.0]).astype(np.float32))

net = Net()

print(net(x, y))
''',
        expected="[ 4. 10. 18.]\n"),
    Transcript(
        id="modes_20.pynative_ops_mul", page=PAGE, section="动态图 / 动态图模式执行原理 (In [5])", area="ops",
        prelude=IN_1,
        script='''\
# 设置运行模式为动态图模式
ms.set_context(mode=ms.PYNATIVE_MODE)

x = ms.Tensor(np.array([1.0, 2.0, 3.0]).astype(np.float32))
y = ms.Tensor(np.array([4.0, 5.0, 6.0]).astype(np.float32))

output = ops.mul(x, y)

print(output.asnumpy())
''',
        expected="[ 4. 10. 18.]\n"),
    Transcript(
        id="modes_20.pynative_grad", page=PAGE, section="动态图 / 动态图模式自动微分原理 (In [6])", area="autodiff",
        prelude=IN_1,
        script='''\
# 设置运行模式为动态图模式
ms.set_context(mode=ms.PYNATIVE_MODE)

class Net(nn.Cell):
    """自定义网络"""
    def __init__(self):
        super(Net, self).__init__()
        self.matmul = ops.MatMul()
        self.z = ms.Parameter(ms.Tensor(np.array([1.0], np.float32)), name='z')

    def construct(self, x, y):
        x = x * self.z
        x = self.matmul(x, y)
        return x

class GradNetWrtX(nn.Cell):
    """定义对x的求导"""
    def __init__(self, net):
        super(GradNetWrtX, self).__init__()

        self.net = net
        self.grad_op = ops.GradOperation()

    def construct(self, x, y):
        gradient_function = self.grad_op(self.net)
        return gradient_function(x, y)

x = ms.Tensor([[0.8, 0.6, 0.2], [1.8, 1.3, 1.1]], dtype=ms.float32)
y = ms.Tensor([[0.11, 3.3, 1.1], [1.1, 0.2, 1.4], [1.1, 2.2, 0.3]], dtype=ms.float32)

output = GradNetWrtX(Net())(x, y)
print(output)
''',
        expected='''\
[[4.5099998 2.7       3.6000001]
 [4.5099998 2.7       3.6000001]]
'''),
    Transcript(
        id="modes_20.pynative_for_loop", page=PAGE, section="动态图 / 动态图模式下的控制流 (In [8])", area="cells",
        prelude=IN_1,
        script='''\
# 设置运行模式为动态图模式
ms.set_context(mode=ms.PYNATIVE_MODE)

class Net(nn.Cell):
    """自定义网络"""
    def __init__(self):
        super(Net, self).__init__()
        self.matmul = ops.MatMul()
        self.z = ms.Parameter(ms.Tensor(np.array([1.0], np.float32)), name='z')

    def construct(self, x):
        for _ in range(3):
            x = x + self.z
        return x

x = ms.Tensor(np.array([1.0, 2.0, 3.0]).astype(np.float32))
net = Net()
output = net(x)

print(output)
''',
        expected="[4. 5. 6.]\n"),
]

UNCASED = [
    Uncased(PAGE, "动静态图介绍 / 模式切换 (In [1])", "MyNet definition and data",
            "no output; the prelude of every case of this page"),
    Uncased(PAGE, "动态图 / 动态图模式自动微分原理 (In [7])", "`@bprop_getters.register(ops.Mul)`",
            "MindSpore's internal bprop registry (`mindspore.ops._grad`), shown to explain the "
            "mechanism; `P` and `binop_grad_common` are undefined on the page and there is no output"),
]
