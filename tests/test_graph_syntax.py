"""The static-graph syntax: each construct compiles and agrees with Python; the rest raises
GraphSyntaxError naming the construct and its line (MindSpore "Static Graph Syntax Support").

Every function here is compiled with ``refms.jit`` and compared with running the same
Python function op by op (PyNative).
"""
import inspect

import numpy as np
import pytest

import refms as ms
from refms import Tensor, ops, nn
from refms.graph import GraphSyntaxError, GraphCompileError, ir_text

X = Tensor(np.array([1.0, 2.0], np.float32))
Y = Tensor(np.array([3.0, 4.0], np.float32))


def same(a, b):
    """Equal structure, dtypes and values."""
    if isinstance(a, Tensor):
        assert isinstance(b, Tensor), f"{b!r} is not a Tensor"
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-6)
        return
    if isinstance(a, (tuple, list)):
        assert type(a) is type(b) and len(a) == len(b)
        for x, y in zip(a, b):
            same(x, y)
        return
    if isinstance(a, dict):
        assert list(a) == list(b)
        for k in a:
            same(a[k], b[k])
        return
    assert a == b


def agree(fn, *args):
    same(fn(*args), ms.jit(fn)(*args))


# -- operators --------------------------------------------------------------------------------

def arithmetic(x, y):
    return x + y, x - y, x * y, x / y, x // y, x % y, x ** 2, -x, +x, abs(x), x @ y


def comparisons(x, y):
    return x < y, x <= y, x > y, x >= y, x == y, x != y, 1 < 2 <= 3, x is None, 3 in (1, 3)


def booleans(x, y):
    a = x.sum() > 1 and y.sum() > 1
    b = x.sum() > 100 or y.sum() > 1
    c = not (x.sum() > 100)
    d = 0 or 5
    return a, b, c, d


def bits(x):
    i = x.astype(ms.int32)
    return i & 3, i | 4, ~(x > 1)


@pytest.mark.parametrize("fn", [arithmetic, comparisons, booleans])
def test_operators(fn):
    agree(fn, X, Y)


def test_bit_operators():
    agree(bits, X)


# -- control flow ------------------------------------------------------------------------------

def if_on_tensor(x, y):
    if x.sum() > 2:
        z = x * y
    elif x.sum() > 100:
        z = x
    else:
        z = x - y
    return z


def if_on_constant(x, n):
    if n > 1:
        return x * n
    return x


def early_return_in_branch(x):
    if x.sum() > 0:
        return x * 2
    y = x + 1
    return y * 3


def while_on_tensor(x):
    while x.sum() < 100:
        x = x * 2
    return x


def while_break_continue(x):
    i = 0
    while i < 10:
        i = i + 1
        if i % 2 == 0:
            continue
        if i > 7:
            break
        x = x + i
    return x, i


def for_range_tensor_break(x):
    for k in range(10):
        x = x + k
        if x.sum() > 20:
            break
    return x


def for_over_sequences(x, y):
    total = x * 0
    for item in (x, y):
        total = total + item
    for row in Tensor(np.ones((3, 2), np.float32)):
        total = total + row
    for k, v in enumerate([x, y]):
        total = total + v * k
    for a, b in zip((x, y), (2, 3)):
        total = total + a * b
    for key in {"a": 1, "b": 2}:
        total = total + len(key)
    return total


def variable_defined_in_loop(x):
    for i in range(3):
        y = x * i
    return y


def nested_for_loops(x):
    z = x * 0
    for i in range(3):
        for j in range(3):
            z = z + 1.0
    return z


def nested_loops_with_break_and_indices(x):
    z = x * 0
    for i in range(4):
        for j in range(5):
            if j > i:
                break
            z = z + i * 10 + j
        for k in (1, 2):
            z = z + k
    return z


def for_inside_while_on_tensor(x):
    n = x.sum() * 0
    while x.sum() < 50:
        for j in range(2):
            x = x + 1
            for k in range(2):
                n = n + 1
    return x, n


def number_under_tensor_if(x):
    n = 0
    if x.sum() > 0:
        n = 1
    else:
        n = 2
    return x, n, n * 2.5, x * n


def number_in_tensor_while(x):
    n = 0
    while x.sum() < 50:
        x = x + 1
        n = n + 1
    return x, n


