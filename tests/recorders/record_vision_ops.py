"""Record MindSpore 2.10's outputs, gradients and exception types of the vision/sequence ops of issue 13.

Run with the MindSpore interpreter (refms never imports mindspore)::

    GLOG_v=3 /work/msenv/bin/python tests/recorders/record_vision_ops.py [name-prefix ...]

Each case runs in its own process (MindSpore keeps state between ops in one
process), so this script re-invokes itself once per case with ``--one NAME``.
Writes ``tests/recorders/vision_ops.json``: for each case its inputs,
MindSpore's outputs and dtypes, where marked the gradient of
``sum(out * cotangent)`` with respect to each float input; for each error
case the exception type MindSpore raised.  ``tests/test_vision_ops.py``
replays both on refms; ``cases`` and ``error_cases`` below are written once
against the ``ms`` namespace given.
"""
import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "vision_ops.json")


def cases(ms):
    """(name, fn(*tensors), inputs as numpy arrays, differentiate?) — fn uses only ``ms``."""
    ops, nn = ms.ops, ms.nn
    rng = np.random.default_rng(1313)

    def f32(*shape):
        return rng.standard_normal(shape).astype(np.float32)

    interp = ops.interpolate
    return [
        # ops.interpolate, every mode
        ("interpolate-nearest-3d", lambda x: interp(x, size=(7,)), [f32(2, 3, 4)], True),
        ("interpolate-nearest-4d-down", lambda x: interp(x, size=(3, 2)), [f32(1, 2, 5, 4)], True),
        ("interpolate-nearest-4d-up", lambda x: interp(x, size=(5, 7)), [f32(1, 2, 3, 3)], True),
        ("interpolate-nearest-5d-size", lambda x: interp(x, size=(3, 5, 2)), [f32(1, 2, 2, 3, 4)],
         True),
        ("interpolate-nearest-5d-scale", lambda x: interp(x, scale_factor=(1.5, 2.0, 0.7)),
         [f32(1, 1, 2, 3, 4)], True),
        ("interpolate-nearest-exact-4d", lambda x: interp(x, size=(5, 3), mode="nearest-exact"),
         [f32(1, 2, 3, 4)], True),
        ("interpolate-nearest-exact-3d", lambda x: interp(x, size=5, mode="nearest-exact"),
         [f32(2, 2, 3)], True),
        ("interpolate-linear", lambda x: interp(x, size=(7,), mode="linear"), [f32(2, 3, 4)], True),
        ("interpolate-linear-down", lambda x: interp(x, size=(3,), mode="linear"), [f32(1, 2, 7)],
         True),
        ("interpolate-linear-align", lambda x: interp(x, size=(6,), mode="linear",
                                                      align_corners=True), [f32(2, 3, 4)], True),
        ("interpolate-bilinear", lambda x: interp(x, size=(5, 7), mode="bilinear"),
         [f32(1, 2, 3, 4)], True),
        ("interpolate-bilinear-align", lambda x: interp(x, size=(5, 3), mode="bilinear",
                                                        align_corners=True), [f32(2, 1, 3, 4)],
         True),
        ("interpolate-bilinear-down", lambda x: interp(x, size=(2, 3), mode="bilinear"),
         [f32(1, 2, 5, 7)], True),
        ("interpolate-bilinear-list", lambda x: interp(x, [4, 4], None, "bilinear", False),
         [f32(1, 1, 2, 3)], True),
        ("interpolate-bicubic", lambda x: interp(x, size=(6, 5), mode="bicubic"),
         [f32(1, 2, 3, 4)], True),
        ("interpolate-bicubic-down", lambda x: interp(x, size=(3, 2), mode="bicubic"),
         [f32(1, 1, 7, 5)], True),
        ("interpolate-bicubic-align", lambda x: interp(x, size=(5, 7), mode="bicubic",
                                                       align_corners=True), [f32(1, 2, 4, 3)],
         True),
        ("interpolate-trilinear", lambda x: interp(x, size=(3, 4, 5), mode="trilinear"),
         [f32(1, 2, 2, 3, 3)], True),
        ("interpolate-trilinear-align", lambda x: interp(x, size=(4, 2, 3), mode="trilinear",
                                                         align_corners=True),
         [f32(1, 1, 2, 3, 4)], True),
        ("interpolate-trilinear-scale", lambda x: interp(x, scale_factor=(2.0, 1.5, 0.5),
                                                         mode="trilinear"), [f32(1, 1, 2, 3, 4)],
         True),
        ("interpolate-trilinear-recompute", lambda x: interp(
            x, scale_factor=(2.0, 1.5, 0.7), mode="trilinear", recompute_scale_factor=True),
         [f32(1, 1, 2, 3, 4)], True),
        ("interpolate-area-3d", lambda x: interp(x, size=3, mode="area"), [f32(2, 2, 6)], True),
        ("interpolate-area-4d", lambda x: interp(x, size=(2, 3), mode="area"), [f32(1, 2, 5, 7)],
         True),
        ("interpolate-area-4d-scale", lambda x: interp(x, scale_factor=0.5, mode="area"),
         [f32(1, 2, 5, 6)], True),
        ("interpolate-area-5d", lambda x: interp(x, size=(1, 2, 3), mode="area"),
         [f32(1, 1, 3, 4, 5)], True),
        ("interpolate-nearest-recompute", lambda x: interp(x, scale_factor=(1.6, 2.5),
                                                           recompute_scale_factor=True),
         [f32(1, 1, 3, 2)], True),
        ("nn.Upsample-bilinear", lambda x: nn.Upsample(scale_factor=2.0, mode="bilinear",
                                                       recompute_scale_factor=True)(x),
         [f32(1, 2, 2, 3)], True),
        ("nn.Upsample-nearest", lambda x: nn.Upsample(size=(4, 6))(x), [f32(1, 2, 2, 3)], True),
        ("ResizeBilinearV2", lambda x: ops.ResizeBilinearV2()(x, (5, 7)), [f32(1, 2, 3, 4)], True),
        ("ResizeBilinearV2-align", lambda x: ops.ResizeBilinearV2(True)(x, (5, 3)),
         [f32(1, 2, 3, 4)], True),
        ("ResizeBilinearV2-half", lambda x: ops.ResizeBilinearV2(False, True)(x, (2, 6)),
         [f32(2, 1, 5, 4)], True),
        ("ResizeNearestNeighborV2", lambda x: ops.ResizeNearestNeighborV2()(
            x, ms.Tensor(np.array([5, 3], np.int32))), [f32(1, 2, 3, 4)], True),
        ("ResizeNearestNeighborV2-align", lambda x: ops.ResizeNearestNeighborV2(True)(
            x, ms.Tensor(np.array([5, 7], np.int32))), [f32(1, 2, 3, 4)], True),
        ("ResizeNearestNeighborV2-half", lambda x: ops.ResizeNearestNeighborV2(False, True)(
            x, ms.Tensor(np.array([2, 7], np.int32))), [f32(1, 1, 5, 4)], True),
    ] + _ctc_cases(ms, rng) + _pool3d_cases(ms, rng) + _roi_cases(ms, rng) + _nms_cases(ms, rng) \
        + _image_metric_cases(ms, rng) + _conv3d_transpose_cases(ms, rng) + [
            # random: tests/test_vision_ops.py compares shapes, dtypes and properties
            ("RandomChoiceWithMask", lambda x: ops.RandomChoiceWithMask(4, 1, 2)(x),
             [rng.uniform(0, 1, (3, 4)) > 0.5], False),
            ("RandomChoiceWithMask-padded", lambda x: ops.RandomChoiceWithMask(9)(x),
             [rng.uniform(0, 1, (2, 2, 2)) > 0.5], False),
            ("choice_with_mask", lambda x: ops.choice_with_mask(x, 3), [rng.uniform(0, 1, 6) > 0.3],
             False),
        ]


