"""Graph-mode programs that write a Parameter with ``ops.assign`` and read it again: the
forward values, and the gradients of a network whose ``construct`` assigns its weight
between reads (the last example of MindSpore's tutorial "static_graph_expert_programming",
and variations of it).

Each is a script written for MindSpore; ``tests/recorders/record_graph_assign.py`` records
what MindSpore 2.10 prints (or raises) running it, ``tests/test_graph_assign.py`` replays
it on refms.  ``READS`` holds the bodies of ``construct`` the gradient programs share
(``w`` starts at 2, ``x`` is 5); each runs in GRAPH_MODE and in PYNATIVE_MODE.
"""

#: name -> body of ``construct(self, x)`` (four-space indented under the ``def``).
READS = {
    # the read comes before the write
    "read_then_assign": """
        out = x * self.w
        ops.assign(self.w, Tensor(10.0, ms.float32))
        return out""",
    "assign_read_assign": """
        ops.assign(self.w, Tensor(1.0, ms.float32))
        out = x * self.w
        ops.assign(self.w, Tensor(5.0, ms.float32))
        return out""",
    "read_assign_read": """
        a = x * self.w
        ops.assign(self.w, Tensor(5.0, ms.float32))
        b = x * self.w
        return a + b""",
    # the tutorial's loop, in float32
    "loop_assign_read": """
        out = 0
        for i in range(3):
            ops.assign(self.w, Tensor(i, ms.float32))
            out = x * self.w + out
        return out""",
    "read_then_loop": """
        out = x * self.w
        for i in range(3):
            ops.assign(self.w, Tensor(i + 3, ms.float32))
            out = x * self.w + out
        return out""",
    "assign_add_around_read": """
        ops.assign_add(self.w, Tensor(1.0, ms.float32))
        out = x * self.w
        ops.assign_add(self.w, Tensor(1.0, ms.float32))
        return out""",
    # no gradient flows through the value assigned
    "assign_from_itself": """
        ops.assign(self.w, self.w * 3)
        return x * self.w""",
    "assign_then_read": """
        ops.assign(self.w, Tensor(3.0, ms.float32))
        return x * self.w""",
    "read_then_two_assigns": """
        out = x * self.w
        ops.assign(self.w, Tensor(4.0, ms.float32))
        ops.assign(self.w, Tensor(7.0, ms.float32))
        return out""",
    "two_reads_assign_read": """
        out = x * self.w * self.w
        ops.assign(self.w, Tensor(4.0, ms.float32))
        return out * self.w""",
    "assign_two_reads_assign": """
        ops.assign(self.w, Tensor(3.0, ms.float32))
        out = x * self.w
        out = out * self.w
        ops.assign(self.w, Tensor(4.0, ms.float32))
        return out""",
}

_MODES = {"graph": "GRAPH_MODE", "pynative": "PYNATIVE_MODE"}


_IMPORTS = """
import mindspore as ms
from mindspore import nn, ops, Tensor, Parameter
"""

#: A Cell with a weight ``w`` = 2 and no construct: the forward programs subclass it.
_WEIGHT_CELL = """

class WithWeight(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(2.0, ms.float32), name="w")
"""


def net_source(body, dtype="float32"):
    """The module text defining ``Net`` (a weight ``w`` = 2) whose construct is ``body``,
    with ``dtype`` for the weight and the constants."""
    return (_IMPORTS + _WEIGHT_CELL + f"""

class Net(WithWeight):
    def construct(self, x):{body}
""").replace("ms.float32", "ms." + dtype)


def _gradient_program(body, mode):
    return net_source(body) + f"""
ms.set_context(mode=ms.{mode})
net = Net()
x = Tensor(5.0, ms.float32)
gx, gw = ms.grad(net, 0, net.trainable_params())(x)
print("grad x", gx, "grad w", gw[0], "w", net.w.value())
"""


PROGRAMS = {}
for _name, _body in READS.items():
    for _mode, _constant in _MODES.items():
        PROGRAMS[f"{_name}_{_mode}"] = _gradient_program(_body, _constant)

# GradOperation(get_all=True, get_by_list=True) in graph mode: MindSpore's default Load
# elimination (MS_DEV_SIDE_EFFECT_LOAD_ELIM=1) copies no value for a single read followed by
# a write, and the backward then reads the final value (10); level 0 copies every read (2).
_GRAD_OPERATION = """
net = Net()
x = Tensor(5.0, ms.float32)
grads = ops.GradOperation(get_all=True, get_by_list=True)(net, net.trainable_params())(x)
print("grad x", grads[0][0], "grad w", grads[1][0], "w", net.w.value())
"""
PROGRAMS["grad_operation_read_then_assign"] = (
    net_source(READS["read_then_assign"]) + "ms.set_context(mode=ms.GRAPH_MODE)\n"
    + _GRAD_OPERATION)
