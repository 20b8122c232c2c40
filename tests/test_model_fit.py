"""Model.fit (issue 13): training with validation per epoch, against MindSpore 2.10's recorded
hook sequence, cb_params, metrics, eval results and final weights
(``tests/recorders/record_model_fit.py``)."""
import json
import os
import sys

import numpy as np
import pytest

import refms

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "recorders"))
try:
    import record_model_fit
finally:
    sys.path.pop(0)

with open(os.path.join(HERE, "recorders", "model_fit.json")) as _f:
    RECORDED = json.load(_f)


@pytest.mark.parametrize("mode", [refms.PYNATIVE_MODE, refms.GRAPH_MODE], ids=["pynative", "graph"])
@pytest.mark.parametrize("case", sorted(record_model_fit.CASES))
def test_fit_matches_mindspore(case, mode):
    refms.set_context(mode=mode)
    ours = record_model_fit.run_case(refms, record_model_fit.CASES[case])
    expected = RECORDED[case]
    assert [e[:5] for e in ours["log"]] == [e[:5] for e in expected["log"]]
    for a, b in zip(ours["log"], expected["log"]):
        for mine, theirs in zip(a[5:], b[5:]):
            assert sorted(mine) == sorted(theirs), a[0]
            for key in theirs:
                np.testing.assert_allclose(mine[key], theirs[key], rtol=2e-5, err_msg=str(a[:3]))
    np.testing.assert_allclose(ours["weight"], expected["weight"], rtol=2e-5, atol=1e-6)
    np.testing.assert_allclose(ours["bias"], expected["bias"], rtol=2e-5, atol=1e-6)


def test_fit_errors_match_mindspore():
    assert record_model_fit.error_cases(refms) == RECORDED["errors"]


def test_fit_eval_callbacks_exclude_builtin_ones_but_time_monitor(capsys, monkeypatch):
    """MindSpore's ``_eval_during_train`` passes the user's callbacks and TimeMonitor (not its
    other built-in callbacks, chosen by class name) to the evaluation."""
    net, model = record_model_fit.build(refms)
    train, valid = record_model_fit.datasets(refms)
    calls = []

    class Mine(refms.train.Callback):
        def on_eval_end(self, run_context):
            calls.append("mine")

    for cls in (refms.train.TimeMonitor, refms.train.LossMonitor):
        monkeypatch.setattr(cls, "on_eval_end",
                            lambda self, run_context, name=cls.__name__: calls.append(name))
    model.fit(2, train, valid, callbacks=[Mine(), refms.train.TimeMonitor(),
                                          refms.train.LossMonitor()])
    assert calls == ["mine", "TimeMonitor", "mine", "TimeMonitor"]
    printed = capsys.readouterr().out
    assert "Eval result: epoch 1, metrics: {" in printed and "Eval result: epoch 2" in printed
