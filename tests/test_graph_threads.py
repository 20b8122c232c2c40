"""Compiling and running graphs in several threads while another thread runs PyNative ops.

The compiler's state (the tracing stack, the executor that turns primitive calls into
graph nodes) belongs to the thread that compiles: another thread's PyNative ops must
keep computing values, and each thread's compiled functions must give the values
eager execution gives.
"""
import sys
import threading

import numpy as np

import refms as ms
from refms import Tensor, ops


def branchy(x, k):
    if x.sum() > k:
        y = x * 2.0
    else:
        y = x - 1.0
    for i in range(3):
        y = y + i
    return ops.reduce_sum(y * y)


def looping(x):
    n = x.sum() * 0
    while n < 5:
        x = x * 1.5
        n = n + 1
    return x.mean(), ops.matmul(x.reshape((1, -1)), x.reshape((-1, 1)))


def with_closure(x, scale):
    def inner(v):
        return ops.exp(v * scale) - 1.0
    return inner(x) + ops.relu(x - 0.5)


def _expected(fn, *args):
    result = fn(*args)
    if isinstance(result, tuple):
        return tuple(r.asnumpy() for r in result)
    return result.asnumpy()


def _close(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            np.testing.assert_allclose(g.asnumpy(), w, rtol=1e-5, atol=1e-6)
    else:
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=1e-6)


def test_threads_compile_and_run_while_main_thread_runs_pynative_ops():
    # Switch threads often, so that compilations and PyNative ops interleave finely.
    previous_interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        _run_threads()
    finally:
        sys.setswitchinterval(previous_interval)


def _run_threads():
    rng = np.random.default_rng(7)
    inputs = [Tensor(rng.standard_normal((n,)).astype(np.float32)) for n in (3, 4, 5, 6, 7)]
    cases = []
    for x in inputs:                        # several shapes: threads compile concurrently
        cases.append((branchy, (x, 0.5)))
        cases.append((looping, (x,)))
        cases.append((with_closure, (x, 0.25)))
    expected = [_expected(fn, *args) for fn, args in cases]
    compiled = {fn: ms.jit(fn) for fn in (branchy, looping, with_closure)}
    errors = []
    start = threading.Barrier(5)

    def worker(seed):
        order = np.random.default_rng(seed).permutation(50) % len(cases)
        start.wait()
        try:
            for k in order:
                fn, args = cases[k]
                _close(compiled[fn](*args), expected[k])
        except BaseException as error:      # reported in the main thread
            errors.append(error)

    threads = [threading.Thread(target=worker, args=(seed,)) for seed in range(4)]
    for t in threads:
        t.start()
    start.wait()
    a = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    b = Tensor(np.ones((4, 2), np.float32))
    eager_checks = 0
    while any(t.is_alive() for t in threads) or eager_checks < 50:
        out = ops.reduce_sum(ops.matmul(a, b) + 1.0)
        assert isinstance(out, Tensor) and float(out.asnumpy()) == 2 * 66.0 + 6.0
        eager_checks += 1
    for t in threads:
        t.join()
    assert not errors, errors[0]
    # The process is usable afterwards: PyNative and graph mode both work in this thread.
    np.testing.assert_allclose((a * 2).asnumpy(), np.arange(12).reshape(3, 4) * 2.0)
    x = inputs[0]
    _close(compiled[branchy](x, 0.5), expected[0])
    assert not ms.graph.tracer.is_tracing()
