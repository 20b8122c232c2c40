"""The CPU speed table: refms (PyNative and GRAPH_MODE), numpy and PyTorch, as time ratios to PyTorch.

Run from the repository root, after ``python setup.py build_ext --inplace``::

    python benchmarks/bench_vs_torch.py [--threads 2] [--rounds 3] [--only conv,lenet,...]

Every workload runs in this one process through each implementation that
has it, the implementations taking turns inside each round (interleaved
rounds: a slow moment of a shared machine hits them alike); a time is the
best round.  All of them get the same thread count: ``--threads`` sets
``OMP_NUM_THREADS`` / ``OPENBLAS_NUM_THREADS`` / ``MKL_NUM_THREADS`` before
numpy is imported and ``torch.set_num_threads``, and ``OMP_WAIT_POLICY`` is
``PASSIVE`` (refms's default) for PyTorch's OpenMP threads too.  The last column is the
time over PyTorch eager's (above 1: slower than PyTorch).  Nothing is
asserted; on a shared machine expect a ±10–20 % spread between runs.

Implementations (a blank cell: the workload has no such form):

* ``refms PyNative`` / ``refms GRAPH``: the workload as a Cell, its
  gradient by ``ops.GradOperation`` (training steps: ``TrainOneStepCell``),
  run in PYNATIVE_MODE (tape) and in GRAPH_MODE (compiled once, before the
  rounds);
* ``kernels``: the kernel calls alone (``refms.kernels.call``, the fast
  twins when built) — what remains once the framework's overhead is gone;
* ``numpy``: the numpy reference kernels (im2col + BLAS for convolution);
* ``torch``: PyTorch eager with autograd, when PyTorch is importable.

Workloads (float32): conv fwd+bwd in three shapes, 2×2 max pooling
fwd+bwd, BatchNorm2d training fwd+bwd, log-softmax + NLL fwd+bwd, the sum
of a 4096² array, a 2048² matmul, 10,000 eager adds on 4-element tensors
(µs per add, with and without a gradient tape) and the LeNet-5 training
step (Momentum) at batch 8, 32, 128 and 512.
"""
import argparse
import os
import random
import sys
import time


def _option(argv, name, default):
    for k, arg in enumerate(argv):
        if arg == name and k + 1 < len(argv):
            return argv[k + 1]
        if arg.startswith(name + "="):
            return arg.split("=", 1)[1]
    return default


THREADS = _option(sys.argv[1:], "--threads", "2")
for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_name] = THREADS
# refms's kernels make OpenMP threads sleep while they wait (refms/_fast/__init__.py); PyTorch
# gets the same setting, for a fair comparison on a shared machine.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "examples"))

import refms as ms  # noqa: E402
from refms import Tensor, Parameter, ParameterTuple, nn, ops, kernels  # noqa: E402
from refms.autograd.tape import Tape  # noqa: E402
from lenet import LeNet5  # noqa: E402  (examples/lenet.py)

try:
    import torch
    torch.set_num_threads(int(THREADS))
except ImportError:
    torch = None

def best_times(candidates, rounds, number):
    """{name: best seconds per call}; the candidates take turns within each round, in an
    order shuffled afresh each round (seeded, so runs repeat).

    The order matters for memory-bound work: a 64 MB array does not fit the 32 MB L3, but
    part of it stays there, so a candidate that reads the array its predecessor just read
    runs 10–30 % faster than one that follows a candidate reading another array (the 4096²
    sum: torch, numpy and the kernels read one array, PyNative and GRAPH the Tensor's
    copy).  A fixed or merely rotated order keeps the same neighbours every round and so
    favours some candidates; shuffled, each one meets each predecessor over the rounds,
    and its best time is taken in its best company.
    """
    best = {}
    for name, fn in candidates.items():
        fn()                                        # warm up (and compile, in GRAPH_MODE)
        best[name] = float("inf")
    names = list(candidates)
    for round_index in range(rounds):
        order = names[:]
        random.Random(round_index).shuffle(order)
        for name in order:
            fn = candidates[name]
            start = time.perf_counter()
            for _ in range(number):
                fn()
            best[name] = min(best[name], (time.perf_counter() - start) / number)
    return best


def in_mode(mode, fn):
    """fn run with the context in ``mode`` (the workloads of both modes interleave)."""
    def run():
        ms.set_context(mode=mode)
        return fn()
    return run


