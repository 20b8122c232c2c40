"""The seed pages' PyNative examples that need no ``nn.Cell``, run as documented (STYLE.md 11).

Each case is the example's source text as the page shows it, run with
``mindspore`` replaced by ``refms``; what it prints must equal the page's
output after collapsing runs of whitespace (the pages collapsed spaces, e.g.
``value= [ 2.00000000e+00]`` for MindSpore's ``value= [ 2.00000000e+00]``;
DESIGN.md: cosmetic artefacts of the doc pages are not behaviour).

Sources: ``000`` = r1.6 "PyNative模式应用" (seeds/000_1f0ba937f6d417c3.txt),
``001`` = r1.6 notebook "动态图与静态图", ``002`` = r1.7 notebook "动态图模式应用".
"""
import contextlib
import io
from dataclasses import dataclass

import pytest


@dataclass
class SeedExample:
    source: str         # seed page and section
    code: str           # the example as printed on the page
    output: str         # the documented output


def run_example(code):
    """Run MindSpore example code against refms in a fresh namespace; return what it printed."""
    program = code.replace("mindspore", "refms")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(program, "<seed example>", "exec"), {"__name__": "__seed_example__"})
    return printed.getvalue()


def collapse(text):
    return " ".join(text.split())


EXAMPLES = [
    SeedExample(
        source="000 执行单算子",
        code='''
import numpy as np
import mindspore.ops as ops
from mindspore import context, Tensor

context.set_context(mode=context.PYNATIVE_MODE, device_target="CPU")

x = Tensor(np.ones([1, 3, 5, 5]).astype(np.float32))
y = Tensor(np.ones([1, 3, 5, 5]).astype(np.float32))
z = ops.add(x, y)
print(z.asnumpy())
''',
        output='''
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
    SeedExample(
        source="000 执行函数",
        code='''
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
        output='''
[[3. 3. 3.]
 [3. 3. 3.]
 [3. 3. 3.]]
'''),
    SeedExample(
        # The page sets device_target="GPU"; the output does not depend on the device, and this
        # suite runs on CPU, so the case sets "CPU".
        source="000 HookBackward算子",
        code='''
import mindspore
from mindspore import ops
from mindspore import Tensor
from mindspore import context
from mindspore.ops import GradOperation

context.set_context(mode=context.PYNATIVE_MODE, device_target="CPU")

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
        output='''
(Tensor(shape=[], dtype=Float32, value= 2),)
(Tensor(shape=[], dtype=Float32, value= 4), Tensor(shape=[], dtype=Float32, value= 4))
'''),
    SeedExample(
        # The page runs it after setting GRAPH_MODE; this suite runs it in PyNative (issue 2).
        source="001 执行普通函数",
        code='''
import numpy as np
import mindspore.ops as ops
from mindspore import context, Tensor

context.set_context(mode=context.PYNATIVE_MODE)

def add_func(x, y):
    z = ops.add(x, y)
    z = ops.add(z, x)
    return z

x = Tensor(np.ones([3, 3], dtype=np.float32))
y = Tensor(np.ones([3, 3], dtype=np.float32))
output = add_func(x, y)
print(output.asnumpy())
''',
        output='''
[[3. 3. 3.]
 [3. 3. 3.]
 [3. 3. 3.]]
'''),
    SeedExample(
        # The page's first cell also imports mindspore.nn, which this example does not use.
        source="002 执行单算子",
        code='''
import numpy as np
import mindspore.ops as ops
from mindspore import Tensor, context

context.set_context(mode=context.PYNATIVE_MODE)

add = ops.Add()
x = Tensor(np.array([1, 2]).astype(np.float32))
y = Tensor(np.array([3, 5]).astype(np.float32))
z = add(x, y)
print("x:", x.asnumpy(), "\\ny:", y.asnumpy(), "\\nz:", z.asnumpy())
''',
        output='''
x: [1. 2.]
y: [3. 5.]
z: [4. 7.]
'''),
    SeedExample(
        source="002 执行函数",
        code='''
import numpy as np
import mindspore.ops as ops
from mindspore import Tensor, context

context.set_context(mode=context.PYNATIVE_MODE)

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
        output='''
x: [1. 2.]
y: [3. 5.]
z: [5. 9.]
'''),
    SeedExample(
        source="002 HookBackward算子",
        code='''
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
        output='''
hook_fn print grad_out: (Tensor(shape=[], dtype=Float32, value= 2),)
output: (Tensor(shape=[], dtype=Float32, value= 4), Tensor(shape=[], dtype=Float32, value= 4))
'''),
]


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.source for e in EXAMPLES])
def test_seed_example_prints_the_documented_output(example):
    assert collapse(run_example(example.code)) == collapse(example.output)