def _conv3d_transpose_cases(ms, rng):
    nn = ms.nn

    def f32(*shape):
        return rng.standard_normal(shape).astype(np.float32)

    def cell(*args, weight, bias=None, **kw):
        net = nn.Conv3dTranspose(*args, **kw)
        net.weight.set_data(ms.Tensor(weight))
        if bias is not None:
            net.bias.set_data(ms.Tensor(bias))
        return net
    w = f32(2, 3, 3, 2, 3)
    w_small = f32(2, 2, 2, 2, 2)
    w_group = f32(4, 1, 2, 3, 2)
    b = f32(2)
    return [
        ("nn.Conv3dTranspose-same", lambda x: cell(2, 3, (3, 2, 3), weight=w)(x),
         [f32(1, 2, 3, 4, 3)], True),
        ("nn.Conv3dTranspose-same-stride", lambda x: cell(2, 3, (3, 2, 3), 2, weight=w)(x),
         [f32(1, 2, 2, 3, 2)], True),
        ("nn.Conv3dTranspose-valid-stride", lambda x: cell(2, 3, (3, 2, 3), (2, 1, 2), "valid",
                                                            weight=w)(x), [f32(2, 2, 2, 3, 3)],
         True),
        ("nn.Conv3dTranspose-pad", lambda x: cell(2, 3, (3, 2, 3), 2, "pad", (1, 0, 0, 1, 1, 1),
                                                  weight=w)(x), [f32(1, 2, 3, 3, 4)], True),
        ("nn.Conv3dTranspose-bias-k<s", lambda x: cell(2, 2, 2, 3, "valid", has_bias=True,
                                                       weight=w_small, bias=b)(x),
         [f32(1, 2, 2, 2, 3)], True),
        ("nn.Conv3dTranspose-group-dilation", lambda x: cell(4, 2, (2, 3, 2), 1, "pad", 1,
                                                             dilation=(1, 2, 1), group=2,
                                                             weight=w_group)(x),
         [f32(1, 4, 3, 3, 3)], True),
    ]


