"""The compile cache: bounded per function, and nothing kept alive once a function is dropped."""
import gc
import tracemalloc

import numpy as np
import pytest

import refms as ms
from refms import Tensor, nn
from refms.graph.cache import CompileCache, get_compile_cache_size, set_compile_cache_size

X = Tensor(np.ones((4,), np.float32))


def _compile_closure(size):
    captured = Tensor(np.full((size,), 0.5, np.float32))

    @ms.jit
    def add_captured(x):
        return x + captured[:4]

    out = add_captured(X)
    np.testing.assert_allclose(out.asnumpy(), np.full((4,), 1.5, np.float32))


def test_dropped_closures_release_what_they_captured():
    """100 compiled closures, each capturing an 8 MiB Tensor: once dropped, memory is back
    to where it was (the caches hold functions weakly; programs live with their function)."""
    eight_mib = 8 * 1024 * 1024 // 4
    _compile_closure(16)                     # first-use work (imports, kernels) not measured
    gc.collect()
    tracemalloc.start()
    try:
        gc.collect()
        baseline = tracemalloc.get_traced_memory()[0]
        for _ in range(100):
            _compile_closure(eight_mib)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    # 100 closures kept alive would hold 800 MiB; allow a little for interned caches.
    assert after - baseline < 4 * 1024 * 1024, f"{(after - baseline) / 2**20:.1f} MiB kept"


def test_each_function_keeps_at_most_cache_size_programs():
    @ms.jit
    def scale(x, k):
        return x * k
    scale.cache_size = 3
    for k in range(10):
        np.testing.assert_allclose(scale(X, k).asnumpy(), np.full((4,), float(k)))
    assert len(scale._cache) == 3
    assert [key[0][1] for key in scale._cache.keys()] == [("C", ("int", k)) for k in (7, 8, 9)]
    # The most recently used program stays: using k=7 again makes k=8 the oldest.
    scale(X, 7)
    scale(X, 10)
    assert [key[0][1] for key in scale._cache.keys()] == [("C", ("int", k)) for k in (9, 7, 10)]


def test_default_size_is_settable_and_checked():
    default = get_compile_cache_size()
    try:
        set_compile_cache_size(2)
        assert CompileCache().maxsize == 2

        class Scale(nn.Cell):
            def construct(self, x, k):
                return x * k
        ms.set_context(mode=ms.GRAPH_MODE)
        cell = Scale()
        for k in range(5):
            cell(X, k)
        assert len(cell._graph_cache) == 2
    finally:
        set_compile_cache_size(default)
    with pytest.raises(ValueError, match="positive int"):
        set_compile_cache_size(0)
    with pytest.raises(ValueError, match="positive int"):
        CompileCache(-1)


def _grad_of_closure(size):
    captured = Tensor(np.full((size,), 0.5, np.float32))

    @ms.jit
    def scaled_sum(x):
        return (x * captured[:4]).sum()

    g = ms.grad(scaled_sum)(X)
    np.testing.assert_allclose(g.asnumpy(), np.full((4,), 0.5, np.float32))


def test_dropped_functions_release_their_compiled_gradients():
    """The compiled gradients live on the differentiated function: 100 jit closures, each
    capturing an 8 MiB Tensor and differentiated once, leave nothing behind when dropped."""
    eight_mib = 8 * 1024 * 1024 // 4
    _grad_of_closure(16)
    gc.collect()
    tracemalloc.start()
    try:
        gc.collect()
        baseline = tracemalloc.get_traced_memory()[0]
        for _ in range(100):
            _grad_of_closure(eight_mib)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert after - baseline < 4 * 1024 * 1024, f"{(after - baseline) / 2**20:.1f} MiB kept"


def test_each_function_keeps_a_bounded_number_of_gradient_variants():
    from refms.graph.grad_dispatch import GRAD_VARIANTS, grad_caches

    @ms.jit
    def product(x, y):
        return (x * y).sum()
    y = Tensor(np.full((4,), 3.0, np.float32))
    for _ in range(GRAD_VARIANTS + 5):
        # each GradOperation is a new variant (its own options and target key)
        grad_all = ms.ops.GradOperation(get_all=True)
        gx, gy = grad_all(product)(X, y)
        np.testing.assert_allclose(gx.asnumpy(), y.asnumpy())
        np.testing.assert_allclose(gy.asnumpy(), X.asnumpy())
    assert len(grad_caches(product)) == 1          # same options, same target: one variant
    weights = [ms.Parameter(Tensor(np.ones((4,), np.float32)), name=f"w{i}")
               for i in range(GRAD_VARIANTS + 3)]
    for w in weights:                              # each weight list is another variant
        gx, gw = ms.grad(product, grad_position=0, weights=[w])(X, y)
        np.testing.assert_allclose(gx.asnumpy(), y.asnumpy())
        np.testing.assert_allclose(gw[0].asnumpy(), np.zeros((4,), np.float32))
    assert len(grad_caches(product)) == GRAD_VARIANTS
