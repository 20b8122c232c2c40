"""Replay MindSpore 2.10's recorded differential cases on refms and measure agreement.

    python tests/differential.py            (prints the agreement report)

The cases and MindSpore's results are in ``tests/recorders/differential.json.gz``
(``record_differential.py``); the differences refms keeps on purpose, with
MindSpore's behaviour and the reason, are in ``differential_differences.py``.
Four kinds of agreement are measured, each over the cases where MindSpore
gave that kind of result:

* forward: same structure, shapes and values (NaN where MindSpore has NaN);
* dtype: the same dtype of every output (Python type for scalars);
* gradient: the gradient of ``sum(out * cotangent)`` w.r.t. every float input;
* exception: where MindSpore raised (forward or gradient), refms raises the same type (or a
  subclass of it).
"""
import gzip
import json
import os
import sys
from collections import OrderedDict

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
RECORDERS = os.path.join(HERE, "recorders")
sys.path.insert(0, RECORDERS)
try:
    import differential_runner
finally:
    sys.path.pop(0)

#: (rtol, atol) for float outputs by numpy dtype name; gradients get ten times looser.
TOLERANCES = {"float16": (2e-3, 2e-3), "float32": (1e-4, 1e-5), "float64": (1e-7, 1e-9)}


def load():
    with gzip.open(os.path.join(RECORDERS, "differential.json.gz"), "rt") as f:
        return json.load(f)


# ---------------------------------------------------------------- comparing descriptions

def _arrays_close(want, got, loose):
    want, got = differential_runner.decode(want), differential_runner.decode(got)
    if want.shape != got.shape:
        return f"shape {got.shape} != MindSpore's {want.shape}"
    if want.dtype.kind in "fc":
        rtol, atol = TOLERANCES.get(str(want.dtype), TOLERANCES["float32"])
        if loose:
            rtol, atol = rtol * 10, atol * 10
        ok = np.allclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol,
                         equal_nan=True)
    else:
        ok = np.array_equal(got.astype(want.dtype) if got.dtype != want.dtype else got, want)
    if not ok:
        return f"values {got.reshape(-1)[:6].tolist()} != MindSpore's {want.reshape(-1)[:6].tolist()}"
    return None


def compare(want, got, loose=False):
    """(value mismatch or None, dtype mismatch or None) between two descriptions."""
    if set(want) - {"type", "dtype"} != set(got) - {"type", "dtype"}:
        return (f"result is {sorted(got)} where MindSpore gives {sorted(want)}",
                f"kind {sorted(got)} != {sorted(want)}")
    for kind in ("tuple", "list"):
        if kind in want:
            if len(want[kind]) != len(got[kind]):
                return (f"{len(got[kind])} outputs != MindSpore's {len(want[kind])}", None)
            value_diff, dtype_diff = None, None
            for k, (w, g) in enumerate(zip(want[kind], got[kind])):
                v, d = compare(w, g, loose)
                value_diff = value_diff or (v and f"[{k}] {v}")
                dtype_diff = dtype_diff or (d and f"[{k}] {d}")
            return value_diff, dtype_diff
    if "tensor" in want:
        dtype_diff = None if want["dtype"] == got["dtype"] else \
            f"dtype {got['dtype']} != MindSpore's {want['dtype']}"
        return _arrays_close(want["tensor"], got["tensor"], loose), dtype_diff
    if "numpy" in want:
        dtype_diff = None if want["numpy"]["nd"] == got["numpy"]["nd"] else \
            f"numpy dtype {got['numpy']['nd']} != MindSpore's {want['numpy']['nd']}"
        return _arrays_close(want["numpy"], got["numpy"], loose), dtype_diff
    dtype_diff = None if want.get("type") == got.get("type") else \
        f"type {got.get('type')} != MindSpore's {want.get('type')}"
    key = "py" if "py" in want else "other"
    value_diff = None if want[key] == got[key] or (
        isinstance(want[key], float) and isinstance(got[key], float)
        and np.isclose(want[key], got[key], rtol=1e-5, equal_nan=True)) else \
        f"{got[key]!r} != MindSpore's {want[key]!r}"
    return value_diff, dtype_diff