def _image_metric_cases(ms, rng):
    nn = ms.nn
    a = rng.uniform(0, 1, (2, 3, 12, 13)).astype(np.float32)
    b = np.clip(a + rng.normal(0, 0.1, a.shape), 0, 1).astype(np.float32)
    u8a = rng.integers(0, 256, (2, 1, 5, 6)).astype(np.uint8)
    u8b = rng.integers(0, 256, (2, 1, 5, 6)).astype(np.uint8)
    return [
        ("nn.PSNR", lambda x, y: nn.PSNR()(x, y), [a, b], True),
        ("nn.PSNR-max255", lambda x, y: nn.PSNR(255)(x * 255.0, y * 255.0), [a, b], True),
        ("nn.PSNR-uint8", lambda x, y: nn.PSNR(255)(x, y), [u8a, u8b], False),
        ("nn.SSIM", lambda x, y: nn.SSIM()(x, y), [a, b], True),
        ("nn.SSIM-small-window", lambda x, y: nn.SSIM(2.0, 5, 0.8, 0.02, 0.05)(x, y), [a, b],
         True),
        ("nn.SSIM-float16", lambda x, y: nn.SSIM(filter_size=7)(x, y),
         [a.astype(np.float16), b.astype(np.float16)], False),
    ]


def _nms_cases(ms, rng):
    ops = ms.ops
    corners = rng.uniform(0, 20, (12, 2))
    sizes = rng.uniform(2, 10, (12, 2))
    boxes = np.concatenate([corners, corners + sizes, rng.permutation(12)[:, None] / 12.0 + 0.01],
                           axis=1).astype(np.float32)
    ties = np.array([[0, 0, 10, 10, 0.9], [1, 1, 11, 11, 0.95], [20, 20, 30, 30, 0.5],
                     [0, 0, 10, 10.5, 0.3], [2, 2, 5, 5, 0.95], [0, 0, 10, 10, 0.95]], np.float32)
    return [
        ("NMSWithMask", lambda b: ops.NMSWithMask(0.3)(b), [boxes], False),
        ("NMSWithMask-default", lambda b: ops.NMSWithMask()(b), [boxes], False),
        ("NMSWithMask-ties", lambda b: ops.NMSWithMask(0.1)(b), [ties], False),
        ("NMSWithMask-threshold-equal", lambda b: ops.NMSWithMask(0.09)(b),
         [np.array([[0, 0, 10, 10, 0.9], [2, 2, 5, 5, 0.8]], np.float32)], False),
    ]