def closure_in_tensor_while(x):
    n = 0
    while x.sum() < 50:
        x = x + 1
        n = n + 1
        f = lambda y: y + n
        x = f(x)
    return x, n


def tensor_if_in_long_loop(x):
    """MindSpore's control-flow tutorial: a run-time ``if`` in each of 100 iterations."""
    z = x * 0
    for i in range(100):
        if x.sum() > i:
            z = z + 1
        else:
            z = z - 1
    return z


@pytest.mark.parametrize("fn,args", [
    (number_under_tensor_if, (X,)), (number_in_tensor_while, (X,)),
    (closure_in_tensor_while, (X,)), (tensor_if_in_long_loop, (X,)),
    (nested_for_loops, (X,)), (nested_loops_with_break_and_indices, (X,)),
    (for_inside_while_on_tensor, (X,)),
    (if_on_tensor, (X, Y)), (if_on_tensor, (X * 10, Y)), (if_on_constant, (X, 3)),
    (if_on_constant, (X, 0)), (early_return_in_branch, (X,)), (early_return_in_branch, (-X,)),
    (while_on_tensor, (X,)), (while_break_continue, (X,)), (for_range_tensor_break, (X,)),
    (for_over_sequences, (X, Y)), (variable_defined_in_loop, (X,)),
], ids=lambda v: getattr(v, "__name__", ""))
def test_control_flow(fn, args):
    agree(fn, *args)


def test_nested_loops_in_a_graph_mode_cell():
    """Each loop keeps its own index: 3 × 3 iterations, not 3 (regression)."""
    class Nested(nn.Cell):
        def construct(self, z):
            for i in range(3):
                for j in range(3):
                    z = z + 1.0
            return z
    ms.set_context(mode=ms.GRAPH_MODE)
    out = Nested()(Tensor(np.float32(0.0)))
    assert float(out.asnumpy()) == 9.0


def test_if_on_tensor_is_a_switch_of_branch_graphs():
    text = ir_text(ms.jit(if_on_tensor), X, Y)
    assert "Switch(" in text and "@✓if_on_tensor" in text and "@✗if_on_tensor" in text


def test_loop_over_constant_range_is_unrolled():
    text = ir_text(ms.jit(variable_defined_in_loop), X)
    assert "Switch" not in text and text.count("Mul(") == 1     # y of the last iteration only


def test_loop_on_tensor_condition_stays_a_loop():
    text = ir_text(ms.jit(while_on_tensor), X)
    assert "Switch(" in text and "@↵while_on_tensor" in text


# -- functions, closures, containers ---------------------------------------------------------------

def helper(a, b=2, *rest, scale=1.0, **options):
    return (a * b + sum(rest)) * scale + len(options)


def calls(x):
    def inner(z, k=3):
        return z * k + x
    square = lambda v: v * v
    return (helper(x), helper(x, 3, 1, 2, scale=0.5, flag=True), inner(x), inner(x, k=1),
            square(x), (lambda: x + 1)())


def containers(x, y):
    t = (x, y, 3)
    a, b, _ = t
    lst = [a, b]
    lst[1] = b * 2
    d = {"p": a, "q": b}
    d["r"] = a + b
    return t[0:2], lst, d, d["q"], len(t), t[-1], [v * 2 for v in lst], \
        tuple(v + 1 for v in (1, 2) if v > 1), {k: 1 for k in ("u", "v")}


def attributes_and_builtins(x):
    return (x.shape, x.dtype, x.ndim, x.sum(), x.T, isinstance(x, Tensor), isinstance(3, Tensor),
            max(x), min(x), max(1, 2), all((x > 0,)), any(x > 1), max(x, x * 2), abs(-x),
            f"{x.shape[0]} items", round(2.5), int(3.7))


def list_building(x):
    outs = []
    for k in range(3):
        outs.append(x * k)
    outs.insert(0, x)
    outs.reverse()
    return ops.stack(outs), len(outs)


def tensor_setitem(x):
    y = x * 1
    y[0] = 5.0
    return y


@pytest.mark.parametrize("fn,args", [(calls, (X,)), (containers, (X, Y)),
                                     (list_building, (X,))],
                         ids=lambda v: getattr(v, "__name__", ""))
def test_functions_and_containers(fn, args):
    agree(fn, *args)


