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
    ]


def _tolist(value):
    return value.tolist() if isinstance(value, np.ndarray) else value


def _record_one(ms, name):
    rng = np.random.default_rng(abs(hash(name)) % (2 ** 32))
    for case_name, thunk in error_cases(ms):
        if case_name == name:
            try:
                thunk()
            except Exception as exc:            # the type is what is recorded
                return {"name": name, "error": type(exc).__name__,
                        "message": str(exc).strip().splitlines()[0][:300] if str(exc) else ""}
            return {"name": name, "error": None}
    for case_name, fn, inputs, differentiate in cases(ms):
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


def main():
    if sys.argv[1:2] == ["--one"]:
        import mindspore as ms
        print("RECORD " + json.dumps(_record_one(ms, sys.argv[2])))
        return
    prefixes = tuple(sys.argv[1:])

    class _Names:                               # the case names without MindSpore imported
        def __getattr__(self, name):
            return _Names()

        def __call__(self, *args, **kwargs):
            return _Names()
    names = [c[0] for c in cases(_Names())] + [c[0] for c in error_cases(_Names())]
    recorded = {}
    if os.path.exists(OUT):
        with open(OUT) as f:
            recorded = {r["name"]: r for r in json.load(f)["cases"]}
    for name in names:
        if prefixes and not name.startswith(prefixes):
            continue
        proc = subprocess.run([sys.executable, __file__, "--one", name], capture_output=True,
                              text=True, env=dict(os.environ, GLOG_v="3"))
        lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RECORD ")]
        if not lines:
            print(f"{name}: failed\n{proc.stderr[-2000:]}")
            continue
        recorded[name] = json.loads(lines[-1][len("RECORD "):])
        print(name, "error" in recorded[name] and recorded[name]["error"] or "ok")
    order = {name: k for k, name in enumerate(names)}
    with open(OUT, "w") as f:
        json.dump({"mindspore": "2.10.0",
                   "cases": sorted((r for r in recorded.values() if r["name"] in order),
                                   key=lambda r: order[r["name"]])}, f)


if __name__ == "__main__":
    main()