def _roi_cases(ms, rng):
    ops = ms.ops
    features = rng.standard_normal((2, 3, 6, 7)).astype(np.float32)
    rois = np.array([[0, 1.0, 1.5, 4.2, 3.7], [1, 0.0, 0.0, 6.0, 5.0], [0, 2.3, 0.4, 2.9, 1.1],
                     [1, -1.0, 3.0, 8.5, 7.5]], np.float32)
    return [
        ("ROIAlign", lambda f, r: ops.ROIAlign(2, 2, 1.0, 2)(f, r), [features, rois], True),
        ("ROIAlign-scale-legacy", lambda f, r: ops.ROIAlign(3, 2, 0.5, 1, 0)(f, r),
         [features, rois * np.array([1, 2, 2, 2, 2], np.float32)], True),
        ("ROIAlign-adaptive-samples", lambda f, r: ops.ROIAlign(2, 3, 1.0, 0)(f, r),
         [features, rois], True),
        ("ROIAlign-doc", lambda f, r: ops.ROIAlign(2, 2, 0.5, 2)(f, r),
         [np.array([[[[1., 2.], [3., 4.]]]], np.float32),
          np.array([[0, 0.2, 0.3, 0.2, 0.3]], np.float32)], True),
    ]


def _pool3d_cases(ms, rng):
    ops, nn = ms.ops, ms.nn

    def distinct(*shape):                   # no ties: max pooling is differentiable
        n = int(np.prod(shape))
        return ((rng.permutation(n) + rng.uniform(0.1, 0.4, n)) / n).reshape(shape).astype(
            np.float32)
    return [
        ("MaxPool3D", lambda x: ops.MaxPool3D(2, 1)(x), [distinct(1, 2, 3, 4, 4)], True),
        ("MaxPool3D-same-stride", lambda x: ops.MaxPool3D((2, 3, 2), 2, "SAME")(x),
         [distinct(1, 2, 3, 5, 4)], True),
        ("MaxPool3D-pad-ceil", lambda x: ops.MaxPool3D(3, 2, "PAD", 1, True)(x),
         [distinct(1, 1, 4, 5, 6)], True),
        ("max_pool3d", lambda x: ops.max_pool3d(x, 2), [distinct(2, 1, 4, 4, 5)], True),
        ("max_pool3d-pad-dilation", lambda x: ops.max_pool3d(x, 2, 1, 1, 2),
         [distinct(1, 2, 4, 5, 4)], True),
        ("max_pool3d-ceil", lambda x: ops.max_pool3d(x, 3, 2, ceil_mode=True),
         [distinct(1, 1, 5, 6, 4)], True),
        ("nn.MaxPool3d", lambda x: nn.MaxPool3d(2, 2)(x), [distinct(1, 2, 4, 4, 4)], True),
        ("nn.MaxPool3d-unbatched-pad", lambda x: nn.MaxPool3d(3, 1, "pad", 1)(x),
         [distinct(2, 3, 3, 4)], True),
        ("nn.MaxPool3d-same", lambda x: nn.MaxPool3d(3, 2, "same")(x), [distinct(1, 1, 5, 4, 3)],
         True),
        ("AvgPool3D", lambda x: ops.AvgPool3D(2, 1)(x), [distinct(1, 2, 3, 4, 4)], True),
        ("AvgPool3D-pad", lambda x: ops.AvgPool3D(3, 2, "pad", 1)(x), [distinct(1, 1, 4, 5, 6)],
         True),
        ("AvgPool3D-pad-exclude", lambda x: ops.AvgPool3D(3, 2, "pad", (1, 0, 1, 1, 0, 1),
                                                          count_include_pad=False)(x),
         [distinct(1, 1, 4, 5, 6)], True),
        ("AvgPool3D-same", lambda x: ops.AvgPool3D(3, 2, "same")(x), [distinct(1, 2, 4, 5, 3)],
         True),
        ("AvgPool3D-ceil", lambda x: ops.AvgPool3D(2, 2, "pad", 1, True)(x),
         [distinct(1, 1, 4, 5, 3)], True),
        ("AvgPool3D-divisor", lambda x: ops.AvgPool3D(2, 2, divisor_override=3)(x),
         [distinct(1, 1, 4, 4, 4)], True),
        ("avg_pool3d", lambda x: ops.avg_pool3d(x, 2, 1, 1), [distinct(1, 2, 3, 4, 4)], True),
        ("avg_pool3d-ceil-exclude", lambda x: ops.avg_pool3d(x, 3, 2, 1, True, False),
         [distinct(1, 1, 5, 4, 6)], True),
        ("nn.AvgPool3d", lambda x: nn.AvgPool3d(2, 2)(x), [distinct(1, 2, 4, 4, 4)], True),
        ("nn.AvgPool3d-unbatched", lambda x: nn.AvgPool3d(3, 1, "pad", 1,
                                                          count_include_pad=False)(x),
         [distinct(2, 3, 3, 4)], True),
    ]


