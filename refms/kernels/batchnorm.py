"""Reference batch-normalisation kernels (numpy).

Contract (x is (N, C) or (N, C, H) or (N, C, H, W); statistics are per
channel, over every axis but axis 1; per-channel arrays have shape (C,))::

    batch_norm_statistics(x)                            -> (mean, biased variance)
    batch_norm(x, scale, bias, mean, variance, epsilon) -> y
    batch_norm_unbiased(variance, n)                    -> variance · n / (n − 1) (NaN for n = 1)
    batch_norm_grad(dy, x, scale, mean, variance, epsilon, is_training) -> (dx, dscale, dbias)

``y = (x − mean) / √(variance + ε) · scale + bias``.  ``batch_norm_grad`` is
its backward (dx of x's dtype, dscale and dbias of scale's dtype), given the
``mean`` / ``variance`` the forward normalised with (the batch's in training,
the moving statistics in inference).

Numerical safety: the variance is computed in two passes, as the mean of
squared deviations from the mean — never as E[x²] − E[x]², which cancels
catastrophically when ``|mean| ≫ std`` and can even go negative.
"""
import numpy as np

from . import reference


def _axes(x):
    return (0,) + tuple(range(2, x.ndim))


def _per_channel(values, x):
    """(C,) -> shape broadcastable against x: (1, C, 1, ...)."""
    return values.reshape((1, -1) + (1,) * (x.ndim - 2))


@reference
def batch_norm_statistics(x):
    """mean = E[x], variance = E[(x − mean)²] per channel (the biased, 1/n estimate)."""
    axes = _axes(x)
    if x.dtype == np.float16:            # accumulate half precision in single precision
        x = x.astype(np.float32)
    mean = np.mean(x, axis=axes, keepdims=True)
    variance = np.mean(np.square(x - mean), axis=axes)
    return mean.reshape(-1), variance


@reference
def batch_norm(x, scale, bias, mean, variance, epsilon):
    """y = (x − mean) / √(variance + ε) · scale + bias, per channel."""
    inv_std = 1.0 / np.sqrt(variance + epsilon)
    y = (x - _per_channel(mean, x)) * _per_channel(inv_std * scale, x) + _per_channel(bias, x)
    return y.astype(x.dtype, copy=False)


@reference
def batch_norm_unbiased(variance, n):
    """The unbiased variance n/(n − 1)·σ² from the biased σ² of n samples (n = 1 gives NaN)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return variance * (n / np.float64(n - 1))


@reference
def batch_norm_grad(dy, x, scale, mean, variance, epsilon, is_training):
    """dβ = Σ dy,  dγ = Σ dy·x̂,  dx = γs·(dy − dβ/M − x̂·dγ/M) (training) or γs·dy (inference).

    Per channel, sums over the M = N·H·W values of the channel; s = 1/√(σ² + ε) and
    x̂ = (x − μ)·s with the ``mean`` / ``variance`` given.  In training μ and σ² are the
    batch's own statistics, functions of x, hence the two mean terms of dx (Ioffe &
    Szegedy 2015, §3); in inference they are constants.  Computed in float64, rounded once.
    """
    axes = _axes(x)
    dy64 = dy.astype(np.float64)
    inv_std = 1.0 / np.sqrt(variance.astype(np.float64) + epsilon)
    x_hat = (x.astype(np.float64) - _per_channel(mean.astype(np.float64), x)) * _per_channel(inv_std, x)
    dbias = np.sum(dy64, axis=axes)
    dscale = np.sum(dy64 * x_hat, axis=axes)
    gamma_s = _per_channel(scale.astype(np.float64) * inv_std, x)
    if is_training:
        count = max(x.size // max(x.shape[1], 1), 1)
        dx = gamma_s * (dy64 - _per_channel(dbias / count, x) - x_hat * _per_channel(dscale / count, x))
    else:
        dx = gamma_s * dy64
    return dx.astype(x.dtype), dscale.astype(scale.dtype), dbias.astype(scale.dtype)
