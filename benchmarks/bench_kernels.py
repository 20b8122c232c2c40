"""Kernel timings: the fast twin, the reference kernel, numpy and (when importable) PyTorch.

Run from the repository root (after ``python setup.py build_ext --inplace``)::

    python benchmarks/bench_kernels.py

Cases: float32 matmul of n×n matrices (n = 256, 1024, 2048), the axis
sums of a 4096×4096 float32 array over axis 0 and axis 1, and LeNet-5's first
max pooling, ReLU and ReLU backward at batch 128.  Each time is the
best of N rounds (``time.perf_counter``), the implementations taking turns
within a round; the ratio is time / numpy's time in the same run, so below 1
is faster than numpy.  Nothing is asserted.  For steadier figures on a busy
machine pin the BLAS thread pools: ``OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1``.
"""
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import refms.kernels as kernels  # noqa: E402

try:
    import torch
except ImportError:
    torch = None


def best_of(candidates, repeat, number=1):
    """{name: seconds}: each callable's shortest mean time of ``number`` calls over ``repeat`` rounds.

    The rounds interleave the candidates, so a slow moment of the machine
    (other processes, a BLAS thread pool still spinning) hits them alike.
    Candidates that are None (not available) map to None.
    """
    best = {name: float("inf") for name in candidates}
    for fn in candidates.values():
        if fn is not None:
            fn()                            # warm up: caches, lazy loading, thread pools
    for _ in range(repeat):
        for name, fn in candidates.items():
            if fn is None:
                continue
            start = time.perf_counter()
            for _ in range(number):
                fn()
            best[name] = min(best[name], (time.perf_counter() - start) / number)
    return {name: (None if candidates[name] is None else seconds) for name, seconds in best.items()}


def print_case(title, timings):
    """One table block: implementation, milliseconds, ratio to numpy."""
    numpy_time = timings["numpy"]
    print(f"\n{title}")
    print(f"  {'implementation':<16}{'time (ms)':>12}{'vs numpy':>10}")
    for name, seconds in timings.items():
        if seconds is None:
            print(f"  {name:<16}{'n/a':>12}{'':>10}")
        else:
            print(f"  {name:<16}{seconds * 1e3:>12.3f}{seconds / numpy_time:>9.2f}x")


def matmul_case(n):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n)).astype(np.float32)
    b = rng.standard_normal((n, n)).astype(np.float32)
    repeat, number = {256: (7, 20), 1024: (5, 3), 2048: (5, 1)}[n]
    fast = kernels.fast_kernel("matmul")
    reference = kernels.reference_kernel("matmul")
    candidates = {
        "fast (BLAS)": (lambda: fast(a, b, False, False)) if fast else None,
        "reference": lambda: reference(a, b, False, False),
        "numpy": lambda: a @ b,
    }
    if torch is not None:
        ta, tb = torch.from_numpy(a), torch.from_numpy(b)
        candidates["torch.mm"] = lambda: torch.mm(ta, tb)
    timings = best_of(candidates, repeat, number)
    print_case(f"matmul {n}x{n} @ {n}x{n} float32", timings)


def sum_case(axis):
    x = np.random.default_rng(1).standard_normal((4096, 4096)).astype(np.float32)
    repeat = 9
    fast = kernels.fast_kernel("reduce_sum")
    reference = kernels.reference_kernel("reduce_sum")
    candidates = {
        "fast (Cython)": (lambda: fast(x, (axis,), False)) if fast else None,
        "reference": lambda: reference(x, (axis,), False),
        "numpy": lambda: x.sum(axis=axis),
    }
    if torch is not None:
        tx = torch.from_numpy(x)
        candidates["torch.sum"] = lambda: torch.sum(tx, dim=axis)
    timings = best_of(candidates, repeat)
    print_case(f"sum over axis {axis} of 4096x4096 float32", timings)


def lenet_activation_cases():
    """LeNet-5's first pooling and activation at batch 128: max_pool2d 2×2 stride 2 (values and
    argmax; numpy's row gives the values only), relu, relu_grad (numpy's row is the
    ``dy * (x > 0)`` the ReLU bprop ran before, which turns a NaN in dy into NaN)."""
    rng = np.random.default_rng(2)
    x = rng.standard_normal((128, 6, 28, 28)).astype(np.float32)
    dy = rng.standard_normal(x.shape).astype(np.float32)
    geometry = ((2, 2), (2, 2), (0, 0, 0, 0))
    cases = [
        ("max_pool2d 2x2/2 of (128, 6, 28, 28) float32", "max_pool2d", (x,) + geometry,
         lambda: np.maximum(np.maximum(x[..., ::2, ::2], x[..., ::2, 1::2]),
                            np.maximum(x[..., 1::2, ::2], x[..., 1::2, 1::2])),
         (lambda tx: torch.nn.functional.max_pool2d(tx, 2, 2, return_indices=True))),
        ("relu of (128, 6, 28, 28) float32", "relu", (x,), lambda: np.maximum(x, 0),
         (lambda tx: torch.relu(tx))),
        ("relu_grad of (128, 6, 28, 28) float32", "relu_grad", (dy, x),
         lambda: dy * (x > 0), None),
    ]
    for title, name, args, numpy_fn, torch_fn in cases:
        fast = kernels.fast_kernel(name)
        reference = kernels.reference_kernel(name)
        candidates = {
            "fast (Cython)": (lambda: fast(*args)) if fast else None,
            "reference": lambda: reference(*args),
            "numpy": numpy_fn,
        }
        if torch is not None and torch_fn is not None:
            tx = torch.from_numpy(x)
            candidates["torch"] = lambda: torch_fn(tx)
        print_case(title, best_of(candidates, repeat=15, number=5))


def main():
    print(f"numpy {np.__version__}, {os.cpu_count()} CPUs, torch "
          f"{torch.__version__ if torch is not None else 'not installed'}")
    reason = kernels.why_fast_unavailable()
    print("fast kernels: " + ("built" if reason is None else f"unavailable ({reason})"))
    for n in (256, 1024, 2048):
        matmul_case(n)
    for axis in (0, 1):
        sum_case(axis)
    lenet_activation_cases()


if __name__ == "__main__":
    main()