def rng(seed=0):
    return np.random.default_rng(seed)


def f32(shape, seed=0):
    return rng(seed).standard_normal(shape).astype(np.float32)


# --------------------------------------------------------------------------- op workloads

class SensGrad:
    """d(net)(inputs) · sens for every input and parameter: the backward of a forward."""

    def __init__(self, net):
        self.net = net
        self.grad = ops.GradOperation(get_all=True, get_by_list=True, sens_param=True)
        self.weights = ParameterTuple(net.trainable_params())

    def __call__(self, *args):
        return self.grad(self.net, self.weights)(*args)


def refms_modes(make_net, *args):
    """{'refms PyNative': fn, 'refms GRAPH': fn} for the gradient of a fresh net in each mode."""
    fns = {}
    for name, mode in (("refms PyNative", ms.PYNATIVE_MODE), ("refms GRAPH", ms.GRAPH_MODE)):
        ms.set_context(mode=mode)
        grad = SensGrad(make_net())
        fns[name] = in_mode(mode, lambda grad=grad: grad(*args))
    ms.set_context(mode=ms.PYNATIVE_MODE)
    return fns


class ConvNet(nn.Cell):
    def __init__(self, cin, cout, k, stride, pad):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, stride=stride, pad_mode="pad" if pad else "valid",
                              padding=pad, has_bias=False)

    def construct(self, x):
        return self.conv(x)


def conv_workload(n, cin, h, cout, k, stride, pad):
    x = f32((n, cin, h, h), 1)
    w = (f32((cout, cin, k, k), 2) * 0.1).astype(np.float32)
    args = ((stride, stride), (pad,) * 4, (1, 1), 1)
    out = (h + 2 * pad - k) // stride + 1
    dy = f32((n, cout, out, out), 3)

    def kernel_fns(impl):
        def run():
            impl("conv2d")(x, w, *args)
            impl("conv2d_backprop_input")(dy, w, x.shape, *args)
            impl("conv2d_backprop_filter")(dy, x, w.shape, *args)
        return run

    fns = refms_modes(lambda: ConvNet(cin, cout, k, stride, pad), Tensor(x), Tensor(dy))
    fns["kernels"] = kernel_fns(kernels.call)
    fns["numpy"] = kernel_fns(kernels.reference_kernel)
    if torch is not None:
        tx, tw, tdy = torch.from_numpy(x), torch.from_numpy(w), torch.from_numpy(dy)

        def torch_fn():
            xx, ww = tx.clone().requires_grad_(), tw.clone().requires_grad_()
            torch.nn.functional.conv2d(xx, ww, stride=stride, padding=pad).backward(tdy)
        fns["torch"] = torch_fn
    return fns


class MaxPoolNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)

    def construct(self, x):
        return self.pool(x)


def maxpool_workload():
    x = f32((32, 16, 28, 28), 4)
    dy = f32((32, 16, 14, 14), 5)
    geometry = ((2, 2), (2, 2), (0, 0, 0, 0))

    def kernel_fns(impl):
        def run():
            _, argmax = impl("max_pool2d")(x, *geometry)
            impl("max_pool2d_grad")(dy, argmax, x.shape)
        return run

    fns = refms_modes(MaxPoolNet, Tensor(x), Tensor(dy))
    fns["kernels"] = kernel_fns(kernels.call)
    fns["numpy"] = kernel_fns(kernels.reference_kernel)
    if torch is not None:
        tx, tdy = torch.from_numpy(x), torch.from_numpy(dy)

        def torch_fn():
            xx = tx.clone().requires_grad_()
            torch.nn.functional.max_pool2d(xx, 2, 2).backward(tdy)
        fns["torch"] = torch_fn
    return fns


class BatchNormNet(nn.Cell):
    def __init__(self, channels):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels)

    def construct(self, x):
        return self.bn(x)


def batchnorm_workload():
    shape = (32, 64, 56, 56)
    x, dy = f32(shape, 6), f32(shape, 7)

    def make():
        net = BatchNormNet(64)
        net.set_train()
        return net

    fns = refms_modes(make, Tensor(x), Tensor(dy))
    if torch is not None:
        tx, tdy = torch.from_numpy(x), torch.from_numpy(dy)
        bn = torch.nn.BatchNorm2d(64)
        bn.train()

        def torch_fn():
            xx = tx.clone().requires_grad_()
            bn(xx).backward(tdy)
        fns["torch"] = torch_fn
    return fns