def _ctc_cases(ms, rng):
    ops, nn = ms.ops, ms.nn

    def i32(*values):
        return np.array(values, np.int32)
    # no target equals the blank (outside the documented domain: MindSpore 2.10's gradient
    # then misses part of the posterior where a blank state and a label state share a class)
    targets = np.array([[1, 2, 2], [3, 1, 0], [2, 3, 0]], np.int32)
    lengths, target_lengths = i32(6, 4, 5), i32(3, 1, 2)
    logits = rng.standard_normal((6, 3, 4)).astype(np.float32)
    sparse_indices = np.array([[0, 0], [0, 1], [0, 2], [1, 0], [2, 0], [2, 1]], np.int64)
    sparse_values = i32(0, 1, 1, 2, 1, 0)

    def v2(reduction, blank=0, zero_infinity=False):
        return lambda x, t, il, tl: ops.ctc_loss(ops.log_softmax(x, 2), t, il, tl, blank,
                                                 reduction, zero_infinity)[0]
    return [
        ("ctc_loss-none", v2("none"), [logits, targets, lengths, target_lengths], True),
        ("ctc_loss-mean", v2("mean"), [logits, targets, lengths, target_lengths], True),
        ("ctc_loss-sum-blank3", v2("sum", 3), [logits, np.array([[1, 2, 2], [0, 1, 0],
                                                                  [2, 0, 0]], np.int32),
                                               lengths, target_lengths], True),
        ("ctc_loss-log-alpha", lambda x, t, il, tl: ops.ctc_loss(
            ops.log_softmax(x, 2), t, il, tl, 0, "none"),
         [logits, targets, lengths, target_lengths], False),
        # MindSpore's gradient on raw log-probabilities: exp(lp) − posterior (see CTCLossV2)
        ("ctc_loss-raw-log-probs", lambda x, t, il, tl: ops.ctc_loss(x, t, il, tl, 0, "sum")[0],
         [logits, targets, lengths, target_lengths], True),
        ("ctc_loss-zero-infinity", v2("none", 0, True),
         [logits, np.array([[1, 1, 1], [3, 1, 0], [2, 2, 2]], np.int32), i32(4, 2, 5),
          i32(3, 2, 3)], True),
        ("ctc_loss-infinity", lambda x, t, il, tl: ops.ctc_loss(ops.log_softmax(x, 2), t, il,
                                                                tl, 0, "none")[0],
         [logits, np.array([[1, 1, 1], [3, 1, 0], [2, 2, 2]], np.int32), i32(4, 2, 5),
          i32(3, 2, 3)], False),
        ("nn.CTCLoss", lambda x, t, il, tl: nn.CTCLoss()(ops.log_softmax(x, 2), t, il, tl),
         [logits, targets, lengths, target_lengths], True),
        ("nn.CTCLoss-unbatched", lambda x, t, il, tl: nn.CTCLoss(reduction="sum")(
            ops.log_softmax(x, 1), t, il, tl), [logits[:, 0], targets[0], i32(6), i32(3)], True),
        ("CTCLoss", lambda x, i, v, n: ops.CTCLoss()(x, i, v, n)[0],
         [logits, sparse_indices, sparse_values, i32(6, 3, 5)], True),
        ("CTCLoss-both-outputs", lambda x, i, v, n: ops.CTCLoss()(x, i, v, n),
         [logits, sparse_indices, sparse_values, i32(6, 3, 5)], False),
        ("CTCLoss-collapse", lambda x, i, v, n: ops.CTCLoss(True)(x, i, v, n)[0],
         [logits, sparse_indices, sparse_values, i32(6, 3, 5)], True),
        ("CTCLoss-no-merge", lambda x, i, v, n: ops.CTCLoss(False, False)(x, i, v, n)[0],
         [logits, sparse_indices, sparse_values, i32(6, 3, 5)], True),
    ]


