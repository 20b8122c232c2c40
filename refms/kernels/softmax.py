"""Reference softmax kernels (numpy): softmax, log-softmax and the two softmax cross-entropies.

Contract::

    softmax(x, axis)                            -> y, same shape and dtype as x
    log_softmax(x, axis)                        -> y, same shape and dtype as x
    softmax_cross_entropy(logits, labels)       -> (loss (N,), dlogits (N, C))
    sparse_softmax_cross_entropy(logits, labels, is_grad) -> mean loss (0-d) or dlogits

``axis`` is an int or a tuple of ints.  The cross-entropies accumulate in
float64 and round once to the input dtype — except the float32 mean loss of
the sparse one, which is MindSpore 2.10's CPU value (``mindspore_cpu_mean``:
nnacl's exp polynomial, float32 sums; the doc example prints 0.75310886 there,
where the exact mean rounds to 0.7531091).  Numerical safety: every kernel
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


#: nnacl's exp (``nnacl/fp32/exp_fp32.h``): x clamped to [log FLT_MIN, log FLT_MAX], x = n·ln2 + r,
#: exp(r) by the degree-5 Taylor polynomial, whose coefficients (highest first) are these.
_EXP_MIN, _EXP_MAX = np.float32(-87.3365478515625), np.float32(88.72283935546875)
_LOG2E, _LN2 = np.float32(1.44269504088896341), np.float32(0.693147)
_TAYLOR = tuple(np.float32(c) for c in (1 / 120, 1 / 24, 1 / 6, 0.5, 1.0, 1.0))


def _fused_multiply_add(a, b, c):
    """a·b + c in float32 with one rounding, as a fused multiply-add (the float32 product is
    exact in float64)."""
    return (a.astype(np.float64) * b + c).astype(np.float32)


def nnacl_exp(x):
    """exp(x) as MindSpore's CPU kernels compute it: 2ⁿ · P₅(r), n = ⌊x·log₂e + ½⌋, r = x − n·ln2.

    P₅(r) = 1 + r(1 + r(½ + r(⅙ + r(1/24 + r/120)))) in float32 (relative error ~1e-6), r and
    each Horner step one fused multiply-add as the compiled kernel has them; exp(−1) is
    0.36787882, not the correctly rounded 0.36787945, and n = −126 (x below about −86.98)
    gives 0 (recorded: ``tests/recorders/record_cpu_cross_entropy.py``).
    """
    x = np.clip(x.astype(np.float32), _EXP_MIN, _EXP_MAX)
    n = np.floor(x * _LOG2E + np.float32(0.5))
    r = _fused_multiply_add(n, -_LN2, x)
    poly = np.full_like(r, _TAYLOR[0])
    for coefficient in _TAYLOR[1:]:
        poly = _fused_multiply_add(poly, r, coefficient)
    return np.where(n > -126, np.power(np.float32(2.0), n) * poly, np.float32(0.0))


def mindspore_cpu_mean(logits, labels):
    """The float32 mean of −log pₙ,yₙ as MindSpore 2.10's CPU kernel computes it (recorded).

    p = e / Σ e with e = :func:`nnacl_exp` (x − max x) in float32, then a float32 running sum
    over the samples, total ← total − log pₙ,yₙ, divided by N.  Where the label's shifted logit
    z is below −80, e underflows and MindSpore returns inf; the finite log Σ e − z is used there.
    """
    z = logits - np.max(logits, axis=-1, keepdims=True)
    e = nnacl_exp(z)
    total = np.sum(e, axis=-1, dtype=np.float32)
    index = labels[..., None].astype(np.int64)
    picked = np.take_along_axis(e, index, axis=-1)[..., 0]
    z_label = np.take_along_axis(z, index, axis=-1)[..., 0]
    with np.errstate(divide="ignore"):
        losses = np.where(z_label > -80, -np.log(picked / total), np.log(total) - z_label)
    running = np.cumsum(losses.reshape(-1), dtype=np.float32)          # sequential, in order
    return np.float32(running[-1] / np.float32(labels.size))


@reference
def sparse_softmax_cross_entropy(logits, labels, is_grad):
    """loss = mean over samples of −log_softmax(logits)[label];  grad = (softmax − onehot) / N.

    ``logits`` has shape ``labels.shape + (C,)``; ``labels`` are integers in
    [0, C) (the caller checks).  N = ``labels.size``.  Returns the 0-d mean
    loss, or (``is_grad``) the gradient of that mean with respect to logits.
    The float32 loss of finite logits is MindSpore's CPU value (``mindspore_cpu_mean``);
    the gradient is the exact one.
    """
    dtype = logits.dtype
    if not is_grad and dtype == np.float32 and labels.size > 0 and np.isfinite(logits).all():
        return np.asarray(mindspore_cpu_mean(logits, labels), dtype=dtype)
    log_p = log_softmax(logits.astype(np.float64), -1)
    count = max(labels.size, 1)
    picked = np.take_along_axis(log_p, labels[..., None].astype(np.int64), axis=-1)[..., 0]
    if not is_grad:
        return np.asarray(-np.sum(picked) / count, dtype=dtype)
    onehot = np.zeros_like(log_p)
    np.put_along_axis(onehot, labels[..., None].astype(np.int64), 1, axis=-1)
    return ((np.exp(log_p) - onehot) / count).astype(dtype)
