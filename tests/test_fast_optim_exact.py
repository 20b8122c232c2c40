"""The Cython Momentum update rounds exactly as the reference (no fused multiply-add).

With ``-march=native`` a compiler may fuse ``p - a*lr`` into one FMA, which rounds once
instead of twice: after two steps nn.Momentum then printed 0.85499996 where the reference
and MindSpore 2.10 print 0.855 (docs/reference/nn.rst, the Momentum example).
"""
import numpy as np
import pytest

from refms import kernels

pytestmark = pytest.mark.skipif(not kernels.fast_available(),
                                reason="the Cython kernels are not built (optional unless REFMS_STRICT_BUILD=1)")


@pytest.mark.parametrize("nesterov", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_apply_momentum_twin_is_bitwise_the_reference(nesterov, dtype):
    from refms._fast.optim import apply_momentum as fast
    reference = kernels.reference_kernel("apply_momentum")
    rng = np.random.default_rng(0)
    p0, v0, g = (rng.standard_normal(4096).astype(dtype) for _ in range(3))
    lr, momentum = np.asarray(0.1, dtype), np.asarray(0.9, dtype)
    pairs = []
    for kernel in (reference, fast):
        p, v = p0.copy(), v0.copy()
        for _ in range(3):
            kernel(p, v, g, lr, momentum, nesterov)
        pairs.append((p, v))
    np.testing.assert_array_equal(pairs[0][0], pairs[1][0])
    np.testing.assert_array_equal(pairs[0][1], pairs[1][1])
