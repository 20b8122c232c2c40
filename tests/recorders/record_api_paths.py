"""Record MindSpore 2.10's answers for ``tests/test_mindspore_paths.py``.

Run with the MindSpore interpreter (refms never imports mindspore)::

    GLOG_v=3 /work/msenv/bin/python tests/recorders/record_api_paths.py

Writes ``tests/recorders/api_paths.json``: learning-rate lists, the
auto-parallel defaults, what the one-device communication calls return,
composite dispatch results and the dtypes of the constant helpers.
"""
import json
import os

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops
from mindspore.ops import composite as C, functional as F

HERE = os.path.dirname(os.path.abspath(__file__))

LR_CASES = {
    "piecewise_constant_lr": [([2, 5, 6], [0.1, 0.05, 0.01]), ([1, 3], [1.0, 0.5])],
    "exponential_decay_lr": [(0.1, 0.9, 6, 2, 2), (0.1, 0.9, 6, 2, 2, True), (0.5, 0.5, 9, 3, 1)],
    "natural_exp_decay_lr": [(0.1, 0.9, 6, 2, 2), (0.1, 0.9, 6, 2, 2, True), (0.5, 0.5, 9, 3, 1)],
    "inverse_decay_lr": [(0.1, 0.5, 6, 2, 2), (0.1, 0.5, 6, 2, 2, True), (0.5, 0.5, 9, 3, 1)],
    "cosine_decay_lr": [(0.01, 0.1, 6, 2, 2), (0.0, 1.0, 10, 2, 3)],
    "polynomial_decay_lr": [(0.1, 0.01, 6, 2, 2, 0.5), (0.1, 0.01, 6, 2, 2, 0.5, True),
                            (0.1, 0.01, 12, 2, 2, 2.0, True), (0.1, 0.0, 9, 3, 2, 1.0)],
    "warmup_lr": [(0.1, 6, 2, 2), (0.2, 9, 3, 1)],
}

PARALLEL_KEYS = ["device_num", "global_rank", "gradients_mean", "gradient_fp32_sync",
                 "parallel_mode", "parameter_broadcast", "full_batch", "enable_parallel_optimizer",
                 "pipeline_stages", "grad_accumulation_step"]


def main():
    out = {"mindspore": ms.__version__}
    out["lr"] = {name: [getattr(nn, name)(*args) for args in cases]
                 for name, cases in LR_CASES.items()}
    out["parallel_defaults"] = {k: ms.get_auto_parallel_context(k) for k in PARALLEL_KEYS}
    from mindspore.parallel import _utils
    out["parallel_utils"] = [_utils._get_device_num(), _utils._get_gradients_mean(),
                             _utils._get_parallel_mode(), _utils._get_enable_parallel_optimizer(),
                             _utils._get_pipeline_stages()]
    from mindspore.communication import management as m
    out["world_groups"] = [m.HCCL_WORLD_COMM_GROUP, m.NCCL_WORLD_COMM_GROUP,
                           m.GlobalComm.WORLD_COMM_GROUP]
    from mindspore.ops.operations.comm_ops import ReduceOp
    out["reduce_op"] = [ReduceOp.SUM, ReduceOp.MAX, ReduceOp.MIN, ReduceOp.PROD]

    add = C.MultitypeFuncGraph("add")

    @add.register("Number", "Tensor")
    def _scale(x, y):
        return y * x

    @add.register("Tensor", "Tensor")
    def _add(x, y):
        return x + y

    t = (Tensor([1.0, 2.0]), Tensor([[3.0]]))
    out["hypermap"] = [v.asnumpy().tolist() for v in C.HyperMap()(add, t, t)]
    out["hypermap_partial"] = [v.asnumpy().tolist() for v in C.HyperMap()(F.partial(add, 3.0), t)]
    out["hypermap_nested"] = [[v.asnumpy().tolist() for v in inner]
                              for inner in C.HyperMap()(add, (t, t), (t, t))]
    out["map"] = [v.asnumpy().tolist() for v in C.Map()(add, t, t)]
    out["bool_is_number"] = add(True, Tensor([2.0])).asnumpy().tolist()
    try:
        add("a", Tensor([1.0]))
        out["no_match"] = None
    except Exception as exc:                    # noqa: BLE001
        out["no_match"] = type(exc).__name__
    grads = (Tensor(np.array([3.0, 4.0], np.float32)), Tensor(np.array([[12.0]], np.float32)))
    out["clip_by_global_norm"] = [v.asnumpy().tolist() for v in C.clip_by_global_norm(grads, 1.0)]
    out["clip_by_global_norm_big"] = [v.asnumpy().tolist()
                                      for v in C.clip_by_global_norm(grads, 100.0)]
    out["tuple_to_array"] = [str(F.tuple_to_array((1, 2, 3)).dtype),
                             str(F.tuple_to_array((1.0, 2.0)).dtype),
                             str(F.tuple_to_array((1, 2.5)).dtype)]
    out["scalar_to_tensor"] = [str(F.scalar_to_tensor(3).dtype), str(F.scalar_to_tensor(3.0).dtype),
                               str(F.scalar_to_tensor(3, ms.int32).dtype)]
    x = Tensor(np.zeros((2, 3, 4), np.float16))
    out["meta"] = [list(ops.Shape()(x)), str(ops.DType()(x)), ops.Rank()(x), ops.Size()(x),
                   list(F.shape(x)), str(F.dtype(x))]
    out["depend"] = F.depend(Tensor([1.0, 2.0]), Tensor([5.0])).asnumpy().tolist()
    out["make_range"] = [list(F.make_range(4)), list(F.make_range(1, 7, 2))]
    with open(os.path.join(HERE, "api_paths.json"), "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
