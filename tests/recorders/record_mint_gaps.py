"""Record MindSpore 2.10's outputs, gradients and exception types of the mint names that needed
new primitives (``unique_consecutive``, ``grid_sample``, ``adaptive_max_pool2d``, ``unfold``/
``fold``, ``unique``, ``histc``).

Run with the MindSpore interpreter (refms never imports mindspore)::

    GLOG_v=3 /work/msenv/bin/python tests/recorders/record_mint_gaps.py [name-prefix ...]

The runner is ``record_vision_ops.main`` (one process per case); this module only defines
the cases.  Writes ``tests/recorders/mint_gaps.json``; ``tests/test_mint_gaps.py`` replays
it on refms.  MindSpore 2.10 has no CPU kernel for Unique2, HistcExt, Im2ColExt and
Col2ImExt ("The kernel ... unregistered"), so their values are checked against numpy in
the test; their bad-input cases are recorded here where MindSpore's shape rule rejects the
input before a kernel is looked up.
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "mint_gaps.json")
GRAPH_RECORDED = ()


def cases(ms):
    """(name, fn(*tensors), inputs as numpy arrays, differentiate?) — fn uses only ``ms``."""
    mint = ms.mint
    rng = np.random.default_rng(2100)

    def f32(*shape):
        return rng.standard_normal(shape).astype(np.float32)

    def grid(*shape, spread=1.3):
        return rng.uniform(-spread, spread, shape + (2,)).astype(np.float32)

    sample = mint.nn.functional.grid_sample
    amp2 = mint.nn.functional.adaptive_max_pool2d
    runs = np.array([1, 1, 2, 2, 3, 1, 1, 2], np.int32)
    rows = np.array([[1, 2], [1, 2], [3, 4], [1, 2]], np.int32)
    return [
        ("grid_sample-bilinear-zeros", lambda x, g: sample(x, g), [f32(2, 3, 4, 5), grid(2, 3, 2)],
         True),
        ("grid_sample-bilinear-zeros-align", lambda x, g: sample(x, g, align_corners=True),
         [f32(1, 2, 5, 4), grid(1, 4, 3)], True),
        ("grid_sample-bilinear-border", lambda x, g: sample(x, g, padding_mode="border"),
         [f32(1, 2, 4, 4), grid(1, 3, 3, spread=1.8)], True),
        ("grid_sample-bilinear-border-align",
         lambda x, g: sample(x, g, padding_mode="border", align_corners=True),
         [f32(2, 1, 3, 5), grid(2, 2, 4, spread=1.8)], True),
        ("grid_sample-bilinear-reflection",
         lambda x, g: sample(x, g, padding_mode="reflection"),
         [f32(1, 2, 4, 5), grid(1, 3, 4, spread=2.6)], True),
        ("grid_sample-bilinear-reflection-align",
         lambda x, g: sample(x, g, padding_mode="reflection", align_corners=True),
         [f32(1, 2, 5, 4), grid(1, 4, 3, spread=2.6)], True),
        ("grid_sample-nearest-zeros", lambda x, g: sample(x, g, mode="nearest"),
         [f32(2, 2, 4, 5), grid(2, 3, 3)], True),
        ("grid_sample-nearest-border-align",
         lambda x, g: sample(x, g, mode="nearest", padding_mode="border", align_corners=True),
         [f32(1, 2, 4, 4), grid(1, 3, 3, spread=1.8)], True),
        ("adaptive_max_pool2d", lambda x: amp2(x, (2, 3)), [f32(2, 3, 5, 7)], True),
        ("adaptive_max_pool2d-indices", lambda x: amp2(x, (3, 2), True), [f32(1, 2, 7, 5)],
         True),
        ("adaptive_max_pool2d-3d-up", lambda x: amp2(x, (4, 5), True), [f32(2, 3, 4)], True),
        ("adaptive_max_pool2d-none", lambda x: amp2(x, (None, 2), True), [f32(1, 2, 3, 5)],
         True),
        ("nn.AdaptiveMaxPool2d", lambda x: mint.nn.AdaptiveMaxPool2d(3, True)(x),
         [f32(1, 2, 6, 8)], True),
        ("unique_consecutive", lambda x: mint.unique_consecutive(x), [runs], False),
        ("unique_consecutive-inverse-counts",
         lambda x: mint.unique_consecutive(x, return_inverse=True, return_counts=True), [runs],
         False),
        ("unique_consecutive-float-counts",
         lambda x: mint.unique_consecutive(x, return_counts=True),
         [np.array([0.5, 0.5, -1.0, 2.0, 2.0, 2.0], np.float32)], False),
        ("unique_consecutive-2d-flat",
         lambda x: mint.unique_consecutive(x, return_inverse=True), [rows], False),
        ("unique_consecutive-dim0",
         lambda x: mint.unique_consecutive(x, return_inverse=True, return_counts=True, dim=0),
         [rows], False),
    ]


def _values(result):
    """Wait for ``result`` (MindSpore's PyNative runs kernels asynchronously: a kernel's error
    surfaces when its output is read)."""
    results = result if isinstance(result, tuple) else (result,)
    return [r.asnumpy() for r in results]


def error_cases(ms):
    """(name, thunk) — each must raise; the recorded value is MindSpore's exception type."""
    mint = ms.mint
    F = mint.nn.functional
    x4 = ms.Tensor(np.ones((1, 1, 3, 3), np.float32))
    g4 = ms.Tensor(np.zeros((1, 2, 2, 2), np.float32))
    ones = ms.Tensor(np.ones(3, np.float32))
    return [
        ("bad:grid_sample-mode", lambda: _values(F.grid_sample(x4, g4, mode="cubic"))),
        ("bad:grid_sample-padding-mode",
         lambda: _values(F.grid_sample(x4, g4, padding_mode="wrap"))),
        ("bad:grid_sample-batch", lambda: _values(F.grid_sample(
            ms.Tensor(np.ones((2, 1, 3, 3), np.float32)), g4))),
        ("bad:grid_sample-grid-last-dim", lambda: _values(F.grid_sample(
            x4, ms.Tensor(np.zeros((1, 2, 2, 3), np.float32))))),
        ("bad:unfold-rank", lambda: _values(F.unfold(ms.Tensor(np.ones((3, 3), np.float32)), 2))),
        ("bad:unfold-kernel-too-big", lambda: _values(F.unfold(x4, 5))),
        ("bad:unfold-kernel-zero", lambda: _values(F.unfold(x4, 0))),
        ("bad:fold-length", lambda: _values(F.fold(ms.Tensor(np.ones((1, 4, 5), np.float32)),
                                                   (3, 3), 2))),
        ("bad:fold-channels", lambda: _values(F.fold(ms.Tensor(np.ones((1, 3, 4), np.float32)),
                                                     (3, 3), 2))),
        ("bad:adaptive_max_pool2d-rank", lambda: _values(F.adaptive_max_pool2d(
            ms.Tensor(np.ones((3, 3), np.float32)), 2))),
        ("bad:histc-bins", lambda: _values(mint.histc(ones, bins=0))),
        ("bad:unique_consecutive-dim", lambda: _values(mint.unique_consecutive(
            ms.Tensor(np.ones((2, 2), np.int32)), dim=3))),
    ]


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    import record_vision_ops
    record_vision_ops.main(sys.modules[__name__], OUT)
