"""Op-table rows for the neural-network primitives: activations, convolution, pooling,
batch normalisation, softmax cross-entropies and random ops
(``refms/ops/prims/{activation,conv,pool,batchnorm,loss,random}.py``).

The numpy references here are written independently of ``refms/kernels``: direct
loops over output positions and window taps (slow, obviously right), so the rows
judge the im2col / strided-slice kernels rather than repeat them.
``tests/test_nn_kernels.py`` uses the same references on the kernels directly.

Behaviour that differs from a naive reading was checked on MindSpore 2.10 (CPU):
'same' padding puts the odd cell at the bottom/right; MaxPool's gradient goes to
the first maximum of a window; AvgPool 'same' does not count padding; the GeLU
primitive is the tanh approximation while ``ops.gelu`` defaults to erf;
``SparseSoftmaxCrossEntropyWithLogits`` returns the 0-d mean; BatchNorm's
momentum weighs the new value and updates the moving variance with the unbiased
batch variance; the losses' and BatchNorm's gradients come from the first output.
"""
import math

import numpy as np
from scipy.special import erf

from . import ms
from .samples import f32, i32, randn, with_constants
from .spec import OpRow

#: The implementation under test (see the package docstring).
ops = ms.ops


# -- sampling helpers ----------------------------------------------------------------------------

def distinct(*shapes):
    """Float32 samples with no two values close (max pooling is then differentiable)."""
    def make(rng):
        result = []
        for shape in shapes:
            n = int(np.prod(shape))
            values = rng.permutation(n) + rng.uniform(0.1, 0.4, n)
            result.append((values / n * 4 - 2).reshape(shape).astype(np.float32))
        return result
    return make


def away_from_zero(*shapes):
    """|x| ≥ 0.1 (ReLU's kink stays out of the finite differences)."""
    def make(rng):
        samples = [rng.standard_normal(shape) for shape in shapes]
        return [np.where(x < 0, x - 0.1, x + 0.1).astype(np.float32) for x in samples]
    return make


def ones(*shape, dtype=np.float32):
    return np.ones(shape, dtype=dtype)


# -- independent references: activations and softmax ---------------------------------------------

