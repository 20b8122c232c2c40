"""nn.RMSProp (issue 13) against MindSpore 2.10's recorded steps
(``tests/recorders/record_rmsprop.py``), in PyNative and GRAPH_MODE."""
import json
import os
import sys

import numpy as np
import pytest

import refms

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "recorders"))
try:
    import record_rmsprop
finally:
    sys.path.pop(0)

with open(os.path.join(HERE, "recorders", "rmsprop.json")) as _f:
    RECORDED = json.load(_f)


@pytest.mark.parametrize("mode", [refms.PYNATIVE_MODE, refms.GRAPH_MODE], ids=["pynative", "graph"])
@pytest.mark.parametrize("case", sorted(record_rmsprop.CASES))
def test_steps_match_mindspore(case, mode):
    refms.set_context(mode=mode)
    ours = record_rmsprop.run_case(refms, record_rmsprop.CASES[case])
    expected = RECORDED[case]
    assert ours["names"] == expected["names"]
    for k, (a, b) in enumerate(zip(ours["steps"], expected["steps"])):
        for name in b:
            np.testing.assert_allclose(a[name], b[name], rtol=1e-5, atol=1e-7,
                                       err_msg=f"{case} step {k} {name}")


def test_errors_match_mindspore():
    assert record_rmsprop.error_cases(refms) == RECORDED["errors"]