PROGRAMS["grad_operation_read_then_assign_load_elim_0"] = (
    "import os\nos.environ['MS_DEV_SIDE_EFFECT_LOAD_ELIM'] = '0'\n"
    + net_source(READS["read_then_assign"]) + "ms.set_context(mode=ms.GRAPH_MODE)\n"
    + _GRAD_OPERATION)

_TUTORIAL_NETS = """
import numpy as np
from mindspore.nn import Cell
from mindspore import Tensor, Parameter, ops
import mindspore as ms


class ForwardNet(Cell):
    def __init__(self):
        super(ForwardNet, self).__init__()
        self.weight = Parameter(Tensor(np.array(0), ms.int32), name="param")

    def construct(self, x):
        out = 0
        i = 0
        while i < 3:
            ops.assign(self.weight, i)
            out = x * self.weight + out
            i = i + 1
        return out


class BackwardNet(Cell):
    def __init__(self, net):
        super(BackwardNet, self).__init__(auto_prefix=False)
        self.forward_net = net
        self.grad = ops.GradOperation(get_all=True)

    def construct(self, *inputs):
        grads = self.grad(self.forward_net)(*inputs)
        return grads
"""
# The tutorial's program as written (it asserts the graph-mode gradient is 3), and in
# PyNative mode, where the backward reads the weight's final value.
for _mode, _constant in _MODES.items():
    PROGRAMS[f"tutorial_{_mode}"] = _TUTORIAL_NETS + f"""
ms.set_context(mode=ms.{_constant})
x = Tensor(np.array(1), ms.int32)
forward_net = ForwardNet()
grads = BackwardNet(forward_net)(x)
print(grads, forward_net.weight.value(), forward_net(x))
"""

# the loop on a Tensor condition: a loop graph that calls itself, the weight its argument
for _mode, _constant in _MODES.items():
    PROGRAMS[f"while_tensor_condition_{_mode}"] = _IMPORTS + _WEIGHT_CELL + f"""

class Net(WithWeight):
    def construct(self, x, n):
        out = x * 0
        i = Tensor(0.0, ms.float32)
        while i < n:
            ops.assign(self.w, i)
            out = x * self.w + out
            i = i + 1
        return out

ms.set_context(mode=ms.{_constant})
net = Net()
x = Tensor(5.0, ms.float32)
n = Tensor(3.0, ms.float32)
gx, gw = ms.grad(net, 0, net.trainable_params())(x, n)
print("grad x", gx, "grad w", gw[0], "w", net.w.value(), "out", net(x, n))
"""

_FORWARD_HEAD = _IMPORTS + _WEIGHT_CELL + """
ms.set_context(mode=ms.GRAPH_MODE)
x = Tensor(5.0, ms.float32)
"""
PROGRAMS.update({
    # the same expression before and after a write: two values (no common subexpression)
    "forward_same_product_around_assign": _FORWARD_HEAD + """
class Twice(WithWeight):
    def construct(self, x):
        a = x * self.w
        ops.assign(self.w, Tensor(5.0, ms.float32))
        b = x * self.w
        return a + b, a, b

print(Twice()(x))
""",
    # a chain of elementwise ops split by a write: the product is taken before it
    "forward_chain_across_assign": _FORWARD_HEAD + """
class Chain(WithWeight):
    def construct(self, x):
        t = x * self.w
        ops.assign(self.w, Tensor(5.0, ms.float32))
        return ops.relu(t + 1)

print(Chain()(x))
""",
    # a name bound to the weight is read where it is used (after the write)
    "forward_name_bound_before_assign": _FORWARD_HEAD + """
class Bound(WithWeight):
    def construct(self, x):
        a = self.w
        t = (self.w, x)
        ops.assign(self.w, Tensor(5.0, ms.float32))
        return a * 1, t[0] + 0, x * a

print(Bound()(x))
""",
    # the weight itself returned: a Tensor (not the Parameter), with the value at the end
    "forward_return_weight": _FORWARD_HEAD + """
class Returns(WithWeight):
    def construct(self, x):
        return self.w, (self.w, x)

class ReturnsAfterAssign(WithWeight):
    def construct(self, x):
        a = self.w
        ops.assign(self.w, Tensor(5.0, ms.float32))
        return a

for cls in (Returns, ReturnsAfterAssign):
    result = cls()(x)
    print(type(result).__name__, result)
""",
})

