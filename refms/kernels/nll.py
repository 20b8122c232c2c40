"""Reference negative log-likelihood kernels (numpy): NLLLoss forward and backward, one pass each.

Contract (x (N, C) log-probabilities, labels (N,) integers, weight (C,) floats)::

    nll_loss(x, labels, weight, reduction, ignore_index)                      -> (loss, total_weight)
    nll_loss_grad(dloss, labels, weight, total_weight, x_shape, reduction, ignore_index) -> dx

``lossₙ = −w[yₙ]·xₙ,yₙ`` (0 where yₙ = ``ignore_index``), ``total_weight = Σ w[yₙ]`` over
the other samples; ``reduction`` ``'mean'`` gives Σ lossₙ / total_weight (NaN when every
sample is ignored, as MindSpore 2.10), ``'sum'`` Σ lossₙ, ``'none'`` the (N,) losses.
``dx`` is zero but at (n, yₙ): −w[yₙ]·dlossₙ (``'none'``), −w[yₙ]·dloss (``'sum'``) or
−w[yₙ]·dloss / total_weight (``'mean'``).  Labels are in [0, C) or ``ignore_index`` (the
caller checks).  Sums in float64, rounded once to x's dtype (total_weight: weight's).
"""
import numpy as np

from . import reference


def _picked_weights(labels, weight, ignore_index):
    """(row-wise label with ignored ones at 0, w[yₙ] in float64 with ignored ones at 0)."""
    kept = labels != ignore_index
    safe = np.where(kept, labels, 0).astype(np.int64)
    return safe, np.where(kept, weight.astype(np.float64)[safe], 0.0)


@reference
def nll_loss(x, labels, weight, reduction, ignore_index):
    """lossₙ = −w[yₙ]·xₙ,yₙ, reduced by 'none', 'sum' or 'mean' (÷ Σ w[yₙ]); and Σ w[yₙ]."""
    safe, w = _picked_weights(labels, weight, ignore_index)
    losses = -w * np.take_along_axis(x, safe[:, None], axis=1)[:, 0].astype(np.float64)
    total_weight = np.sum(w)
    if reduction == "none":
        loss = losses
    elif reduction == "sum":
        loss = np.sum(losses)
    else:
        with np.errstate(invalid="ignore", divide="ignore"):
            loss = np.sum(losses) / total_weight
    return np.asarray(loss, dtype=x.dtype), np.asarray(total_weight, dtype=weight.dtype)


@reference
def nll_loss_grad(dloss, labels, weight, total_weight, x_shape, reduction, ignore_index):
    """dx = 0 but dxₙ,yₙ = −w[yₙ]·dlossₙ (÷ total_weight for 'mean'; dloss a scalar unless 'none')."""
    safe, w = _picked_weights(labels, weight, ignore_index)
    scale = np.asarray(dloss, dtype=np.float64)
    if reduction == "mean":
        with np.errstate(invalid="ignore", divide="ignore"):
            scale = scale / np.float64(total_weight)
    coefficient = np.where(w != 0, -w * scale, 0.0)
    dx = np.zeros(x_shape, dtype=dloss.dtype)
    dx[np.arange(len(safe)), safe] = coefficient
    return dx
