"""The seed pages' ``nn.Cell`` examples, checked beyond what the pages print.

Every documented output is a conformance case (``conformance/cases``, run by
``test_conformance_cases.py``); the code here is imported from those modules,
never copied.  What this file adds:

* the r1.7 hook examples as MindSpore 2.10 prints them, run under compat 2.10
  (semantics 5.3, 5.4; the cases' ``later`` text);
* the LeNet5 definitions of pages 000 and 001, which print nothing: their
  parameters, a forward pass, and the r1.x default initialisation.
"""
import numpy as np
import pytest

import refms as ms

from conformance.cases import find, seed000_pynative_r16, seed001_modes_r16
from seed_scripts import assert_prints, exec_page_code, run_case_script

BN_DOUT = ("(Tensor(shape=[1, 2, 1, 1], dtype=Float32, value=\n"
           "[[[[ 1.00000000e+00]],\n [[ 1.00000000e+00]]]]),)\n")      # w.r.t. the BatchNorm's output
BN_DX = ("(Tensor(shape=[1, 2, 1, 1], dtype=Float32, value=\n"
         "[[[[ 9.99994993e-01]],\n [[ 9.99994993e-01]]]]),)\n")        # w.r.t. its input
GRAD_OUTPUT_2 = "grad output: (Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]),)"
GRAD_OUTPUT_1 = "grad output: (Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00]),)"

# (case, the documented text, what 2.10 prints in its place)
AS_2_10_PRINTS = [
    # 2.x passes grad w.r.t. the cell's inputs as the hook's 2nd argument and w.r.t. its output as
    # the 3rd (r1.7: the reverse), so the two tuples swap places.
    ("pynative_r17.backward_hook", BN_DOUT + BN_DX, BN_DX + BN_DOUT),
    # The backward hook's scope also covers the forward hook's doubling, and its arguments swapped.
    ("pynative_r17.hooks_combined", GRAD_OUTPUT_2, GRAD_OUTPUT_1),
]


@pytest.mark.parametrize("case_id,documented,printed_by_2_10", AS_2_10_PRINTS,
                         ids=[row[0] for row in AS_2_10_PRINTS])
def test_hook_example_as_2_10_prints_it(case_id, documented, printed_by_2_10):
    case = find(case_id)
    assert documented in case.expected, f"{case_id}: the documented output changed; update this row"
    printed, _ = run_case_script(case, compat="2.10")
    assert_prints(printed, case.expected.replace(documented, printed_by_2_10))


# Page 001's LeNet5 cell takes `nn` and `Normal` from the notebook's setup cell.
SETUP_IMPORTS_001 = "import mindspore.nn as nn\nfrom mindspore.common.initializer import Normal\n"
LENET_DEFINITIONS = {"000": seed000_pynative_r16.LENET5, "001": SETUP_IMPORTS_001 + seed001_modes_r16.LENET}


@pytest.mark.parametrize("page,compat", [("000", "1.6"), ("001", "1.6"), ("000", "2.10")],
                         ids=["000", "001", "000-2.10"])
def test_lenet_definitions_construct_and_run_forward(page, compat):
    ms.set_context(compat=compat, mode=ms.PYNATIVE_MODE)
    namespace = {}
    exec_page_code(LENET_DEFINITIONS[page], f"<seed {page} LeNet5>", namespace)
    net = namespace["LeNet5"]()
    assert [p.name for p in net.get_parameters()] == [
        "conv1.weight", "conv2.weight", "fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias",
        "fc3.weight", "fc3.bias"]
    x = ms.Tensor(np.ones([32, 1, 32, 32]).astype(np.float32) * 0.01)
    out = net(x)
    assert out.shape == (32, 10) and out.dtype == ms.float32
    if compat == "1.6":      # r1.x defaults: N(0, 0.01²) conv weights, zero biases
        assert np.all(net.fc1.bias.asnumpy() == 0)
        assert np.abs(net.conv1.weight.asnumpy()).max() < 0.06
