"""Replaying op cases recorded on MindSpore 2.10 (``tests/recorders/record_api_ops.py``,
``record_vision_ops.py``, ``record_mint_gaps.py``): a recorded case holds its inputs and
outputs as nested lists with MindSpore's dtype names ("Float32", "Int64", ...), and, for
gradients, the cotangents it projected the outputs on.  The test modules of those recorders
share these helpers."""
import importlib
import json
import os
import sys

import numpy as np
import pytest

import refms


def load_recorded(name):
    """The recorder ``tests/recorders/record_<name>.py`` as a module, its cases recorded on
    MindSpore (``<name>.json``) by case name, and its cases and error cases built on refms:
    ``(recorder, recorded, {name: (fn, differentiate)}, {name: call})``."""
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "recorders")
    sys.path.insert(0, folder)
    try:
        recorder = importlib.import_module(f"record_{name}")
    finally:
        sys.path.pop(0)
    with open(os.path.join(folder, f"{name}.json")) as f:
        recorded = {case["name"]: case for case in json.load(f)["cases"]}
    cases = {case: (fn, differentiate) for case, fn, _, differentiate in recorder.cases(refms)}
    errors = dict(recorder.error_cases(refms)) if hasattr(recorder, "error_cases") else {}
    return recorder, recorded, cases, errors

def numpy_dtype(name):
    """MindSpore's dtype name ("Float32", "UInt8", "Bool") as a numpy dtype."""
    return np.dtype(name.replace("Float", "float").replace("Int", "int").replace(
        "UInt", "uint").replace("Bool", "bool").lower())


def case_inputs(case, float64=False):
    """The case's inputs as Tensors of their recorded dtypes (float32 ones as float64 when
    ``float64``, for central differences)."""
    arrays = [np.array(v, dtype=numpy_dtype(d))
              for v, d in zip(case["inputs"], case["input_dtypes"])]
    if float64:
        arrays = [a.astype(np.float64) if a.dtype == np.float32 else a for a in arrays]
    return [refms.Tensor(a) for a in arrays]


def as_tuple(x):
    return x if isinstance(x, tuple) else (x,)


def check_outputs(name, outs, case, atol=1e-5):
    """Each output has the recorded dtype and values (rtol 1e-5)."""
    assert len(outs) == len(case["outputs"]), name
    for k, (out, expected, dtype) in enumerate(zip(outs, case["outputs"], case["output_dtypes"])):
        assert str(out.dtype) == dtype, f"{name} output {k} dtype"
        np.testing.assert_allclose(out.asnumpy(), np.array(expected), rtol=1e-5, atol=atol,
                                   err_msg=f"{name} output {k}")


def projected(fn, cotangents):
    """Σ_k ⟨fn(...)_k, cotangents_k⟩ over the floating outputs: a scalar whose gradient is the
    vector-Jacobian product MindSpore recorded."""
    def project(*args):
        total = 0
        for out, c in zip(as_tuple(fn(*args)), cotangents):
            if out.dtype in (refms.float32, refms.float64):
                total = total + (out * refms.Tensor(c, out.dtype)).sum()
        return total
    return project


def calling(fn):
    """A def that calls ``fn``: the case tables' lambdas sit inside tuples, and a lambda
    compiled by itself must have a line of its own (MindSpore's rule); called from a def it
    is parsed wherever it sits."""
    def call(*args):
        return fn(*args)
    return call


def central_difference_check(fn, inputs, positions, u, seed=7, rng=None):
    """⟨∇ Σ fn·u, v⟩ equals the float64 central difference along a random direction v
    (drawn from ``rng`` when given, else from a generator seeded with ``seed``)."""
    rng = rng if rng is not None else np.random.default_rng(seed)
    v = [rng.standard_normal(inputs[k].shape) for k in positions]
    loss = projected(fn, u)

    def value(step):
        moved = list(inputs)
        for k, direction in zip(positions, v):
            moved[k] = refms.Tensor(inputs[k].asnumpy() + step * direction)
        return float(loss(*moved).asnumpy())
    h = 1e-6
    numeric = (value(h) - value(-h)) / (2 * h)
    grads = as_tuple(refms.grad(loss, grad_position=tuple(positions))(*inputs))
    analytic = sum(float((g.asnumpy() * direction).sum()) for g, direction in zip(grads, v))
    np.testing.assert_allclose(analytic, numeric, rtol=1e-5, atol=1e-7)


def check_recorded_gradient(name, case, fn, atol=1e-4):
    """refms's gradient of Σ fn·cotangents at the recorded inputs equals MindSpore's."""
    cotangents = [np.array(c, np.float32) for c in case["cotangents"]]
    grads = as_tuple(refms.grad(projected(fn, cotangents),
                                grad_position=tuple(case["grad_positions"]))(*case_inputs(case)))
    for k, (g, expected) in enumerate(zip(grads, case["grads"])):
        np.testing.assert_allclose(g.asnumpy(), np.array(expected), rtol=1e-4, atol=atol,
                                   err_msg=f"{name} gradient {k}")


def check_numerical_gradient(case, fn, seed=3):
    """central_difference_check at the recorded inputs in float64, for the float inputs, the
    outputs weighted by a random u."""
    inputs = case_inputs(case, float64=True)
    positions = [k for k, t in enumerate(inputs) if t.dtype == refms.float64]
    rng = np.random.default_rng(seed)
    u = [rng.standard_normal(np.array(o).shape) for o in case["outputs"]]
    central_difference_check(fn, inputs, positions, u)


def check_raises(name, expected, call):
    """``call()`` raises an exception of the class MindSpore 2.10 raised (or a subclass)."""
    assert expected, f"MindSpore 2.10 accepted {name}"
    with pytest.raises(Exception) as info:
        call()
    assert expected in [c.__name__ for c in type(info.value).__mro__], (name, info.value)

