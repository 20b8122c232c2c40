"""Graph-mode gradients through loops on a Tensor condition that leave early (``break``,
``continue``, nested loops): small programs a user writes, each a script for MindSpore.

``tests/recorders/record_graph_loops.py`` records what MindSpore 2.10 prints running each,
``tests/test_graph_loops.py`` replays it on refms.  Each prints the function's value and
its gradient compiled with ``jit``.
"""

_HEAD = """
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor, Parameter
x = Tensor(np.array([1.0, -2.0, 3.0], np.float32))
"""

_PRINT = """
for fn in FUNCTIONS:
    print(fn.__name__, ms.jit(fn)(x), ms.jit(ms.grad(fn))(x))
"""

PROGRAMS = {
    # a while loop on a Tensor counter with a break on a Tensor condition, before or after
    # the update, taken or not
    "while_break": _HEAD + """
def taken(x):
    n = Tensor(0, ms.int32)
    y = x
    while n < 3:
        y = y * 2
        n = n + 1
        if y.max() > 20:
            break
    return y


def not_taken(x):
    n = Tensor(0, ms.int32)
    y = x
    while n < 3:
        y = y * 2
        n = n + 1
        if y.max() > 100:
            break
    return y


def break_first(x):
    n = Tensor(0, ms.int32)
    y = x
    while n < 3:
        if y.max() > 100:
            break
        y = y * 2
        n = n + 1
    return y


def for_range_break(x):
    y = x
    for i in range(3):
        y = y * 2
        if y.max() > 20:
            break
    return y


FUNCTIONS = (taken, not_taken, break_first, for_range_break)
""" + _PRINT,
    # break, continue and elif in one body; a nested loop with a break in the inner loop;
    # a for loop over the rows of a Tensor with continue and break
    "while_break_continue_nested": _HEAD + """
def break_continue(x):
    n = Tensor(0, ms.int32)
    y = x
    while n < 5:
        n = n + 1
        if y.sum() > 30:
            break
        elif y.sum() < -30:
            y = y - 1
            continue
        else:
            y = y * 2 + x
    return y


def nested(x):
    i = Tensor(0, ms.int32)
    acc = x * 0
    while i < 3:
        j = Tensor(0, ms.int32)
        while j < i:
            acc = acc + x * x
            j = j + 1
            if acc.sum() > 50:
                break
        i = i + 1
    return acc


def rows(x):
    acc = x[0:1] * 0
    for row in x.reshape((3, 1)):
        if row.sum() < 0:
            continue
        acc = acc + row * row
        if acc.sum() > 5:
            break
    return acc


FUNCTIONS = (break_continue, nested, rows)
""" + _PRINT,
    # ops.where in a loop that may stop early; the loop Cell returns a tuple
    "while_where_break_cell": _HEAD + """
ms.set_context(mode=ms.GRAPH_MODE)


class Net(nn.Cell):
    def construct(self, x):
        n = Tensor(0, ms.int32)
        y = x
        while n < 3:
            y = ops.where(y > 0, y * 2, y - 1)
            n = n + 1
            if y.max() > 20:
                break
        return y, n


net = Net()


def first(x):
    return net(x)[0]


print(net(x))
print(ms.grad(first)(x))
""",
    # a recurrent cell run until its state is small or for `steps` steps: gradients with
    # respect to the input and both weights
    "rnn_until_small": _HEAD + """
ms.set_context(mode=ms.GRAPH_MODE)


class RNN(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([[0.5, -0.2, 0.1], [0.3, 0.4, -0.5],
                                            [0.2, 0.1, 0.3]], np.float32)), name="w")
        self.b = Parameter(Tensor(np.array([0.1, 0.0, -0.1], np.float32)), name="b")

    def construct(self, x, steps):
        h = x
        t = Tensor(0, ms.int32)
        while t < steps:
            h = ops.tanh(ops.matmul(self.w, h) + self.b)
            t = t + 1
            if ops.abs(h).max() < 0.05:
                break
        return h.sum(), t


net = RNN()


def loss(x, steps):
    return net(x, steps)[0]


value, (gx, (gw, gb)) = ms.value_and_grad(loss, 0, net.trainable_params())(
    x, Tensor(4, ms.int32))
for name, t in (("loss", value), ("x", gx), ("w", gw), ("b", gb)):
    print(name, np.round(t.asnumpy(), 4).tolist())
""",
}
