"""Reference 2-D pooling kernels (numpy).

Contract (NCHW; ``kernel``, ``stride`` are ``(h, w)`` pairs; ``pad`` is
``(top, bottom, left, right)``; output size as for convolution,
``OH = ⌊(H + top + bottom − kh) / sh⌋ + 1``)::

    max_pool2d(x, kernel, stride, pad)                -> (y, argmax)
    max_pool2d_grad(dout, argmax, x_shape)            -> dx   (scatter dout to the argmax)
    max_pool2d_grad_grad(ddx, argmax)                 -> ddy  (gather ddx at the argmax)
    avg_pool2d(x, kernel, stride, pad, divisor=None)  -> y
    avg_pool2d_grad(dout, x_shape, kernel, stride, pad, divisor=None) -> dx

Max pooling ignores padded cells (they never win); ``argmax`` (int64, shape
of y) is the flat index ``h·W + w`` into each (n, c) plane of x of the
*first* maximum of the window in row-major order (the scan starts at the
window's first real cell and takes a cell only when strictly greater, so a
NaN there stays and a later NaN is passed over: ``max_pool2d`` below).
Average pooling sums the window over the zero-padded input and divides by
``divisor`` — an array broadcastable to (OH, OW) — or, by default, by the
number of *real* (unpadded) cells in each window (MindSpore's rule for
``pad_mode='same'``).
"""
import numpy as np

from . import reference


def _out_hw(x_shape, kernel, stride, pad):
    oh = (x_shape[2] + pad[0] + pad[1] - kernel[0]) // stride[0] + 1
    ow = (x_shape[3] + pad[2] + pad[3] - kernel[1]) // stride[1] + 1
    return oh, ow


def _windows(kernel, stride, out_hw):
    """Yield (p, q, rows, cols): for each window tap, the padded-input slices it reads."""
    oh, ow = out_hw
    for p in range(kernel[0]):
        for q in range(kernel[1]):
            rows = slice(p, p + stride[0] * (oh - 1) + 1, stride[0])
            cols = slice(q, q + stride[1] * (ow - 1) + 1, stride[1])
            yield p, q, rows, cols


def _pad(x, pad, value):
    return np.pad(x, ((0, 0), (0, 0), (pad[0], pad[1]), (pad[2], pad[3])), constant_values=value)


def real_cell_counts(x_shape, kernel, stride, pad):
    """(OH, OW): how many cells of each window lie inside the unpadded input."""
    ones = np.ones((1, 1) + tuple(x_shape[2:]))
    counts = np.zeros(_out_hw(x_shape, kernel, stride, pad))
    padded = _pad(ones, pad, 0.0)
    for _, _, rows, cols in _windows(kernel, stride, counts.shape):
        counts += padded[0, 0, rows, cols]
    return counts


@reference
def max_pool2d(x, kernel, stride, pad):
    """y = max over each window (padding excluded); argmax = flat index of its first maximum.

    The window is scanned from its first real cell, taking a cell only when it is strictly
    greater: a NaN in the first cell stays, a later NaN is passed over (MindSpore 2.10's
    MaxPool CPU kernel, recorded).
    """
    n, c, h, w = x.shape
    out_hw = _out_hw(x.shape, kernel, stride, pad)
    padded = _pad(x, pad, 0)
    real = _pad(np.ones((h, w), dtype=bool)[None, None], pad, False)
    # flat input index of every padded cell (−1 in the padding)
    index = _pad(np.arange(h * w, dtype=np.int64).reshape(1, 1, h, w), pad, -1)
    best = np.zeros((n, c) + out_hw, dtype=x.dtype)
    argmax = np.full((n, c) + out_hw, -1, dtype=np.int64)
    for _, _, rows, cols in _windows(kernel, stride, out_hw):
        value = padded[:, :, rows, cols]
        is_real = real[:, :, rows, cols]
        empty = argmax < 0
        with np.errstate(invalid="ignore"):
            wins = value > best
        take = is_real & (empty | wins)
        best = np.where(take, value, best)
        argmax = np.where(take, index[:, :, rows, cols], argmax)
    return best, argmax


@reference
def max_pool2d_grad(dout, argmax, x_shape):
    """dx[n, c, argmax[n, c, i, j]] += dout[n, c, i, j]."""
    n, c, h, w = x_shape
    plane = np.arange(n * c, dtype=np.int64).reshape(n, c, 1, 1) * (h * w)
    target = (plane + argmax).ravel()
    keep = argmax.ravel() >= 0
    dx = np.bincount(target[keep], weights=dout.ravel()[keep], minlength=n * c * h * w)
    return dx.reshape(x_shape).astype(dout.dtype, copy=False)


@reference
def max_pool2d_grad_grad(ddx, argmax):
    """ddy[n, c, i, j] = ddx[n, c, argmax[n, c, i, j]] (the adjoint of :func:`max_pool2d_grad`)."""
    n, c = ddx.shape[:2]
    flat = ddx.reshape(n, c, -1)
    picked = np.take_along_axis(flat, np.maximum(argmax, 0).reshape(n, c, -1), axis=2)
    picked = np.where(argmax.reshape(n, c, -1) >= 0, picked, 0)
    return picked.reshape(argmax.shape).astype(ddx.dtype, copy=False)


@reference
def avg_pool2d(x, kernel, stride, pad, divisor=None):
    """y = (Σ window of the zero-padded x) / divisor (default: real cells per window)."""
    out_hw = _out_hw(x.shape, kernel, stride, pad)
    if divisor is None:
        divisor = real_cell_counts(x.shape, kernel, stride, pad)
    padded = _pad(x, pad, 0)
    total = np.zeros(x.shape[:2] + out_hw, dtype=x.dtype)
    for _, _, rows, cols in _windows(kernel, stride, out_hw):
        total += padded[:, :, rows, cols]
    return (total / divisor).astype(x.dtype, copy=False)


@reference
def avg_pool2d_grad(dout, x_shape, kernel, stride, pad, divisor=None):
    """dx = adjoint of :func:`avg_pool2d`: each window cell receives dout / divisor."""
    n, c, h, w = x_shape
    if divisor is None:
        divisor = real_cell_counts(x_shape, kernel, stride, pad)
    share = (dout / divisor).astype(dout.dtype, copy=False)
    padded = np.zeros((n, c, h + pad[0] + pad[1], w + pad[2] + pad[3]), dtype=dout.dtype)
    for _, _, rows, cols in _windows(kernel, stride, dout.shape[2:]):
        padded[:, :, rows, cols] += share
    return padded[:, :, pad[0]:pad[0] + h, pad[2]:pad[2] + w]