# ---------------------------------------------------------------- replay

def replay(ms, recorded):
    """Run every recorded case on ``ms`` -> OrderedDict label -> {aspect: difference or None}.

    Aspects present are the ones MindSpore's record has: ``forward``/``dtype`` (MindSpore
    returned), ``grad`` (MindSpore gave gradients), ``exception`` (MindSpore raised).
    """
    results = OrderedDict()
    for label, rec in recorded["cases"].items():
        if rec.get("error") == "Crash":
            continue
        case = {"args": differential_runner.decode(rec["args"]),
                "kw": differential_runner.decode(rec["kw"]), "grad": rec["grad"],
                "compare": rec["compare"]}
        if "grads" not in rec and "grad_error" not in rec:
            case["grad"] = False
        got = differential_runner.run_case(ms, rec["api"], case)
        out = {}
        if "error" in rec:
            out["exception"] = None if rec["error"] in got.get("error_types", ()) else (
                f"refms raises {got['error']}: {got['message'][:120]}" if "error" in got
                else "refms returns a result") + f"; MindSpore raises {rec['error']}"
        elif "error" in got:
            out["forward"] = f"refms raises {got['error']}: {got['message'][:160]}"
            out["dtype"] = "no result"
        else:
            want, have = rec["outputs"], got["outputs"]
            if rec["compare"] == "meta":
                want, have = _meta(want), _meta(have)
            out["forward"], out["dtype"] = compare(want, have)
        if "grads" in rec:
            if "grads" in got:
                diffs = [compare(w, g, loose=True) for w, g in zip(rec["grads"], got["grads"])]
                out["grad"] = next((f"input {k}: {v or d}" for k, (v, d) in enumerate(diffs)
                                    if v or d), None)
            else:
                out["grad"] = (f"refms gradient raises {got['grad_error']}: "
                               f"{got['grad_message'][:120]}") if "grad_error" in got else \
                    "no refms gradient"
        elif "grad_error" in rec and "error" not in rec:
            out["exception"] = None if rec["grad_error"] in got.get("grad_error_types", ()) else (
                f"refms gradient: {got.get('grad_error', 'no error')}; MindSpore's gradient "
                f"raises {rec['grad_error']}")
        results[label] = out
    return results


def _meta(desc):
    """Shape and dtype only (random ops)."""
    if "tensor" in desc:
        t = desc["tensor"]
        return {"tensor": {"nd": t["nd"], "shape": t["shape"], "data": [0] * len(t["data"])},
                "dtype": desc["dtype"]}
    for kind in ("tuple", "list"):
        if kind in desc:
            return {kind: [_meta(d) for d in desc[kind]]}
    return desc


def agreement(results):
    """aspect -> (agreeing cases, cases)."""
    counts = {aspect: [0, 0] for aspect in ("forward", "dtype", "grad", "exception")}
    for out in results.values():
        for aspect, diff in out.items():
            counts[aspect][1] += 1
            counts[aspect][0] += diff is None
    return {aspect: tuple(c) for aspect, c in counts.items()}


def report(recorded, results):
    apis = {rec["api"] for rec in recorded["cases"].values()}
    random = sum("#" in label for label in recorded["cases"])
    lines = [f"MindSpore {recorded['mindspore']}: {len(recorded['cases'])} cases over "
             f"{len(apis)} APIs ({random} random, the rest edge cases and bad inputs)"]
    for aspect, (ok, total) in agreement(results).items():
        lines.append(f"  {aspect:9s} {ok}/{total} = {100.0 * ok / max(total, 1):.2f}%")
    return "\n".join(lines)


if __name__ == "__main__":
    os.environ.setdefault("REFMS_CUDA", "0")
    sys.path.insert(0, os.path.dirname(HERE))
    import refms
    recorded_ = load()
    results_ = replay(refms, recorded_)
    print(report(recorded_, results_))
    if "-v" in sys.argv:
        for label_, out_ in results_.items():
            for aspect_, diff_ in out_.items():
                if diff_ is not None:
                    print(f"{label_} [{aspect_}] {diff_}")
