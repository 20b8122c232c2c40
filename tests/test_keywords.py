"""Functional ops take keyword arguments with MindSpore's parameter names (issue 13).

The parameter lists are MindSpore 2.10's, recorded by
``tests/recorders/record_signatures.py`` and compiled into
``refms/ops/signature_table.py``; the keyword calls' expected results come
from running the same calls on MindSpore (``record_keywords.py``).
"""
import inspect
import json
import os
import sys

import numpy as np
import pytest

import refms
from refms.ops import functional as F
from refms.ops.signature_table import SIGNATURES

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "recorders"))
try:
    import record_keywords
finally:
    sys.path.pop(0)

with open(os.path.join(HERE, "recorders", "keywords.json")) as _f:
    RECORDED = json.load(_f)
with open(os.path.join(HERE, "recorders", "ms_signatures.json")) as _f:
    MS_SIGNATURES = json.load(_f)["functions"]

#: Names whose refms signature differs from MindSpore's, with the reason.
DIFFERENT = {
    "partial": "MindSpore's is (*args); refms names the function argument 'func' (same calls work)",
    "tuple_len": "MindSpore's is (*args) of one tuple; refms names it 'data' (same calls work)",
}


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_signature_is_mindspores(name):
    ours = [p.name for p in inspect.signature(getattr(F, name)).parameters.values()]
    theirs = [p[0] for p in MS_SIGNATURES[name]]
    if name in DIFFERENT:
        assert ours != theirs, f"{name} now matches: remove it from DIFFERENT"
        return
    assert ours == theirs


def test_table_is_current():
    """The generated table holds exactly the recorded lists of refms's functional names."""
    expected = sorted(n for n in F.__all__ if n in MS_SIGNATURES)
    assert sorted(SIGNATURES) == expected
    for name in expected:
        assert [p[0] for p in SIGNATURES[name]] == [p[0] for p in MS_SIGNATURES[name]]


@pytest.mark.parametrize("label", [label for label, _ in record_keywords.calls(refms)])
def test_keyword_call_matches_mindspore(label):
    thunk = dict(record_keywords.calls(refms))[label]
    result = thunk()
    assert str(result.dtype) == RECORDED[label]["dtype"]
    np.testing.assert_allclose(result.asnumpy(), np.array(RECORDED[label]["value"]), rtol=1e-6)


def test_unknown_keyword_names_the_op_and_parameters():
    x = refms.Tensor([1.0])
    with pytest.raises(TypeError, match="For 'add'.*input, other"):
        refms.ops.add(x, others=x)
    with pytest.raises(TypeError, match="missing the argument 'input'"):
        refms.ops.add(other=x)


def test_keywords_work_in_graph_mode():
    x = refms.Tensor(record_keywords.X)

    @refms.jit
    def f(a):
        return refms.ops.expand_dims(refms.ops.add(input=a, other=a), axis=0)
    np.testing.assert_allclose(f(x).asnumpy(), (2 * record_keywords.X)[None])