def test_tensor_setitem_is_a_functional_update():
    compiled = ms.jit(tensor_setitem)(X)
    assert compiled.asnumpy().tolist() == [5.0, 2.0]
    assert X.asnumpy().tolist() == [1.0, 2.0]


def test_attributes_and_builtins():
    compiled = ms.jit(attributes_and_builtins)(X)
    assert compiled[0] == (2,) and compiled[1] == ms.float32 and compiled[2] == 1
    same(compiled[3], X.sum())
    assert compiled[5] is True and compiled[6] is False
    same(compiled[7], Tensor(np.float32(2.0)))                 # max of a Tensor: its max element
    same(compiled[12], ops.maximum(X, X * 2))                  # max of Tensors: elementwise
    assert compiled[14:] == ("2 items", 2, 3)


class Scaled(nn.Cell):
    """A Cell with a Parameter, a Primitive, a sub-cell, a constant and a helper method."""

    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.array([2.0, 3.0], np.float32)), name="w")
        self.mul = ops.Mul()
        self.act = nn.ReLU()
        self.offset = 1.5

    def shift(self, v):
        return v + self.offset

    def construct(self, x):
        return self.shift(self.act(self.mul(x, self.w)))


def test_cell_attributes():
    net = Scaled()
    eager = net(X)
    ms.set_context(mode=ms.GRAPH_MODE)
    same(eager, net(X))


def test_parameters_are_read_when_the_graph_runs():
    net = Scaled()
    ms.set_context(mode=ms.GRAPH_MODE)
    first = net(X)
    net.w.set_data(Tensor(np.array([10.0, 10.0], np.float32)))
    second = net(X)                      # the same compiled graph sees the new value
    same(first, Tensor(np.array([3.5, 7.5], np.float32)))
    same(second, Tensor(np.array([11.5, 21.5], np.float32)))


def test_print_is_a_runtime_op(capsys):
    @ms.jit
    def show(x):
        print("x:", x)
        return x + 1
    show(X)
    show(X * 2)                          # compiled once, printed at every run
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["x:", "Tensor(shape=[2], dtype=Float32, value=[ 1.00000000e+00  2.00000000e+00])",
                     "x:", "Tensor(shape=[2], dtype=Float32, value=[ 2.00000000e+00  4.00000000e+00])"]


def test_python_list_mutation_is_not_reflected_back():
    """semantics 7.2: a Python list mutated inside compiled code is not updated (2.10: a
    counter appended to in a jit function stayed unchanged)."""
    calls = []

    @ms.jit
    def f(x):
        calls.append(1)
        return x * len(calls)
    same(f(X), X * 1)
    same(f(X), X * 1)
    assert calls == []


def test_cell_hook_side_effects_happen_once_at_compile_time():
    """semantics 5.6: hooks are compiled in; their Python side effects happen when the
    graph is compiled, not on every call."""
    fired = []
    cell = nn.ReLU()
    cell.register_forward_hook(lambda c, args, out: fired.append(1))
    ms.set_context(mode=ms.GRAPH_MODE)
    for _ in range(3):
        cell(X)
    assert fired == [1]


def test_compiled_once_per_signature():
    @ms.jit
    def f(x, n):
        return x * n
    f(X, 2)
    f(X + 1, 2)
    f(Tensor(np.ones((3,), np.float32)), 2)
    f(X, 3)
    assert len(f._cache) == 3            # shapes/dtypes of Tensors and values of constants


def test_raise_in_graph():
    @ms.jit
    def checked(x):
        if x.shape[0] != 3:
            raise ValueError(f"need 3 items, got {x.shape[0]}")
        return x
    with pytest.raises(ValueError, match="need 3 items, got 2"):
        checked(X)


# -- unsupported syntax ---------------------------------------------------------------------------

def uses_try(x):
    try:
        x = x + 1
    except ValueError:
        pass
    return x


def uses_while_else(x):
    while x.sum() < 3:
        x = x + 1
    else:
        x = x - 1
    return x


def uses_for_else(x):
    for _ in range(3):
        x = x + 1
    else:
        x = x * 0
    return x


def uses_global(x):
    global X
    return x


def uses_set(x):
    s = {1, 2}
    return x


def uses_two_for_comprehension(x):
    y = [a for a in range(3) for b in range(2)]
    return x


