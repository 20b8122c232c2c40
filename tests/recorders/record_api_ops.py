"""Record MindSpore 2.10's outputs (and gradients) of the composed ops and layers of issue 13.

Run with the MindSpore interpreter (refms never imports mindspore)::

    GLOG_v=3 /work/msenv/bin/python tests/recorders/record_api_ops.py

Writes ``tests/recorders/api_ops.json``: for each case its inputs, MindSpore's
output, and where marked the gradient of ``sum(out * cotangent)`` with respect
to each float input.  ``tests/test_api_ops.py`` replays the cases on refms;
``CASES`` below is shared by both (written against the ``ms`` namespace given).
"""
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def cases(ms):
    """(name, fn(*tensors), inputs as numpy arrays, differentiate?) — fn uses only ``ms``."""
    ops, nn = ms.ops, ms.nn
    rng = np.random.default_rng(13)

    def f32(*shape):
        return rng.standard_normal(shape).astype(np.float32)

    def with_weight(cell, **weights):
        for name, value in weights.items():
            getattr(cell, name).set_data(ms.Tensor(value))
        return cell

    conv1d_w = f32(4, 3, 1, 3)
    conv3d_w = f32(4, 2, 3, 3, 2)
    conv3d_wg = f32(4, 1, 2, 2, 2)
    conv3d_b = f32(4)
    deconv_w = f32(2, 3, 3, 3)
    deconv_w2 = f32(2, 3, 2, 2)
    return [
        ("Pad", lambda x: ops.Pad(((1, 0), (0, 2)))(x), [f32(2, 3)], True),
        ("nn.Pad-reflect", lambda x: nn.Pad(((1, 1), (2, 1)), "REFLECT")(x), [f32(3, 4)], True),
        ("nn.Pad-symmetric", lambda x: nn.Pad(((1, 2), (1, 1)), "SYMMETRIC")(x), [f32(3, 4)], True),
        ("ops.pad", lambda x: ops.pad(x, (1, 2, 0, 1)), [f32(2, 3, 2)], True),
        ("GatherNd", lambda x, i: ops.GatherNd()(x, i),
         [f32(3, 4, 2), np.array([[0, 1], [2, 3], [1, 0]], np.int32)], True),
        ("GatherNd-full", lambda x, i: ops.GatherNd()(x, i),
         [f32(3, 4), np.array([[[0, 1]], [[2, 3]]], np.int32)], True),
        ("Slice", lambda x: ops.Slice()(x, (0, 1, 1), (2, 3, 2)), [f32(3, 4, 3)], True),
        # size -1 ("to the end"): forward only, MindSpore 2.10's SliceGrad rejects it
        ("Slice-to-end", lambda x: ops.Slice()(x, (0, 1, 1), (2, -1, 2)), [f32(3, 4, 3)], False),
        ("swapaxes", lambda x: ops.swapaxes(x, 0, 2), [f32(2, 3, 4)], True),
        ("Unstack", lambda x: ops.Unstack(1)(x), [f32(2, 3, 2)], True),
        ("expand_as", lambda x, y: ops.expand_as(x, y), [f32(3, 1), f32(2, 3, 4)], True),
        ("ResizeNearestNeighbor", lambda x: ops.ResizeNearestNeighbor((5, 7))(x),
         [f32(1, 2, 3, 4)], True),
        ("ResizeNearestNeighbor-align", lambda x: ops.ResizeNearestNeighbor(
            (5, 3), align_corners=True)(x), [f32(2, 1, 3, 4)], True),
        ("ResizeNearestNeighbor-down", lambda x: ops.ResizeNearestNeighbor((2, 3))(x),
         [f32(1, 1, 5, 7)], True),
        ("leaky_relu", lambda x: nn.LeakyReLU(0.1)(x), [f32(3, 4)], True),
        ("relu6", lambda x: nn.ReLU6()(x * 4.0), [f32(3, 4)], True),
        ("prelu", lambda x: nn.PReLU(3, 0.1)(x), [f32(2, 3, 4)], True),
        ("PReLU-op", lambda x, w: ops.PReLU()(x, w), [f32(2, 3, 2), f32(3)], True),
        ("SigmoidCrossEntropyWithLogits", lambda x, z: ops.SigmoidCrossEntropyWithLogits()(x, z),
         [f32(3, 4), rng.uniform(0, 1, (3, 4)).astype(np.float32)], True),
        ("BiasAdd", lambda x, b: ops.BiasAdd()(x, b), [f32(2, 3, 2, 2), f32(3)], True),
        ("eye", lambda: ops.eye(2, 3, ms.int32), [], False),
        ("Eye", lambda: ops.Eye()(3, 3, ms.float32), [], False),
        ("masked_fill", lambda x, m: ops.masked_fill(x, m, 0.5),
         [f32(3, 4), rng.uniform(0, 1, (3, 4)) > 0.5], True),
        ("UnsortedSegmentMax", lambda x, s: ops.UnsortedSegmentMax()(x, s, 4),
         [f32(5, 3), np.array([0, 2, 0, 2, 1], np.int32)], True),
        ("Conv1d", lambda x: with_weight(nn.Conv1d(3, 4, 3), weight=conv1d_w)(x),
         [f32(2, 3, 7)], True),
        ("Conv1d-pad-stride", lambda x: with_weight(nn.Conv1d(3, 4, 3, stride=2, pad_mode="pad",
                                                              padding=1), weight=conv1d_w)(x),
         [f32(2, 3, 8)], True),
        ("Conv2dTranspose-same", lambda x: with_weight(nn.Conv2dTranspose(2, 3, 3, stride=2),
                                                       weight=deconv_w)(x), [f32(1, 2, 4, 3)], True),
        ("Conv2dTranspose-valid", lambda x: with_weight(nn.Conv2dTranspose(
            2, 3, 3, stride=2, pad_mode="valid"), weight=deconv_w)(x), [f32(1, 2, 3, 3)], True),
        ("Conv2dTranspose-pad", lambda x: with_weight(nn.Conv2dTranspose(
            2, 3, 3, stride=2, pad_mode="pad", padding=1), weight=deconv_w)(x),
         [f32(2, 2, 3, 4)], True),
        ("Conv2dTranspose-valid-k<s", lambda x: with_weight(nn.Conv2dTranspose(
            2, 3, 2, stride=3, pad_mode="valid"), weight=deconv_w2)(x), [f32(1, 2, 2, 3)], True),
        ("clip_by_norm", lambda x: ops.clip_by_norm(x, 1.0), [f32(3, 4)], True),
        ("StridedSlice", lambda x: ops.StridedSlice(1, 2, 0, 0, 0)(x, (1, 0, 1), (2, 2, 4),
                                                                   (1, 1, 2)), [f32(2, 3, 4)], True),
        ("StridedSlice-shrink", lambda x: ops.StridedSlice(0, 0, 0, 0, 2)(x, (0, 1, 0), (2, 2, 4),
                                                                          (1, 1, 1)),
         [f32(2, 3, 4)], True),
        ("strided_slice-negative", lambda x: ops.strided_slice(x, (2, 3), (0, 0), (-1, -2)),
         [f32(3, 4)], True),
        ("L2Normalize", lambda x: ops.L2Normalize(1)(x), [f32(3, 4)], True),
        ("L2Normalize-axes", lambda x: ops.L2Normalize((2,), 1e-2)(x), [f32(2, 3, 2)], True),
        ("ReverseV2", lambda x: ops.ReverseV2((0, 2))(x), [f32(2, 3, 4)], True),
        ("flip", lambda x: ops.flip(x, (1,)), [f32(2, 3)], True),
        ("ScatterNd", lambda u: ops.ScatterNd()(ms.Tensor(np.array([[0, 1], [2, 2], [0, 1]],
                                                                     np.int32)), u, (3, 4)),
         [f32(3)], True),
        ("scatter_nd-rows", lambda u: ops.scatter_nd(ms.Tensor(np.array([[1], [3]], np.int32)),
                                                      u, (4, 2)), [f32(2, 2)], True),
        ("range", lambda: ops.range(0, 7, 2), [], False),
        ("arange-float", lambda: ops.arange(0.5, 3.0, 0.5), [], False),
        ("elu", lambda x: nn.ELU()(x), [f32(3, 4)], True),
        ("hswish", lambda x: nn.HSwish()(x * 3.0), [f32(3, 4)], True),
        ("hsigmoid", lambda x: nn.HSigmoid()(x * 3.0), [f32(3, 4)], True),
        ("silu", lambda x: nn.SiLU()(x), [f32(3, 4)], True),
        ("softplus", lambda x: ops.softplus(x * 10.0, beta=2, threshold=5), [f32(3, 4)], True),
        ("Softplus", lambda x: ops.Softplus()(x), [f32(3, 4)], True),
        ("SmoothL1Loss", lambda x, y: ops.SmoothL1Loss(0.5)(x, y), [f32(3, 4), f32(3, 4)], True),
        ("smooth_l1_loss-mean", lambda x, y: ops.smooth_l1_loss(x, y, 1.0, "mean"),
         [f32(3, 4), f32(3, 4)], True),
        ("BCELoss", lambda p, y: nn.BCELoss()(p, y),
         [rng.uniform(0.05, 0.95, (3, 4)).astype(np.float32),
          rng.uniform(0, 1, (3, 4)).astype(np.float32)], True),
        ("BCELoss-weight-none", lambda p, y, w: nn.BCELoss(w, "none")(p, y),
         [rng.uniform(0.05, 0.95, (4,)).astype(np.float32),
          rng.uniform(0, 1, (4,)).astype(np.float32), f32(4)], False),
        ("ClipByNorm", lambda x: nn.ClipByNorm()(x, ms.Tensor(1.0, ms.float32)), [f32(3, 4)], True),
        ("ops.max-axis", lambda x: ops.max(x, 1), [f32(3, 4)], True),
        ("ops.min-keepdims", lambda x: ops.min(x, 0, keepdims=True), [f32(3, 4)], True),
        ("ops.max-none", lambda x: ops.max(x), [f32(3, 4)], True),
        ("ops.max-initial", lambda x: ops.max(x, 0, initial=0.5), [f32(3, 4)], False),
        ("amax", lambda x: ops.amax(x, (0, 2), True), [f32(2, 3, 4)], True),
        ("amin", lambda x: ops.amin(x), [f32(2, 3)], True),
        ("norm", lambda x: ops.norm(x), [f32(3, 4)], True),
        ("norm-dim", lambda x: ops.norm(x, dim=1), [f32(3, 4)], True),
        ("norm-inf", lambda x: ops.norm(x, float("inf")), [f32(3, 4)], False),
        ("norm-1-matrix", lambda x: ops.norm(x, 1), [f32(3, 4)], False),
        ("norm-3-dim", lambda x: ops.norm(x, 3, dim=1), [f32(3, 4)], True),
        ("norm-0-dim", lambda x: ops.norm(x, 0, dim=0), [f32(3, 4)], False),
        ("norm-fro-keepdim", lambda x: ops.norm(x, "fro", keepdim=True), [f32(3, 4)], True),
        ("Conv3d-same", lambda x: with_weight(nn.Conv3d(2, 4, (3, 3, 2)), weight=conv3d_w)(x),
         [f32(1, 2, 4, 5, 3)], True),
        ("Conv3d-stride-valid", lambda x: with_weight(nn.Conv3d(2, 4, (3, 3, 2), stride=2,
                                                                pad_mode="valid"),
                                                      weight=conv3d_w)(x), [f32(2, 2, 5, 5, 4)],
         True),
        ("Conv3d-pad-group-bias", lambda x: with_weight(nn.Conv3d(
            2, 4, 2, pad_mode="pad", padding=(1, 0, 0, 1, 1, 0), group=2, has_bias=True),
            weight=conv3d_wg, bias=conv3d_b)(x), [f32(1, 2, 3, 4, 3)], True),
        ("Conv3d-dilation", lambda x: with_weight(nn.Conv3d(2, 4, (3, 3, 2), dilation=2),
                                                  weight=conv3d_w)(x), [f32(1, 2, 5, 5, 4)], True),
        ("repeat_elements", lambda x: ops.repeat_elements(x, 2, 1), [f32(2, 3)], True),
        ("tensor_dot", lambda a, b: ops.tensor_dot(a, b, ((1, 2), (1, 0))),
         [f32(2, 3, 4), f32(4, 3, 2)], True),
        ("tensor_dot-int-axes", lambda a, b: ops.tensor_dot(a, b, 1), [f32(2, 3), f32(3, 4)], True),
        ("Tensor.expand_as", lambda x, y: x.expand_as(y), [f32(1, 3), f32(2, 3)], True),
        ("Tensor.swapaxes", lambda x: x.swapaxes(0, 1), [f32(2, 3)], True),
        ("Tensor.masked_fill", lambda x: x.masked_fill(x > 0, 2.0), [f32(2, 3)], True),
        ("Tensor.norm", lambda x: x.norm(), [f32(2, 3)], True),
        ("ReverseSequence", lambda x, n: ops.ReverseSequence(0, 1)(x, n),
         [f32(4, 3, 2), np.array([4, 0, 2], np.int32)], True),
        ("reverse_sequence-batch0", lambda x, n: ops.reverse_sequence(x, n, 1),
         [f32(3, 5), np.array([5, 1, 3], np.int64)], True),
        ("linspace", lambda: ops.linspace(-1, 2, 7), [], False),
        ("linspace-one", lambda: ops.linspace(3.5, 9, 1), [], False),
        ("LinSpace-tensors", lambda a, b: ops.LinSpace()(a, b, 5),
         [np.array(1.5, np.float32), np.array(-2.0, np.float32)], True),
        ("meshgrid-xy", lambda x, y, z: ops.meshgrid(x, y, z), [f32(2), f32(3), f32(4)], True),
        ("Meshgrid-ij", lambda x, y: ops.Meshgrid("ij")((x, y)), [f32(3), f32(2)], True),
        ("L2Loss", lambda x: ops.L2Loss()(x), [f32(3, 4)], True),
        ("DepthToSpace", lambda x: ops.DepthToSpace(2)(x), [f32(2, 8, 2, 3)], True),
        ("BinaryCrossEntropy-weight", lambda p, y, w: ops.BinaryCrossEntropy()(p, y, w),
         [rng.uniform(0.05, 0.95, (3, 4)).astype(np.float32),
          rng.uniform(0, 1, (3, 4)).astype(np.float32), f32(3, 4)], True),
        ("BinaryCrossEntropy-none", lambda p, y: ops.BinaryCrossEntropy("none")(p, y),
         [rng.uniform(0.05, 0.95, (5,)).astype(np.float32),
          rng.uniform(0, 1, (5,)).astype(np.float32)], True),
        ("dot-matrices", lambda a, b: ops.dot(a, b), [f32(2, 3), f32(3, 4)], True),
        ("dot-nd", lambda a, b: ops.dot(a, b), [f32(2, 3, 4), f32(5, 4, 2)], True),
        ("AdaptiveAvgPool2D-bins", lambda x: ops.AdaptiveAvgPool2D((2, 3))(x), [f32(2, 3, 5, 7)],
         True),
        ("AdaptiveAvgPool2D-none-3d", lambda x: ops.AdaptiveAvgPool2D((None, 2))(x),
         [f32(2, 3, 4)], True),
        ("AdaptiveAvgPool2D-divisible", lambda x: ops.AdaptiveAvgPool2D(2)(x), [f32(1, 2, 4, 6)],
         True),
    ]


