"""Graph-mode differential run over many seeded random programs, with compile times.

Run from the repository root::

    python benchmarks/bench_graph_random_programs.py [COUNT] [FIRST_SEED] [--gradients]

Generates COUNT programs (default 1000) with ``tests/random_programs.py``, runs each
op by op, under ``jit`` and as a GRAPH_MODE Cell, and prints how many agree, raise a
documented error, give a wrong result, fail internally or hang (over 60 s), with the
distribution of ``jit`` compile times (the first call, compile + one run, measured with
``time.perf_counter``) and the slowest programs.  It also times the compile of MindSpore's
control-flow tutorial loop: an ``if`` on a Tensor inside ``for i in range(100)``.  With
``--gradients`` each agreeing program's gradient is compared too (``jit(grad(p))`` against
``grad(p)`` op by op).  Nothing is asserted.
"""
import collections
import os
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))

import refms as ms  # noqa: E402
from refms import Tensor  # noqa: E402

import random_programs as R  # noqa: E402


def tutorial_loop(x):
    z = x * 0
    for i in range(100):
        if x.sum() > i:
            z = z + 1
        else:
            z = z - 1
    return z


def main():
    positional = [a for a in sys.argv[1:] if not a.startswith("--")]
    count = int(positional[0]) if len(positional) > 0 else 1000
    first = int(positional[1]) if len(positional) > 1 else 0
    with_gradients = "--gradients" in sys.argv
    directory = tempfile.mkdtemp(prefix="refms_programs_")
    # the tutorial loop is parsed from this file
    x = Tensor(np.array([1.0, 2.0], np.float32))
    start = time.perf_counter()
    out = ms.jit(tutorial_loop)(x)
    print(f"tutorial loop (if on a Tensor in range(100)): compile+run "
          f"{time.perf_counter() - start:.2f} s, result {out.asnumpy().tolist()}")
    module = R.write_module(directory, range(first, first + count), "bench_random_programs")
    rng = np.random.default_rng(0)
    inputs = (Tensor(rng.standard_normal(3).astype(np.float32)),
              Tensor(rng.standard_normal(3).astype(np.float32)))
    outcomes, gradients = [], []
    began = time.perf_counter()
    for seed in range(first, first + count):
        outcome = R.check_program(module, seed, inputs, limit_s=60.0)
        outcomes.append(outcome)
        if outcome.kind not in ("agree", "documented"):
            print(outcome, flush=True)
        if with_gradients and outcome.kind == "agree":
            gradient = R.check_gradient(module, seed, inputs, limit_s=60.0)
            gradients.append(gradient)
            if gradient.kind not in ("agree", "documented"):
                print("gradient:", gradient, flush=True)
    counts = collections.Counter(o.kind for o in outcomes)
    if with_gradients:
        grad_counts = collections.Counter(o.kind for o in gradients)
        print("gradients (jit(grad) against grad op by op): "
              + ", ".join(f"{k} {v}" for k, v in sorted(grad_counts.items())))
    times = np.array([o.compile_s for o in outcomes if o.kind == "agree"])
    print(f"{count} programs (seeds {first}..{first + count - 1}) in "
          f"{time.perf_counter() - began:.0f} s: " + ", ".join(f"{k} {v}" for k, v in
                                                            sorted(counts.items())))
    if len(times):
        q = np.percentile(times, [50, 90, 99])
        print(f"jit compile+first run: median {q[0]:.3f} s, p90 {q[1]:.3f} s, p99 {q[2]:.3f} s, "
              f"max {times.max():.3f} s")
        slowest = sorted(outcomes, key=lambda o: -o.compile_s)[:5]
        print("slowest: " + ", ".join(f"seed {o.seed} {o.compile_s:.2f} s" for o in slowest))


if __name__ == "__main__":
    main()