def uses_walrus(x):
    if (n := 3) > 2:
        return x
    return x


def uses_class(x):
    class A:
        pass
    return x


def uses_nested_decorator(x):
    @staticmethod
    def inner():
        return 1
    return x


@pytest.mark.parametrize("fn,construct,text", [
    (uses_try, "Try", "try:"),
    (uses_while_else, "while...else", "while x.sum() < 3:"),
    (uses_for_else, "for...else", "for _ in range(3):"),
    (uses_global, "Global", "global X"),
    (uses_set, "Set", "s = {1, 2}"),
    (uses_two_for_comprehension, "comprehension with several 'for' clauses", "y = [a for"),
    (uses_walrus, "NamedExpr (:=)", "if (n := 3) > 2:"),
    (uses_class, "ClassDef", "class A:"),
    (uses_nested_decorator, "decorator", "@staticmethod"),
], ids=lambda v: getattr(v, "__name__", None) if callable(v) else None)
def test_unsupported_syntax_names_construct_file_and_line(fn, construct, text):
    lines, first = inspect.getsourcelines(fn)
    expected = first + next(k for k, line in enumerate(lines) if text in line)
    with pytest.raises(GraphSyntaxError) as info:
        ms.jit(fn)(X)
    error = info.value
    assert error.construct == construct
    assert error.lineno == expected
    assert error.filename.endswith("test_graph_syntax.py")
    assert f"test_graph_syntax.py:{expected}:" in str(error)
    assert text in str(error)


def test_inference_errors_name_the_source_line():
    def bad(x):
        y = x * 2
        return ops.matmul(y, Tensor(np.ones((3, 3), np.float32)))
    with pytest.raises(Exception) as info:
        ms.jit(bad)(X)
    notes = "\n".join(getattr(info.value, "__notes__", []))
    line = inspect.getsourcelines(bad)[1] + 2
    assert f"test_graph_syntax.py:{line}" in notes
    assert "ops.matmul(y, Tensor" in notes


def test_tensor_value_needed_at_compile_time_runs_on_the_host():
    """JIT Fallback at run time (LAX, MindSpore 2.10's default): ``float(t)`` of a computed
    Tensor is computed when the graph runs, as in PyNative (tests/test_graph_fallback.py)."""
    def needs_value(x):
        return x * float(x.sum())
    np.testing.assert_array_equal(ms.jit(needs_value)(X).asnumpy(), needs_value(X).asnumpy())


def test_tensor_value_needed_at_compile_time_is_a_clear_error_below_lax(monkeypatch):
    monkeypatch.setenv("MS_DEV_JIT_SYNTAX_LEVEL", "1")

    def needs_value(x):
        return x * float(np.abs(x.asnumpy()).max())
    with pytest.raises(GraphCompileError, match="only has a value when the graph runs"):
        ms.jit(needs_value)(X)


def test_branches_must_agree_on_tensor_conditions():
    def disagree(x):
        if x.sum() > 0:
            return x
        return x.astype(ms.int32)
    with pytest.raises(GraphCompileError, match="different types"):
        ms.jit(disagree)(X)


def _plain(value):
    if isinstance(value, Tensor):
        return {"tensor": value.asnumpy().tolist(), "dtype": str(value.dtype)}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return {"python": value, "type": type(value).__name__}


@pytest.mark.parametrize("fn", [number_under_tensor_if, number_in_tensor_while,
                                closure_in_tensor_while, tensor_if_in_long_loop],
                         ids=lambda f: f.__name__)
def test_control_flow_matches_recorded_mindspore(fn):
    """Python numbers changed under Tensor control flow are run-time values, returned as
    MindSpore 2.10 returns them (tests/recorders/graph_control_flow_mindspore.py)."""
    import json
    import os
    path = os.path.join(os.path.dirname(__file__), "golden", "graph_control_flow.json")
    with open(path, encoding="utf-8") as handle:
        recorded = json.load(handle)[fn.__name__]
    x = Tensor(np.array([1.0, 2.0], np.float32))
    assert _plain(ms.jit(fn)(x)) == recorded
    ms.set_context(mode=ms.GRAPH_MODE)

    class Net(nn.Cell):
        def construct(self, x):
            return fn(x)
    assert _plain(Net()(x)) == recorded
