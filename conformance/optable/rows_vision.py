"""Op-table rows of the sequence and vision primitives: CTC losses, ROIAlign, NMSWithMask,
3-D pooling and random mask choice (MindSpore 2.10 semantics, refms issue 13).

References are independent of any implementation's algorithm: CTC by enumerating every
frame-by-frame path (Graves et al. 2006: p(l|x) = Σ over paths π that collapse to l of
Π_t y_t(π_t); collapse = merge repeats, then drop blanks), its gradient by the same sum
restricted to paths with π_t = c.
"""
import itertools

import numpy as np

from . import ms
from .samples import f32, i32, i64
from .spec import OpRow

#: The implementation under test (see the package docstring).
ops = ms.ops


# -- CTC by enumerating paths -------------------------------------------------------------------

def _collapse(path, blank, merge_repeated=True):
    out = []
    previous = None
    for symbol in path:
        if symbol != blank and (symbol != previous or not merge_repeated):
            out.append(symbol)
        previous = symbol
    return out


def _ctc_paths(lp, labels, length, blank, merge_repeated=True):
    """(nll, posterior (T, C)) of one sample by summing over all C^length paths."""
    steps, classes = lp.shape
    total = 0.0
    joint = np.zeros((steps, classes))
    for path in itertools.product(range(classes), repeat=length):
        if _collapse(path, blank, merge_repeated) != list(labels):
            continue
        p = np.exp(sum(lp[t, c] for t, c in enumerate(path)))
        total += p
        for t, c in enumerate(path):
            joint[t, c] += p
    return -np.log(total), joint / total


def _log_softmax(x, axis):
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


CTC_TARGETS = i32([[1, 2], [2, 2], [1, 0]])
CTC_INPUT_LENGTHS = i32([4, 5, 3])
CTC_TARGET_LENGTHS = i32([2, 2, 1])


def ctc_v2_ref(x, targets, input_lengths, target_lengths):
    lp = _log_softmax(x.astype(np.float64), 2)
    return np.array([_ctc_paths(lp[:, n], targets[n, :target_lengths[n]], input_lengths[n], 0)[0]
                     for n in range(lp.shape[1])], dtype=x.dtype)


def ctc_v2_grad_ref(lp, targets, input_lengths, target_lengths):
    grad = np.zeros(lp.shape)
    for n in range(lp.shape[1]):
        length = input_lengths[n]
        _, post = _ctc_paths(lp[:, n].astype(np.float64), targets[n, :target_lengths[n]],
                             length, 0)
        grad[:length, n] = np.exp(lp[:length, n]) - post[:length]
    return grad.astype(lp.dtype)


def ctc_samples(rng):
    return [rng.standard_normal((5, 3, 3)).astype(np.float32), CTC_TARGETS, CTC_INPUT_LENGTHS,
            CTC_TARGET_LENGTHS]


def ctc_log_prob_samples(rng):
    x = rng.standard_normal((5, 3, 3))
    return [_log_softmax(x, 2).astype(np.float32), CTC_TARGETS, CTC_INPUT_LENGTHS,
            CTC_TARGET_LENGTHS]


SPARSE_INDICES = i64([[0, 0], [0, 1], [1, 0], [1, 1], [1, 2]])
SPARSE_VALUES = i32([0, 1, 1, 1, 0])
SEQUENCE_LENGTH = i32([4, 5])


def ctc_tf_ref(merge_repeated=True, collapse=False):
    def ref(x, indices, values, sequence_length):
        lp = _log_softmax(x.astype(np.float64), 2)
        blank = x.shape[2] - 1
        losses = []
        for n in range(x.shape[1]):
            labels = [int(v) for (b, _), v in zip(indices, values) if b == n]
            if collapse:
                labels = [v for k, v in enumerate(labels) if k == 0 or v != labels[k - 1]]
            losses.append(_ctc_paths(lp[:, n], labels, sequence_length[n], blank,
                                     merge_repeated)[0])
        return np.array(losses, dtype=x.dtype)
    return ref


def ctc_tf_samples(rng):
    return [rng.standard_normal((5, 2, 3)).astype(np.float32), SPARSE_INDICES, SPARSE_VALUES,
            SEQUENCE_LENGTH]


# -- ROIAlign from its definition -----------------------------------------------------------------

