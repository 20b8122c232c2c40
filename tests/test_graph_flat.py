"""The flat executor (refms.graph.flat) against the interpreter (refms.graph.executor).

A straight-line compiled program runs as a list of kernel calls; each test runs
the same compiled entry both ways and asserts equal values (to the bit: the
same kernels in the same order), and that graphs with control flow are left
to the interpreter.
"""
import os
import sys

import numpy as np
import pytest

import refms as ms
from refms import Tensor, Parameter, nn, ops
from refms.graph import compiler as C
from refms.graph.executor import run_graph
from refms.graph.flat import plan

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "examples"))


def _compiled(fn, *args):
    """Call ``fn`` once and return the Compiled program(s) made by that call."""
    made = []
    with C.observe(made.append):
        fn(*args)
    assert made, "the call compiled nothing"
    return made


def _values(out):
    if isinstance(out, (tuple, list)):
        return [v for o in out for v in _values(o)]
    return [out.asnumpy()]


def _assert_same(a, b):
    va, vb = _values(a), _values(b)
    assert len(va) == len(vb)
    for x, y in zip(va, vb):
        assert x.dtype == y.dtype and x.shape == y.shape
        np.testing.assert_array_equal(x, y)


def test_elementwise_and_matmul_function_runs_flat_and_agrees():
    f = lambda x, w, b: ops.relu(ops.matmul(x, w) + b) * 2.0 - x[:, :3].sum()   # noqa: E731
    f = ms.jit(f)
    rng = np.random.default_rng(0)
    args = (Tensor(rng.standard_normal((4, 5)).astype(np.float32)),
            Tensor(rng.standard_normal((5, 3)).astype(np.float32)),
            Tensor(rng.standard_normal(3).astype(np.float32)))
    compiled = _compiled(f, *args)[-1]
    program = plan(compiled.entry)
    assert program is not None
    _assert_same(program.run(args), run_graph(compiled.entry, args))
    _assert_same(f(*args), run_graph(compiled.entry, args))
    assert compiled.flat is program or compiled.flat                # the jit call used it


def test_tuple_output_and_mixed_dtypes_agree():
    f = lambda x, y: (x + y, ops.cast(x, ms.float64) * 3, ops.argmax(x, -1))   # noqa: E731
    f = ms.jit(f)
    args = (Tensor(np.arange(6, dtype=np.int32).reshape(2, 3)),
            Tensor(np.linspace(0, 1, 6, dtype=np.float32).reshape(2, 3)))
    compiled = _compiled(f, *args)[-1]
    program = plan(compiled.entry)
    assert program is not None
    _assert_same(program.run(args), run_graph(compiled.entry, args))


def test_control_flow_is_left_to_the_interpreter():
    @ms.jit
    def f(x, n):
        while n > 0:
            x = x * 2
            n = n - 1
        return x
    args = (Tensor(np.ones(3, np.float32)), Tensor(np.array(3, np.int32)))
    compiled = _compiled(f, *args)[-1]
    assert plan(compiled.entry) is None
    np.testing.assert_array_equal(f(*args).asnumpy(), np.full(3, 8, np.float32))


def test_weights_are_read_when_the_program_runs():
    w = Parameter(Tensor(np.ones(3, np.float32)), name="w")

    class Scale(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = w

        def construct(self, x):
            return x * self.w

    net = ms.jit(Scale().construct)
    x = Tensor(np.arange(3, dtype=np.float32))
    np.testing.assert_array_equal(net(x).asnumpy(), [0, 1, 2])
    w.set_data(Tensor(np.full(3, 2, np.float32)))
    np.testing.assert_array_equal(net(x).asnumpy(), [0, 2, 4])


@pytest.mark.parametrize("batch", [4])
def test_lenet_train_step_flat_equals_interpreter(batch):
    from lenet import LeNet5
    rng = np.random.default_rng(1)
    data = Tensor(rng.standard_normal((batch, 1, 32, 32)).astype(np.float32))
    labels = Tensor(rng.integers(0, 10, batch).astype(np.int32))

    def make():
        ms.set_seed(3)
        net = LeNet5()
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss),
                                   nn.Momentum(net.trainable_params(), 0.01, 0.9))
        step.set_train()
        return step, net

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        flat_step, flat_net = make()
        compiled = _compiled(flat_step, data, labels)[-1]
        assert compiled.flat, "the LeNet training step should be straight-line code"
        ref_step, ref_net = make()
        ref_compiled = _compiled(ref_step, data, labels)[-1]
        ref_compiled.flat = False                        # force the interpreter
        for _ in range(2):
            _assert_same(flat_step(data, labels), ref_step(data, labels))
        for a, b in zip(flat_net.trainable_params(), ref_net.trainable_params()):
            np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
