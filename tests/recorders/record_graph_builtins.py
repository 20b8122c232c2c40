"""Record MindSpore 2.10 on small graph-mode programs around its static-graph syntax pages:
what builtins return (``range``, ``map``, ``filter``, ``zip``, ``sum``), how ``print``
shows values in a graph, dict methods, ``with`` statements, names read before they are
assigned, ``partial`` with keywords, ``jit_class`` errors, multi-line lambdas and the
printed type of a Tensor.  Each program goes further than the page's own example (other
argument kinds, the paths a statement can leave by).

Run with the MindSpore environment (not refms), from the repository root::

    /work/msenv/bin/python tests/recorders/record_graph_builtins.py

Every program runs as a script in its own process, as
``tests/recorders/record_static_syntax.py`` runs the pages' examples; the printed output
or the exception type is written to ``tests/golden/graph_builtins.json``, which
``tests/test_graph_builtins.py`` replays on refms.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from record_static_syntax import run_on_mindspore  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUTPUT = os.path.join(os.path.dirname(HERE), "golden", "graph_builtins.json")

PROGRAMS = {
    "sequence_builtins": """\
import mindspore as ms

def add(x, y):
    return x + y

def odd(x):
    return x % 2 == 1

@ms.jit
def f():
    return (range(1, 7, 2), map(add, [1, 2], [3, 4]), map(add, (1, 2), (3, 4)),
            filter(odd, (1, 2, 3)), filter(odd, [4, 5]), zip([1, 2], [3, 4]),
            enumerate([5, 6]), len(range(4)))

for value in f():
    print(type(value).__name__, value)
""",
    "map_of_a_tuple_and_a_list": """\
import mindspore as ms

def add(x, y):
    return x + y

@ms.jit
def f():
    return map(add, (1, 2), [3, 4])

f()
""",
    "sum_of_tensor_rows": """\
import numpy as np
import mindspore as ms

@ms.jit
def f(x):
    return sum(x), sum(x, 100), sum(x[0])

for value in f(ms.tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))):
    print(value.shape, value)
""",
    "print_in_graph": """\
import numpy as np
import mindspore as ms

@ms.jit
def f(x, y, flag):
    print(y)
    print(flag)
    print((x * 2).sum())
    print(x)
    print([3, 4])
    return x

f(ms.tensor(np.array([1, 2], np.int32)), ms.tensor(2.5, ms.float32), ms.tensor(True))
""",
    "print_op_in_pynative_and_graph": """\
import mindspore as ms
from mindspore import ops

values = ("hello", ms.tensor(3), ms.tensor([1, 2]), (ms.tensor(4), 1), [5, 6], 2.5, None)
ops.Print()(*values)

@ms.jit
def f(x):
    ops.Print()("in graph", x, x * 2)
    return x

f(ms.tensor([1, 2]))
""",
    "print_flattens_sequences_of_other_values": """\
import mindspore as ms

@ms.jit
def f(x, y):
    print("x:", (1, 2), [3, 4])
    print(("a", "b"), "--")
    print((1, (2, 3)), "--")
    print([1, [2, 3], (4, [5])], "--")
    print((x, x), "--")
    print((y, 1), ("a", None))
    return x

f(ms.tensor([1, 2]), ms.tensor(7))
""",
    "numpy_numbers_leave_as_python_numbers": """\
import numpy as np
import mindspore as ms

@ms.jit
def f():
    return tuple(np.array([7, 8])), np.float32(0.5), [np.int32(3)], np.array([1, 2]).sum()

for value in f():
    print(type(value).__name__, value)
""",
    "dict_methods_on_graph_values": """\
import mindspore as ms

@ms.jit
def f(x):
    d = {"a": x, "b": x * 2}
    keys = d.keys()
    values = d.values()
    items = d.items()
    found = d.has_key("b"), d.has_key("z")
    d.update({"c": x + 1})
    return keys, values, items, found, d

