"""Each optimization pass does what its docstring says, and never changes results."""
import numpy as np

import refms as ms
from refms import Tensor, ops
from refms.graph import ir_text
from refms.graph.compiler import compile_call
from refms.graph.ir import graphs_of, ValueNode

X = Tensor(np.array([1.0, -2.0, 3.0], np.float32))


def stage(fn, name, *args):
    return ir_text(ms.jit(fn), *(args or (X,)), stage=name)


def count(text, needle):
    return text.count(needle)


def helper(v):
    return v * 2


def calls_helper(x):
    return helper(x) + helper(x + 1)


def test_inline_replaces_calls_by_bodies():
    before = stage(calls_helper, "type_inference")
    after = stage(calls_helper, "inline")
    assert "call @helper" in before
    assert "call @" not in after and "Total subgraphs: 1" in after


def constant_expression(x):
    c = Tensor(np.array([1.0, 2.0, 3.0], np.float32)) * 2 + 1
    return x + c


def test_constant_folding_computes_constant_tensors_at_compile_time():
    before = stage(constant_expression, "cconv")
    after = stage(constant_expression, "constant_fold")
    assert count(before, "= Mul(") == 1 and count(after, "= Mul(") == 0
    assert "value=[3. 5. 7.]" in after
    np.testing.assert_allclose(ms.jit(constant_expression)(X).asnumpy(), [4.0, 3.0, 10.0])


def repeated(x):
    a = ops.exp(x) * 3
    b = ops.exp(x) * 3
    return a + b


def test_cse_merges_identical_expressions():
    before = stage(repeated, "constant_fold")
    after = stage(repeated, "cse")
    assert count(before, "= Exp(") == 2 and count(after, "= Exp(") == 1


def test_cse_keeps_random_draws_apart():
    def two_draws(x):
        return ops.standard_normal((3,)) + ops.standard_normal((3,)) + x
    after = stage(two_draws, "cse")
    assert count(after, "StandardNormal(") == 2


def dead(x):
    unused = ops.exp(x) * 100
    return x + 1


def test_dce_removes_unused_nodes_but_keeps_effects():
    before = stage(dead, "cse")
    after = stage(dead, "dce")
    assert "Exp(" in before and "Exp(" not in after

    def printing(x):
        print(x)
        return x
    assert "Print(" in stage(printing, "dce")


def chain(x):
    return ops.relu(x * 2 + 1) - x


def test_fusion_runs_an_elementwise_chain_as_one_node():
    text = stage(chain, "fusion")
    assert "Fused[Mul→Add→ReLU→Sub](" in text
    eager = chain(X)
    np.testing.assert_array_equal(ms.jit(chain)(X).asnumpy(), eager.asnumpy())


def test_relu_backward_is_one_relu_grad_node():
    """Graph autodiff reuses ReLU's bprop: one ReluGrad step of (dout, ReLU's output), fused
    with its elementwise neighbours, no Greater→Cast→Mul chain; the PyNative tape's gradient."""
    def loss(x):
        return (ops.relu(x * 2 - 1) * x).sum()
    text = ir_text(ms.jit(ms.grad(loss)), X, stage="fusion")
    assert count(text, "ReluGrad") == 1 and "Greater" not in text
    np.testing.assert_array_equal(ms.jit(ms.grad(loss))(X).asnumpy(), ms.grad(loss)(X).asnumpy())


def test_fusion_respects_multiple_uses_and_dtypes():
    def shared(x):
        y = x * 2                       # used twice: not absorbed
        return y + 1, y.astype(ms.int32) * 3
    compiled = ms.jit(shared)(X)
    eager = shared(X)
    for c, e in zip(compiled, eager):
        assert c.dtype == e.dtype
        np.testing.assert_array_equal(c.asnumpy(), e.asnumpy())


def branch(x):
    a = x * 3
    if x.sum() > 0:
        y = a + x
    else:
        y = a - x
    return y


def test_closure_conversion_closes_branch_graphs():
    before = stage(branch, "simplify")
    after = stage(branch, "cconv")
    assert "$(@" in before and "$(@" not in after
    assert "parent:" not in after


def test_passes_preserve_results_of_control_flow():
    for value in (X, -X):
        np.testing.assert_allclose(ms.jit(branch)(value).asnumpy(), branch(value).asnumpy())


def test_every_stage_is_verified():
    compiled = compile_call(ms.jit(branch), (X,), keep_stages=True)
    for graph in graphs_of(compiled.entry):
        for node in graph.order:
            assert node.abstract is not None, node
    assert not any(isinstance(n, ValueNode) and n.value is None for n in [compiled.entry.output])
