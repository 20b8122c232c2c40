"""Small graph-mode programs on what earlier sessions left different from MindSpore 2.10:
in-place list methods on a list attribute or a global list (JIT Fallback at the default
syntax level), comprehensions over host values known only when the program runs, and the
effects of a network run by a graph-mode training step.

Each is a script written for MindSpore; ``tests/recorders/record_graph_leftovers.py``
records what MindSpore 2.10 prints (or raises) running it, ``tests/test_graph_leftovers.py``
replays it on refms.  Each program calls its compiled function twice, which shows whether an
effect happens once at compile time or at every run.
"""

_HEAD = """
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor
ms.set_context(mode=ms.GRAPH_MODE)
GL = [1, 2, 3]
x = Tensor(np.array([1.0], np.float32))
"""

#: name -> (statement on the list L, what construct returns)
_LIST_METHODS = {
    "append": ("L.append(5)", "x + len(L)"),
    "extend": ("L.extend([6, 7])", "x + len(L)"),
    "insert": ("L.insert(0, 9)", "x + len(L)"),
    "pop": ("y = L.pop()", "x + y"),
    "pop_index": ("y = L.pop(0)", "x + y"),
    "reverse": ("L.reverse()", "x + L[0]"),
    "clear": ("L.clear()", "x + len(L)"),
    "pop_append": ("y = L.pop()\n        L.append(y * 10)", "x + len(L) + L[-1]"),
}


def _list_program(stmt, ret, ref):
    body = stmt.replace("L.", ref + ".")
    shown = ref.replace("self.", "net.")
    return _HEAD + f"""
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.lst = [1, 2, 3]

    def construct(self, x):
        {body}
        return {ret.replace("L", ref)}

net = Net()
for _ in range(2):
    print(net(x), {shown})
"""


PROGRAMS = {}
for _name, (_stmt, _ret) in _LIST_METHODS.items():
    PROGRAMS[f"attribute_{_name}"] = _list_program(_stmt, _ret, "self.lst")
    PROGRAMS[f"global_{_name}"] = _list_program(_stmt, _ret, "GL")

PROGRAMS.update({
    # a list comprehension over values the host computes when the program runs: MindSpore
    # 2.10 cannot compile it (a TypeError; a dict comprehension a RuntimeError).  With a
    # filter (``[int(v) for v in a if v > 1]``) or over ``t.asnumpy().tolist()`` it crashed
    # the process (signal 11 / 6), so those two are not recorded; ``[v for v in a]`` aborted
    # the process under the recorder's runner and printed one element, ``[3.]``, for
    # [1, 2, 3] run directly as a script — not recorded either.
    "comprehension_asnumpy": _HEAD + """
@ms.jit
def f(t):
    a = t.asnumpy()
    return [v * 2 for v in a]

print(f(Tensor(np.array([1.0, 2.0, 3.0], np.float32))))
print(f(Tensor(np.array([4.0, 5.0, 6.0], np.float32))))
""",
    "comprehension_asnumpy_tensor": _HEAD + """
@ms.jit
def f(t):
    a = t.asnumpy()
    b = [v + 1 for v in a]
    return Tensor(b)

print(f(Tensor(np.array([1.0, 2.0, 3.0], np.float32))))
""",
    "dict_comprehension_asnumpy": _HEAD + """
@ms.jit
def f(t):
    a = t.asnumpy()
    return {i: v for i, v in enumerate(a)}

print(f(Tensor(np.array([1.0, 2.0, 3.0], np.float32))))
""",
    # a training step runs the network once: its print, attribute update and Assign happen
    # once per step (WithLossCell around a network with effects)
    "train_step_effects_once": _HEAD + """
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="w")
        self.count = ms.Parameter(Tensor(np.array([0.0], np.float32)), name="count",
                                  requires_grad=False)
        self.n = 0

    def construct(self, x):
        print("forward")
        self.n = self.n + 1
        ops.assign_add(self.count, Tensor(np.array([1.0], np.float32)))
        return self.w * x

net = Net()
loss_net = nn.WithLossCell(net, nn.MSELoss())
step = nn.TrainOneStepCell(loss_net, nn.SGD([net.w], learning_rate=0.1))
data = Tensor(np.array([3.0, 4.0], np.float32))
label = Tensor(np.array([1.0, 1.0], np.float32))
for _ in range(3):
    loss = step(data, label)
    print("loss", loss, "w", net.w.asnumpy(), "count", net.count.asnumpy(), "n", net.n)
""",
    # the same step in PyNative mode: the same values
    "train_step_effects_once_pynative": _HEAD + """
ms.set_context(mode=ms.PYNATIVE_MODE)
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="w")
        self.count = ms.Parameter(Tensor(np.array([0.0], np.float32)), name="count",
                                  requires_grad=False)
        self.n = 0

    def construct(self, x):
        print("forward")
        self.n = self.n + 1
        ops.assign_add(self.count, Tensor(np.array([1.0], np.float32)))
        return self.w * x

net = Net()
loss_net = nn.WithLossCell(net, nn.MSELoss())
step = nn.TrainOneStepCell(loss_net, nn.SGD([net.w], learning_rate=0.1))
data = Tensor(np.array([3.0, 4.0], np.float32))
label = Tensor(np.array([1.0, 1.0], np.float32))
for _ in range(3):
    loss = step(data, label)
    print("loss", loss, "w", net.w.asnumpy(), "count", net.count.asnumpy(), "n", net.n)
""",
    # mutable(dynamic_len=True): one program for lists of every length
    "mutable_dynamic_len": _HEAD + """
from mindspore import mutable

@ms.jit
def f(xs):
    return xs[0] + xs[-1], len(xs)

for n in (2, 3, 4):
    print(f(mutable([Tensor(np.array([float(i)], np.float32)) for i in range(n)],
                    dynamic_len=True)))
""",
})

# A GRAPH_MODE Cell (or a jit function) returning a dict, a list or a dict holding a list,
# differentiated from PyNative code (ms.grad of a plain function calling it): the gradient
# flows through the dict's values (refms once recorded the call on the tape without them:
# zero gradients)
PROGRAMS["dict_output_gradient_on_tape"] = _HEAD + """
x = Tensor(np.array([1.0, -2.0, 3.0], np.float32))


class Outputs(nn.Cell):
    def __init__(self, kind):
        super().__init__()
        self.kind = kind

    def construct(self, x):
        a = ops.sin(x)
        b = a * 2
        if self.kind == "dict":
            return {"first": a, "n": 3, "last": b}
        if self.kind == "dict_set":
            d = {"first": a, "n": 3}
            d["last"] = b
            return d
        if self.kind == "list":
            return [a, b]
        return {"a": a, "b": [a, b]}


def last(out):
    if isinstance(out, dict):
        value = out["last"] if "last" in out else out["b"][1]
    else:
        value = out[1]
    return value.sum()


for kind in ("dict", "dict_set", "list", "dict_of_list"):
    net = Outputs(kind)

    def loss(x):
        return last(net(x))

    print(kind, ms.grad(loss)(x).asnumpy().round(5))


@ms.jit
def jitted(x):
    return {"k": ops.sin(x) * 2, "n": 1}


def jit_loss(x):
    out = jitted(x)
    return out["k"].sum() * out["n"]


print("jit", ms.grad(jit_loss)(x).asnumpy().round(5))
"""
