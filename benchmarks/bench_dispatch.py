"""Per-op overhead of the PyNative executor: ``refms.ops.add`` on two tiny tensors.

Run from the repository root::

    python benchmarks/bench_dispatch.py

10,000 calls of ``refms.ops.add(x, y)`` on two 4-element float32 tensors,
once with no gradient wanted and once while a gradient tape records (inside
an active :class:`refms.autograd.tape.Tape` that watches x and y, as
``refms.grad`` runs a function), against 10,000 calls of ``np.add`` on the
same arrays (and ``torch.add`` when PyTorch is importable).  The last line is
the per-call cost of a compiled function: ``refms.jit(lambda x, y: ops.add(x, y))``
called 10,000 times (signature lookup, the flat executor, one kernel).  The time of a
call is the best of N rounds (``time.perf_counter``); the ratio is that time
over numpy's, measured in the same run.  Nothing is asserted.
"""
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import refms  # noqa: E402
from refms.autograd.tape import Tape  # noqa: E402

try:
    import torch
except ImportError:
    torch = None

CALLS = 10_000
ROUNDS = 5


def per_call(loop):
    """Best over ROUNDS of ``loop()`` (which makes CALLS calls), as seconds per call."""
    loop()                                          # warm up
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter()
        loop()
        best = min(best, time.perf_counter() - start)
    return best / CALLS


def refms_loop(x, y):
    add = refms.ops.add
    for _ in range(CALLS):
        add(x, y)


def refms_recorded_loop(x, y):
    """The same loop while a tape records: each add becomes a tape entry."""
    with Tape() as tape:
        tape.watch(x)
        tape.watch(y)
        refms_loop(x, y)
    return tape


def jit_loop(fn, x, y):
    for _ in range(CALLS):
        fn(x, y)


def numpy_loop(a, b):
    add = np.add
    for _ in range(CALLS):
        add(a, b)


def main():
    a = np.arange(4, dtype=np.float32)
    b = np.ones(4, dtype=np.float32)
    x, y = refms.Tensor(a), refms.Tensor(b)
    recorded = refms_recorded_loop(x, y)
    assert len(recorded.entries) == CALLS, "the tape did not record the adds"

    timings = {
        "numpy np.add": per_call(lambda: numpy_loop(a, b)),
        "refms ops.add": per_call(lambda: refms_loop(x, y)),
        "refms ops.add + tape": per_call(lambda: refms_recorded_loop(x, y)),
    }
    add = lambda p, q: refms.ops.add(p, q)      # noqa: E731  (jit wants a lambda on its own line)
    jitted = refms.jit(add)
    timings["refms jit(add) call"] = per_call(lambda: jit_loop(jitted, x, y))
    if torch is not None:
        ta, tb = torch.from_numpy(a), torch.from_numpy(b)

        def torch_loop():
            for _ in range(CALLS):
                torch.add(ta, tb)

        def torch_grad_loop():
            ga, gb = ta.clone().requires_grad_(), tb.clone().requires_grad_()
            for _ in range(CALLS):
                torch.add(ga, gb)

        timings["torch.add"] = per_call(torch_loop)
        timings["torch.add (grad)"] = per_call(torch_grad_loop)

    print(f"{CALLS} calls on two 4-element float32 operands, best of {ROUNDS} rounds; "
          f"torch {torch.__version__ if torch is not None else 'not installed'}")
    print(f"  {'operation':<24}{'us/call':>10}{'vs numpy':>10}")
    numpy_time = timings["numpy np.add"]
    for name, seconds in timings.items():
        print(f"  {name:<24}{seconds * 1e6:>10.2f}{seconds / numpy_time:>9.1f}x")


if __name__ == "__main__":
    main()
