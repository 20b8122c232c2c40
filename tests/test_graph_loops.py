"""Gradients through loops on a Tensor condition that leave early, against MindSpore 2.10
(programs in ``tests/graph_loop_programs.py``, recorded by
``tests/recorders/record_graph_loops.py``).

A loop's result is typed by its exit: inside the loop, a call that goes round it again
is typed ``Pending`` until the loop's graph is inferred (:mod:`refms.graph.infer`).  With
a ``break`` the loop's exit is reached through an ``if``'s join graph, and in nested loops
through the outer loop; each such call must get the loop's type in the end, or its
gradient is taken for a constant's (zero).  The float64 checks below compare the
gradients with central differences.
"""
import numpy as np
import pytest

import refms as ms
from refms import Tensor

from graph_loop_programs import PROGRAMS
from test_graph_static_syntax import check_program, program_param, recorded_programs

RECORDED = recorded_programs("graph_loops.json")


@pytest.mark.parametrize("name", [program_param(name, {}) for name in PROGRAMS])
def test_program_matches_mindspore(name, tmp_path):
    check_program(PROGRAMS[name], RECORDED[name], str(tmp_path))


def test_every_program_is_recorded():
    assert set(PROGRAMS) == set(RECORDED)


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
            y = y * y + x
    return y


def nested(x):
    i = Tensor(0, ms.int32)
    acc = x * 0
    while i < 3:
        j = Tensor(0, ms.int32)
        while j < i:
            acc = acc + x * x * x
            j = j + 1
            if acc.sum() > 50:
                break
        i = i + 1
    return acc


@pytest.mark.parametrize("fn", [break_continue, nested], ids=lambda fn: fn.__name__)
def test_gradient_is_the_central_difference(fn):
    """The gradient of sum(fn(x)) · v for a random direction v, in float64, against
    (f(x + h v) − f(x − h v)) / 2h (x away from the points where a branch changes)."""
    rng = np.random.default_rng(0)
    x = np.array([0.7, -0.4, 0.9])
    v = rng.standard_normal(3)

    def f(point):
        return float(fn(Tensor(point)).asnumpy().sum())

    h = 1e-6
    expected = (f(x + h * v) - f(x - h * v)) / (2 * h)
    grad = ms.jit(ms.grad(fn))(Tensor(x)).asnumpy()
    np.testing.assert_allclose(grad @ v, expected, rtol=1e-6)
