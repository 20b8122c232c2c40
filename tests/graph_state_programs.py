"""Small programs on the graph mode's mutable state: attribute assignment, subscript
assignment and ``mutable`` (MindSpore 2.10 static-graph syntax: "Attribute References and
Attribute Modification", "Supporting Property Setting and Modification", "List", "Calling the
Third-party Libraries", "Constants and Variables Within JIT").

Each is a script written for MindSpore; ``tests/recorders/record_graph_state.py`` records what
MindSpore 2.10 prints (or raises) running it, ``tests/test_graph_state.py`` replays it on
refms.  Each program calls its compiled function more than once where that shows whether an
effect happens at compile time or at every run.
"""

PROGRAMS = {
    # self.n read and set by the program: program state, read and set at every run
    "cell_counter": """
import mindspore
from mindspore import nn

class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.n = 2

    @mindspore.jit
    def construct(self, x):
        self.n = self.n + 1
        return x * self.n, self.n

net = Net()
x = mindspore.tensor([1.0, 2.0])
for _ in range(3):
    print(net(x), net.n)
net.n = 10
print(net(x), net.n)
""",
    # an attribute the program only reads is a compile-time constant
    "read_only_attribute": """
import mindspore
from mindspore import nn

class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.m = 2

    @mindspore.jit
    def construct(self, x):
        return self.m * x

net = Net()
x = mindspore.tensor([1.0, 1.0])
print(net(x))
net.m = 10
print(net(x))
""",
    # a Parameter attribute is written with Assign: it stays a Parameter
    "parameter_assign": """
import mindspore
from mindspore import nn

class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = mindspore.Parameter(mindspore.tensor([1.0, 2.0]), name="w")

    @mindspore.jit
    def construct(self, x):
        self.w = x * 2
        y = self.w + 1
        return y

net = Net()
print(net(mindspore.tensor([1.0, 1.0])), net.w.asnumpy(), isinstance(net.w, mindspore.Parameter))
print(net(mindspore.tensor([2.0, 3.0])), net.w.asnumpy())
""",
    # a plain object's attribute is set at every run
    "object_attribute_each_run": """
import mindspore

class Box:
    def __init__(self):
        self.x = 1

box = Box()

@mindspore.jit
def f(t):
    box.x = 100
    return t + 1

print(f(mindspore.tensor([1])), box.x)
box.x = 7
print(f(mindspore.tensor([1])), box.x)
""",
    # the value set can be a Tensor the graph computes; reading it back gives that Tensor
    "tensor_attribute": """
import mindspore
from mindspore import nn

class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.a = 1

    @mindspore.jit
    def construct(self, x):
        self.a = x + 1
        return self.a * 2

net = Net()
print(net(mindspore.tensor([1.0, 2.0])), net.a)
""",
    # an accumulator that starts as a number and becomes a Tensor
    "accumulator_becomes_tensor": """
import mindspore
from mindspore import nn

class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.total = 0

    @mindspore.jit
    def construct(self, x):
        self.total = self.total + x
        return self.total

net = Net()
x = mindspore.tensor([1.0, 2.0])
for _ in range(3):
    print(net(x), net.total)
""",
    # augmented assignment to attributes
    "augmented_attribute": """
import mindspore
from mindspore import nn

class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.steps = 0
        self.scale = 1.0

    @mindspore.jit
    def construct(self, x):
        self.steps += 1
        self.scale *= 2.0
        return x * self.scale

net = Net()
for _ in range(2):
    print(net(mindspore.tensor([1.0, 3.0])), net.steps, net.scale)
""",
    # an attribute of a Tensor input is set on the Tensor (MindSpore accepts it)
    "attribute_of_graph_value": """
import mindspore

@mindspore.jit
def f(x, y):
    y.weight = x
    return x

y = mindspore.tensor([2.0])
print(f(mindspore.tensor([1.0]), y))
""",
    # x[i][j] = v on lists
    "nested_list_setitem": """
import mindspore

@mindspore.jit
def f():
    x = [[1, 2], [3, 4], 5]
    x[1][0] = 9
    x[0] = [0]
    x[2] += 1
    return x

print(f())
""",
    # x[i] = v on a numpy array (JIT Fallback)
    "numpy_setitem": """
import numpy as np
import mindspore

@mindspore.jit
def f():
    a = np.array([[1, 2], [3, 4]])
    a[0, 1] = 7
    a[1] += 1
    return mindspore.tensor(a)

print(f())
print(f())
""",
    # x[i] = v on a Tensor, and its gradient
    "tensor_setitem_grad": """
import mindspore

@mindspore.jit
def f(x, y):
    z = x * 1
    z[1] = y * 2
    z[0, 1] = 5.0
    return (z * z).sum()

x = mindspore.tensor([[1.0, 2.0], [3.0, 4.0]])
y = mindspore.tensor([0.5, 1.5])
print(f(x, y))
print(mindspore.grad(f, grad_position=(0, 1))(x, y))
""",
    # x[mask] = v and x[i] = v with Tensor indices known only when the graph runs
    "tensor_setitem_runtime_index": """
import mindspore

@mindspore.jit
def by_mask(x, v):
    y = x * 1
    y[y > 1.5] = v
    return y

@mindspore.jit
def by_rows(x, i, v):
    y = x * 1
    y[i] = v * 2
    return y

x = mindspore.tensor([[1.0, 2.0], [3.0, 0.5], [4.0, 5.0]])
v = mindspore.tensor(7.0)
row = mindspore.tensor([10.0, 20.0])
print(by_mask(x, v))
print(by_rows(x, mindspore.tensor(1), row))
print(by_rows(x, mindspore.tensor(-1), row))
print(by_rows(x, mindspore.tensor([0, 2]), row))
print(mindspore.grad(lambda x, v: (by_mask(x, v) * x).sum(), grad_position=(0, 1))(x, v))
print(mindspore.grad(lambda x, v: (by_rows(x, mindspore.tensor([0, 2]), v) * x).sum(),
                     grad_position=(0, 1))(x, row))
""",
    # mutable numbers are run-time scalars
    "mutable_scalars": """
import mindspore

@mindspore.jit
def f(x, n, pair):
    return x * n + pair[0] - pair[1], n * 2

x = mindspore.tensor([1.0, 2.0])
print(f(x, mindspore.mutable(2), mindspore.mutable((3, 1))))
print(f(x, mindspore.mutable(5), mindspore.mutable((0, 4))))
print(mindspore.mutable(3), mindspore.mutable([1, 2.5]), mindspore.mutable(True))
""",
    # mutable inside a graph
    "mutable_in_graph": """
import mindspore

@mindspore.jit
def f(x):
    n = mindspore.mutable(3)
    t = mindspore.mutable((mindspore.tensor([1.0]), 2))
    return x * n + t[0] * t[1]

print(f(mindspore.tensor([1.0, 2.0])))
""",
    # a gradient with respect to a mutable tuple of Tensors (mindspore.mutable's docstring)
    "mutable_grad": """
import mindspore
from mindspore import nn, ops

class Net(nn.Cell):
    def construct(self, z):
        return ops.matmul(z[0], z[1])

class GradNetWrtX(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.grad_op = ops.GradOperation()

    def construct(self, z):
        return self.grad_op(self.net)(z)

mindspore.set_context(mode=mindspore.GRAPH_MODE)
z = mindspore.mutable((mindspore.tensor([[0.5, 0.6, 0.4], [1.2, 1.3, 1.1]]),
                       mindspore.tensor([[0.01, 0.3, 1.1], [0.1, 0.2, 1.3], [2.1, 1.2, 3.3]])))
print(GradNetWrtX(Net())(z))
""",
    "mutable_bad_type": """
import mindspore
mindspore.mutable("text")
""",
    "mutable_bad_dynamic_len": """
import mindspore
mindspore.mutable(1, dynamic_len=True)
""",
}
