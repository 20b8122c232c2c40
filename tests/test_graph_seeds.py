"""The seed pages' examples in GRAPH_MODE where the pages run them in PyNative, and mode agreement.

Every documented output is a conformance case (``conformance/cases``, run by
``test_conformance_cases.py``), the graph-mode ones included; the code here is
imported from those modules, never copied.  What this file adds: page 004's
PyNative examples compiled in GRAPH_MODE print the same; JIT Fallback's
tensor is a constant of the graph; a Conv2d gives the same values staged and
in PyNative.  (Page 001's LeNet GradWrap step in both modes: test_lenet_digits.py.)
"""
import numpy as np
import pytest

import refms as ms
from refms import Tensor

from conformance.case import Edit
from conformance.cases import find
from seed_scripts import assert_prints, run_case_script

PYNATIVE_SWITCH = "ms.set_context(mode=ms.PYNATIVE_MODE)"
TO_GRAPH_MODE = Edit(PYNATIVE_SWITCH, "ms.set_context(mode=ms.GRAPH_MODE)",
                     "the page runs the example in PyNative; compiled, it must print the same")


@pytest.mark.parametrize("case_id", ["modes_20.pynative_grad", "modes_20.pynative_for_loop"])
def test_pynative_example_prints_the_same_in_graph_mode(case_id):
    case = find(case_id)
    printed, _ = run_case_script(case, TO_GRAPH_MODE)
    assert_prints(printed, case.expected)


def test_jit_fallback_is_a_constant_of_the_graph():
    """001 JIT Fallback: the page's ``Tensor(np.array([1, 2, 3]))`` is computed at compile time:
    Int64 and a ValueNode of the graph, in the page's Cell and in an ``ms.jit`` function."""
    from refms.graph import ir_text
    _, namespace = run_case_script(find("modes_r16.jit_fallback"))
    net = namespace["net"]
    assert str(net().dtype) == "Int64"
    assert "Return(Tensor(shape=[3], dtype=Int64, value=[1 2 3]))" in ir_text(net)

    @ms.jit
    def make():
        return Tensor(np.array([1, 2, 3]))
    result = make()
    assert str(result.dtype) == "Int64" and str(result) == "[1 2 3]"
    text = ir_text(make)
    assert "Return(Tensor(shape=[3], dtype=Int64, value=[1 2 3]))" in text


def test_conv_in_jit_keeps_the_documented_shape():
    """000 "如果被装饰的函数中包含了需要进行参数训练的算子": Conv2d instantiated outside the jit
    function; the output shape is the page's (2, 4, 3, 3)."""
    conv_obj = ms.nn.Conv2d(in_channels=3, out_channels=4, kernel_size=3, stride=2, padding=0)
    conv_obj.init_parameters_data()

    @ms.ms_function
    def conv_fn(x):
        res = conv_obj(x)
        return res

    input_data = np.random.randn(2, 3, 6, 6).astype(np.float32)
    z = conv_fn(Tensor(input_data))
    assert z.shape == (2, 4, 3, 3)
    np.testing.assert_allclose(z.asnumpy(), conv_obj.__class__.construct(conv_obj, Tensor(input_data)).asnumpy(),
                               rtol=1e-6, atol=1e-6)


def test_single_conv_op_in_graph_mode():
    """001 执行单算子 (run in GRAPH_MODE on the page): the Conv2d cell's output has the page's
    shape (1, 4, 5, 5); its values come from an unseeded random init, so they are compared with
    PyNative from the same weights instead."""
    ms.set_context(compat="1.6")
    conv = ms.nn.Conv2d(3, 4, 3, bias_init="zeros")
    input_data = Tensor(np.ones([1, 3, 5, 5]).astype(np.float32))
    eager = conv(input_data)
    ms.set_context(mode=ms.GRAPH_MODE)
    output = conv(input_data)
    assert output.shape == (1, 4, 5, 5)
    np.testing.assert_allclose(output.asnumpy(), eager.asnumpy(), rtol=1e-6, atol=1e-7)
