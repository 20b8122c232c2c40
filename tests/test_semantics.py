"""MindSpore 2.10's exact behaviour on edge cases (issue 13): integer reductions to Int64,
flatten of 1-D, squeeze of a non-1 axis, 0-d max/min with keepdims over all axes, ReduceMax
without an axis, BatchNorm inference outputs, and the integer dtypes MindSpore's CPU kernels
reject.  Expected results: ``tests/recorders/record_semantics.py`` -> ``semantics.json``.
"""
import json
import os
import sys

import numpy as np
import pytest

import refms

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "recorders"))
try:
    import record_semantics
finally:
    sys.path.pop(0)

with open(os.path.join(HERE, "recorders", "semantics.json")) as _f:
    RECORDED = json.load(_f)["cases"]
CASES = record_semantics.cases(refms)

#: Exception types refms raises where MindSpore 2.10 raises the same type.
ERRORS = {"TypeError": TypeError, "ValueError": ValueError, "RuntimeError": RuntimeError}


@pytest.mark.parametrize("label", sorted(CASES))
def test_matches_mindspore(label):
    expected = RECORDED[label]
    if "error" in expected:
        with pytest.raises(ERRORS[expected["error"]]):
            CASES[label]()
        return
    result = CASES[label]()
    results = result if isinstance(result, tuple) else (result,)
    assert len(results) == len(expected["outputs"])
    for k, (out, want) in enumerate(zip(results, expected["outputs"])):
        assert str(out.dtype) == want["dtype"], f"output {k} dtype"
        assert list(out.shape) == want["shape"], f"output {k} shape"
        np.testing.assert_allclose(out.asnumpy().astype(np.float64),
                                   np.array(want["value"], np.float64), rtol=1e-6, atol=1e-6,
                                   err_msg=f"output {k}")


def test_squeeze_of_non1_axis_in_graph_mode():
    x = refms.Tensor(np.ones((2, 1, 3), np.float32))
    refms.set_context(mode=refms.GRAPH_MODE)
    squeeze = lambda v: refms.ops.squeeze(v, (0, 1))                      # noqa: E731
    out = refms.jit(squeeze)(x)
    assert tuple(out.shape) == (2, 3)