def error_cases(ms):
    """(name, thunk) — each must raise; the recorded value is MindSpore's exception type."""
    ops, nn = ms.ops, ms.nn
    x4 = ms.Tensor(np.ones((1, 1, 2, 2), np.float32))
    x3 = ms.Tensor(np.ones((1, 1, 2), np.float32))
    return [
        ("interpolate-not-tensor", lambda: ops.interpolate([1.0, 2.0], size=(2,))),
        ("interpolate-both", lambda: ops.interpolate(x4, size=(2, 2), scale_factor=2.0)),
        ("interpolate-neither", lambda: ops.interpolate(x4)),
        ("interpolate-bad-mode", lambda: ops.interpolate(x4, size=(3, 3), mode="cubic")),
        ("interpolate-bad-rank", lambda: ops.interpolate(x3, size=(3,), mode="bilinear")),
        ("interpolate-size-len", lambda: ops.interpolate(x4, size=(3,))),
        ("interpolate-size-zero", lambda: ops.interpolate(x4, size=(0, 2))),
        ("interpolate-size-float", lambda: ops.interpolate(x4, size=(2.5, 2))),
        ("interpolate-scale-negative", lambda: ops.interpolate(x4, scale_factor=-1.0,
                                                               mode="area")),
        ("interpolate-scale-nearest-4d", lambda: ops.interpolate(x4, scale_factor=2.0)),
        ("interpolate-align-nearest", lambda: ops.interpolate(x4, size=(3, 3),
                                                              align_corners=True)),
        ("interpolate-recompute-size", lambda: ops.interpolate(x4, size=(3, 3), mode="bilinear",
                                                               recompute_scale_factor=True)),
        ("interpolate-area-3d-indivisible", lambda: ops.interpolate(
            ms.Tensor(np.ones((1, 1, 7), np.float32)), size=3, mode="area")),
        ("nn.Upsample-bad-mode", lambda: nn.Upsample(size=(3, 3), mode="zzz")(x4)),
        ("ResizeBilinearV2-both-flags", lambda: ops.ResizeBilinearV2(True, True)(x4, (3, 3))),
        ("ResizeBilinearV2-3d", lambda: ops.ResizeBilinearV2()(x3, (3, 3))),
    ] + _ctc_error_cases(ms) + _pool3d_error_cases(ms) + [
        ("nn.Conv3dTranspose-depth-dilation", lambda: nn.Conv3dTranspose(2, 2, 2, dilation=2)),
        ("nn.Conv3dTranspose-bad-pad-mode", lambda: nn.Conv3dTranspose(2, 2, 2, pad_mode="full")),
        ("RandomChoiceWithMask-float", lambda: ops.RandomChoiceWithMask(2)(x4)),
        ("RandomChoiceWithMask-count-zero", lambda: ops.RandomChoiceWithMask(0)),
        ("nn.PSNR-3d", lambda: nn.PSNR()(x3, x3)),
        ("nn.PSNR-zero-max", lambda: nn.PSNR(0)),
        ("nn.SSIM-int-images", lambda: nn.SSIM(filter_size=1)(
            ms.Tensor(np.ones((1, 1, 2, 2), np.int32)), ms.Tensor(np.ones((1, 1, 2, 2), np.int32)))),
        ("nn.SSIM-too-small", lambda: nn.SSIM()(x4, x4)),
        ("nn.SSIM-int-sigma", lambda: nn.SSIM(filter_sigma=1)),
        ("NMSWithMask-int-threshold", lambda: ops.NMSWithMask(1)),
        ("NMSWithMask-4-columns", lambda: ops.NMSWithMask()(
            ms.Tensor(np.zeros((3, 4), np.float32)))),
        ("NMSWithMask-int-boxes", lambda: ops.NMSWithMask()(
            ms.Tensor(np.zeros((3, 5), np.int32)))),
        ("ROIAlign-int-scale", lambda: ops.ROIAlign(2, 2, 1, 2)),
        ("ROIAlign-float-height", lambda: ops.ROIAlign(2.0, 2, 1.0)),
        ("ROIAlign-rois-4-columns", lambda: ops.ROIAlign(2, 2, 1.0)(
            x4, ms.Tensor(np.zeros((1, 4), np.float32)))),
        ("ROIAlign-int-features", lambda: ops.ROIAlign(2, 2, 1.0)(
            ms.Tensor(np.ones((1, 1, 2, 2), np.int32)), ms.Tensor(np.zeros((1, 5), np.float32)))),
    ]