def _bilinear(image, y, x):
    """Bilinear read of a (C, H, W) map at (y, x), Caffe2's border rule (MindSpore's docs)."""
    _, height, width = image.shape
    if y < -1 or y > height or x < -1 or x > width:
        return np.zeros(image.shape[0])
    y, x = min(max(y, 0.0), height - 1), min(max(x, 0.0), width - 1)
    y0, x0 = int(np.floor(y)), int(np.floor(x))
    y1, x1 = min(y0 + 1, height - 1), min(x0 + 1, width - 1)
    dy, dx = y - y0, x - x0
    return ((1 - dy) * (1 - dx) * image[:, y0, x0] + (1 - dy) * dx * image[:, y0, x1]
            + dy * (1 - dx) * image[:, y1, x0] + dy * dx * image[:, y1, x1])


def roi_align_ref(ph, pw, scale, samples):
    def ref(features, rois):
        out = np.zeros((len(rois), features.shape[1], ph, pw))
        for r, (b, x1, y1, x2, y2) in enumerate(rois.astype(np.float64)):
            top, left = y1 * scale, x1 * scale
            bin_h, bin_w = ((y2 + 1) * scale - top) / ph, ((x2 + 1) * scale - left) / pw
            for i in range(ph):
                for j in range(pw):
                    reads = [_bilinear(features[int(b)].astype(np.float64),
                                       top + (i + (a + 0.5) / samples) * bin_h,
                                       left + (j + (c + 0.5) / samples) * bin_w)
                             for a in range(samples) for c in range(samples)]
                    out[r, :, i, j] = np.mean(reads, axis=0)
        return out.astype(features.dtype)
    return ref


ROIS = f32([[0, 1.0, 1.5, 4.2, 3.7], [1, 0.0, 0.0, 6.0, 5.0], [0, -1.0, 3.0, 8.5, 7.5]])


def roi_samples(rng):
    return [rng.standard_normal((2, 2, 6, 7)).astype(np.float32), ROIS]


def roi_align_grad_ref(dout, rois, shape):
    """The transpose of ROIAlign's (linear) map, built column by column from its reference."""
    forward = roi_align_ref(2, 3, 0.5, 2)
    grad = np.zeros(int(np.prod(shape)))
    for k in range(grad.size):
        unit = np.zeros(grad.size)
        unit[k] = 1.0
        grad[k] = np.sum(forward(unit.reshape(shape), rois) * dout)
    return grad.reshape(shape).astype(dout.dtype)


def roi_grad_samples(rng):
    return [rng.standard_normal((3, 1, 2, 3)).astype(np.float32), ROIS, (2, 1, 6, 7)]


# -- NMSWithMask from its definition -------------------------------------------------------------

def nms_ref(threshold):
    def ref(boxes):
        b = boxes.astype(np.float64)
        order = sorted(range(len(b)), key=lambda k: (-b[k, 4], -k))
        rows = boxes[order]
        keep = []
        for i in range(len(rows)):
            x1, y1, x2, y2 = rows[i, :4].astype(np.float64)
            survives = True
            for j in range(i):
                if not keep[j]:
                    continue
                u1, v1, u2, v2 = rows[j, :4].astype(np.float64)
                inter = max(min(x2, u2) - max(x1, u1), 0) * max(min(y2, v2) - max(y1, v1), 0)
                union = (x2 - x1) * (y2 - y1) + (u2 - u1) * (v2 - v1) - inter
                survives = survives and not inter / union > threshold
            keep.append(survives)
        return rows, np.arange(len(rows), dtype=np.int32), np.array(keep)
    return ref


def nms_samples(rng):
    corners = rng.uniform(0, 20, (10, 2))
    sizes = rng.uniform(2, 10, (10, 2))
    return [np.concatenate([corners, corners + sizes, rng.permutation(10)[:, None] / 10.0 + 0.05],
                           axis=1).astype(np.float32)]


# -- RandomChoiceWithMask: properties only ---------------------------------------------------------

def choice_property(count):
    def check(out, x):
        index, mask = out
        true = {tuple(p) for p in np.argwhere(x)}
        chosen = [tuple(row) for row, m in zip(index, mask) if m]
        return (index.shape == (count, x.ndim) and mask.shape == (count,)
                and index.dtype == np.int32 and mask.dtype == np.bool_
                and int(mask.sum()) == min(count, len(true)) and len(set(chosen)) == len(chosen)
                and set(chosen) <= true and not index[~mask].any()
                and bool(np.all(mask[:int(mask.sum())])))
    return check


