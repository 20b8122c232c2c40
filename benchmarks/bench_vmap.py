"""Per-example gradients: ``vmap(grad(loss))`` against a Python loop of ``grad(loss)``.

    python benchmarks/bench_vmap.py [--batch 8 32 128] [--rounds 5]

The model is a two-layer MLP (64 → 128 → 10, tanh, softmax cross-entropy written with
``log_softmax``) and the gradient is taken with respect to each example's input.  Both
ways compute the same numbers (checked once per batch size); the table gives the best
time of ``--rounds`` interleaved rounds and the ratio loop / vmap (above 1: vmap is
faster).  PyNative and ``jit`` rows.  The script times; it asserts nothing.
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import refms  # noqa: E402
from refms import Tensor, ops  # noqa: E402


def make_loss():
    rng = np.random.default_rng(0)
    w1 = Tensor((rng.standard_normal((64, 128)) / 8).astype(np.float32))
    w2 = Tensor((rng.standard_normal((128, 10)) / 11).astype(np.float32))
    label = Tensor(np.eye(10, dtype=np.float32)[3])

    def loss(x):
        h = ops.tanh(ops.matmul(ops.reshape(x, (1, 64)), w1))
        logits = ops.reshape(ops.matmul(h, w2), (10,))
        return -ops.reduce_sum(ops.log_softmax(logits, -1) * label)
    return loss


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", type=int, nargs="+", default=[8, 32, 128])
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    loss = make_loss()
    per_example = refms.grad(loss)

    def with_vmap(xs):
        return ops.vmap(per_example)(xs)

    def with_loop(xs):
        return ops.stack([per_example(xs[i]) for i in range(xs.shape[0])])

    compiled = refms.jit(with_vmap)
    print(f"{'batch':>6} {'mode':>9} {'loop s':>10} {'vmap s':>10} {'loop/vmap':>10}")
    for batch in options.batch:
        xs = Tensor(np.random.default_rng(batch).standard_normal((batch, 64)).astype(np.float32))
        reference = with_loop(xs).asnumpy()
        for name, fn in (("PyNative", with_vmap), ("jit", compiled)):
            np.testing.assert_allclose(fn(xs).asnumpy(), reference, rtol=1e-4, atol=1e-6)
            best = {"loop": float("inf"), "vmap": float("inf")}
            for _ in range(options.rounds):             # interleaved rounds
                for label, run in (("loop", with_loop), ("vmap", fn)):
                    start = time.perf_counter()
                    run(xs).asnumpy()
                    best[label] = min(best[label], time.perf_counter() - start)
            print(f"{batch:>6} {name:>9} {best['loop']:>10.4f} {best['vmap']:>10.4f} "
                  f"{best['loop'] / best['vmap']:>10.1f}")


if __name__ == "__main__":
    main()
