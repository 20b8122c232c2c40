"""The CUDA library on a real GPU (marker ``gpu``; skipped, naming why, without one).

The kernel-by-kernel comparison with the reference kernels runs on the GPU through
``tests/test_cuda_kernels.py`` (its ``gpu`` cases).  Here: what only a device shows --
cuBLAS against our GEMM, memory given back, errors of a kernel that really runs
asynchronously, and a large GEMM.
"""
import numpy as np
import pytest

from refms._cuda import cublas, device, ops

from cuda_support import gpu_reason

REASON = gpu_reason()
pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(REASON is not None, reason=f"no usable GPU: {REASON}")]


@pytest.fixture
def rt():
    runtime = device.runtime()
    runtime.synchronous = False
    yield runtime
    runtime.synchronous = None


def test_runtime_is_the_real_device(rt):
    assert not rt.is_shim


def test_tiled_gemm_equals_cublas_and_numpy(rt, monkeypatch):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((517, 300), dtype=np.float32)
    b = rng.standard_normal((300, 263), dtype=np.float32)
    expected = a.astype(np.float64) @ b.astype(np.float64)
    monkeypatch.setenv(cublas.ENV, "refms")
    ours = ops.matmul(rt.to_device(a), rt.to_device(b)).numpy()
    np.testing.assert_allclose(ours, expected, rtol=1e-4, atol=1e-3)
    monkeypatch.setenv(cublas.ENV, "auto")
    if cublas.chosen(rt) != "cublas":
        pytest.skip(f"cuBLAS unavailable: {cublas.unavailable_reason()}")
    theirs = ops.matmul(rt.to_device(a), rt.to_device(b)).numpy()
    np.testing.assert_allclose(theirs, expected, rtol=1e-4, atol=1e-3)


def test_memory_is_given_back(rt):
    rt.allocator.empty_cache()
    free_before, _ = _mem_info(rt)
    arrays = [rt.to_device(np.ones((64, 1024, 1024), np.float32)) for _ in range(4)]   # 1 GiB
    free_during, _ = _mem_info(rt)
    assert free_before - free_during >= 1 << 30
    del arrays
    assert rt.memory_in_use() == 0 or rt.memory_in_use() < 1 << 20
    rt.allocator.empty_cache()
    free_after, _ = _mem_info(rt)
    assert free_after >= free_before - (64 << 20)


def _mem_info(rt):
    import ctypes
    free, total = ctypes.c_size_t(), ctypes.c_size_t()
    assert rt.lib.refms_cuda_mem_info(ctypes.byref(free), ctypes.byref(total)) == 0
    return free.value, total.value


def test_error_of_an_asynchronous_kernel_names_its_op(rt):
    rng = np.random.default_rng(1)
    big = rt.to_device(rng.standard_normal((2048, 2048), dtype=np.float32))
    x = rt.to_device(np.arange(10, dtype=np.float32).reshape(5, 2))
    index = rt.to_device(np.array([0, 9], np.int64))
    ops.matmul(big, big)                                   # keeps the GPU busy
    ops.gather(x, index, 0, op="Gather")                   # returns before the kernel runs
    with pytest.raises(RuntimeError, match=r"For 'Gather', the index 9 is out of range \[-5, 5\)"):
        rt.synchronize()


def test_large_gemm(rt):
    rng = np.random.default_rng(2)
    a = rng.standard_normal((1024, 1024), dtype=np.float32)
    out = ops.matmul(rt.to_device(a), rt.to_device(a), False, True).numpy()
    np.testing.assert_allclose(out, a.astype(np.float64) @ a.T.astype(np.float64), rtol=1e-3, atol=1e-2)


@pytest.mark.parametrize("mode", [0, 1], ids=["graph", "pynative"])
def test_lenet_and_mlp_train_on_the_gpu_like_on_the_cpu(mode):
    """Batch 32 LeNet-5 and an MLP: two Momentum steps on the GPU equal the CPU within 1e-4."""
    import refms as ms
    from test_cuda_training import MLP, LeNet5, _compare
    rng = np.random.default_rng(0)
    try:
        lenet_fallbacks = _compare(LeNet5, rng.standard_normal((32, 1, 32, 32)).astype(np.float32),
                                   rng.integers(0, 10, (32,)).astype(np.int32), mode)
        mlp_fallbacks = _compare(MLP, rng.standard_normal((32, 8)).astype(np.float32),
                                 rng.integers(0, 3, (32,)).astype(np.int32), mode)
    finally:
        ms.set_context(device_target="CPU")
    print(f"host fallbacks: LeNet {lenet_fallbacks}, MLP {mlp_fallbacks}")
    assert lenet_fallbacks == {} and mlp_fallbacks == {}


@pytest.mark.parametrize("mode", [0, 1], ids=["graph", "pynative"])
def test_residual_block_with_batchnorm_and_adam_trains_on_the_gpu_like_on_the_cpu(mode):
    """conv-BN-ReLU-conv-BN + skip, batch 16, two Adam steps: GPU equals CPU within 1e-4."""
    import refms as ms
    from test_cuda_training import ResidualNet, _compare, adam
    rng = np.random.default_rng(1)
    try:
        fallbacks = _compare(ResidualNet, rng.standard_normal((16, 4, 8, 8)).astype(np.float32),
                             rng.integers(0, 3, (16,)).astype(np.int32), mode, make_optimizer=adam)
    finally:
        ms.set_context(device_target="CPU")
    assert fallbacks == {}, f"kernels that ran through the host: {fallbacks}"


@pytest.mark.parametrize("mode", [0, 1], ids=["graph", "pynative"])
def test_a_late_error_names_the_primitive_that_launched_the_kernel(mode):
    """A bad label in a loss: the error comes at the read, naming the primitive and kernel."""
    import refms as ms
    from refms import nn
    from test_cuda_training import MLP
    ms.set_context(device_target="GPU", mode=mode, pynative_synchronize=False)
    try:
        net = nn.WithLossCell(MLP(), nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))
        data, labels = ms.Tensor(np.ones((4, 8), np.float32)), ms.Tensor(np.array([0, 2, 5, 1], np.int32))
        with pytest.raises(RuntimeError, match=r"For 'SparseSoftmaxCrossEntropyWithLogits' \(CUDA "
                                               r"kernel 'sparse_softmax_cross_entropy'\), the index 5 "
                                               r"is out of range \[0, 3\) \(the kernel ran asynchronously"):
            net(data, labels).asnumpy()
    finally:
        ms.set_context(device_target="CPU")
