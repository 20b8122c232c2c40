"""Record MindSpore 2.10 on every differential case (``differential_cases.py``).

    GLOG_v=3 /work/msenv/bin/python tests/recorders/record_differential.py [--only PREFIX ...]

Writes ``tests/recorders/differential.json.gz``: MindSpore's version, its public
names (``ops``, ``Tensor``, ``nn``) and per case the inputs, outputs with their
dtypes, gradients, and exception types.  ``tests/test_differential.py`` replays
the stored inputs on refms.  ``--only`` re-records the cases whose label starts
with one of the prefixes and keeps the others (for a newly added API).

Crash isolation: cases run in worker processes, in order; a worker that dies
(a crash in a MindSpore kernel) is replaced and the case it died on is recorded
as ``{"error": "Crash"}``.  After a case raises, the worker checks that
MindSpore still computes (a failed kernel's error can resurface on the next op)
and otherwise exits, so the next case starts in a fresh process.
"""
import gzip
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
OUT = os.path.join(HERE, "differential.json.gz")

import differential_cases  # noqa: E402
import differential_runner  # noqa: E402


def _healthy(ms):
    import numpy as np
    try:
        out = ms.ops.add(ms.Tensor(np.ones(3, np.float32)), 1.0).asnumpy()
        return bool((out == 2).all())
    except Exception:                            # noqa: BLE001
        return False


def worker(cases_path, start, results_path):
    """Run cases from index ``start``; append one JSON line per case to ``results_path``."""
    import mindspore as ms
    with open(cases_path) as f:
        cases = json.load(f)
    with open(results_path, "a") as out:
        for index in range(start, len(cases)):
            label, api, case = cases[index]
            case = {**case, "args": differential_runner.decode(case["args"]),
                    "kw": differential_runner.decode(case["kw"])}
            record = differential_runner.run_case(ms, api, case)
            out.write(json.dumps([index, record]) + "\n")
            out.flush()
            if ("error" in record or "grad_error" in record) and not _healthy(ms):
                return


def public_names():
    import mindspore as ms
    return {"ops": sorted(n for n in dir(ms.ops) if not n.startswith("_")),
            "Tensor": sorted(n for n in dir(ms.Tensor) if not n.startswith("_")),
            "nn": sorted(n for n in dir(ms.nn) if not n.startswith("_")),
            "version": ms.__version__}


def main(only):
    cases = differential_cases.all_cases()
    previous = {}
    if only and os.path.exists(OUT):
        with gzip.open(OUT, "rt") as f:
            previous = json.load(f)["cases"]
    todo = [(label, api, {**case, "args": differential_runner.encode(case["args"]),
                          "kw": differential_runner.encode(case["kw"])})
            for label, (api, case) in cases.items()
            if not only or any(label.startswith(p) for p in only) or label not in previous]
    tmp = tempfile.mkdtemp(prefix="record_differential_")
    cases_path, results_path = os.path.join(tmp, "cases.json"), os.path.join(tmp, "results.jsonl")
    with open(cases_path, "w") as f:
        json.dump(todo, f)
    results = {}
    start = 0
    while start < len(todo):
        proc = subprocess.run([sys.executable, __file__, "--worker", cases_path, str(start),
                               results_path], env=dict(os.environ, GLOG_v="3"),
                              capture_output=True, text=True)
        with open(results_path) as f:
            for line in f:
                index, record = json.loads(line)
                results[index] = record
        done = max(results) + 1 if results else 0
        if done <= start:                        # died on case ``start``: a crash
            results[start] = {"error": "Crash", "message": proc.stderr.strip()[-300:]}
            with open(results_path, "a") as f:
                f.write(json.dumps([start, results[start]]) + "\n")
            done = start + 1
        start = done
        print(f"{start}/{len(todo)}", file=sys.stderr, flush=True)
    recorded = dict(previous)
    for index, (label, api, case) in enumerate(todo):
        recorded[label] = {"api": api, "args": case["args"], "kw": case["kw"],
                           "grad": case["grad"], "compare": case["compare"], **results[index]}
    recorded = {label: recorded[label] for label in cases if label in recorded}
    names = json.loads(subprocess.run(
        [sys.executable, __file__, "--names"], env=dict(os.environ, GLOG_v="3"),
        capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1])
    with gzip.open(OUT, "wt", compresslevel=9) as f:
        json.dump({"mindspore": names.pop("version"), "names": names, "cases": recorded}, f,
                  separators=(",", ":"))
    print(f"{len(recorded)} cases -> {OUT}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        worker(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    elif sys.argv[1:2] == ["--names"]:
        print(json.dumps(public_names()))
    else:
        main([a for a in sys.argv[1:] if a != "--only"])