def _pool3d_error_cases(ms):
    ops, nn = ms.ops, ms.nn
    x5 = ms.Tensor(np.ones((1, 1, 2, 3, 3), np.float32))
    return [
        ("MaxPool3D-4d", lambda: ops.MaxPool3D(2)(ms.Tensor(np.ones((1, 2, 3, 3), np.float32)))),
        ("MaxPool3D-bad-pad-mode", lambda: ops.MaxPool3D(2, 1, "full")),
        ("MaxPool3D-kernel-zero", lambda: ops.MaxPool3D(0)),
        ("MaxPool3D-kernel-too-big", lambda: ops.MaxPool3D(3)(x5)),
        ("AvgPool3D-negative-pad", lambda: ops.AvgPool3D(2, 1, "pad", -1)),
        ("nn.MaxPool3d-dilation-valid", lambda: nn.MaxPool3d(2, 1, "valid", 0, 2)),
        ("nn.AvgPool3d-divisor-zero", lambda: nn.AvgPool3d(2, divisor_override=-1)),
        ("max_pool3d-not-tensor", lambda: ops.max_pool3d(np.ones((1, 1, 2, 2, 2)), 2)),
    ]


def _ctc_error_cases(ms):
    ops, nn = ms.ops, ms.nn
    lp = ms.Tensor(np.zeros((4, 2, 3), np.float32))
    t = ms.Tensor(np.array([[1, 2], [1, 1]], np.int32))
    n = ms.Tensor(np.array([4, 4], np.int32))
    return [
        ("ctc_loss-bad-reduction", lambda: ops.ctc_loss(lp, t, n, n, 0, "avg")),
        ("ctc_loss-blank-float", lambda: ops.ctc_loss(lp, t, n, n, 0.5)),
        ("ctc_loss-zero-infinity-int", lambda: ops.ctc_loss(lp, t, n, n, 0, "mean", 1)),
        ("ctc_loss-float-targets", lambda: ops.ctc_loss(
            lp, ms.Tensor(np.ones((2, 2), np.float32)), n, n)),
        ("nn.CTCLoss-not-tensor", lambda: nn.CTCLoss()(np.zeros((4, 2, 3)), t, n, n)),
        ("CTCLoss-int-indices32", lambda: ops.CTCLoss()(
            lp, ms.Tensor(np.zeros((2, 2), np.int32)), ms.Tensor(np.zeros(2, np.int32)), n)),
    ]


