"""Op rows for the primitives added for MindSpore API compatibility (issue 13):
Depend and the collectives on a world of one device (AllReduce, AllGather, ReduceScatter).

References: ``Depend(value, expr)`` is ``value``; a collective over a group of
one rank returns its input (MindSpore's result for a group of size 1).  The
collective rows are ``specific_to="refms"``: MindSpore runs collectives only
after ``communication.init()`` under a distributed launcher.
"""
import math

import numpy as np

from . import ms
from .spec import OpRow

#: The implementation under test (see the package docstring).
ops = ms.ops


def _randn(*shapes):
    def make(rng):
        return [rng.standard_normal(s).astype(np.float32) for s in shapes]
    return make


ROWS_COLLECTIVE = [
    OpRow("Depend", lambda v, e: ops.depend(v, e), lambda v, e: v, _randn((2, 3), (4,)),
          id="Depend", grad_inputs=(0,)),
    OpRow("Depend", lambda v, e: ops.Depend()(v * 2.0, e), lambda v, e: v * 2.0,
          _randn((3,), (3,)), id="Depend-class", grad_inputs=(0,)),
    OpRow("AllReduce", lambda x: ops.AllReduce()(x), lambda x: x, _randn((2, 3)), id="AllReduce",
          errors=[([None], TypeError)], specific_to="refms"),
    OpRow("AllReduce", lambda x: ops.AllReduce(ops.ReduceOp.MAX)(x), lambda x: x, _randn((4,)),
          id="AllReduce-max", specific_to="refms"),
    OpRow("AllGather", lambda x: ops.AllGather()(x), lambda x: x, _randn((2, 3)), id="AllGather",
          errors=[([None], TypeError)], specific_to="refms"),
    OpRow("ReduceScatter", lambda x: ops.ReduceScatter()(x), lambda x: x, _randn((2, 2)),
          id="ReduceScatter", specific_to="refms"),
]


# -- detection boxes (IOU, BoundingBoxEncode/Decode, CheckValid) -----------------------------------
# Independent float64 references of MindSpore's pixel convention (w = x2 − x1 + 1).

def _boxes(*counts, scale=10.0):
    """Random valid (x1, y1, x2, y2) boxes: corners sorted, for each count."""
    def make(rng):
        out = []
        for n in counts:
            xs = np.sort(rng.uniform(0, scale, (n, 2)), axis=1)
            ys = np.sort(rng.uniform(0, scale, (n, 2)), axis=1)
            out.append(np.stack([xs[:, 0], ys[:, 0], xs[:, 1], ys[:, 1]], 1).astype(np.float32))
        return out
    return make


def _iou_ref(mode):
    def ref(anchors, gts):
        a, g = anchors.astype(np.float64), gts.astype(np.float64)
        out = np.zeros((len(g), len(a)))
        for i, (gx1, gy1, gx2, gy2) in enumerate(g):
            for j, (ax1, ay1, ax2, ay2) in enumerate(a):
                iw = max(min(ax2, gx2) - max(ax1, gx1) + 1, 0)
                ih = max(min(ay2, gy2) - max(ay1, gy1) + 1, 0)
                area_g = (gx2 - gx1 + 1) * (gy2 - gy1 + 1)
                area_a = (ax2 - ax1 + 1) * (ay2 - ay1 + 1)
                out[i, j] = iw * ih / (area_g if mode == "iof" else area_a + area_g - iw * ih)
        return out.astype(np.float32)
    return ref


def _centre_size(b):
    w, h = b[:, 2] - b[:, 0] + 1, b[:, 3] - b[:, 1] + 1
    return (b[:, 0] + b[:, 2]) / 2, (b[:, 1] + b[:, 3]) / 2, w, h


def _encode_ref(means, stds):
    def ref(anchors, gts):
        px, py, pw, ph = _centre_size(anchors.astype(np.float64))
        gx, gy, gw, gh = _centre_size(gts.astype(np.float64))
        d = np.stack([(gx - px) / pw, (gy - py) / ph, np.log(gw / pw), np.log(gh / ph)], 1)
        return ((d - means) / stds).astype(np.float32)
    return ref