keys, values, items, found, d = f(ms.tensor(3))
print(type(keys).__name__, keys)
print(type(values).__name__, values)
print(type(items).__name__, items)
print(found)
print(d)
""",
    "with_enter_exit_order": """\
import mindspore as ms

@ms.jit_class
class Scale:
    def __init__(self, factor):
        self.factor = factor

    def __enter__(self):
        print("enter")
        return self.factor

    def __exit__(self, exc_type, exc_value, traceback):
        print("exit")

@ms.jit
def f(x):
    with Scale(2) as a, Scale(3) as b:
        x = x * a * b
    return x

print(f(ms.tensor(1)))
""",
    "with_return_inside": """\
import mindspore as ms

@ms.jit_class
class Guard:
    def __init__(self):
        self.n = 5

    def __enter__(self):
        print("enter")
        return self.n

    def __exit__(self, *args):
        print("exit")

@ms.jit
def f(x):
    with Guard() as n:
        return x + n

print(f(ms.tensor(1)))
""",
    "with_plain_object_is_a_type_error": """\
import mindspore as ms

class Plain:
    def __enter__(self):
        return 1

    def __exit__(self, *args):
        pass

@ms.jit
def f(x):
    with Plain() as one:
        x = x + one
    return x

print(f(ms.tensor(1)))
""",
    "global_read_before_assignment": """\
import mindspore as ms

total = ms.tensor(10)
scale = 3

@ms.jit
def f(x):
    for i in range(3):
        total = total + x
    if x > 100:
        scale = 5
    return total, scale

print(f(ms.tensor(1)))
""",
    "partial_with_keywords": """\
import functools
import mindspore as ms
from mindspore import ops

def affine(x, w, b):
    return x * w + b

@ms.jit
def f(x):
    g = ops.partial(affine, w=2, b=1)
    return g(x)

@ms.jit
def f2(x):
    return ops.partial(affine, x, 4)(b=0)

@ms.jit
def f3(x):
    h = functools.partial(affine, b=10)
    return h(x, w=3)

print(f(ms.tensor(5)), f2(ms.tensor(5)), f3(ms.tensor(5)))
""",
    "jit_class_on_cell": """\
import mindspore as ms
from mindspore import nn

class Net(nn.Cell):
    def construct(self, x):
        return x

ms.jit_class(Net)
""",
    "jit_class_object_without_call": """\
import mindspore as ms

@ms.jit_class
class Holder:
    def __init__(self):
        self.value = 1

@ms.jit
def f(x):
    holder = Holder()
    return holder(x)

f(ms.tensor(1))
""",
    "multi_line_lambda": """\
import mindspore as ms

g = (lambda x, y: x *
     y + 1)
f = ms.jit(g)
print(f(ms.tensor(3), ms.tensor(4)))
""",
    "tensor_type_printed": """\
import mindspore as ms
from mindspore import nn

print(type(ms.tensor(1)))
print(ms.Parameter)
print(nn.Cell)

@ms.jit
def f(x):
    return type(x)

print(f(ms.tensor(1)))
""",
    "generator_expression_and_try": """\
import mindspore as ms

@ms.jit
def f():
    return (i * 2 for i in (1, 2, 3))

print(type(f()).__name__, f())

@ms.jit
def g(x):
    try:
        x = x + 1
    except ValueError:
        pass
    return x

g(ms.tensor(1))
""",
    "two_for_clauses": """\
import mindspore as ms

@ms.jit
def f():
    return [a + b for a in (1, 2) for b in (10, 20)]

f()
""",
}


def main():
    import mindspore
    cases = []
    for name, code in PROGRAMS.items():
        result = run_on_mindspore(code, sys.executable)
        cases.append({"id": name, "code": code, "mindspore": result})
        error = result["error"]
        print(name, "raises " + error["type"] if error else "ok", flush=True)
    with open(OUTPUT, "w") as f:
        json.dump({"mindspore": mindspore.__version__, "cases": cases}, f, indent=1,
                  ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
