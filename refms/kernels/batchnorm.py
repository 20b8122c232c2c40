"""Reference batch-normalisation kernels (numpy).

Contract (x is (N, C) or (N, C, H) or (N, C, H, W); statistics are per
channel, over every axis but axis 1; per-channel arrays have shape (C,))::

    batch_norm_statistics(x)                            -> (mean, biased variance)
    batch_norm(x, scale, bias, mean, variance, epsilon) -> y
    batch_norm_unbiased(variance, n)                    -> variance · n / (n − 1) (NaN for n = 1)

``y = (x − mean) / √(variance + ε) · scale + bias``.

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
