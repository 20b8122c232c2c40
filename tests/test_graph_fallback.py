"""JIT Fallback at run time (refms.graph.fallback): Python code that needs a computed
Tensor's value runs on the host when the graph runs, as in MindSpore 2.10 (LAX level).

The cases are tests/graph_fallback_cases.py; MindSpore's results were recorded by
tests/recorders/record_graph_fallback.py into tests/golden/graph_fallback.json.
"""
import json
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import refms as ms  # noqa: E402
from refms.graph import GraphCompileError, ir_text  # noqa: E402
from graph_fallback_cases import CASES, plain  # noqa: E402

GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden", "graph_fallback.json")
with open(GOLDEN, encoding="utf-8") as _file:
    RECORDED = json.load(_file)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.__name__)
def test_case_matches_recorded_mindspore(case):
    assert {"result": case(ms)} == RECORDED[case.__name__]


def test_every_case_is_recorded():
    assert {case.__name__ for case in CASES} == set(RECORDED)


def test_host_code_agrees_with_pynative():
    def f(x):
        a = x.asnumpy()
        scale = float(np.abs(a).max())
        return ms.Tensor(a / scale) * 2 + x, int(x.argmax()), len(a)
    x = ms.tensor(np.array([1.0, -4.0, 2.0], np.float32))
    graph_out = ms.jit(f)(x)
    eager_out = f(x)
    assert plain(graph_out) == plain(eager_out)


def test_fallback_is_a_pyexecute_node_with_an_any_result():
    def f(x):
        return x.asnumpy() + 1
    text = ir_text(f, ms.tensor([1.0, 2.0]))
    assert "PyExecute" in text
    assert "<Any, NoShape>" in text


def test_int_of_a_tensor_is_a_run_time_int():
    """``int(t)``'s result type is known (an int) although its value is not."""
    def f(x):
        return int(x.sum())
    text = ir_text(f, ms.tensor([1.0, 2.0]))
    assert "PyExecute" in text and "<Int64, NoShape, value=<run time>>" in text


def test_strict_syntax_level_rejects_asnumpy_and_compiles_float(monkeypatch):
    """MindSpore 2.10 with MS_DEV_JIT_SYNTAX_LEVEL=0 (observed, see the recorder's docstring):
    ``x.asnumpy()`` is an AttributeError, ``x * float(x.sum())`` still runs."""
    monkeypatch.setenv("MS_DEV_JIT_SYNTAX_LEVEL", "0")

    @ms.jit
    def f(x):
        return x.asnumpy()
    with pytest.raises(AttributeError, match="In JIT strict mode, cannot get attributes asnumpy"):
        f(ms.tensor([1.0, 2.0]))

    @ms.jit
    def g(x):
        return x * float(x.sum())
    np.testing.assert_array_equal(g(ms.tensor([1.0, 2.0])).asnumpy(), [3.0, 6.0])


def test_compatible_syntax_level_keeps_the_compile_error(monkeypatch):
    monkeypatch.setenv("MS_DEV_JIT_SYNTAX_LEVEL", "1")

    @ms.jit
    def f(x):
        return x.asnumpy() + 1
    with pytest.raises(GraphCompileError, match="only has a value when the graph runs"):
        f(ms.tensor([1.0, 2.0]))


def test_strict_syntax_level_copies_a_global_list(monkeypatch):
    """The tutorial: with STRICT the returned list and the global are two objects."""
    monkeypatch.setenv("MS_DEV_JIT_SYNTAX_LEVEL", "0")
    values = [1, 2, 3]

    @ms.jit
    def f():
        values.reverse()
        return values
    out = f()
    assert out == [3, 2, 1] and out is not values and values == [1, 2, 3]


def test_host_value_joined_with_a_number_is_any():
    """Branches of a run-time ``if`` returning a host array and a number join to Any."""
    @ms.jit
    def f(x):
        if x.sum() > 0:
            y = x.asnumpy()
        else:
            y = 0
        return y
    assert isinstance(f(ms.tensor([1.0])), np.ndarray)
    assert f(ms.tensor([-1.0])) == 0


def test_closure_called_by_host_code_agrees_with_pynative():
    """A nested function reading a computed Tensor, used as ``sorted``'s key.  (MindSpore
    2.10 raised ``TypeError: 'int' object is not callable`` here, recorded while writing
    tests/graph_fallback_cases.py; refms runs it as PyNative does.)"""
    def f(x):
        k = x.sum()

        def score(v):
            return -v * 3 + float(k)
        return sorted(x.asnumpy().tolist(), key=score), list(map(score, x.asnumpy().tolist()))
    x = ms.tensor([1.0, 2.0, 0.5])
    assert ms.jit(f)(x) == f(x)


def test_graph_function_with_defaults_passed_to_host_code_is_a_clear_error():
    @ms.jit
    def f(x):
        g = lambda v, scale=2: v * scale         # noqa: E731
        return list(map(g, x.asnumpy()))
    with pytest.raises(GraphCompileError, match="positional parameters only"):
        f(ms.tensor([1.0, 2.0]))


def test_gradient_of_a_program_passing_a_lambda_to_host_code():
    """The host gets the primal lambda; no gradient flows through the host's result."""
    def f(x):
        host = ms.tensor(list(map(lambda v: v * 2, x.asnumpy())))
        return (x * 3).sum(), host
    grad = ms.grad(ms.jit(f))(ms.tensor([1.0, 2.0]))
    np.testing.assert_array_equal(grad.asnumpy(), [3.0, 3.0])