class LogSoftmaxNLL(nn.Cell):
    def __init__(self):
        super().__init__()
        self.loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")

    def construct(self, logits, labels):
        return self.loss(logits, labels)


def nll_workload():
    logits = f32((256, 1000), 8)
    labels = rng(9).integers(0, 1000, 256).astype(np.int32)

    def kernel_fns(impl):
        def run():
            impl("sparse_softmax_cross_entropy")(logits, labels, False)
            impl("sparse_softmax_cross_entropy")(logits, labels, True)
        return run

    fns = {}
    for name, mode in (("refms PyNative", ms.PYNATIVE_MODE), ("refms GRAPH", ms.GRAPH_MODE)):
        ms.set_context(mode=mode)
        grad = ops.GradOperation(get_all=True)(LogSoftmaxNLL())
        fns[name] = in_mode(mode, lambda grad=grad: grad(Tensor(logits), Tensor(labels)))
    ms.set_context(mode=ms.PYNATIVE_MODE)
    fns["kernels"] = kernel_fns(kernels.call)
    fns["numpy"] = kernel_fns(kernels.reference_kernel)
    if torch is not None:
        tl, tlab = torch.from_numpy(logits), torch.from_numpy(labels.astype(np.int64))

        def torch_fn():
            xx = tl.clone().requires_grad_()
            torch.nn.functional.nll_loss(torch.log_softmax(xx, -1), tlab).backward()
        fns["torch"] = torch_fn
    return fns


def sum_workload():
    x = f32((4096, 4096), 10)
    tx = Tensor(x)

    def refms_sum():
        return ops.ReduceSum()(tx)

    fns = {"refms PyNative": refms_sum,
           "refms GRAPH": _jit_sum(tx),
           "kernels": lambda: kernels.call("reduce_sum")(x, (), False),
           "numpy": lambda: x.sum()}
    if torch is not None:
        t = torch.from_numpy(x)
        fns["torch"] = lambda: torch.sum(t)
    return fns


def _jit_sum(tx):
    fn = lambda t: ops.ReduceSum()(t)           # noqa: E731  (jit wants a lambda on its own line)
    fn = ms.jit(fn)
    return lambda: fn(tx)


def matmul_workload():
    a, b = f32((2048, 2048), 11), f32((2048, 2048), 12)
    ta, tb = Tensor(a), Tensor(b)
    jitted = lambda x, y: ops.matmul(x, y)      # noqa: E731  (jit wants a lambda on its own line)
    jitted = ms.jit(jitted)
    fns = {"refms PyNative": lambda: ops.matmul(ta, tb),
           "refms GRAPH": lambda: jitted(ta, tb),
           "kernels": lambda: kernels.call("matmul")(a, b, False, False),
           "numpy": lambda: a @ b}
    if torch is not None:
        xa, xb = torch.from_numpy(a), torch.from_numpy(b)
        fns["torch"] = lambda: torch.mm(xa, xb)
    return fns


ADDS = 10_000


def adds_workload():
    a, b = np.arange(4, dtype=np.float32), np.ones(4, dtype=np.float32)
    x, y = Tensor(a), Tensor(b)
    add = ops.add

    def refms_adds():
        for _ in range(ADDS):
            add(x, y)

    def refms_taped_adds():
        with Tape() as tape:
            tape.watch(x)
            tape.watch(y)
            for _ in range(ADDS):
                add(x, y)

    def numpy_adds():
        for _ in range(ADDS):
            np.add(a, b)

    fns = {"refms PyNative": refms_adds, "refms + tape": refms_taped_adds, "numpy": numpy_adds}
    if torch is not None:
        ta, tb = torch.from_numpy(a), torch.from_numpy(b)

        def torch_adds():
            for _ in range(ADDS):
                torch.add(ta, tb)

        def torch_grad_adds():
            ga, gb = ta.clone().requires_grad_(), tb.clone().requires_grad_()
            for _ in range(ADDS):
                torch.add(ga, gb)
        fns["torch"] = torch_adds
        fns["torch + grad"] = torch_grad_adds
    return fns


# --------------------------------------------------------------------------- LeNet-5 training step

