"""The composed ops and layers of issue 13 against MindSpore 2.10's recorded outputs and gradients.

``tests/recorders/record_api_ops.py`` defines the cases once against an ``ms``
namespace and recorded them on MindSpore (``api_ops.json``); here the same
case functions run on refms: values and dtypes of every output, the gradient
of ``Σ out·cotangent`` for every float input, and the same results when the
case runs compiled (``GRAPH_MODE``: cells compile their ``construct``,
functions go through ``refms.jit``).
"""

import numpy as np
import pytest

import refms
from recorded_op_cases import load_recorded, case_inputs, as_tuple, check_outputs, calling

record_api_ops, RECORDED, CASES, _ = load_recorded("api_ops")
#: Cases whose function builds a Cell (graph mode compiles its construct, not the lambda).
CELL_CASES = {name for name in CASES if name.startswith(("nn.", "Conv", "leaky", "relu6", "prelu"))}








@pytest.mark.parametrize("name", sorted(CASES))
def test_forward_matches_mindspore(name):
    case = RECORDED[name]
    fn, _ = CASES[name]
    check_outputs(name, as_tuple(fn(*case_inputs(case))), case, atol=1e-6)


#: Cases where MindSpore 2.10's own gradient is wrong; refms is checked against float64 central
#: differences instead (``test_gradient_numerically``).
MINDSPORE_GRADIENT_BUGS = {
    "StridedSlice": "StridedSliceGrad ignores begin_mask: the rows selected through the mask get "
                    "zero gradient although the forward output uses them",
    "strided_slice-negative": "the gradient of a negative stride raises 'The int value(-1) is "
                              "less than 0' (recorded as grad_error)",
}


@pytest.mark.parametrize("name", sorted(n for n in CASES if "grads" in RECORDED[n]
                                        and n not in MINDSPORE_GRADIENT_BUGS))
def test_gradient_matches_mindspore(name):
    case = RECORDED[name]
    fn, _ = CASES[name]
    cotangents = [refms.Tensor(np.array(c, np.float32)) for c in case["cotangents"]]

    def projected(*args):
        total = 0
        for out, c in zip(as_tuple(fn(*args)), cotangents):
            total = total + (out * c).sum()
        return total
    grads = as_tuple(refms.grad(projected, grad_position=tuple(case["grad_positions"]))(
        *case_inputs(case)))
    for k, (g, expected) in enumerate(zip(grads, case["grads"])):
        np.testing.assert_allclose(g.asnumpy(), np.array(expected), rtol=1e-4, atol=1e-5,
                                   err_msg=f"{name} gradient {k}")


@pytest.mark.parametrize("name", sorted(CASES))
def test_graph_mode_matches_mindspore(name):
    case = RECORDED[name]
    fn, _ = CASES[name]
    refms.set_context(mode=refms.GRAPH_MODE)
    run = fn if name in CELL_CASES else refms.jit(calling(fn))
    check_outputs(name, as_tuple(run(*case_inputs(case))), case, atol=1e-6)




@pytest.mark.parametrize("name", sorted(MINDSPORE_GRADIENT_BUGS))
def test_gradient_numerically(name):
    """⟨u, J v⟩ by float64 central differences equals ⟨refms gradient, v⟩."""
    case = RECORDED[name]
    fn, _ = CASES[name]
    rng = np.random.default_rng(5)
    x = np.array(case["inputs"][0], np.float64)
    u = [rng.standard_normal(np.array(o).shape) for o in case["outputs"]]
    v = rng.standard_normal(x.shape)

    def value(array):
        outs = as_tuple(fn(refms.Tensor(array)))
        return sum(float((o.asnumpy() * c).sum()) for o, c in zip(outs, u))
    h = 1e-6
    numeric = (value(x + h * v) - value(x - h * v)) / (2 * h)

    def projected(t):
        total = 0
        for o, c in zip(as_tuple(fn(t)), u):
            total = total + (o * refms.Tensor(c)).sum()
        return total
    grad = refms.grad(projected)(refms.Tensor(x)).asnumpy()
    np.testing.assert_allclose(float((grad * v).sum()), numeric, rtol=1e-6, atol=1e-8)


def test_tensor_data_value_numpy_from_numpy():
    array = np.arange(3, dtype=np.float32)
    t = refms.Tensor.from_numpy(array)
    array[0] = 7.0                          # from_numpy shares memory, as in MindSpore
    assert t.asnumpy()[0] == 7.0 and str(t.dtype) == "Float32"
    assert t.data is t and t.value() is t
    np.testing.assert_array_equal(t.numpy(), array)
    with pytest.raises(TypeError):
        refms.Tensor.from_numpy([1, 2])


def test_bad_inputs_raise_mindspore_exception_types():
    x = refms.Tensor(np.ones((2, 3), np.float32))
    ops, nn = refms.ops, refms.nn
    with pytest.raises(TypeError, match="L2Normalize"):
        ops.L2Normalize((0, 1))             # MindSpore 2.10: one axis only (TypeError)
    with pytest.raises(ValueError, match="Elu"):
        nn.ELU(0.5)                         # MindSpore 2.10: alpha must be 1.0
    with pytest.raises(TypeError, match="GatherNd"):
        ops.GatherNd()(x, None)
    with pytest.raises(ValueError, match="Slice"):
        ops.Slice()(x, (0, 2), (2, 2))
    with pytest.raises(ValueError, match="Pad"):
        ops.Pad(((1, 1),))(x)
    with pytest.raises(RuntimeError, match="Ascend"):
        ops.NPUAllocFloatStatus()()


def test_conv2d_bn_act_chains_the_three_cells():
    """Parameter names as MindSpore 2.10 prints them for Conv2dBnAct(2, 3, 3, has_bn=True,
    activation='relu'); the output is relu(batchnorm(conv(x)))."""
    net = refms.nn.Conv2dBnAct(2, 3, 3, has_bn=True, activation="relu")
    names = [p.name for p in net.get_parameters()]
    assert sorted(names) == sorted(["conv.weight", "batchnorm.gamma", "batchnorm.beta",
                                    "batchnorm.moving_mean", "batchnorm.moving_variance"])
    x = refms.Tensor(np.random.default_rng(0).standard_normal((1, 2, 4, 4)).astype(np.float32))
    expected = net.activation(net.batchnorm(net.conv(x)))
    np.testing.assert_allclose(net(x).asnumpy(), expected.asnumpy())
    assert (net(x).asnumpy() >= 0).all()
