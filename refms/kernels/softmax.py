"""Reference softmax kernels (numpy): softmax, log-softmax and the two softmax cross-entropies.

Contract::

    softmax(x, axis)                            -> y, same shape and dtype as x
    log_softmax(x, axis)                        -> y, same shape and dtype as x
    softmax_cross_entropy(logits, labels)       -> (loss (N,), dlogits (N, C))
    sparse_softmax_cross_entropy(logits, labels, is_grad) -> mean loss (0-d) or dlogits

``axis`` is an int or a tuple of ints.  The cross-entropies accumulate in
float64 and round once to the input dtype.  Numerical safety: every kernel
subtracts the maximum along ``axis`` before exponentiating, so
``exp`` never overflows (log-sum-exp trick); log-softmax is computed as
``(x − m) − log Σ exp(x − m)``, never as ``log(softmax(x))``, so it stays
finite where softmax underflows to 0.
"""
import numpy as np

from . import reference


def _shifted(x, axis):
    """x − max(x) along ``axis`` (the largest entry becomes 0)."""
    return x - np.max(x, axis=axis, keepdims=True)


def mindspore_nonfinite(x, y, axis, logarithm):
    """MindSpore 2.10's CPU softmax on lines that are not all finite (recorded): a line holding
    NaN or +inf gives NaN there and 0 (log-softmax: −inf) elsewhere; a softmax line of only
    −inf gives zeros.  Other lines keep ``y``."""
    bad = np.isnan(x) | (x == np.inf)
    line_bad = np.any(bad, axis=axis, keepdims=True)
    y = np.where(line_bad, np.where(bad, np.nan, -np.inf if logarithm else 0.0), y)
    if not logarithm:
        y = np.where(np.all(x == -np.inf, axis=axis, keepdims=True), 0.0, y)
    return y.astype(x.dtype)


@reference
def softmax(x, axis):
    """yᵢ = exp(xᵢ − m) / Σⱼ exp(xⱼ − m), m = max x along ``axis`` (non-finite lines:
    :func:`mindspore_nonfinite`)."""
    if x.size == 0:
        return np.empty_like(x)
    with np.errstate(invalid="ignore"):
        e = np.exp(_shifted(x, axis))
        y = e / np.sum(e, axis=axis, keepdims=True)
    if not np.isfinite(x).all():
        return mindspore_nonfinite(x, y, axis, False)
    return y


@reference
def log_softmax(x, axis):
    """yᵢ = (xᵢ − m) − log Σⱼ exp(xⱼ − m), m = max x along ``axis`` (non-finite lines:
    :func:`mindspore_nonfinite`)."""
    if x.size == 0:
        return np.empty_like(x)
    with np.errstate(invalid="ignore", divide="ignore"):
        z = _shifted(x, axis)
        y = z - np.log(np.sum(np.exp(z), axis=axis, keepdims=True))
    if not np.isfinite(x).all():
        return mindspore_nonfinite(x, y, axis, True)
    return y


@reference
def softmax_cross_entropy(logits, labels):
    """lossₙ = −Σ_c labelsₙ꜀ · log_softmax(logits)ₙ꜀;  dlogits = softmax(logits) − labels.

    ``logits`` and ``labels`` are (N, C) arrays of one float dtype.
    """
    log_p = log_softmax(logits.astype(np.float64), -1)
    loss = -np.sum(labels * log_p, axis=-1)
    dtype = logits.dtype
    return loss.astype(dtype), (np.exp(log_p) - labels).astype(dtype)


@reference
def sparse_softmax_cross_entropy(logits, labels, is_grad):
    """loss = mean over samples of −log_softmax(logits)[label];  grad = (softmax − onehot) / N.

    ``logits`` has shape ``labels.shape + (C,)``; ``labels`` are integers in
    [0, C) (the caller checks).  N = ``labels.size``.  Returns the 0-d mean
    loss, or (``is_grad``) the gradient of that mean with respect to logits.
    """
    dtype = logits.dtype
    log_p = log_softmax(logits.astype(np.float64), -1)
    count = max(labels.size, 1)
    picked = np.take_along_axis(log_p, labels[..., None].astype(np.int64), axis=-1)[..., 0]
    if not is_grad:
        return np.asarray(-np.sum(picked) / count, dtype=dtype)
    onehot = np.zeros_like(log_p)
    np.put_along_axis(onehot, labels[..., None].astype(np.int64), 1, axis=-1)
    return ((np.exp(log_p) - onehot) / count).astype(dtype)
