"""Reference kernels of im2col / col2im: sliding blocks of an image as columns, and back.

Contract (x is NCHW; every size argument a pair ``(along H, along W)``)::

    im2col(x, kernel, dilation, padding, stride)               -> (N, C·kh·kw, L)
    col2im(cols, output_size, kernel, dilation, padding, stride) -> (N, C, H, W)

Column ``c·kh·kw + i·kw + j`` holds tap ``(i, j)`` of channel ``c``; the ``L = oh·ow``
blocks are numbered row-major, with ``oh = ⌊(H + 2·ph − dh·(kh − 1) − 1) / sh⌋ + 1``
(likewise ``ow``).  ``col2im`` is the adjoint of ``im2col``: every column entry is
added back to the pixel it was read from (overlapping blocks sum), and the padding is
cut off.
"""
import numpy as np

from . import reference


def blocks(size, kernel, dilation, padding, stride):
    """How many blocks fit along one axis of length ``size``."""
    return (size + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1


def _tap(i, dilation, stride, count):
    """The slice of a padded axis that tap ``i`` reads, one element per block."""
    start = i * dilation
    return slice(start, start + stride * (count - 1) + 1, stride)


@reference
def im2col(x, kernel, dilation, padding, stride):
    n, c, h, w = x.shape
    (kh, kw), (dh, dw), (ph, pw), (sh, sw) = kernel, dilation, padding, stride
    oh, ow = blocks(h, kh, dh, ph, sh), blocks(w, kw, dw, pw, sw)
    padded = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    cols = np.empty((n, c, kh, kw, oh, ow), x.dtype)
    for i in range(kh):
        for j in range(kw):
            cols[:, :, i, j] = padded[:, :, _tap(i, dh, sh, oh), _tap(j, dw, sw, ow)]
    return cols.reshape(n, c * kh * kw, oh * ow)


@reference
def col2im(cols, output_size, kernel, dilation, padding, stride):
    (h, w), (kh, kw), (dh, dw), (ph, pw), (sh, sw) = output_size, kernel, dilation, padding, stride
    n = cols.shape[0]
    c = cols.shape[1] // (kh * kw)
    oh, ow = blocks(h, kh, dh, ph, sh), blocks(w, kw, dw, pw, sw)
    taps = cols.reshape(n, c, kh, kw, oh, ow)
    padded = np.zeros((n, c, h + 2 * ph, w + 2 * pw), cols.dtype)
    for i in range(kh):
        for j in range(kw):
            padded[:, :, _tap(i, dh, sh, oh), _tap(j, dw, sw, ow)] += taps[:, :, i, j]
    return np.ascontiguousarray(padded[:, :, ph:ph + h, pw:pw + w])
