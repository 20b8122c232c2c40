"""Reference 2-D convolution kernels (numpy): im2col + one batched matrix product.

Contract (NCHW; ``stride``, ``dilation`` are ``(h, w)`` pairs of ints ≥ 1;
``pad`` is ``(top, bottom, left, right)`` zero padding; ``groups`` divides
both channel counts)::

    conv2d(x, w, stride, pad, dilation, groups)                  -> y
    conv2d_backprop_input(dout, w, x_shape, stride, pad, dilation, groups)  -> dx
    conv2d_backprop_filter(dout, x, w_shape, stride, pad, dilation, groups) -> dw

with x (N, C, H, W), w (O, C/groups, kh, kw), y and dout (N, O, OH, OW),
``OH = ⌊(H + top + bottom − dh·(kh − 1) − 1) / sh⌋ + 1`` (OW likewise).
Convolution here is cross-correlation, as in MindSpore (``mode=1``)::

    y[n, o, i, j] = Σ_{c, p, q} w[o, c, p, q] · x_pad[n, g·C/groups + c, i·sh + p·dh, j·sw + q·dw]

where g = o // (O/groups).  The two backprops are the adjoints (transposes)
of this linear map in x and in w.  The result has the dtype of the inputs.

*im2col* gathers, for every kernel tap (p, q), the strided slice of the
padded input that tap touches; the convolution is then a matrix product
of the weights with those columns.  *col2im* is its adjoint: it adds the
columns back into their input positions.
"""
import numpy as np

from . import reference


def output_size(size, kernel, stride, pad_before, pad_after, dilation):
    """⌊(size + pads − dilation·(kernel − 1) − 1) / stride⌋ + 1."""
    return (size + pad_before + pad_after - dilation * (kernel - 1) - 1) // stride + 1


def _out_hw(x_shape, kernel, stride, pad, dilation):
    oh = output_size(x_shape[2], kernel[0], stride[0], pad[0], pad[1], dilation[0])
    ow = output_size(x_shape[3], kernel[1], stride[1], pad[2], pad[3], dilation[1])
    return oh, ow


def _tap_slices(p, q, out_hw, stride, dilation):
    """The rows and columns of the padded input that kernel tap (p, q) reads."""
    oh, ow = out_hw
    top, left = p * dilation[0], q * dilation[1]
    rows = slice(top, top + stride[0] * (oh - 1) + 1, stride[0])
    cols = slice(left, left + stride[1] * (ow - 1) + 1, stride[1])
    return rows, cols


def im2col(x, kernel, stride, pad, dilation):
    """x (N, C, H, W) -> columns (N, C, kh, kw, OH, OW) of the zero-padded input."""
    n, c = x.shape[:2]
    out_hw = _out_hw(x.shape, kernel, stride, pad, dilation)
    padded = np.pad(x, ((0, 0), (0, 0), (pad[0], pad[1]), (pad[2], pad[3])))
    cols = np.empty((n, c, kernel[0], kernel[1]) + out_hw, dtype=x.dtype)
    for p in range(kernel[0]):
        for q in range(kernel[1]):
            rows, columns = _tap_slices(p, q, out_hw, stride, dilation)
            cols[:, :, p, q] = padded[:, :, rows, columns]
    return cols


def col2im(cols, x_shape, stride, pad, dilation):
    """Adjoint of :func:`im2col`: add columns (N, C, kh, kw, OH, OW) back into x (N, C, H, W)."""
    n, c, h, w = x_shape
    kh, kw = cols.shape[2:4]
    out_hw = cols.shape[4:6]
    padded = np.zeros((n, c, h + pad[0] + pad[1], w + pad[2] + pad[3]), dtype=cols.dtype)
    for p in range(kh):
        for q in range(kw):
            rows, columns = _tap_slices(p, q, out_hw, stride, dilation)
            padded[:, :, rows, columns] += cols[:, :, p, q]
    return padded[:, :, pad[0]:pad[0] + h, pad[2]:pad[2] + w]


def _grouped_columns(cols, groups):
    """(N, C, kh, kw, OH, OW) -> (N, G, C/G·kh·kw, OH·OW)."""
    n, c, kh, kw, oh, ow = cols.shape
    return cols.reshape(n, groups, c // groups * kh * kw, oh * ow)      # no -1: N may be 0


@reference
def conv2d(x, w, stride, pad, dilation, groups):
    """y = W ⋆ x (cross-correlation), grouped: y_g = W_g · im2col(x_g)."""
    n = x.shape[0]
    out_channels = w.shape[0]
    cols = im2col(x, w.shape[2:], stride, pad, dilation)
    oh, ow = cols.shape[4:6]
    weights = w.reshape(groups, out_channels // groups, -1)            # (G, O/G, K)
    y = np.matmul(weights[None], _grouped_columns(cols, groups))        # (N, G, O/G, P)
    return y.reshape(n, out_channels, oh, ow)


@reference
def conv2d_backprop_input(dout, w, x_shape, stride, pad, dilation, groups):
    """dx = col2im(Wᵀ · dout): the adjoint of :func:`conv2d` in x."""
    n, out_channels = dout.shape[:2]
    c, (kh, kw) = x_shape[1], w.shape[2:]
    weights = w.reshape(groups, out_channels // groups, -1)            # (G, O/G, K)
    grads = dout.reshape(n, groups, out_channels // groups,
                         dout.shape[2] * dout.shape[3])                 # (N, G, O/G, P)
    cols = np.matmul(np.swapaxes(weights, 1, 2)[None], grads)          # (N, G, K, P)
    cols = cols.reshape((n, c, kh, kw) + dout.shape[2:])
    return col2im(cols, tuple(x_shape), stride, pad, dilation)


@reference
def conv2d_backprop_filter(dout, x, w_shape, stride, pad, dilation, groups):
    """dW = Σₙ dout · im2col(x)ᵀ: the adjoint of :func:`conv2d` in W."""
    n, out_channels = dout.shape[:2]
    cols = im2col(x, tuple(w_shape[2:]), stride, pad, dilation)
    grads = dout.reshape(n, groups, out_channels // groups,
                         dout.shape[2] * dout.shape[3])                 # (N, G, O/G, P)
    dw = np.matmul(grads, np.swapaxes(_grouped_columns(cols, groups), 2, 3))  # (N, G, O/G, K)
    return dw.sum(axis=0).reshape(tuple(w_shape)).astype(x.dtype, copy=False)