#: Cases recorded in GRAPH_MODE: MindSpore 2.10's nn.PSNR and nn.SSIM raise in PyNative
#: ("For 'ScalarCast', the supported type is in the list: [int64, float64, bool], but got
#: Float32", from ops.scalar_cast of max_val); compiled they run.
GRAPH_RECORDED = ("nn.PSNR", "nn.SSIM")


def _tolist(value):
    return value.tolist() if isinstance(value, np.ndarray) else value


def _record_one(ms, name, source=None):
    """Record case ``name`` of ``source`` (a recorder module with ``cases``, ``error_cases`` and
    ``GRAPH_RECORDED``; default this one)."""
    source = source or sys.modules[__name__]
    rng = np.random.default_rng(abs(hash(name)) % (2 ** 32))
    if name.startswith(source.GRAPH_RECORDED):
        ms.set_context(mode=ms.GRAPH_MODE)
    for case_name, thunk in source.error_cases(ms):
        if case_name == name:
            try:
                thunk()
            except Exception as exc:            # the type is what is recorded
                return {"name": name, "error": type(exc).__name__,
                        "message": str(exc).strip().splitlines()[0][:300] if str(exc) else ""}
            return {"name": name, "error": None}
    for case_name, fn, inputs, differentiate in source.cases(ms):
        if case_name != name:
            continue
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
                    if r.dtype in (ms.float32, ms.float64, ms.float16):
                        total = total + (r * ms.Tensor(c)).sum()
                return total
            try:
                grads = ms.grad(projected, grad_position=tuple(floats))(*tensors)
                grads = grads if isinstance(grads, tuple) else (grads,)
                record["grads"] = [g.asnumpy().tolist() for g in grads]
            except (RuntimeError, TypeError, ValueError) as exc:   # MindSpore's gradient failed
                record["grad_error"] = f"{type(exc).__name__}: {str(exc).splitlines()[0]}"
            else:
                record["cotangents"] = [c.tolist() for c in cotangents]
                record["grad_positions"] = floats
        return record
    raise KeyError(name)


def main(source=None, out=OUT):
    """Record every case of ``source`` (default this module) into ``out``, one process each;
    other recorders (record_mint_gaps.py) run their cases through this runner."""
    source = source or sys.modules[__name__]
    if sys.argv[1:2] == ["--one"]:
        import mindspore as ms
        print("RECORD " + json.dumps(_record_one(ms, sys.argv[2], source)))
        return
    prefixes = tuple(sys.argv[1:])

    class _Names:                               # the case names without MindSpore imported
        def __getattr__(self, name):
            return _Names()

        def __call__(self, *args, **kwargs):
            return _Names()
    names = [c[0] for c in source.cases(_Names())] + [c[0] for c in source.error_cases(_Names())]
    recorded = {}
    if os.path.exists(out):
        with open(out) as f:
            recorded = {r["name"]: r for r in json.load(f)["cases"]}
    for name in names:
        if prefixes and not name.startswith(prefixes):
            continue
        proc = subprocess.run([sys.executable, source.__file__, "--one", name], capture_output=True,
                              text=True, env=dict(os.environ, GLOG_v="3"))
        lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RECORD ")]
        if not lines:
            print(f"{name}: failed\n{proc.stderr[-2000:]}")
            continue
        recorded[name] = json.loads(lines[-1][len("RECORD "):])
        print(name, "error" in recorded[name] and recorded[name]["error"] or "ok")
    order = {name: k for k, name in enumerate(names)}
    with open(out, "w") as f:
        json.dump({"mindspore": "2.10.0",
                   "cases": sorted((r for r in recorded.values() if r["name"] in order),
                                   key=lambda r: order[r["name"]])}, f)


if __name__ == "__main__":
    main()