def softmax_ref(x, axis=-1):
    x = np.asarray(x, np.float64)
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def log_softmax_ref(x, axis=-1):
    x = np.asarray(x, np.float64)
    shifted = x - np.max(x, axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


def gelu_tanh_ref(x):
    x = np.asarray(x, np.float64)
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def gelu_erf_ref(x):
    x = np.asarray(x, np.float64)
    return 0.5 * x * (1 + erf(x / math.sqrt(2)))


def as_dtype_of(fn):
    """Run a float64 reference and return it in the input's dtype."""
    def ref(x, *rest):
        return np.asarray(fn(x, *rest)).astype(x.dtype)
    return ref


def relu_cubed_slope(x):
    """d/dx Σ relu(x)³ = 3·relu(x)², through ReLU's bprop: its own gradient (the row's
    gradient check) is the second derivative 6·relu(x), so ReluGrad's bprop is checked too."""
    return ms.grad(lambda t: ops.ReduceSum()(ops.relu(t) ** 3))(x)


def relu_grad_ref(dy, x):
    """ReLU's backward [ran 2.10]: dy where x > 0 (a NaN or a zero of either sign gives 0), in
    dy's dtype; mixed widths of one kind are allowed."""
    return np.array([d if v > 0 else 0 for d, v in zip(dy.ravel(), x.ravel())],
                    dtype=dy.dtype).reshape(dy.shape)


# -- independent references: convolution -----------------------------------------------------------

def same_pads(size, kernel, stride, dilation=1):
    """MindSpore 'same': out = ceil(size/stride); the odd padding cell goes after (checked on MindSpore 2.10)."""
    out = math.ceil(size / stride)
    total = max((out - 1) * stride + (kernel - 1) * dilation + 1 - size, 0)
    return total // 2, total - total // 2


def conv_pads(x_shape, w_shape, pad_mode, pad, stride, dilation):
    if pad_mode == "valid":
        return (0, 0, 0, 0)
    if pad_mode == "pad":
        return (pad,) * 4 if isinstance(pad, int) else tuple(pad)
    return (same_pads(x_shape[2], w_shape[2], stride[0], dilation[0])
            + same_pads(x_shape[3], w_shape[3], stride[1], dilation[1]))


def _pad_nchw(x, pads):
    top, bottom, left, right = pads
    return np.pad(np.asarray(x, np.float64), ((0, 0), (0, 0), (top, bottom), (left, right)))


def naive_conv2d(x, w, stride=(1, 1), pads=(0, 0, 0, 0), dilation=(1, 1), groups=1):
    """y[n, o, i, j] = Σ_{c,p,q} w[o, c, p, q] · x_pad[n, g·Cg + c, i·sh + p·dh, j·sw + q·dw], by loops."""
    xp = _pad_nchw(x, pads)
    n, _, hp, wp = xp.shape
    o_ch, cg, kh, kw = w.shape
    (sh, sw), (dh, dw) = stride, dilation
    oh = (hp - dh * (kh - 1) - 1) // sh + 1
    ow = (wp - dw * (kw - 1) - 1) // sw + 1
    y = np.zeros((n, o_ch, oh, ow))
    per_group = o_ch // groups
    for b in range(n):
        for o in range(o_ch):
            g = o // per_group
            for i in range(oh):
                for j in range(ow):
                    window = xp[b, g * cg:(g + 1) * cg, i * sh:i * sh + dh * (kh - 1) + 1:dh,
                                j * sw:j * sw + dw * (kw - 1) + 1:dw]
                    y[b, o, i, j] = np.sum(window * w[o])
    return y


def naive_conv2d_backprop_input(dout, w, x_shape, stride=(1, 1), pads=(0, 0, 0, 0),
                                dilation=(1, 1), groups=1):
    """dx: each dout[n, o, i, j] · w[o] added back onto the window it came from."""
    n, c, h, wd = x_shape
    o_ch, cg, kh, kw = w.shape
    (sh, sw), (dh, dw) = stride, dilation
    top, bottom, left, right = pads
    dxp = np.zeros((n, c, h + top + bottom, wd + left + right))
    per_group = o_ch // groups
    for b in range(n):
        for o in range(o_ch):
            g = o // per_group
            for i in range(dout.shape[2]):
                for j in range(dout.shape[3]):
                    dxp[b, g * cg:(g + 1) * cg, i * sh:i * sh + dh * (kh - 1) + 1:dh,
                        j * sw:j * sw + dw * (kw - 1) + 1:dw] += dout[b, o, i, j] * w[o]
    return dxp[:, :, top:top + h, left:left + wd]


def naive_conv2d_backprop_filter(dout, x, w_shape, stride=(1, 1), pads=(0, 0, 0, 0),
                                 dilation=(1, 1), groups=1):
    """dw[o] = Σ_{n,i,j} dout[n, o, i, j] · (the window of x that produced y[n, o, i, j])."""
    xp = _pad_nchw(x, pads)
    o_ch, cg, kh, kw = w_shape
    (sh, sw), (dh, dw) = stride, dilation
    dw_ = np.zeros(w_shape)
    per_group = o_ch // groups
    for b in range(dout.shape[0]):
        for o in range(o_ch):
            g = o // per_group
            for i in range(dout.shape[2]):
                for j in range(dout.shape[3]):
                    dw_[o] += dout[b, o, i, j] * xp[b, g * cg:(g + 1) * cg,
                                                    i * sh:i * sh + dh * (kh - 1) + 1:dh,
                                                    j * sw:j * sw + dw * (kw - 1) + 1:dw]
    return dw_


def conv_ref(out_channel, kernel, pad_mode="valid", pad=0, stride=1, dilation=1, group=1):
    """The numpy reference of ``ops.Conv2D(out_channel, kernel, ...)`` in the input's dtype."""
    stride = (stride, stride) if isinstance(stride, int) else tuple(stride)
    dilation = (dilation, dilation) if isinstance(dilation, int) else tuple(dilation)

    def ref(x, w):
        pads = conv_pads(x.shape, w.shape, pad_mode, pad, stride, dilation)
        return naive_conv2d(x, w, stride, pads, dilation, group).astype(x.dtype)
    return ref


def conv(out_channel, kernel, **attrs):
    """``ops.Conv2D(out_channel, kernel, **attrs)`` and its reference."""
    return ops.Conv2D(out_channel, kernel, **attrs), conv_ref(out_channel, kernel, **attrs)


# -- independent references: pooling ---------------------------------------------------------------

def pool_windows(shape, kernel, stride, pads):
    """Yield (i, j, rows, cols): the *real* input rows/cols of each output window."""
    h, w = shape[2:]
    top, bottom, left, right = pads
    oh = (h + top + bottom - kernel[0]) // stride[0] + 1
    ow = (w + left + right - kernel[1]) // stride[1] + 1
    for i in range(oh):
        for j in range(ow):
            r0, c0 = i * stride[0] - top, j * stride[1] - left
            rows = range(max(r0, 0), min(r0 + kernel[0], h))
            cols = range(max(c0, 0), min(c0 + kernel[1], w))
            yield i, j, rows, cols, (oh, ow)


def _pool_pads(x_shape, kernel, stride, pad_mode):
    if pad_mode.upper() == "VALID":
        return (0, 0, 0, 0)
    return same_pads(x_shape[2], kernel[0], stride[0]) + same_pads(x_shape[3], kernel[1], stride[1])


def _pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


def naive_max_pool(x, kernel, stride, pads):
    """(y, argmax): the max of the real cells of each window and the flat index of its first maximum."""
    kernel, stride = _pair(kernel), _pair(stride)
    n, c, h, w = x.shape
    windows = list(pool_windows(x.shape, kernel, stride, pads))
    out_hw = windows[0][4]
    y = np.zeros((n, c) + out_hw, x.dtype)
    arg = np.zeros((n, c) + out_hw, np.int64)
    for b in range(n):
        for ch in range(c):
            for i, j, rows, cols, _ in windows:
                best, where = None, None
                for r in rows:                      # row-major: the first maximum wins ties
                    for q in cols:
                        if best is None or x[b, ch, r, q] > best:
                            best, where = x[b, ch, r, q], r * w + q
                y[b, ch, i, j], arg[b, ch, i, j] = best, where
    return y, arg


def naive_max_pool_grad(x, dout, kernel, stride, pads):
    _, arg = naive_max_pool(x, kernel, stride, pads)
    dx = np.zeros(x.shape, np.float64)
    n, c, h, w = x.shape
    for b in range(n):
        for ch in range(c):
            for i in range(arg.shape[2]):
                for j in range(arg.shape[3]):
                    index = arg[b, ch, i, j]
                    dx[b, ch, index // w, index % w] += dout[b, ch, i, j]
    return dx.astype(dout.dtype)


def naive_avg_pool(x, kernel, stride, pads, divisor=None):
    """Σ of the real cells of each window / (their count, or ``divisor(i, j)``)."""
    kernel, stride = _pair(kernel), _pair(stride)
    windows = list(pool_windows(x.shape, kernel, stride, pads))
    y = np.zeros(x.shape[:2] + windows[0][4])
    for i, j, rows, cols, _ in windows:
        block = np.asarray(x, np.float64)[:, :, rows.start:rows.stop, cols.start:cols.stop]
        count = len(rows) * len(cols) if divisor is None else divisor(i, j, rows, cols)
        y[:, :, i, j] = block.sum(axis=(2, 3)) / count
    return y.astype(x.dtype)


def naive_avg_pool_grad(x_shape, dout, kernel, stride, pads):
    kernel, stride = _pair(kernel), _pair(stride)
    dx = np.zeros(x_shape)
    for i, j, rows, cols, _ in pool_windows(x_shape, kernel, stride, pads):
        count = len(rows) * len(cols)
        dx[:, :, rows.start:rows.stop, cols.start:cols.stop] += \
            dout[:, :, i:i + 1, j:j + 1] / count
    return dx.astype(dout.dtype)


def pool_ref(kind, kernel, stride, pad_mode="VALID"):
    kernel, stride = _pair(kernel), _pair(stride)

    def ref(x):
        pads = _pool_pads(x.shape, kernel, stride, pad_mode)
        if kind == "max":
            return naive_max_pool(x, kernel, stride, pads)[0]
        return naive_avg_pool(x, kernel, stride, pads)
    return ref


def padded_input_cells(x_shape, kernel, stride, padding):
    """count_include_pad divisor: window cells inside the symmetrically padded input."""
    (kh, kw), (sh, sw), (ph, pw) = _pair(kernel), _pair(stride), _pair(padding)

    def divisor(i, j, rows, cols):
        r0, c0 = i * sh - ph, j * sw - pw
        r1 = min(r0 + kh, x_shape[2] + ph)
        c1 = min(c0 + kw, x_shape[3] + pw)
        return (r1 - r0) * (c1 - c0)
    return divisor


# -- independent references: batch norm and losses ---------------------------------------------------

def bn_axes(x):
    return (0,) + tuple(range(2, x.ndim))


def per_channel(values, x):
    return np.asarray(values, np.float64).reshape((1, -1) + (1,) * (x.ndim - 2))


def bn_train_ref(momentum, eps=1e-5):
    """(y, batch mean, unbiased var, batch mean, biased var, moving mean after, moving var after)."""
    def ref(x, scale, bias, mean, var):
        x64 = np.asarray(x, np.float64)
        mu = x64.mean(axis=bn_axes(x))
        biased = x64.var(axis=bn_axes(x))
        n = x.size // x.shape[1]
        unbiased = biased * n / (n - 1)
        y = (x64 - per_channel(mu, x)) / np.sqrt(per_channel(biased, x) + eps) \
            * per_channel(scale, x) + per_channel(bias, x)
        moved_mean = (1 - momentum) * mean + momentum * mu
        moved_var = (1 - momentum) * var + momentum * unbiased
        dtype = scale.dtype
        return (y.astype(x.dtype), mu.astype(dtype), unbiased.astype(dtype), mu.astype(dtype),
                biased.astype(dtype), moved_mean.astype(dtype), moved_var.astype(dtype))
    return ref


def bn_infer_ref(eps=1e-5):
    def ref(x, scale, bias, mean, var):
        y = (np.asarray(x, np.float64) - per_channel(mean, x)) / np.sqrt(per_channel(var, x) + eps) \
            * per_channel(scale, x) + per_channel(bias, x)
        zeros = np.zeros_like(mean)     # MindSpore 2.10's CPU kernel returns zeros for outputs 1-4
        return y.astype(x.dtype), zeros, zeros, zeros, zeros
    return ref


def bn_train_and_read(momentum, eps=1e-5):
    """Run BatchNorm in training mode, then read back the moving statistics it updated in place."""
    prim = ops.BatchNorm(True, eps, momentum)

    def run(x, scale, bias, mean, var):
        return prim(x, scale, bias, mean, var) + (mean, var)
    return run


def bn_grad(training, eps=1e-5):
    """BatchNormGrad given the statistics BatchNorm normalised with: in training the batch's own
    (computed here from x), in inference the ``mean`` / ``var`` inputs."""
    prim = ops.BatchNormGrad(training, eps)

    def run(dy, x, scale, mean, var):
        if training:
            axes = (0,) + tuple(range(2, len(x.shape)))
            mean = ops.ReduceMean()(x, axes)
            var = ops.ReduceMean()(ops.square(x - ops.ReduceMean(True)(x, axes)), axes)
        return prim(dy, x, scale, mean, var)
    return run


def bn_grad_ref(training, eps=1e-5):
    """(dx, dscale, dbias) of y = x̂·scale + bias, x̂ = (x − μ)/√(σ² + ε) (Ioffe & Szegedy 2015,
    §3): in training μ, σ² are the batch's, so dx = scale/√(σ² + ε)·(dy − E[dy] − x̂·E[dy·x̂])."""
    def ref(dy, x, scale, mean, var):
        x64, dy64 = np.asarray(x, np.float64), np.asarray(dy, np.float64)
        axes = bn_axes(x)
        if training:
            mean, var = x64.mean(axis=axes), x64.var(axis=axes)
        inv_std = 1 / np.sqrt(per_channel(var, x) + eps)
        x_hat = (x64 - per_channel(mean, x)) * inv_std
        dx = dy64
        if training:
            dx = dy64 - dy64.mean(axis=axes, keepdims=True) \
                - x_hat * (dy64 * x_hat).mean(axis=axes, keepdims=True)
        dx = per_channel(scale, x) * inv_std * dx
        dtype = scale.dtype
        return (dx.astype(x.dtype), (dy64 * x_hat).sum(axis=axes).astype(dtype),
                dy64.sum(axis=axes).astype(dtype))
    return ref


def bn_grad_inputs(x_shape):
    """dy, x, scale, moving mean, moving variance (> 0)."""
    def make(rng):
        return [rng.standard_normal(x_shape).astype(np.float32)] + bn_inputs(x_shape)(rng)[:2] \
            + bn_inputs(x_shape)(rng)[3:]
    return make


def first_output(fn):
    """Only output 0 (the outputs whose cotangent MindSpore's bprop uses)."""
    def run(*args):
        return fn(*args)[0]
    return run


def softmax_ce_ref(logits, labels):
    log_p = log_softmax_ref(logits)
    loss = -np.sum(labels * log_p, axis=-1)
    return loss.astype(logits.dtype), (np.exp(log_p) - labels).astype(logits.dtype)


def sparse_ce_ref(is_grad=False):
    def ref(logits, labels):
        log_p = log_softmax_ref(logits)
        onehot = np.eye(logits.shape[-1])[labels]
        if is_grad:
            return ((np.exp(log_p) - onehot) / labels.size).astype(logits.dtype)
        return np.asarray(-np.sum(onehot * log_p) / labels.size, logits.dtype)
    return ref


def one_hot_rows(classes, *batch):
    """Random logits and one-hot labels (float32)."""
    def make(rng):
        logits = rng.standard_normal(batch + (classes,)).astype(np.float32)
        labels = np.eye(classes, dtype=np.float32)[rng.integers(0, classes, batch)]
        return [logits, labels]
    return make


def logits_and_labels(classes, batch, dtype=np.int32):
    def make(rng):
        return [rng.standard_normal(batch + (classes,)).astype(np.float32),
                rng.integers(0, classes, batch).astype(dtype)]
    return make


def nll_inputs(rows, classes, labels=None):
    """Log-probabilities (N, C), labels (N,) (given, or random), positive class weights (C,)."""
    def make(rng):
        logits = rng.standard_normal((rows, classes))
        log_p = (logits - np.log(np.exp(logits).sum(-1, keepdims=True))).astype(np.float32)
        chosen = i32(labels) if labels is not None else \
            rng.integers(0, classes, rows).astype(np.int32)
        return [log_p, chosen, rng.uniform(0.5, 2.0, classes).astype(np.float32)]
    return make


def nll_ref(reduction="mean", ignore_index=-100):
    """(loss, total_weight): lossₙ = −w[yₙ]·xₙ,yₙ, 0 for ignored samples; 'mean' ÷ Σ w[yₙ]."""
    def ref(x, labels, weight):
        kept = labels != ignore_index
        safe = np.where(kept, labels, 0)
        w = np.where(kept, weight[safe].astype(np.float64), 0.0)
        losses = -w * x[np.arange(len(labels)), safe]
        total = w.sum()
        loss = {"none": losses, "sum": losses.sum(), "mean": losses.sum() / total}[reduction]
        return np.asarray(loss, x.dtype), np.asarray(total, weight.dtype)
    return ref


def nll_grad(reduction="mean", ignore_index=-100):
    """NLLLossGrad(x, dloss, labels, weight, total_weight) with total_weight from NLLLoss."""
    def run(x, dloss, labels, weight):
        total_weight = ops.NLLLoss(reduction, ignore_index)(x, labels, weight)[1]
        return ops.NLLLossGrad(reduction, ignore_index)(x, dloss, labels, weight, total_weight)
    return run


def nll_grad_ref(reduction="mean", ignore_index=-100):
    def ref(x, dloss, labels, weight):
        kept = labels != ignore_index
        safe = np.where(kept, labels, 0)
        w = np.where(kept, weight[safe].astype(np.float64), 0.0)
        scale = np.asarray(dloss, np.float64) / (w.sum() if reduction == "mean" else 1.0)
        dx = np.zeros(x.shape)
        dx[np.arange(len(labels)), safe] = -w * scale
        return dx.astype(x.dtype)
    return ref


def nll_grad_inputs(rows, classes, reduction, labels):
    def make(rng):
        x, chosen, weight = nll_inputs(rows, classes, labels)(rng)
        dloss = rng.standard_normal(rows if reduction == "none" else ()).astype(np.float32)
        return [x, np.asarray(dloss, np.float32), chosen, weight]
    return make


# -- the rows ----------------------------------------------------------------------------------------

SOFTMAX_EXAMPLE = f32([[-1.0, 0.0, 2.0], [1000.0, 0.0, -3.0]])

ACTIVATION = [
    OpRow("ReLU", ops.ReLU(), lambda x: np.maximum(x, 0), away_from_zero((3, 4)),
          errors=[([np.array([1 + 1j, -1j], np.complex64)], TypeError)]),
    OpRow("ReLU", ops.relu, lambda x: x, [np.array([True, False])], id="ReLU-bool"),
    OpRow("ReLU", ops.relu, lambda x: np.maximum(x, 0), [i32([-2, 0, 3])], id="ReLU-int32"),
    OpRow("ReLU", ops.relu, lambda x: np.maximum(x, 0), [f32([-1.0, 0.0, 2.0])], grad=False,
          id="ReLU-zero"),
    OpRow("ReluGrad", ops.ReluGrad(), relu_grad_ref,
          lambda rng: randn((3, 4))(rng) + away_from_zero((3, 4))(rng),
          errors=[([ones(2, 3), ones(3)], ValueError), ([ones(2, 3), ones(3, 2)], ValueError),
                  ([ones(3), i32([1, -1, 0])], TypeError),
                  ([np.ones(2, np.complex64), np.ones(2, np.complex64)], TypeError)]),
    OpRow("ReluGrad", ops.ReluGrad(), relu_grad_ref,
          [f32([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]), f32([np.nan, 0.0, -0.0, np.inf, -np.inf, 1e-30])],
          grad=False, id="ReluGrad-nan-and-zero-give-0"),
    OpRow("ReluGrad", ops.ReluGrad(), relu_grad_ref,
          lambda rng: randn((2, 3, 5), dtype=np.float64)(rng) + randn((2, 3, 5), dtype=np.float64)(rng),
          grad=False, id="ReluGrad-float64"),
    OpRow("ReluGrad", ops.ReluGrad(), relu_grad_ref, [i32([5, 6, 7]), np.array([1, -1, 0], np.int64)],
          id="ReluGrad-int32-int64"),
    OpRow("ReluGrad", ops.ReluGrad(), relu_grad_ref,
          [np.ones(3, np.float16), f32([1.0, -1.0, 0.0])], grad=False,
          id="ReluGrad-float16-mask-float32"),
    OpRow("ReluGrad", relu_cubed_slope, lambda x: (3 * np.maximum(x, 0) ** 2).astype(x.dtype),
          away_from_zero((3, 4)), rtol=1e-5, atol=1e-5, id="ReluGrad-second-order"),
    OpRow("Sigmoid", ops.Sigmoid(), as_dtype_of(lambda x: 1 / (1 + np.exp(-np.float64(x)))),
          randn((3, 4)), errors=[([i32([1, 2])], TypeError)]),
    OpRow("Sigmoid", ops.sigmoid, lambda x: np.array([0.0, 0.5, 1.0], np.float32),
          [f32([-1000.0, 0.0, 1000.0])], id="Sigmoid-saturates-without-overflow"),
    OpRow("Tanh", ops.Tanh(), as_dtype_of(np.tanh), randn((3, 4)),
          errors=[([i32([1, 2])], TypeError)]),
    OpRow("Tanh", ops.tanh, as_dtype_of(np.tanh), randn((5,), dtype=np.float64), id="Tanh-float64"),
    OpRow("GeLU", ops.GeLU(), as_dtype_of(gelu_tanh_ref), randn((3, 4)),
          errors=[([i32([1, 2])], TypeError)]),
    OpRow("GeLU", lambda x: ops.gelu(x, approximate="tanh"), as_dtype_of(gelu_tanh_ref),
          randn((6,)), id="gelu-tanh"),
    OpRow("Erf", ops.gelu, as_dtype_of(gelu_erf_ref), randn((3, 4)), atol=1e-6,
          errors=[([i32([1, 2])], TypeError)], id="gelu-none-is-erf"),
    OpRow("Softmax", ops.Softmax(), as_dtype_of(softmax_ref), randn((3, 5)),
          errors=[([i32([1, 2])], TypeError)]),
    OpRow("Softmax", ops.Softmax(0), as_dtype_of(lambda x: softmax_ref(x, 0)), randn((3, 5)),
          id="Softmax-axis0"),
    OpRow("Softmax", ops.Softmax((0, 2)), as_dtype_of(lambda x: softmax_ref(x, (0, 2))),
          randn((2, 3, 4)), id="Softmax-two-axes"),
    OpRow("Softmax", ops.softmax, as_dtype_of(softmax_ref), [SOFTMAX_EXAMPLE],
          id="Softmax-large-logits"),
    OpRow("Softmax", ops.Softmax(2), as_dtype_of(lambda x: softmax_ref(x, 2)), randn((3, 4, 2)),
          errors=[([ones(3, 5)], ValueError)], id="Softmax-axis2-out-of-range-for-2d"),
    OpRow("LogSoftmax", ops.LogSoftmax(), as_dtype_of(log_softmax_ref), randn((3, 5)),
          errors=[([i32([1, 2])], TypeError)]),
    OpRow("LogSoftmax", ops.LogSoftmax(0), as_dtype_of(lambda x: log_softmax_ref(x, 0)),
          randn((3, 5)), id="LogSoftmax-axis0"),
    OpRow("LogSoftmax", ops.log_softmax, as_dtype_of(log_softmax_ref), [SOFTMAX_EXAMPLE],
          id="LogSoftmax-large-logits-stay-finite"),
]

CONV_SAME_EXAMPLE = np.arange(9, dtype=np.float32).reshape(1, 1, 3, 3)


def conv_with_pad_mode(x, w, pad_mode):
    return ops.Conv2D(4, 3, pad_mode=pad_mode)(x, w)


def conv_with_pad_mode_ref(x, w, pad_mode):
    return conv_ref(4, 3, pad_mode)(x, w)


def conv2d_functional_ref(x, w, b):
    pads = (1, 1, 2, 2)
    return (naive_conv2d(x, w, (1, 1), pads) + b.reshape(1, -1, 1, 1)).astype(x.dtype)


def backprop_input_ref(x_shape, **attrs):
    stride = _pair(attrs.get("stride", 1))
    dilation = _pair(attrs.get("dilation", 1))

    def ref(dout, w):
        pads = conv_pads(x_shape, w.shape, attrs.get("pad_mode", "valid"), attrs.get("pad", 0),
                         stride, dilation)
        return naive_conv2d_backprop_input(dout, w, x_shape, stride, pads, dilation,
                                           attrs.get("group", 1)).astype(dout.dtype)
    return ref


def backprop_filter_ref(w_shape, **attrs):
    stride = _pair(attrs.get("stride", 1))
    dilation = _pair(attrs.get("dilation", 1))

    def ref(dout, x):
        pads = conv_pads(x.shape, w_shape, attrs.get("pad_mode", "valid"), attrs.get("pad", 0),
                         stride, dilation)
        return naive_conv2d_backprop_filter(dout, x, w_shape, stride, pads, dilation,
                                            attrs.get("group", 1)).astype(dout.dtype)
    return ref


BACKPROP_ATTRS = dict(pad_mode="same", stride=2)
BACKPROP_INPUT = ops.Conv2DBackpropInput(4, 3, **BACKPROP_ATTRS)
BACKPROP_FILTER = ops.Conv2DBackpropFilter(4, 3, **BACKPROP_ATTRS)
GROUPED_ATTRS = dict(pad_mode="pad", pad=(1, 0, 0, 2), stride=(1, 2), dilation=(2, 1), group=2)

CONV = [
    OpRow("Conv2D", *conv(4, 3), randn((2, 3, 6, 5), (4, 3, 3, 3)), rtol=1e-4, atol=1e-5,
          errors=[([ones(2, 2, 6, 5), ones(4, 3, 3, 3)], RuntimeError),      # 2 channels, w wants 3
                  ([ones(2, 3, 6, 5), ones(5, 3, 3, 3)], RuntimeError),      # out_channel 4 vs 5
                  ([ones(2, 3, 6, 5), ones(4, 3, 2, 2)], RuntimeError),      # kernel 3 vs 2
                  ([ones(3, 6, 5), ones(4, 3, 3, 3)], ValueError),           # x rank 3
                  ([ones(2, 3, 6, 5), ones(4, 3, 3)], ValueError),           # w rank 3
                  ([ones(2, 3, 2, 2), ones(4, 3, 3, 3)], ValueError),        # kernel > input
                  ([ones(2, 3, 6, 5, dtype=np.int32), ones(4, 3, 3, 3, dtype=np.int32)], TypeError),
                  ([ones(2, 3, 6, 5), ones(4, 3, 3, 3, dtype=np.float16)], TypeError)]),
    OpRow("Conv2D", *conv(4, 3, pad_mode="same"), randn((2, 3, 5, 6), (4, 3, 3, 3)),
          rtol=1e-4, atol=1e-5, id="Conv2D-same"),
    OpRow("Conv2D", *conv(4, 3, pad_mode="same", stride=2), randn((2, 3, 6, 7), (4, 3, 3, 3)),
          rtol=1e-4, atol=1e-5, id="Conv2D-same-stride2"),
    OpRow("Conv2D", *conv(4, (2, 3), pad_mode="same", stride=(2, 1), dilation=2),
          randn((1, 3, 7, 6), (4, 3, 2, 3)), rtol=1e-4, atol=1e-5, id="Conv2D-same-dilated"),
    OpRow("Conv2D", *conv(4, 3, pad_mode="pad", pad=(1, 0, 2, 1), stride=(2, 1), dilation=(1, 2)),
          randn((2, 3, 6, 6), (4, 3, 3, 3)), rtol=1e-4, atol=1e-5, id="Conv2D-pad-4tuple"),
    OpRow("Conv2D", *conv(6, 3, **GROUPED_ATTRS), randn((2, 4, 7, 6), (6, 2, 3, 3)),
          rtol=1e-4, atol=1e-5, id="Conv2D-group2",
          errors=[([ones(2, 6, 7, 6), ones(6, 2, 3, 3)], RuntimeError)]),
    OpRow("Conv2D", *conv(2, 3, pad_mode="pad", pad=1), randn((1, 2, 4, 4), (2, 2, 3, 3),
                                                                dtype=np.float64),
          id="Conv2D-float64"),
    OpRow("Conv2D", ops.Conv2D(1, 2, pad_mode="same"),
          lambda x, w: f32([[[[8, 12, 7], [20, 24, 13], [13, 15, 8]]]]),
          [CONV_SAME_EXAMPLE, ones(1, 1, 2, 2)], id="Conv2D-same-odd-cell-bottom-right"),
    OpRow("Conv2D", conv_with_pad_mode, conv_with_pad_mode_ref,
          with_constants(randn((1, 3, 5, 5), (4, 3, 3, 3)), "valid"), rtol=1e-4, atol=1e-5,
          errors=[([ones(1, 3, 5, 5), ones(4, 3, 3, 3), "SAME"], ValueError),
                  ([ones(1, 3, 5, 5), ones(4, 3, 3, 3), "full"], ValueError)],
          id="Conv2D-pad-mode-is-lowercase"),
    OpRow("Conv2D", lambda x, w: ops.conv2d(x, w, None, 1, "same"), conv_ref(4, 3, "same"),
          randn((1, 3, 5, 5), (4, 3, 3, 3)), rtol=1e-4, atol=1e-5, id="conv2d-functional"),
    OpRow("Conv2D", lambda x, w, b: ops.conv2d(x, w, b, pad_mode="pad", padding=(1, 2)),
          conv2d_functional_ref, randn((2, 3, 4, 5), (4, 3, 3, 3), (4,)), rtol=1e-4, atol=1e-5,
          errors=[([ones(2, 3, 4, 5), ones(4, 3, 3, 3), ones(3)], ValueError)],
          id="conv2d-functional-bias-padding-pair"),
    OpRow("Conv2DBackpropInput", lambda d, w: BACKPROP_INPUT(d, w, (2, 3, 7, 6)),
          backprop_input_ref((2, 3, 7, 6), **BACKPROP_ATTRS), randn((2, 4, 4, 3), (4, 3, 3, 3)),
          rtol=1e-4, atol=1e-5,
          errors=[([ones(2, 4, 5, 3), ones(4, 3, 3, 3)], ValueError),       # dout shape
                  ([ones(2, 4, 4, 3), ones(4, 3, 2, 2)], RuntimeError)]),    # kernel size
    OpRow("Conv2DBackpropInput",
          lambda d, w: ops.Conv2DBackpropInput(6, 3, **GROUPED_ATTRS)(d, w, (2, 4, 7, 6)),
          backprop_input_ref((2, 4, 7, 6), **GROUPED_ATTRS), randn((2, 6, 4, 3), (6, 2, 3, 3)),
          rtol=1e-4, atol=1e-5, id="Conv2DBackpropInput-group2"),
    OpRow("Conv2DBackpropFilter", lambda d, x: BACKPROP_FILTER(d, x, (4, 3, 3, 3)),
          backprop_filter_ref((4, 3, 3, 3), **BACKPROP_ATTRS), randn((2, 4, 4, 3), (2, 3, 7, 6)),
          rtol=1e-4, atol=1e-5,
          errors=[([ones(2, 4, 4, 4), ones(2, 3, 7, 6)], ValueError)]),
    OpRow("Conv2DBackpropFilter",
          lambda d, x: ops.Conv2DBackpropFilter(6, 3, **GROUPED_ATTRS)(d, x, (6, 2, 3, 3)),
          backprop_filter_ref((6, 2, 3, 3), **GROUPED_ATTRS), randn((2, 6, 4, 3), (2, 4, 7, 6)),
          rtol=1e-4, atol=1e-5, id="Conv2DBackpropFilter-group2"),
]


def max_pool_grad(kernel, stride, pad_mode):
    """MaxPoolGrad(x, MaxPool(x), dout)."""
    def run(x, dout):
        return ops.MaxPoolGrad(kernel, stride, pad_mode)(x, ops.MaxPool(kernel, stride, pad_mode)(x),
                                                         dout)
    return run


def max_pool_grad_ref(kernel, stride, pad_mode):
    def ref(x, dout):
        pads = _pool_pads(x.shape, _pair(kernel), _pair(stride), pad_mode)
        return naive_max_pool_grad(x, dout, kernel, stride, pads)
    return ref


def max_pool_grad_grad(kernel, stride, pad_mode):
    def run(x, ddx):
        out = ops.MaxPool(kernel, stride, pad_mode)(x)
        return ops.MaxPoolGradGrad(kernel, stride, pad_mode)(x, out, ddx)
    return run


def max_pool_grad_grad_ref(kernel, stride, pad_mode):
    def ref(x, ddx):
        pads = _pool_pads(x.shape, _pair(kernel), _pair(stride), pad_mode)
        _, arg = naive_max_pool(x, kernel, stride, pads)
        flat = ddx.reshape(ddx.shape[:2] + (-1,))
        return np.take_along_axis(flat, arg.reshape(arg.shape[:2] + (-1,)), 2).reshape(arg.shape)
    return ref


def avg_pool_grad(kernel, stride, pad_mode):
    def run(x, dout):
        return ops.AvgPoolGrad(kernel, stride, pad_mode)(x, ops.AvgPool(kernel, stride, pad_mode)(x),
                                                         dout)
    return run


def avg_pool_grad_ref(kernel, stride, pad_mode):
    def ref(x, dout):
        pads = _pool_pads(x.shape, _pair(kernel), _pair(stride), pad_mode)
        return naive_avg_pool_grad(x.shape, dout, kernel, stride, pads)
    return ref


def max_pool2d_indices_ref(x):
    """(y, argmax) of a 3×3, stride-2 max pool with one cell of padding all round."""
    return naive_max_pool(x, 3, 2, (1, 1, 1, 1))


def ceil_pads(x_shape, kernel, stride, padding):
    """Symmetric padding plus the extra bottom/right cells ceil_mode windows reach."""
    pads = []
    for size in x_shape[2:]:
        out = math.ceil((size + 2 * padding - kernel) / stride) + 1
        if (out - 1) * stride >= size + padding:
            out -= 1
        pads += [padding, padding + max((out - 1) * stride + kernel - size - 2 * padding, 0)]
    return tuple(pads)


def pool_with_pad_mode(x, pad_mode):
    return ops.MaxPool(2, 2, pad_mode)(x)


TIES = f32([[[[1.0, 2.0, 2.0], [0.0, 2.0, 1.0], [2.0, 0.0, 0.0]]]])

POOL = [
    OpRow("MaxPool", ops.MaxPool(2, 2), pool_ref("max", 2, 2), distinct((2, 3, 6, 5)),
          errors=[([ones(3, 6, 5)], ValueError),
                  ([ones(2, 3, 6, 5, dtype=np.int32)], TypeError),
                  ([ones(2, 3, 1, 5)], ValueError)]),
    OpRow("MaxPool", ops.MaxPool(3, 2, "same"), pool_ref("max", 3, 2, "SAME"),
          distinct((2, 3, 7, 6)), id="MaxPool-same"),
    OpRow("MaxPool", ops.MaxPool((3, 2), (1, 2), "SAME"), pool_ref("max", (3, 2), (1, 2), "SAME"),
          distinct((1, 2, 5, 5)), id="MaxPool-same-rectangular"),
    OpRow("MaxPool", ops.MaxPool(2, 2), pool_ref("max", 2, 2),
          [np.arange(16, dtype=np.float64).reshape(1, 1, 4, 4)], id="MaxPool-float64"),
    OpRow("MaxPool", pool_with_pad_mode, lambda x, mode: pool_ref("max", 2, 2, mode)(x),
          with_constants(distinct((1, 2, 4, 4)), "valid"),
          errors=[([ones(1, 2, 4, 4), "pad"], ValueError)], id="MaxPool-pad-mode-valid-or-same"),
    OpRow("MaxPoolGrad", max_pool_grad(2, 1, "VALID"), max_pool_grad_ref(2, 1, "VALID"),
          [TIES, f32([[[[1.0, 10.0], [100.0, 1000.0]]]])], grad_inputs=(1,),
          id="MaxPoolGrad-ties-go-to-first-max"),
    OpRow("MaxPoolGrad", max_pool_grad(3, 2, "same"), max_pool_grad_ref(3, 2, "same"),
          lambda rng: distinct((2, 2, 7, 6))(rng) + randn((2, 2, 4, 3))(rng), grad_inputs=(1,)),
    OpRow("MaxPoolGradGrad", max_pool_grad_grad(3, 2, "same"), max_pool_grad_grad_ref(3, 2, "same"),
          lambda rng: distinct((2, 2, 7, 6))(rng) + randn((2, 2, 7, 6))(rng), grad_inputs=(1,)),
    OpRow("MaxPoolWithArgmaxV2", lambda x: ops.max_pool2d(x, 3, 2, padding=1, return_indices=True),
          max_pool2d_indices_ref, distinct((2, 2, 5, 6)), out_dtype=(None, "Int64"),
          errors=[([ones(2, 5, 6)], ValueError)]),
    OpRow("MaxPoolWithArgmaxV2", lambda x: ops.max_pool2d(x, 3, 2, padding=1, ceil_mode=True),
          lambda x: naive_max_pool(x, 3, 2, ceil_pads(x.shape, 3, 2, 1))[0],
          distinct((1, 2, 6, 7)), id="max_pool2d-ceil-mode"),
    OpRow("MaxPoolWithArgmaxV2", lambda x: ops.max_pool2d(x, 2, padding=(1, 0)),
          lambda x: naive_max_pool(x, 2, 2, (1, 1, 0, 0))[0], distinct((1, 2, 5, 5)),
          id="max_pool2d-padding-pair"),
    OpRow("AvgPool", ops.AvgPool(2, 2), pool_ref("avg", 2, 2), randn((2, 3, 6, 5)),
          errors=[([ones(3, 6, 5)], ValueError),
                  ([ones(2, 3, 6, 5, dtype=np.int32)], TypeError)]),
    OpRow("AvgPool", ops.AvgPool(3, 2, "same"), pool_ref("avg", 3, 2, "SAME"), randn((2, 3, 7, 6)),
          id="AvgPool-same-excludes-padding"),
    OpRow("AvgPool", ops.AvgPool((2, 3), (2, 1), "same"), pool_ref("avg", (2, 3), (2, 1), "SAME"),
          randn((1, 2, 5, 5), dtype=np.float64), id="AvgPool-same-rectangular-float64"),
    OpRow("AvgPool", lambda x: ops.avg_pool2d(x, 3, 2, padding=1),
          lambda x: naive_avg_pool(x, 3, 2, (1, 1, 1, 1), padded_input_cells(x.shape, 3, 2, 1)),
          randn((1, 2, 6, 7)), id="avg_pool2d-count-include-pad"),
    OpRow("AvgPool", lambda x: ops.avg_pool2d(x, 3, 2, padding=1, count_include_pad=False),
          lambda x: naive_avg_pool(x, 3, 2, (1, 1, 1, 1)), randn((1, 2, 6, 7)),
          id="avg_pool2d-exclude-pad"),
    OpRow("AvgPool", lambda x: ops.avg_pool2d(x, 2, 2, ceil_mode=True),
          lambda x: naive_avg_pool(x, 2, 2, ceil_pads(x.shape, 2, 2, 0)), randn((1, 2, 5, 5)),
          id="avg_pool2d-ceil-mode"),
    OpRow("AvgPool", lambda x: ops.avg_pool2d(x, 2, 2, padding=1, divisor_override=3),
          lambda x: naive_avg_pool(x, 2, 2, (1, 1, 1, 1), lambda *window: 3), randn((1, 2, 4, 5)),
          errors=[([ones(1, 2, 4, 5, dtype=np.int32)], TypeError)],
          id="avg_pool2d-divisor-override"),
    OpRow("AvgPoolGrad", avg_pool_grad(3, 2, "same"), avg_pool_grad_ref(3, 2, "same"),
          randn((2, 2, 7, 6), (2, 2, 4, 3)), grad_inputs=(1,)),
]

BN_EXAMPLE = [np.arange(1, 9, dtype=np.float32).reshape(2, 1, 2, 2), f32([1.0]), f32([0.0]),
              f32([0.0]), f32([1.0])]


def bn_inputs(x_shape):
    """x, scale, bias, moving mean, moving variance (> 0)."""
    def make(rng):
        channels = x_shape[1]
        x = (rng.standard_normal(x_shape) * 2 + 1).astype(np.float32)
        scale, bias, mean = (rng.standard_normal(channels).astype(np.float32) for _ in range(3))
        var = (np.abs(rng.standard_normal(channels)) + 0.5).astype(np.float32)
        return [x, scale, bias, mean, var]
    return make


BN_TRAIN = ops.BatchNorm(is_training=True, epsilon=1e-5, momentum=0.1)
BN_INFER = ops.BatchNorm()

BATCH_NORM = [
    OpRow("BatchNorm", bn_train_and_read(0.1), bn_train_ref(0.1), bn_inputs((4, 3, 2, 5)),
          grad=False, rtol=1e-4, atol=1e-5, id="BatchNorm-train-outputs-and-moving-update",
          errors=[([ones(4), ones(1), ones(1), ones(1), ones(1)], ValueError),       # rank 1
                  ([ones(2, 1, 2, 2, 2), ones(1), ones(1), ones(1), ones(1)], ValueError),
                  ([ones(2, 3, 2, 2), ones(2), ones(3), ones(3), ones(3)], ValueError),
                  ([ones(2, 3, 2, 2, dtype=np.int32), ones(3), ones(3), ones(3), ones(3)],
                   TypeError),
                  ([ones(2, 3, 2, 2), ones(3), ones(3, dtype=np.float16), ones(3), ones(3)],
                   TypeError)]),
    OpRow("BatchNorm", bn_train_and_read(1 - 0.9),
          lambda *a: (f32([[[[-1.5275238, -1.0910884], [-0.6546531, -0.2182177]]],
                           [[[0.2182177, 0.6546531], [1.0910884, 1.5275238]]]]),
                      f32([4.5]), f32([6.0]), f32([4.5]), f32([5.25]), f32([0.45]), f32([1.5])),
          BN_EXAMPLE, grad=False, id="BatchNorm-nn-momentum-0.9-example"),
    OpRow("BatchNorm", first_output(BN_TRAIN), lambda *a: bn_train_ref(0.1)(*a)[0],
          bn_inputs((4, 3, 2, 5)), grad_inputs=(0, 1, 2), rtol=1e-4, atol=1e-5,
          id="BatchNorm-train-gradient"),
    OpRow("BatchNorm", first_output(BN_TRAIN), lambda *a: bn_train_ref(0.1)(*a)[0],
          bn_inputs((6, 2)), grad_inputs=(0, 1, 2), rtol=1e-4, atol=1e-5,
          id="BatchNorm-train-2d"),
    OpRow("BatchNorm", first_output(BN_TRAIN), lambda *a: bn_train_ref(0.1)(*a)[0],
          bn_inputs((3, 2, 4)), grad_inputs=(0, 1, 2), rtol=1e-4, atol=1e-5,
          id="BatchNorm-train-3d"),
    OpRow("BatchNorm", BN_INFER, bn_infer_ref(), bn_inputs((4, 3, 2, 5)), grad_inputs=(0, 1, 2),
          domain="positive", rtol=1e-4, atol=1e-5, id="BatchNorm-inference"),
    OpRow("BatchNorm", lambda x, s, b, m, v: ops.batch_norm(x, m, v, s, b),
          lambda *a: bn_infer_ref()(*a)[0], bn_inputs((2, 3, 2, 2)), grad_inputs=(0, 1, 2),
          domain="positive", rtol=1e-4, atol=1e-5, id="batch_norm-functional"),
]

BATCH_NORM_GRAD = [
    OpRow("BatchNormGrad", bn_grad(True), bn_grad_ref(True), bn_grad_inputs((4, 3, 2, 5)),
          grad_inputs=(0, 1, 2), rtol=1e-4, atol=1e-5, id="BatchNormGrad-train-second-order"),
    OpRow("BatchNormGrad", bn_grad(True), bn_grad_ref(True), bn_grad_inputs((5, 2)),
          grad_inputs=(0, 1, 2), rtol=1e-4, atol=1e-5, id="BatchNormGrad-train-2d"),
    OpRow("BatchNormGrad", bn_grad(False), bn_grad_ref(False), bn_grad_inputs((3, 2, 3, 2)),
          grad_inputs=(0, 1, 2), rtol=1e-4, atol=1e-5, id="BatchNormGrad-inference-second-order"),
]

LOSS_LOGITS = f32([[1, 2, 3], [1, 1, 1]])

LOSS = [
    OpRow("SoftmaxCrossEntropyWithLogits", ops.SoftmaxCrossEntropyWithLogits(), softmax_ce_ref,
          one_hot_rows(5, 4), grad=False, rtol=1e-5, atol=1e-6,
          errors=[([ones(2, 3), ones(2, 4)], ValueError),
                  ([ones(3), ones(3)], ValueError),
                  ([ones(2, 2, 3), ones(2, 2, 3)], ValueError),
                  ([ones(2, 3), ones(2, 3, dtype=np.float16)], TypeError),
                  ([ones(2, 3, dtype=np.int32), ones(2, 3, dtype=np.int32)], TypeError)]),
    OpRow("SoftmaxCrossEntropyWithLogits", first_output(ops.SoftmaxCrossEntropyWithLogits()),
          lambda lg, lb: softmax_ce_ref(lg, lb)[0], one_hot_rows(5, 4), grad_inputs=(0,),
          id="SoftmaxCrossEntropyWithLogits-loss-gradient"),
    OpRow("SoftmaxCrossEntropyWithLogits", ops.SoftmaxCrossEntropyWithLogits(),
          lambda lg, lb: (f32([2000.0]), f32([[1.0, 0.0, -1.0]])),
          [f32([[1000.0, 0.0, -1000.0]]), f32([[0.0, 0.0, 1.0]])], grad=False,
          id="SoftmaxCrossEntropyWithLogits-large-logits"),
    OpRow("SparseSoftmaxCrossEntropyWithLogits", ops.SparseSoftmaxCrossEntropyWithLogits(),
          sparse_ce_ref(), logits_and_labels(5, (4,)),
          errors=[([ones(2, 3), f32([2.0, 0.0])], TypeError),
                  ([ones(2, 3), i32([[2], [0]])], ValueError),
                  ([ones(2, 3), i32([2, 0, 1])], ValueError),
                  ([ones(2, 3), i32([3, 0])], RuntimeError),
                  ([ones(2, 3), i32([-1, 0])], RuntimeError)]),
    OpRow("SparseSoftmaxCrossEntropyWithLogits", ops.SparseSoftmaxCrossEntropyWithLogits(),
          lambda lg, lb: np.float32(0.75310886), [LOSS_LOGITS, i32([2, 0])],     # ran 2.10 (CPU)
          id="SparseSoftmaxCrossEntropyWithLogits-doc-example"),
    OpRow("SparseSoftmaxCrossEntropyWithLogits", ops.SparseSoftmaxCrossEntropyWithLogits(),
          sparse_ce_ref(), logits_and_labels(4, (2, 3), np.int64),
          id="SparseSoftmaxCrossEntropyWithLogits-3d-int64"),
    OpRow("SparseSoftmaxCrossEntropyWithLogits", ops.SparseSoftmaxCrossEntropyWithLogits(True),
          sparse_ce_ref(is_grad=True), logits_and_labels(5, (4,)),
          id="SparseSoftmaxCrossEntropyWithLogits-is-grad"),
    OpRow("SparseSoftmaxCrossEntropyWithLogits", ops.SparseSoftmaxCrossEntropyWithLogits(),
          lambda lg, lb: np.float32(2000.0), [f32([[1000.0, 0.0, -1000.0]]), i32([2])],
          id="SparseSoftmaxCrossEntropyWithLogits-large-logits"),
]


NLL = [
    OpRow("NLLLoss", ops.NLLLoss(), nll_ref(), nll_inputs(5, 4), grad_inputs=(0,),
          errors=[([ones(2, 3), i32([2, 3]), ones(3)], ValueError),         # label 3 of 3 classes
                  ([ones(2, 3, 1), i32([2, 0]), ones(3)], RuntimeError),
                  ([ones(2, 3), f32([2.0, 0.0]), ones(3)], TypeError),
                  ([ones(2, 3), i32([2, 0]), ones(2)], RuntimeError)]),
    OpRow("NLLLoss", ops.NLLLoss("sum", ignore_index=1), nll_ref("sum", 1),
          nll_inputs(4, 3, [1, 0, 2, 1]), grad_inputs=(0,), id="NLLLoss-sum-ignore-index"),
    OpRow("NLLLoss", ops.NLLLoss("none", ignore_index=0), nll_ref("none", 0),
          nll_inputs(4, 3, [2, 0, 1, 2]), grad_inputs=(0,), id="NLLLoss-none-ignore-index"),
    OpRow("NLLLoss", ops.NLLLoss("mean", ignore_index=0),
          lambda *a: (np.float32(0.425), np.float32(4.0)),                     # ran 2.10
          [f32([[-1.0, -2.0, -0.5], [-0.3, -1.2, -2.2], [-0.1, -0.2, -0.3]]), i32([2, 0, 1]),
           f32([0.2, 1.0, 3.0])], grad_inputs=(0,), id="NLLLoss-mean-weight-ignore-example"),
    OpRow("NLLLossGrad", nll_grad("mean", 2), nll_grad_ref("mean", 2),
          nll_grad_inputs(4, 3, "mean", [2, 0, 1, 1]), grad_inputs=(1,),
          id="NLLLossGrad-mean-second-order"),
    OpRow("NLLLossGrad", nll_grad("none"), nll_grad_ref("none"),
          nll_grad_inputs(4, 3, "none", [2, 0, 1, 1]), grad_inputs=(1,),
          id="NLLLossGrad-none-second-order"),
]


def uniform_real_property(out, shape):
    return out.shape == tuple(shape) and np.all((out >= 0) & (out < 1)) and np.unique(out).size > 1


def standard_normal_property(out, shape):
    return out.shape == tuple(shape) and abs(out.mean()) < 0.05 and abs(out.std() - 1) < 0.05


def uniform_int_property(out, shape, low, high):
    return out.shape == tuple(shape) and np.all((out >= low) & (out < high)) and \
        set(np.unique(out)) == set(range(int(low), int(high)))


def dropout_property(keep_prob):
    def check(out, x):
        y, mask = out
        kept = np.isin(mask, (0, 1)).all()
        return kept and np.allclose(y, x * mask / keep_prob) and 0 < mask.mean() < 1
    return check


def seeded_dropout_ref(keep_prob, seed0, seed1):
    """refms's documented stream: PCG64 seeded with (Seed0, Seed1), mask = U[0, 1) < keep_prob.

    Other implementations choose their own stream, so the row is ``specific_to="refms"``.
    """
    def ref(x):
        rng = np.random.default_rng(np.random.PCG64([seed0, seed1]))
        mask = (rng.random(x.shape) < keep_prob).astype(x.dtype)
        return x * mask / np.asarray(keep_prob, x.dtype), mask
    return ref


def channel_dropout_property(keep_prob):
    """One keep/drop decision per (sample, channel), Bool mask, y = x · mask / keep_prob."""
    def check(out, x):
        y, mask = out
        per_channel = mask.reshape(mask.shape[:2] + (-1,))
        constant = (per_channel == per_channel[..., :1]).all()
        return (mask.dtype == np.bool_ and constant and 0 < mask.mean() < 1
                and np.allclose(y, x * mask / keep_prob))
    return check


def fixed_channel_dropout_ref(keep_prob):
    """refms's documented stream for a new Dropout2D/3D instance: PCG64(0), one U[0, 1) draw
    per (sample, channel), kept when below keep_prob (MindSpore also starts every instance from
    one fixed seed, with its own generator; the row is ``specific_to="refms"``)."""
    def ref(x):
        rng = np.random.default_rng(np.random.PCG64(0))
        keep = rng.random(x.shape[:2] + (1,) * (x.ndim - 2)) < keep_prob
        mask = np.broadcast_to(keep, x.shape)
        return x * mask / np.asarray(keep_prob, x.dtype), mask
    return ref


def repeated_calls_differ(prim):
    """Two calls of one seeded instance give different values; a new instance repeats the first."""
    def run(shape):
        first, second = prim(shape), prim(shape)
        again = type(prim)(seed=prim.seed, seed2=prim.seed2)(shape)
        return first, second, again
    return run


def repeated_calls_property(out, shape):
    first, second, again = out
    return not np.array_equal(first, second) and np.array_equal(first, again)


RANDOM = [
    OpRow("UniformReal", ops.UniformReal(seed=1, seed2=2), uniform_real_property, [(40, 50)],
          property_only=True, out_dtype="Float32",
          errors=[([(2, -3)], ValueError), ([np.array([2, 3])], TypeError)]),
    OpRow("UniformReal", repeated_calls_differ(ops.UniformReal(seed=3, seed2=4)),
          repeated_calls_property, [(5,)], property_only=True,
          id="UniformReal-instance-keeps-its-stream"),
    OpRow("UniformReal", lambda lo, hi: ops.uniform((40, 50), lo, hi, seed=7),
          lambda out, lo, hi: out.shape == (40, 50) and np.all((out >= lo) & (out < hi)),
          [np.array(-2.0, np.float32), np.array(3.0, np.float32)], property_only=True,
          errors=[([np.array(-2.0, np.float64), np.array(3.0, np.float64)], TypeError),
                  ([np.array(-2, np.int32), np.array(3.0, np.float32)], TypeError)],
          id="uniform-functional"),
    OpRow("UniformInt", lambda lo, hi: ops.uniform((40, 50), lo, hi, dtype=ms.int32),
          lambda out, lo, hi: out.dtype == np.int32 and np.all((out >= lo) & (out < hi)),
          [np.array(-2, np.int32), np.array(3, np.int32)], property_only=True,
          id="uniform-functional-int32"),
    OpRow("StandardNormal", ops.StandardNormal(seed=5, seed2=6), standard_normal_property,
          [(200, 100)], property_only=True, out_dtype="Float32",
          errors=[([(2, -1)], ValueError)]),
    OpRow("StandardNormal", lambda shape: ops.standard_normal(shape, seed=2),
          standard_normal_property, [(200, 100)], property_only=True,
          id="standard_normal-functional"),
    OpRow("UniformInt", lambda shape, lo, hi: ops.UniformInt(seed=3)(shape, lo, hi),
          uniform_int_property, [(30, 40), np.array(1, np.int32), np.array(5, np.int32)],
          property_only=True, out_dtype="Int32",
          errors=[([(3,), np.array(1, np.int64), np.array(5, np.int64)], TypeError),
                  ([(3,), 1, 5], TypeError),
                  ([(3,), np.array([1], np.int32), np.array([5], np.int32)], ValueError),
                  ([(3,), np.array(5, np.int32), np.array(1, np.int32)], RuntimeError)]),
    OpRow("Dropout", ops.Dropout(keep_prob=0.7), dropout_property(0.7), randn((40, 50)),
          property_only=True, errors=[([i32([1, 2])], TypeError)]),
    OpRow("Dropout", lambda x: ops.Dropout(0.7, 3, 4)(x), seeded_dropout_ref(0.7, 3, 4),
          randn((5, 6)), id="Dropout-seeded-stream-and-gradient", specific_to="refms"),
    OpRow("Dropout", lambda x: ops.Dropout(1.0)(x), lambda x: (x, np.ones_like(x)), randn((3, 4)),
          id="Dropout-keep-all"),
    OpRow("Dropout2D", ops.Dropout2D(0.6), channel_dropout_property(0.6), randn((8, 16, 3, 2)),
          property_only=True, out_dtype=(None, "Bool"),
          errors=[([np.ones((2, 2, 2, 2), np.bool_)], TypeError),
                  ([f32(np.ones((2, 3, 4)))], ValueError)]),
    OpRow("Dropout2D", lambda x: ops.Dropout2D(0.6)(x), fixed_channel_dropout_ref(0.6),
          randn((3, 4, 2, 2)), id="Dropout2D-fixed-stream-and-gradient", specific_to="refms"),
    OpRow("Dropout2D", lambda x: ops.Dropout2D(1.0)(x),
          lambda x: (x, np.ones(x.shape, np.bool_)), randn((2, 3, 2, 2)), id="Dropout2D-keep-all"),
    OpRow("Dropout2D", lambda x: ops.Dropout2D(0.0)(x),
          lambda x: (np.zeros_like(x), np.zeros(x.shape, np.bool_)), randn((2, 3, 2, 2)),
          id="Dropout2D-drop-all"),
    OpRow("Dropout2D", lambda x: ops.Dropout2D(1.0)(x),
          lambda x: (x, np.ones(x.shape, np.bool_)), [i32(np.arange(8).reshape(1, 2, 2, 2))],
          id="Dropout2D-int32"),
    OpRow("Dropout2D", lambda x: ops.dropout2d(x, 0.4), lambda out, x: np.all(
        np.isclose(out, 0) | np.isclose(out, x / 0.6)), randn((6, 10, 2, 3)), property_only=True,
          id="dropout2d-functional"),
    OpRow("Dropout2D", lambda x: ops.dropout1d(x, 0.4), lambda out, x: np.all(
        np.isclose(out, 0) | np.isclose(out, x / 0.6)), randn((6, 10, 5)), property_only=True,
          id="dropout1d-functional"),
    OpRow("Dropout3D", ops.Dropout3D(0.7), channel_dropout_property(0.7), randn((8, 16, 2, 3, 2)),
          property_only=True, out_dtype=(None, "Bool"),
          errors=[([f32(np.ones((2, 3, 4, 5)))], ValueError)]),
    OpRow("Dropout3D", lambda x: ops.Dropout3D(0.7)(x), fixed_channel_dropout_ref(0.7),
          randn((2, 3, 2, 1, 2)), id="Dropout3D-fixed-stream-and-gradient", specific_to="refms"),
    OpRow("Dropout3D", lambda x: ops.dropout3d(x, 0.3), lambda out, x: np.all(
        np.isclose(out, 0) | np.isclose(out, x / 0.7)), randn((4, 10, 2, 2, 2)),
          property_only=True, id="dropout3d-functional"),
    OpRow("Dropout", lambda x: ops.dropout(x, p=0.25, seed=1),
          lambda out, x: np.all(np.isclose(out, 0) | np.isclose(out, x / 0.75)),
          randn((20, 30)), property_only=True, id="dropout-functional"),
]

ROWS = ACTIVATION + CONV + POOL + BATCH_NORM + BATCH_NORM_GRAD + LOSS + NLL + RANDOM