def lenet_workload(batch):
    data = f32((batch, 1, 32, 32), 13)
    labels = rng(14).integers(0, 10, batch).astype(np.int32)
    x, y = Tensor(data), Tensor(labels)
    fns = {}
    for name, mode in (("refms PyNative", ms.PYNATIVE_MODE), ("refms GRAPH", ms.GRAPH_MODE)):
        ms.set_context(mode=mode)
        ms.set_seed(1)
        net = LeNet5()
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(),
                                                                            0.01, 0.9))
        step.set_train()
        fns[name] = in_mode(mode, lambda step=step: step(x, y))
    ms.set_context(mode=ms.PYNATIVE_MODE)
    if torch is not None:
        tnet = torch.nn.Sequential(
            torch.nn.Conv2d(1, 6, 5), torch.nn.ReLU(), torch.nn.MaxPool2d(2, 2),
            torch.nn.Conv2d(6, 16, 5), torch.nn.ReLU(), torch.nn.MaxPool2d(2, 2),
            torch.nn.Flatten(), torch.nn.Linear(400, 120), torch.nn.ReLU(),
            torch.nn.Linear(120, 84), torch.nn.ReLU(), torch.nn.Linear(84, 10))
        optimizer = torch.optim.SGD(tnet.parameters(), lr=0.01, momentum=0.9)
        tx, ty = torch.from_numpy(data), torch.from_numpy(labels.astype(np.int64))

        def torch_step():
            optimizer.zero_grad()
            loss = torch.nn.functional.cross_entropy(tnet(tx), ty)
            loss.backward()
            optimizer.step()
        fns["torch"] = torch_step
    return fns


# --------------------------------------------------------------------------- table

WORKLOADS = [
    ("conv", "conv LeNet-2 fwd+bwd (32,6,14,14 -> 16, k5)",
     lambda: conv_workload(32, 6, 14, 16, 5, 1, 0), 20),
    ("conv", "conv ResNet block fwd+bwd (32,64,56,56 -> 64, k3 p1)",
     lambda: conv_workload(32, 64, 56, 64, 3, 1, 1), 1),
    ("conv", "conv stride-2 fwd+bwd (32,64,56,56 -> 128, k3 s2 p1)",
     lambda: conv_workload(32, 64, 56, 128, 3, 2, 1), 1),
    ("pool", "maxpool 2x2 fwd+bwd (32,16,28,28)", maxpool_workload, 20),
    ("batchnorm", "BatchNorm2d train fwd+bwd (32,64,56,56)", batchnorm_workload, 1),
    ("nll", "log-softmax + NLL fwd+bwd (256, 1000)", nll_workload, 20),
    ("reduce", "sum over 4096^2", sum_workload, 5),
    ("matmul", "matmul 2048^2", matmul_workload, 1),
    ("adds", f"{ADDS:,} eager adds on 4-element tensors (us/op)", adds_workload, 1),
] + [("lenet", f"LeNet-5 train step, batch {b}", lambda b=b: lenet_workload(b), 3)
     for b in (8, 32, 128, 512)]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", default="2", help="threads for everyone (default 2)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", default="", help="comma-separated groups: " +
                        ",".join(sorted({w[0] for w in WORKLOADS})))
    options = parser.parse_args(argv)
    groups = {g for g in options.only.split(",") if g}
    info = kernels.build_info()
    print(f"threads {THREADS}; rounds {options.rounds} (interleaved, best kept); "
          f"torch {torch.__version__ if torch is not None else 'not installed'}; "
          f"kernels {kernels.implementation()} (fast built: {info['fast_available']}, "
          f"flags {' '.join(info['compile_flags']) or '-'}, OpenMP threads "
          f"{info['openmp_threads']}, OMP_WAIT_POLICY {os.environ.get('OMP_WAIT_POLICY')}, "
          f"one BLAS: {info['one_blas']})")
    for group, title, make, number in WORKLOADS:
        if groups and group not in groups:
            continue
        fns = make()
        times = best_times(fns, options.rounds, number)
        reference = times.get("torch")
        per_op = group == "adds"
        unit, scale = ("us/op", 1e6 / ADDS) if per_op else ("ms", 1e3)
        print(f"\n{title}")
        for name, seconds in times.items():
            ratio = f"{seconds / reference:8.2f}x" if reference else ""
            if per_op and name.endswith("tape"):
                ratio = (f"{seconds / times['torch + grad']:8.2f}x (vs torch + grad)"
                         if "torch + grad" in times else "")
            print(f"  {name:<16}{seconds * scale:>10.2f} {unit:<6}{ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
