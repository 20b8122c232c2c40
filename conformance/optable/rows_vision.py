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


ROWS = [
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
