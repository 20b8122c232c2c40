"""nn.AdaFactor (issue 13) against MindSpore 2.10's recorded steps
(``tests/recorders/record_adafactor.py``), in PyNative and GRAPH_MODE, and against
an independent numpy transcription of the algorithm (Shazeer & Stern 2018)."""
import json
import os
import sys

import numpy as np
import pytest

import refms

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "recorders"))
try:
    import record_adafactor
finally:
    sys.path.pop(0)

with open(os.path.join(HERE, "recorders", "adafactor.json")) as _f:
    RECORDED = json.load(_f)


@pytest.mark.parametrize("mode", [refms.PYNATIVE_MODE, refms.GRAPH_MODE], ids=["pynative", "graph"])
@pytest.mark.parametrize("case", sorted(record_adafactor.CASES))
def test_steps_match_mindspore(case, mode):
    refms.set_context(mode=mode)
    ours = record_adafactor.run_case(refms, record_adafactor.CASES[case])
    expected = RECORDED[case]
    assert ours["names"] == expected["names"]
    assert ours["afactor_step"] == expected["afactor_step"]
    for k, (a, b) in enumerate(zip(ours["steps"], expected["steps"])):
        for name in b:
            np.testing.assert_allclose(a[name], b[name], rtol=1e-5, atol=1e-7,
                                       err_msg=f"{case} step {k} {name}")


def test_errors_match_mindspore():
    assert record_adafactor.error_cases(refms) == RECORDED["errors"]


def _numpy_adafactor(params, grads_per_step, lr=None, eps=(1e-30, 1e-3), clip=1.0, decay=0.8,
                     beta1=0.9, wd=0.0, scale=True, warmup=False):
    """The algorithm transcribed from the paper's Algorithms 4-5 with MindSpore's options, in
    float64."""
    params = [np.array(p, np.float64) for p in params]
    state = [dict(m=np.zeros_like(p), r=np.zeros(p.shape[:-1]), c=np.zeros(p.shape[:-2] +
             p.shape[-1:]), v=np.zeros_like(p)) for p in params]
    for t, grads in enumerate(grads_per_step, start=1):
        beta2 = 1 - t ** (-decay)
        rho = lr if lr is not None else min(1e-6 * t if warmup else 1e-2, 1 / np.sqrt(t))
        for p, g, s in zip(params, grads, state):
            alpha = rho * max(eps[1], np.sqrt(np.mean(p ** 2))) if scale else rho
            g2 = g ** 2 + eps[0]
            if p.ndim >= 2:
                s["r"] = beta2 * s["r"] + (1 - beta2) * g2.mean(-1)
                s["c"] = beta2 * s["c"] + (1 - beta2) * g2.mean(-2)
                v_hat = np.expand_dims(s["r"] / s["r"].mean(-1, keepdims=True), -1) * \
                    np.expand_dims(s["c"], -2)
            else:
                s["v"] = beta2 * s["v"] + (1 - beta2) * g2
                v_hat = s["v"]
            u = g / np.sqrt(v_hat)
            u = u / max(np.sqrt(np.mean(u ** 2)) / clip, 1.0) * alpha
            if beta1 > 0:
                s["m"] = beta1 * s["m"] + (1 - beta1) * u
                u = s["m"]
            p -= alpha * wd * p + u
    return params


def test_matches_the_algorithm_in_float64():
    rng = np.random.default_rng(7)
    shapes = [(3, 4), (4,), (2, 3, 2)]
    start = [rng.standard_normal(s) for s in shapes]
    grads = [[rng.standard_normal(s) for s in shapes] for _ in range(4)]
    params = [refms.Parameter(refms.Tensor(p), name=f"p{i}") for i, p in enumerate(start)]
    opt = refms.nn.AdaFactor(params, learning_rate=0.1, relative_step=False, weight_decay=0.05,
                             beta1=0.8)
    for step in grads:
        opt(tuple(refms.Tensor(g) for g in step))
    expected = _numpy_adafactor(start, grads, lr=0.1, wd=0.05, beta1=0.8)
    for p, e in zip(params, expected):         # the hyperparameters are Float32 constants
        np.testing.assert_allclose(p.asnumpy(), e, rtol=1e-6)
