"""Reference kernels of the detection box ops (numpy); boxes are (x1, y1, x2, y2) rows with
MindSpore's pixel convention: a box covers x2 − x1 + 1 columns and y2 − y1 + 1 rows.

Contract::

    box_overlap(anchors, gts, mode)     -> (M, N) IoU ('iou') or intersection over the
                                           ground-truth area ('iof') of gts[i] and anchors[j]
    box_encode(anchors, gts, means, stds)            -> (N, 4) normalised deltas
    box_decode(anchors, deltas, max_shape, means, stds, wh_ratio_clip) -> (N, 4) boxes
    box_check_valid(boxes, img_metas)    -> (N,) bool: inside the (h, w, ratio) image
    nms_with_mask(boxes, iou_threshold)  -> (rows sorted by score, 0..N−1, keep mask)
"""
import numpy as np

from . import reference


def _centres(boxes):
    """(cx, cy, w, h) of (x1, y1, x2, y2) rows, widths and heights with the +1."""
    w = boxes[:, 2] - boxes[:, 0] + 1
    h = boxes[:, 3] - boxes[:, 1] + 1
    return boxes[:, 0] + 0.5 * (w - 1), boxes[:, 1] + 0.5 * (h - 1), w, h


@reference
def box_overlap(anchors, gts, mode):
    a = anchors[None, :, :]
    g = gts[:, None, :]
    inter_w = np.maximum(np.minimum(a[..., 2], g[..., 2]) - np.maximum(a[..., 0], g[..., 0]) + 1, 0)
    inter_h = np.maximum(np.minimum(a[..., 3], g[..., 3]) - np.maximum(a[..., 1], g[..., 1]) + 1, 0)
    inter = inter_w * inter_h
    area_a = (a[..., 2] - a[..., 0] + 1) * (a[..., 3] - a[..., 1] + 1)
    area_g = (g[..., 2] - g[..., 0] + 1) * (g[..., 3] - g[..., 1] + 1)
    denominator = area_g if mode == "iof" else area_a + area_g - inter
    return (inter / denominator).astype(anchors.dtype)


@reference
def box_encode(anchors, gts, means, stds):
    px, py, pw, ph = _centres(anchors)
    gx, gy, gw, gh = _centres(gts)
    deltas = np.stack([(gx - px) / pw, (gy - py) / ph, np.log(gw / pw), np.log(gh / ph)], 1)
    return ((deltas - np.asarray(means)) / np.asarray(stds)).astype(anchors.dtype)


@reference
def box_decode(anchors, deltas, max_shape, means, stds, wh_ratio_clip):
    d = deltas * np.asarray(stds) + np.asarray(means)
    limit = abs(np.log(wh_ratio_clip))
    dw = np.clip(d[:, 2], -limit, limit)
    dh = np.clip(d[:, 3], -limit, limit)
    px, py, pw, ph = _centres(anchors)
    gx, gy = px + pw * d[:, 0], py + ph * d[:, 1]
    gw, gh = pw * np.exp(dw), ph * np.exp(dh)
    height, width = max_shape
    x1 = np.clip(gx - 0.5 * gw + 0.5, 0, width)
    y1 = np.clip(gy - 0.5 * gh + 0.5, 0, height)
    x2 = np.clip(gx + 0.5 * gw - 0.5, 0, width)
    y2 = np.clip(gy + 0.5 * gh - 0.5, 0, height)
    return np.stack([x1, y1, x2, y2], 1).astype(anchors.dtype)


@reference
def box_check_valid(boxes, img_metas):
    height, width, ratio = (float(v) for v in img_metas)
    return ((boxes[:, 0] >= 0) & (boxes[:, 1] >= 0) & (boxes[:, 2] <= width * ratio - 1)
            & (boxes[:, 3] <= height * ratio - 1))


@reference
def nms_with_mask(boxes, iou_threshold):
    """(sorted rows, their positions 0..N−1, keep mask) of greedy non-maximum suppression.

    Rows are sorted by score (column 4) descending, ties by original index descending
    (MindSpore 2.10's CPU order); a row is suppressed when its IoU with a kept,
    higher-ranked row exceeds ``iou_threshold``; areas are (x2 − x1)·(y2 − y1), no +1.
    """
    order = np.lexsort((-np.arange(len(boxes)), -boxes[:, 4].astype(np.float64)))
    rows = boxes[order]
    x1, y1, x2, y2 = (rows[:, k].astype(np.float64) for k in range(4))
    area = (x2 - x1) * (y2 - y1)
    keep = np.ones(len(rows), dtype=bool)
    for i in range(len(rows)):
        if not keep[i]:
            continue
        inter_w = np.maximum(np.minimum(x2[i], x2[i + 1:]) - np.maximum(x1[i], x1[i + 1:]), 0)
        inter_h = np.maximum(np.minimum(y2[i], y2[i + 1:]) - np.maximum(y1[i], y1[i + 1:]), 0)
        inter = inter_w * inter_h
        with np.errstate(invalid="ignore", divide="ignore"):
            iou = inter / (area[i] + area[i + 1:] - inter)
        keep[i + 1:] &= ~(iou > iou_threshold)
    return rows, np.arange(len(rows), dtype=np.int32), keep