def _tolist(value):
    return value.tolist() if isinstance(value, np.ndarray) else value


def main():
    import mindspore as ms
    out = {"mindspore": ms.__version__, "cases": []}
    rng = np.random.default_rng(31)
    for name, fn, inputs, differentiate in cases(ms):
        tensors = [ms.Tensor(v) for v in inputs]
        result = fn(*tensors)
        results = result if isinstance(result, tuple) else (result,)
        record = {"name": name, "inputs": [_tolist(v) for v in inputs],
                  "input_dtypes": [str(v.dtype) for v in inputs],
                  "outputs": [r.asnumpy().tolist() for r in results],
                  "output_dtypes": [str(r.dtype) for r in results]}
        floats = [i for i, v in enumerate(inputs) if v.dtype == np.float32]
        if differentiate and floats:
            cotangents = [rng.standard_normal(r.shape).astype(np.float32) for r in results]

            def projected(*args):
                res = fn(*args)
                res = res if isinstance(res, tuple) else (res,)
                total = 0
                for r, c in zip(res, cotangents):
                    total = total + (r * ms.Tensor(c)).sum()
                return total
            try:
                grads = ms.grad(projected, grad_position=tuple(floats))(*tensors)
                grads = grads if isinstance(grads, tuple) else (grads,)
                record["grads"] = [g.asnumpy().tolist() for g in grads]
            except RuntimeError as exc:         # MindSpore's own gradient failed: noted, not used
                record["grad_error"] = f"{type(exc).__name__}: {str(exc).splitlines()[0]}"
                print(f"{name}: MindSpore's gradient failed: {record['grad_error']}")
            else:
                record["cotangents"] = [c.tolist() for c in cotangents]
                record["grad_positions"] = floats
        out["cases"].append(record)
    with open(os.path.join(HERE, "api_ops.json"), "w") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
