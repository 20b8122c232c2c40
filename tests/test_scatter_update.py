"""ops.ScatterNdUpdate and ops.ScatterAdd (issue 13) against MindSpore 2.10's recorded results
(``tests/recorders/record_scatter_update.py``), inside a Cell in PyNative and GRAPH_MODE."""
import json
import os
import sys

import numpy as np
import pytest

import refms

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "recorders"))
try:
    import record_scatter_update
finally:
    sys.path.pop(0)

with open(os.path.join(HERE, "recorders", "scatter_update.json")) as _f:
    RECORDED = json.load(_f)


@pytest.mark.parametrize("mode", [refms.PYNATIVE_MODE, refms.GRAPH_MODE], ids=["pynative", "graph"])
@pytest.mark.parametrize("case", sorted(record_scatter_update.CASES))
def test_matches_mindspore(case, mode):
    refms.set_context(mode=mode)
    ours = record_scatter_update.run_case(refms, case)
    for key in ("returned", "parameter"):
        np.testing.assert_allclose(ours[key], RECORDED[case][key], rtol=1e-6, err_msg=key)


def test_errors_match_mindspore():
    assert record_scatter_update.error_cases(refms) == RECORDED["errors"]
