"""nn.Lamb and nn.Adagrad (issue 13) against MindSpore 2.10's recorded steps
(``tests/recorders/record_optimizers_more.py``), in PyNative and GRAPH_MODE."""
import json
import os
import sys

import numpy as np
import pytest

import refms

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "recorders"))
try:
    import record_optimizers_more
finally:
    sys.path.pop(0)

with open(os.path.join(HERE, "recorders", "optimizers_more.json")) as _f:
    RECORDED = json.load(_f)


@pytest.mark.parametrize("mode", [refms.PYNATIVE_MODE, refms.GRAPH_MODE], ids=["pynative", "graph"])
@pytest.mark.parametrize("case", sorted(record_optimizers_more.CASES))
def test_steps_match_mindspore(case, mode):
    refms.set_context(mode=mode)
    ours = record_optimizers_more.run_case(refms, case)
    expected = RECORDED[case]
    assert ours["names"] == expected["names"]
    for k, (a, b) in enumerate(zip(ours["steps"], expected["steps"])):
        for name in b:
            np.testing.assert_allclose(a[name], b[name], rtol=1e-5, atol=1e-6,
                                       err_msg=f"{case} step {k} {name}")


def test_errors_match_mindspore():
    assert record_optimizers_more.error_cases(refms) == RECORDED["errors"]


def _numpy_lamb(params, grads_per_step, lr, beta1=0.9, beta2=0.999, eps=1e-6, wd=0.0,
                decay=None):
    """You et al. 2020, Algorithm 2 (φ = identity), transcribed in float64."""
    params = [np.array(p, np.float64) for p in params]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    for t, grads in enumerate(grads_per_step, start=1):
        for i, (p, g) in enumerate(zip(params, grads)):
            m[i] = beta1 * m[i] + (1 - beta1) * g
            v[i] = beta2 * v[i] + (1 - beta2) * g * g
            r = (m[i] / (1 - beta1 ** t)) / (np.sqrt(v[i] / (1 - beta2 ** t)) + eps)
            if decay is None or decay[i]:
                r = r + wd * p
            w_norm, r_norm = np.linalg.norm(p), np.linalg.norm(r)
            trust = w_norm / r_norm if w_norm > 0 and r_norm > 0 else 1.0
            p -= lr * trust * r
    return params


@pytest.mark.parametrize("mode", [refms.PYNATIVE_MODE, refms.GRAPH_MODE], ids=["pynative", "graph"])
def test_lamb_matches_the_paper_in_float64(mode):
    refms.set_context(mode=mode)
    rng = np.random.default_rng(11)
    shapes = [(3, 4), (4,), (2, 3)]
    start = [rng.standard_normal(s) for s in shapes]
    start[2][:] = 0.0                      # a zero parameter: trust ratio 1
    grads = [[rng.standard_normal(s) for s in shapes] for _ in range(4)]
    names = ["w", "beta", "zero"]          # 'beta' in a name: no weight decay
    params = [refms.Parameter(refms.Tensor(p), name=n) for p, n in zip(start, names)]
    opt = refms.nn.Lamb(params, learning_rate=0.05, beta1=0.8, beta2=0.99, eps=1e-4,
                        weight_decay=0.1)
    assert [p.name for p in opt.get_parameters()][-6:] == [
        "lamb_m.w", "lamb_m.beta", "lamb_m.zero", "lamb_v.w", "lamb_v.beta", "lamb_v.zero"]
    for step in grads:
        opt(tuple(refms.Tensor(g) for g in step))
    expected = _numpy_lamb(start, grads, 0.05, 0.8, 0.99, 1e-4, 0.1, decay=[True, False, True])
    for p, e in zip(params, expected):          # the hyperparameters are Float32 constants
        np.testing.assert_allclose(p.asnumpy(), e, rtol=1e-6, atol=1e-9)
