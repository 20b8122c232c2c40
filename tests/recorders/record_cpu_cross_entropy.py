"""Record MindSpore 2.10's CPU float32 exp and sparse softmax cross-entropy for ``tests/test_loss.py``.

    GLOG_v=3 /work/msenv/bin/python tests/recorders/record_cpu_cross_entropy.py

MindSpore's CPU kernels evaluate exp with nnacl's polynomial and sum the sparse
cross-entropy's per-sample losses in float32 in order, so their float32 results
differ from the exact ones in the last digits; refms reproduces them
(``refms/kernels/softmax.py``).  Recorded: ``ops.exp`` of a few values, and the mean loss of
``ops.SparseSoftmaxCrossEntropyWithLogits()`` and of
``nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")`` on the inputs of
:func:`sparse_cases` (rebuilt from their seeds by the test; a CRC of the bytes is kept).  Labels whose
shifted logit underflows exp (MindSpore then returns inf, refms a finite loss: a documented
deviation) are avoided here.
"""
import json
import os
import zlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
EXP_INPUTS = [-1.0, -0.3, -5.5, -20.0, -0.7, -87.0, 0.0, 1e-3, -60.25]

#: name -> (rows, classes, logit scale); the doc examples are fixed inputs.
RANDOM_CASES = {"256x1000": (256, 1000, 1.0), "64x10-scale3": (64, 10, 3.0),
                "7x33-scale10": (7, 33, 10.0), "32x100-scale12": (32, 100, 12.0)}


def sparse_cases():
    """name -> (float32 logits, int32 labels)."""
    cases = {"doc-example": (np.array([[1, 2, 3], [1, 1, 1]], np.float32), np.array([2, 0], np.int32)),
             "api-example": (np.array([[2, 3, 1, 4, 5], [2, 1, 2, 4, 3]], np.float32),
                             np.array([0, 1], np.int32))}
    for seed, (name, (rows, classes, scale)) in enumerate(RANDOM_CASES.items()):
        rng = np.random.default_rng(seed)
        logits = (rng.standard_normal((rows, classes)) * scale).astype(np.float32)
        cases[name] = (logits, rng.integers(0, classes, rows).astype(np.int32))
    return cases


def crc(logits, labels):
    return zlib.crc32(logits.tobytes() + labels.tobytes())


def run(ms):
    exp = ms.ops.exp(ms.Tensor(np.array(EXP_INPUTS, np.float32))).asnumpy()
    out = {"exp": {"inputs": EXP_INPUTS, "outputs": exp.tolist()}, "sparse": {}}
    layer = ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    prim = ms.ops.SparseSoftmaxCrossEntropyWithLogits()
    for name, (logits, labels) in sparse_cases().items():
        x, y = ms.Tensor(logits), ms.Tensor(labels)
        out["sparse"][name] = {"crc": crc(logits, labels), "primitive": float(prim(x, y).asnumpy()),
                               "layer": float(layer(x, y).asnumpy())}
    return out


if __name__ == "__main__":
    import mindspore
    with open(os.path.join(HERE, "cpu_cross_entropy.json"), "w") as f:
        json.dump({"mindspore": mindspore.__version__, **run(mindspore)}, f, indent=1)