def _decode_ref(max_shape, means, stds, clip):
    def ref(anchors, deltas):
        d = deltas.astype(np.float64) * stds + means
        bound = abs(math.log(clip))
        px, py, pw, ph = _centre_size(anchors.astype(np.float64))
        cx, cy = px + pw * d[:, 0], py + ph * d[:, 1]
        w = pw * np.exp(np.clip(d[:, 2], -bound, bound))
        h = ph * np.exp(np.clip(d[:, 3], -bound, bound))
        height, width = max_shape
        return np.stack([np.clip(cx - w / 2 + 0.5, 0, width), np.clip(cy - h / 2 + 0.5, 0, height),
                         np.clip(cx + w / 2 - 0.5, 0, width), np.clip(cy + h / 2 - 0.5, 0, height)],
                        1).astype(np.float32)
    return ref


def _check_valid_ref(boxes, metas):
    h, w, r = metas.astype(np.float64)
    return ((boxes[:, 0] >= 0) & (boxes[:, 1] >= 0) & (boxes[:, 2] <= w * r - 1)
            & (boxes[:, 3] <= h * r - 1))


_MEANS, _STDS = (0.1, 0.0, 0.2, 0.0), (0.5, 1.0, 2.0, 1.0)
_DELTAS = lambda rng: [_boxes(5)(rng)[0], rng.standard_normal((5, 4)).astype(np.float32)]  # noqa: E731
_CHECK_VALID_INPUTS = [np.array([[0, 0, 19, 9], [0, 0, 20, 9], [0, 0, 19, 10], [0, -0.5, 5, 5],
                                 [2, 3, 19.5, 9.5]], np.float32), np.array([10, 20, 1], np.float32)]

DETECTION = [
    OpRow("IOU", lambda a, g: ops.IOU()(a, g), _iou_ref("iou"), _boxes(4, 3), rtol=1e-5,
          errors=[([np.ones((2, 4), np.int32), np.ones((2, 4), np.int32)], TypeError),
                  ([np.ones((2, 3), np.float32), np.ones((2, 3), np.float32)], ValueError)]),
    OpRow("IOU", lambda a, g: ops.IOU("iof")(a, g), _iou_ref("iof"), _boxes(3, 5), id="IOU-iof"),
    OpRow("IOU", lambda a, g: ops.IOU()(a, g), _iou_ref("iou"),
          [np.array([[0, 0, 1, 1]], np.float32), np.array([[5, 5, 6, 6], [1, 1, 3, 3]], np.float32)],
          id="IOU-disjoint-and-corner"),
    OpRow("BoundingBoxEncode", lambda a, g: ops.BoundingBoxEncode()(a, g),
          _encode_ref(np.zeros(4), np.ones(4)), _boxes(6, 6),
          errors=[([np.ones((2, 4), np.float32), np.ones((3, 4), np.float32)], ValueError)]),
    OpRow("BoundingBoxEncode", lambda a, g: ops.BoundingBoxEncode(_MEANS, _STDS)(a, g),
          _encode_ref(np.array(_MEANS), np.array(_STDS)), _boxes(4, 4), id="BoundingBoxEncode-means-stds"),
    OpRow("BoundingBoxDecode", lambda a, d: ops.BoundingBoxDecode((12, 15))(a, d),
          _decode_ref((12, 15), np.zeros(4), np.ones(4), 0.016), _DELTAS,
          errors=[([np.ones((2, 4), np.float32), np.ones((3, 4), np.float32)], ValueError)]),
    OpRow("BoundingBoxDecode", lambda a, d: ops.BoundingBoxDecode(
        (12, 15), _MEANS, _STDS, 0.5)(a, d), _decode_ref((12, 15), np.array(_MEANS),
                                                         np.array(_STDS), 0.5), _DELTAS,
          id="BoundingBoxDecode-means-stds-clip"),
    OpRow("CheckValid", lambda b, m: ops.CheckValid()(b, m), _check_valid_ref,
          _CHECK_VALID_INPUTS, out_dtype="Bool",
          errors=[([np.ones((2, 4), np.float32), np.ones(2, np.float32)], ValueError)]),
]

ROWS = ROWS_COLLECTIVE + DETECTION
