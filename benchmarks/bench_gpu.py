"""The CUDA library on a GPU: GEMM, a ResNet convolution block, a LeNet-5 training step.

Run on a machine with a GPU (``bash benchmarks/run_gpu.sh`` builds refms with the library
first): ``python benchmarks/bench_gpu.py [--repeat N]``.  Without a usable GPU it prints
why and exits 0.

Prints
  * GEMM 4096 x 4096 x 4096 float32: GFLOP/s of our tiled kernel (gemm.cu) and of cuBLAS
    (when libcublas.so.13 loads), and their ratio (goal: ours >= 50% of cuBLAS);
  * a ResNet basic-block convolution (N=32, 64 -> 64 channels, 56 x 56, 3 x 3, pad 1):
    forward, backward-input and backward-filter, ms per call on the GPU and with the
    CPU kernels (refms.kernels, the same run), and the ratio;
  * one LeNet-5 training step (batch 128, Momentum, PyNative and GRAPH_MODE) on the GPU
    and on the CPU, ms per step and the ratio (goal: GPU >= 5x faster), with the number
    of kernels that fell back through the host during the GPU steps (goal: 0); the same
    for an MLP.

GPU times wait for the device (``synchronize``) before the clock stops; each figure is
the best median of a few rounds.  No timing is asserted anywhere.
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "examples"))

import refms as ms                                       # noqa: E402
from refms import kernels                                # noqa: E402
from refms._cuda import cublas, device, ops              # noqa: E402


def best_median(fn, repeat, rounds=3, sync=None):
    """Best over rounds of the median seconds per call of fn()."""
    best = float("inf")
    for _ in range(rounds):
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            fn()
            if sync:
                sync()
            times.append(time.perf_counter() - start)
        best = min(best, statistics.median(times))
    return best


def bench_gemm(rt, repeat):
    n = 4096
    rng = np.random.default_rng(0)
    a = rt.to_device(rng.standard_normal((n, n), dtype=np.float32))
    b = rt.to_device(rng.standard_normal((n, n), dtype=np.float32))
    flops = 2.0 * n ** 3
    rows = {}
    for name in ("refms", "cublas"):
        os.environ[cublas.ENV] = name
        try:
            cublas.chosen(rt)
        except RuntimeError as exc:
            print(f"  cuBLAS: n/a ({exc})")
            continue
        ops.matmul(a, b)                                     # warm up
        rt.synchronize()
        seconds = best_median(lambda: ops.matmul(a, b), repeat, sync=rt.synchronize)
        rows[name] = flops / seconds / 1e9
        print(f"  {'ours (gemm.cu)' if name == 'refms' else 'cuBLAS':16s}: {rows[name]:9.1f} GFLOP/s "
              f"({seconds * 1e3:.2f} ms)")
    os.environ[cublas.ENV] = "auto"
    if len(rows) == 2:
        print(f"  ours / cuBLAS = {rows['refms'] / rows['cublas']:.2f}")


def bench_conv(rt, repeat):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((32, 64, 56, 56), dtype=np.float32)
    w = rng.standard_normal((64, 64, 3, 3), dtype=np.float32) * 0.05
    args = ((1, 1), (1, 1, 1, 1), (1, 1), 1)
    dout = rng.standard_normal((32, 64, 56, 56), dtype=np.float32)
    dx_, dw_, ddout = rt.to_device(x), rt.to_device(w), rt.to_device(dout)
    gpu = {
        "forward": lambda: ops.conv2d(dx_, dw_, *args),
        "backprop input": lambda: ops.conv2d_backprop_input(ddout, dw_, x.shape, *args),
        "backprop filter": lambda: ops.conv2d_backprop_filter(ddout, dx_, w.shape, *args),
    }
    cpu = {
        "forward": lambda: kernels.call("conv2d")(x, w, *args),
        "backprop input": lambda: kernels.call("conv2d_backprop_input")(dout, w, x.shape, *args),
        "backprop filter": lambda: kernels.call("conv2d_backprop_filter")(dout, x, w.shape, *args),
    }
    total_gpu = total_cpu = 0.0
    for name in gpu:
        gpu[name]()
        rt.synchronize()
        g = best_median(gpu[name], repeat, sync=rt.synchronize)
        c = best_median(cpu[name], 1, rounds=2)
        total_gpu, total_cpu = total_gpu + g, total_cpu + c
        print(f"  {name:16s}: GPU {g * 1e3:8.2f} ms   CPU {c * 1e3:9.1f} ms   CPU/GPU {c / g:7.1f}x")
    print(f"  {'fwd + bwd':16s}: GPU {total_gpu * 1e3:8.2f} ms   CPU {total_cpu * 1e3:9.1f} ms   "
          f"CPU/GPU {total_cpu / total_gpu:7.1f}x")


class MLP(ms.nn.Cell):
    """784 -> 512 -> 512 -> 10 with ReLU: the MLP of the host-fallback count."""

    def __init__(self):
        super().__init__()
        self.flatten = ms.nn.Flatten()
        self.fc1, self.fc2, self.fc3 = ms.nn.Dense(1024, 512), ms.nn.Dense(512, 512), ms.nn.Dense(512, 10)
        self.relu = ms.nn.ReLU()

    def construct(self, x):
        return self.fc3(self.relu(self.fc2(self.relu(self.fc1(self.flatten(x))))))


BATCH = {"size": 128}


def lenet_step_time(target, mode, repeat, make_net=None):
    from lenet import LeNet5
    ms.set_context(device_target=target, mode=mode)
    ms.set_seed(1)
    net = (make_net or LeNet5)()
    loss = ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = ms.nn.TrainOneStepCell(ms.nn.WithLossCell(net, loss), ms.nn.Momentum(net.trainable_params(), 0.01, 0.9))
    step.set_train()
    rng = np.random.default_rng(0)
    batch = BATCH["size"]
    data = ms.Tensor(rng.standard_normal((batch, 1, 32, 32)).astype(np.float32))
    labels = ms.Tensor(rng.integers(0, 10, (batch,)).astype(np.int32))
    step(data, labels).asnumpy()                               # warm up / compile
    kernels.reset_fallback_counts()
    seconds = best_median(lambda: step(data, labels).asnumpy(), repeat)
    fallbacks = sum(kernels.fallback_counts().values())
    return seconds, fallbacks, kernels.fallback_counts()


def bench_lenet(repeat, make_net=None):
    for mode_name, mode in (("PyNative", ms.PYNATIVE_MODE), ("GRAPH_MODE", ms.GRAPH_MODE)):
        try:
            gpu, fallbacks, detail = lenet_step_time("GPU", mode, repeat, make_net)
        except Exception as exc:                                 # noqa: BLE001 - report, go on
            print(f"  {mode_name}: the GPU step failed: {type(exc).__name__}: {exc}")
            continue
        finally:
            ms.set_context(device_target="CPU")
        cpu, _, _ = lenet_step_time("CPU", mode, max(2, repeat // 4), make_net)
        print(f"  {mode_name:10s}: GPU {gpu * 1e3:8.2f} ms/step   CPU {cpu * 1e3:8.2f} ms/step   "
              f"CPU/GPU {cpu / gpu:6.1f}x   host fallbacks per {repeat * 3} GPU steps: {fallbacks}"
              + (f" {detail}" if fallbacks else ""))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--batch", type=int, default=128, help="training-step batch (default 128)")
    parser.add_argument("--only", choices=["gemm", "conv", "train"], default=None)
    options = parser.parse_args(argv)
    BATCH["size"] = options.batch
    if not ms.cuda.is_available():
        print(f"No usable GPU: {ms.cuda.why_unavailable()}")
        return 0
    rt = device.runtime()
    if options.only in (None, "gemm"):
        print(f"GEMM 4096 x 4096 x 4096, float32 (GEMM in use by default: {cublas.which(rt)})")
        bench_gemm(rt, options.repeat)
    if options.only in (None, "conv"):
        print("ResNet basic-block convolution: x (32, 64, 56, 56), w (64, 64, 3, 3), pad 1")
        bench_conv(rt, options.repeat)
    if options.only in (None, "train"):
        print(f"LeNet-5 training step, batch {options.batch}, Momentum")
        bench_lenet(options.repeat)
        print(f"MLP (1024-512-512-10) training step, batch {options.batch}, Momentum")
        bench_lenet(options.repeat, MLP)
    return 0


if __name__ == "__main__":
    sys.exit(main())
