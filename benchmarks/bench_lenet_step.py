"""One LeNet-5 training step (batch 32, Momentum) in PyNative and in GRAPH_MODE.

Run: ``python benchmarks/bench_lenet_step.py [--steps N] [--threads T] [--kernels reference|fast|auto]``.

The same ``TrainOneStepCell(WithLossCell(LeNet5, SoftmaxCrossEntropyWithLogits), Momentum)``
runs in both modes from the same initial weights.  PyNative executes op by op and records
a tape for the gradient; GRAPH_MODE compiles the whole step once — forward, gradient
graph (graph autodiff), optimizer updates — then runs the optimized graph.  The first
graph call (compilation) is timed separately.  Prints the time per step in each mode and
their ratio (PyNative / GRAPH_MODE: above 1 means graph mode is faster), and checks that
both modes computed the same losses (the two networks train side by side from the same
weights, so step k of one matches step k of the other).

BLAS runs single-threaded unless ``--threads`` says otherwise: on small machines
a multi-threaded BLAS makes the per-step time vary by more than the difference
between the modes.
"""
import argparse
import os
import statistics
import sys
import time


def _threads_from_argv(argv):
    """``--threads T`` must take effect before numpy is imported."""
    for k, arg in enumerate(argv):
        if arg == "--threads" and k + 1 < len(argv):
            return argv[k + 1]
        if arg.startswith("--threads="):
            return arg.split("=", 1)[1]
    return "1"


for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, _threads_from_argv(sys.argv[1:]))

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))

import refms as ms                                   # noqa: E402
from refms import nn, Tensor                          # noqa: E402
from lenet import LeNet5                              # noqa: E402  (examples/lenet.py)


def make_step(seed):
    ms.set_seed(seed)
    net = LeNet5()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), optimizer)
    step.set_train()
    return step


def time_steps(mode, step, steps, data, labels):
    """Median seconds per step over ``steps`` calls, and the losses."""
    ms.set_context(mode=mode)
    times, losses = [], []
    for _ in range(steps):
        start = time.perf_counter()
        losses.append(float(step(data, labels).asnumpy()))
        times.append(time.perf_counter() - start)
    return statistics.median(times), losses


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--threads", default="1", help="BLAS threads (default 1)")
    parser.add_argument("--kernels", choices=["reference", "fast", "auto"], default=None,
                        help="kernel implementation (REFMS_KERNELS); default: auto")
    options = parser.parse_args(argv)
    if options.kernels:
        os.environ["REFMS_KERNELS"] = options.kernels
    rng = np.random.default_rng(0)
    data = Tensor(rng.standard_normal((32, 1, 32, 32)).astype(np.float32))
    labels = Tensor(rng.integers(0, 10, (32,)).astype(np.int32))
    ms.set_context(mode=ms.PYNATIVE_MODE)
    pynative_step = make_step(seed=1)
    ms.set_context(mode=ms.GRAPH_MODE)
    graph_step = make_step(seed=1)
    start = time.perf_counter()
    graph_step(data, labels)                     # compiles
    compile_time = time.perf_counter() - start
    ms.set_context(mode=ms.PYNATIVE_MODE)
    pynative_step(data, labels)
    # Alternate the modes in rounds and keep each mode's best round: other processes on the
    # machine slow down some rounds, and alternating spreads that over both modes.
    rounds = 3
    per_round = max(1, options.steps // rounds)
    best = {ms.PYNATIVE_MODE: float("inf"), ms.GRAPH_MODE: float("inf")}
    losses = {ms.PYNATIVE_MODE: [], ms.GRAPH_MODE: []}
    for _ in range(rounds):
        for mode, step in ((ms.PYNATIVE_MODE, pynative_step), (ms.GRAPH_MODE, graph_step)):
            median, round_losses = time_steps(mode, step, per_round, data, labels)
            best[mode] = min(best[mode], median)
            losses[mode].extend(round_losses)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    pynative, graph = best[ms.PYNATIVE_MODE], best[ms.GRAPH_MODE]
    gap = max(abs(a - b) for a, b in zip(losses[ms.PYNATIVE_MODE], losses[ms.GRAPH_MODE]))
    print(f"LeNet-5 training step, batch 32, Momentum ({rounds} rounds of {per_round} steps per "
          f"mode, best median; BLAS threads: {os.environ.get('OMP_NUM_THREADS')})")
    print(f"  PyNative   : {pynative * 1e3:8.2f} ms/step")
    print(f"  GRAPH_MODE : {graph * 1e3:8.2f} ms/step  (first call, compiling: "
          f"{compile_time * 1e3:.1f} ms)")
    print(f"  ratio PyNative / GRAPH_MODE = {pynative / graph:.2f}")
    print(f"  losses agree between modes within {gap:.2e} over "
          f"{len(losses[ms.GRAPH_MODE])} steps")
    return 0


if __name__ == "__main__":
    sys.exit(main())
