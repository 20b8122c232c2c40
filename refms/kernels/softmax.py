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


@reference
def softmax(x, axis):
    """yᵢ = exp(xᵢ − m) / Σⱼ exp(xⱼ − m), m = max x along ``axis``."""
    e = np.exp(_shifted(x, axis))
    return e / np.sum(e, axis=axis, keepdims=True)


@reference
def log_softmax(x, axis):
    """yᵢ = (xᵢ − m) − log Σⱼ exp(xⱼ − m), m = max x along ``axis``."""
    z = _shifted(x, axis)
    return z - np.log(np.sum(np.exp(z), axis=axis, keepdims=True))


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