# an optimizer step inside construct, then the network again: the second call reads the
# updated weights (the products before and after the step are different nodes)
PROGRAMS["optimizer_step_then_evaluate"] = """
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor, Parameter, ParameterTuple
ms.set_context(mode=ms.GRAPH_MODE)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([2.0, 3.0], np.float32)), name="w")

    def construct(self, x):
        return (x * self.w).sum()


class Step(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.weights = ParameterTuple(net.trainable_params())
        self.opt = nn.SGD(self.weights, 0.1)
        self.grad = ops.GradOperation(get_by_list=True)

    def construct(self, x):
        before = self.net(x)
        grads = self.grad(self.net, self.weights)(x)
        self.opt(grads)
        after = self.net(x)
        return before, after, x * self.net.w


net = Net()
step = Step(net)
x = Tensor(np.array([1.0, 2.0], np.float32))
print(step(x))
print(step(x))
print(net.w.value())
"""

# a step counter Parameter read before and after assign_add, and in an if; a while loop
# whose condition reads a Parameter its body increments
PROGRAMS["parameter_counter_and_loop"] = """
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor, Parameter
ms.set_context(mode=ms.GRAPH_MODE)
class Counter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.step = Parameter(Tensor(0, ms.int32), name="step", requires_grad=False)
    def construct(self, x):
        before = self.step * 1
        ops.assign_add(self.step, Tensor(1, ms.int32))
        if self.step > 2:
            x = x * 2
        return x, before, self.step * 1
class Loop(nn.Cell):
    def __init__(self):
        super().__init__()
        self.i = Parameter(Tensor(0, ms.int32), name="i", requires_grad=False)
    def construct(self, x):
        ops.assign(self.i, Tensor(0, ms.int32))
        while self.i < 3:
            ops.assign_add(self.i, Tensor(1, ms.int32))
            x = x * 2
        return x, self.i * 1
c = Counter()
x = Tensor(np.array([1.0], np.float32))
for _ in range(4):
    print(c(x))
print(Loop()(x))
"""

# a weight assigned from another weight (no gradient flows through the value assigned), and
# an item of a weight set in place (x[0] = 7 in construct is an Assign of the new Tensor)
PROGRAMS["assign_from_other_weight_and_setitem"] = """
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor, Parameter
ms.set_context(mode=ms.GRAPH_MODE)
class A(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([2.0, 3.0], np.float32)), name="w")
        self.v = Parameter(Tensor(np.array([4.0, 5.0], np.float32)), name="v")
    def construct(self, x):
        a = (x * self.w).sum()
        ops.assign(self.w, self.v * 2)
        return a + (x * self.w * self.v).sum()
class B(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([2.0, 3.0], np.float32)), name="w")
    def construct(self, x):
        a = (x * self.w).sum()
        self.w[0] = 7.0
        return a + (x * self.w).sum(), self.w * 1
x = Tensor(np.array([1.0, 10.0], np.float32))
for C in (A, B):
    net = C()
    def loss(x):
        out = net(x)
        return out[0] if isinstance(out, tuple) else out
    try:
        print(C.__name__, ms.grad(loss, 0, net.trainable_params())(x), [p.value() for p in net.trainable_params()])
    except Exception as e:
        print(C.__name__, "ERR", type(e).__name__, str(e).splitlines()[0][:150])
    net = C()
    try:
        print(C.__name__, net(x))
    except Exception as e:
        print(C.__name__, "ERR", type(e).__name__, str(e).splitlines()[0][:150])
"""

# a write under a Tensor condition and one in a nested function, reads before, between and
# after: MindSpore's default Load elimination copies the middle read only (the first read's
# gradient then uses the final value); with MS_DEV_SIDE_EFFECT_LOAD_ELIM=0 every read is
# copied, as refms does
_CONDITIONAL_ASSIGN = """
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor, Parameter
ms.set_context(mode=ms.GRAPH_MODE)
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([2.0, 3.0], np.float32)), name="w")
    def construct(self, x):
        a = x * self.w
        if x.sum() > 0:
            ops.assign(self.w, x * 2)
        b = x * self.w
        def upd(v):
            ops.assign(self.w, v + 1)
        upd(b)
        c = x * self.w
        return (a + b + c).sum()
x = Tensor(np.array([1.0, 10.0], np.float32))
net = Net()
print(net(x), net.w.value())
net = Net()
print(ms.grad(net, 0, net.trainable_params())(x), net.w.value())
x = Tensor(np.array([1.0, -10.0], np.float32))
net = Net()
print(ms.grad(net, 0, net.trainable_params())(x), net.w.value())
"""
PROGRAMS["conditional_assign_and_nested_function"] = _CONDITIONAL_ASSIGN
PROGRAMS["conditional_assign_and_nested_function_load_elim_0"] = (
    "import os\nos.environ['MS_DEV_SIDE_EFFECT_LOAD_ELIM'] = '0'\n" + _CONDITIONAL_ASSIGN)
