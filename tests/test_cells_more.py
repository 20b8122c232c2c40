"""nn.Linear, nn.MatMul, nn.SyncBatchNorm and nn.MaxPool1d (issue 13) against MindSpore 2.10's recorded
outputs, gradients, moving statistics, printed forms and errors
(``tests/recorders/record_cells_more.py``), in PyNative and GRAPH_MODE."""
import json
import os
import sys

import numpy as np
import pytest

import refms

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "recorders"))
try:
    import record_cells_more
finally:
    sys.path.pop(0)

with open(os.path.join(HERE, "recorders", "cells_more.json")) as _f:
    RECORDED = json.load(_f)

NAMES = [name for name, _, _ in record_cells_more._cases(refms)]


@pytest.mark.parametrize("mode", [refms.PYNATIVE_MODE, refms.GRAPH_MODE], ids=["pynative", "graph"])
@pytest.mark.parametrize("k", range(len(NAMES)), ids=NAMES)
def test_matches_mindspore(k, mode):
    refms.set_context(mode=mode)
    ours, expected = record_cells_more.run_case(refms, k), RECORDED[NAMES[k]]
    assert ours["dtype"] == expected["dtype"] and ours["names"] == expected["names"]
    np.testing.assert_allclose(ours["output"], expected["output"], rtol=1e-5, atol=1e-6)
    for a, b in zip(ours["grads"], expected["grads"]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    assert sorted(ours["grad_params"]) == sorted(expected["grad_params"])
    for name, grad in expected["grad_params"].items():
        np.testing.assert_allclose(ours["grad_params"][name], grad, rtol=1e-5, atol=1e-5)
    if "moving" in expected:
        np.testing.assert_allclose(ours["moving"], expected["moving"], rtol=1e-5, atol=1e-6)


def test_printed_forms_and_errors_match_mindspore():
    ours = record_cells_more.run(refms)
    assert ours["repr"] == RECORDED["repr"]
    assert ours["errors"] == RECORDED["errors"]