CHOICE_INPUT = np.array([[True, False, True, True], [False, True, False, True]])

ROWS = [
    OpRow("RandomChoiceWithMask", lambda x: ops.RandomChoiceWithMask(3, 1, 2)(x),
          choice_property(3), [CHOICE_INPUT], grad=False, property_only=True,
          errors=[([i32([1, 0, 1])], TypeError)]),
    OpRow("RandomChoiceWithMask", lambda x: ops.RandomChoiceWithMask(8)(x),
          choice_property(8), [CHOICE_INPUT], grad=False, property_only=True,
          id="RandomChoiceWithMask-padded"),
    OpRow("NMSWithMask", lambda b: ops.NMSWithMask(0.3)(b), nms_ref(0.3), nms_samples,
          grad=False, errors=[([f32(np.zeros((3, 4)))], ValueError),
                              ([i32(np.zeros((3, 5)))], TypeError)]),
    OpRow("ROIAlign", lambda f, r: ops.ROIAlign(2, 3, 0.5, 2)(f, r), roi_align_ref(2, 3, 0.5, 2),
          roi_samples, grad_inputs=[0], rtol=1e-5, atol=1e-5,
          errors=[([f32(np.ones((1, 1, 2, 2))), f32(np.zeros((1, 4)))], ValueError),
                  ([i32(np.ones((1, 1, 2, 2))), f32(np.zeros((1, 5)))], TypeError)]),
    OpRow("ROIAlignGrad", lambda d, r, shape: ops.ROIAlignGrad(2, 3, 0.5, 2)(d, r, shape),
          roi_align_grad_ref, roi_grad_samples, grad_inputs=[0], rtol=1e-5, atol=1e-5),
    OpRow("CTCLossV2", lambda x, t, il, tl: ops.CTCLossV2()(ops.log_softmax(x, 2), t, il, tl)[0],
          ctc_v2_ref, ctc_samples, rtol=1e-5, atol=1e-5,
          errors=[([f32(np.zeros((4, 2, 3))), f32([[1, 2], [1, 1]]), i32([4, 4]), i32([2, 2])],
                   TypeError),
                  ([f32(np.zeros((4, 3))), i32([[1, 2]]), i32([4]), i32([2])], ValueError)]),
    # on log-probabilities the gradient is MindSpore's exp(lp) − posterior (not the derivative)
    OpRow("CTCLossV2", lambda lp, t, il, tl: ops.CTCLossV2()(lp, t, il, tl)[0],
          ctc_v2_ref, ctc_log_prob_samples, grad=False, rtol=1e-5, atol=1e-5,
          id="CTCLossV2-log-probs"),
    OpRow("CTCLossV2Grad", lambda lp, t, il, tl: ops.CTCLossV2Grad()(lp, t, il, tl),
          ctc_v2_grad_ref, ctc_log_prob_samples, grad=False, rtol=1e-5, atol=1e-5),
    OpRow("CTCLoss", lambda x, i, v, n: ops.CTCLoss()(x, i, v, n)[0], ctc_tf_ref(),
          ctc_tf_samples, rtol=1e-5, atol=1e-5,
          errors=[([f32(np.zeros((5, 2, 3))), i32([[0, 0]]), i32([1]), i32([4, 4])], TypeError),
                  ([f32(np.zeros((5, 2, 3))), SPARSE_INDICES, i32([2, 1, 1, 1, 0]),
                    SEQUENCE_LENGTH], RuntimeError)]),
    OpRow("CTCLoss", lambda x, i, v, n: ops.CTCLoss(False, False)(x, i, v, n)[0],
          ctc_tf_ref(merge_repeated=False), ctc_tf_samples, rtol=1e-5, atol=1e-5,
          id="CTCLoss-no-merge"),
    OpRow("CTCLoss", lambda x, i, v, n: ops.CTCLoss(True)(x, i, v, n)[0],
          ctc_tf_ref(collapse=True), ctc_tf_samples, rtol=1e-5, atol=1e-5, id="CTCLoss-collapse"),
]
