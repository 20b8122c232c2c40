"""``mint.nn.functional``: PyTorch-style neural-network functions (activations, layers as
functions, pooling, normalization, losses), each a refms op or a short composition of ops.

Losses take ``reduction`` "mean" (default), "sum" or "none".
"""
from ... import dtype as mstype
from ...ops import functional as F
from .._pointwise import _float, sigmoid, tanh  # noqa: F401  (mint.nn.functional.sigmoid/tanh)
from .._tensor_ops import flatten  # noqa: F401  (mint.nn.functional.flatten)
from ...ops.prims import im2col as _im2col
from ._grid_sample import grid_sample  # noqa: F401  (mint.nn.functional.grid_sample)
from ._adaptive_max_pool import adaptive_max_pool1d, adaptive_max_pool2d  # noqa: F401
from ._conv_transpose import conv_transpose2d  # noqa: F401
from ._max_unpool import max_unpool2d  # noqa: F401
from ...ops.composites.adaptive_pool import adaptive_avg_pool3d as _adaptive_avg_pool3d
from ...ops.composites.conv3d import conv3d_slices as _conv3d_slices, pads_for as _pads_for

# -- activations ----------------------------------------------------------------------------


def relu(input, inplace=False):                             # noqa: A002
    """max(input, 0)."""
    out = F.relu(input)
    return input.copy_(out) if inplace else out


def relu_(input):                                           # noqa: A002
    """relu, in place."""
    return input.copy_(F.relu(input))


def sigmoid_(input):                                        # noqa: A002
    """sigmoid, in place."""
    return input.sigmoid_()


def relu6(input, inplace=False):                            # noqa: A002
    """min(max(input, 0), 6)."""
    return F.relu6(input)


def gelu(input, *, approximate="none"):                     # noqa: A002
    """x·Φ(x) (``approximate="tanh"``: the tanh approximation)."""
    return F.gelu(input, approximate=approximate)


def silu(input, inplace=False):                             # noqa: A002
    """x·sigmoid(x)."""
    return F.silu(input)


def leaky_relu(input, negative_slope=0.01, inplace=False):  # noqa: A002
    """x for x ≥ 0, negative_slope·x otherwise."""
    return F.leaky_relu(input, negative_slope)


def elu(input, alpha=1.0, inplace=False):                   # noqa: A002
    """x for x > 0, alpha·(eˣ − 1) otherwise."""
    x = _float(input)
    return F.select(F.greater(x, 0), x, F.expm1(F.minimum(x, 0)) * alpha)


def elu_(input, alpha=1.0):                                 # noqa: A002
    """elu, in place."""
    return input.copy_(elu(input, alpha))


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):   # noqa: A002
    """clamp(input, min_val, max_val)."""
    return F.clamp(input, min_val, max_val)


def hardtanh_(input, min_val=-1.0, max_val=1.0):            # noqa: A002
    """hardtanh, in place."""
    return input.clamp_(min_val, max_val)


def threshold(input, threshold, value, inplace=False):      # noqa: A002
    """input where input > threshold, else value."""
    return F.select(F.greater(input, threshold), input,
                    F.fill(input.dtype, tuple(input.shape), value))


def threshold_(input, threshold_value, value):              # noqa: A002
    """threshold, in place."""
    return input.copy_(threshold(input, threshold_value, value))


def logsigmoid(input):                                      # noqa: A002
    """ln sigmoid(x) = −softplus(−x) = min(x, 0) − ln(1 + e^(−abs(x))) (no overflow)."""
    x = _float(input)
    return F.sub(F.minimum(x, 0), F.log1p(F.exp(-F.abs(x))))


def glu(input, dim=-1):                                     # noqa: A002
    """a·sigmoid(b), with a and b the two halves of ``input`` along ``dim``."""
    a, b = F.split(input, input.shape[dim] // 2, dim)
    return F.mul(a, F.sigmoid(b))


def prelu(input, weight):                                   # noqa: A002
    """x for x ≥ 0, weight·x otherwise (weight per channel, dim 1)."""
    return F.prelu(input, weight)


def softmax(input, dim=None, dtype=None):                   # noqa: A002
    """e^xᵢ / Σⱼ e^xⱼ along ``dim``."""
    x = input if dtype is None else F.cast(input, dtype)
    return F.softmax(x, -1 if dim is None else dim)


def log_softmax(input, dim=None, dtype=None):               # noqa: A002
    """xᵢ − ln Σⱼ e^xⱼ along ``dim``."""
    x = input if dtype is None else F.cast(input, dtype)
    return F.log_softmax(x, -1 if dim is None else dim)


# -- layers as functions --------------------------------------------------------------------

def linear(input, weight, bias=None):                       # noqa: A002
    """input @ weightᵀ + bias."""
    out = F.matmul(input, F.swapaxes(weight, -1, -2) if len(weight.shape) > 1 else weight)
    return out if bias is None else F.add(out, bias)


def _pair(value):
    return tuple(value) if isinstance(value, (list, tuple)) else (value, value)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):  # noqa: A002
    """1-D cross-correlation of (N, C, L) ``input``: conv2d on (N, C, 1, L)."""
    padding = padding if isinstance(padding, str) else (0, _single(padding))
    out = conv2d(F.unsqueeze(input, 2), F.unsqueeze(weight, 2), bias, (1, _single(stride)),
                 padding, (1, _single(dilation)), groups)
    return F.squeeze(out, (2,))


def _single(value):
    return value[0] if isinstance(value, (list, tuple)) else value


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):  # noqa: A002
    """2-D cross-correlation of NCHW ``input`` with (out, in/groups, kh, kw) ``weight``;
    ``padding`` an int, a pair, or "same"/"valid"."""
    if isinstance(padding, str):
        mode, pad = padding, 0
    else:
        ph, pw = _pair(padding)
        mode, pad = ("valid", 0) if ph == pw == 0 else ("pad", (ph, pw))
    return F.conv2d(input, weight, bias, stride, mode, pad, dilation, groups)


def _triple(value):
    return tuple(value) if isinstance(value, (list, tuple)) else (value,) * 3


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):  # noqa: A002
    """3-D cross-correlation of (N, C, D, H, W) or unbatched (C, D, H, W) ``input`` with
    (out, in/groups, kd, kh, kw) ``weight``; ``padding`` an int, three ints (each side of
    D, H, W), or "same"/"valid" (``refms.ops.composites.conv3d``)."""
    if len(input.shape) == 4:
        return F.squeeze(conv3d(F.expand_dims(input, 0), weight, bias, stride, padding,
                                dilation, groups), 0)
    stride, dilation = _triple(stride), _triple(dilation)
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise ValueError(f"For 'conv3d', the 'padding' string must be 'same' or 'valid', "
                             f"but got {padding!r}.")
        mode, six = padding, (0,) * 6
    else:
        pd, ph, pw = _triple(padding)
        mode, six = "pad", (pd, pd, ph, ph, pw, pw)
    pads = _pads_for(mode, tuple(input.shape[2:]), tuple(weight.shape[2:]), stride, dilation,
                     six)
    return _conv3d_slices("conv3d", input, weight, bias, pads, stride, dilation, groups)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, *,   # noqa: A002
               ceil_mode=False, return_indices=False):
    """The maximum over each kernel window (``stride`` defaults to ``kernel_size``)."""
    return F.max_pool2d(input, kernel_size, stride if stride is not None else kernel_size,
                        padding, dilation, return_indices, ceil_mode)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False,   # noqa: A002
               count_include_pad=True, divisor_override=None):
    """The mean over each kernel window."""
    return F.avg_pool2d(input, kernel_size, stride if stride is not None else kernel_size,
                        padding, ceil_mode, count_include_pad, divisor_override or 0)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False,   # noqa: A002
               count_include_pad=True, divisor_override=None):
    """The mean over each (kd, kh, kw) window of (N, C, D, H, W) input: ``ops.avg_pool3d``."""
    return F.avg_pool3d(input, kernel_size, stride if stride is not None else kernel_size,
                        padding, ceil_mode, count_include_pad, divisor_override or 0)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False,   # noqa: A002
               count_include_pad=True):
    """The mean over each window of the last dim: avg_pool2d on (N, C, 1, L)."""
    kernel, step = _single(kernel_size), _single(stride if stride is not None else kernel_size)
    out = avg_pool2d(F.unsqueeze(input, -2), (1, kernel), (1, step), (0, _single(padding)),
                     ceil_mode, count_include_pad)
    return F.squeeze(out, (-2,))


def adaptive_avg_pool1d(input, output_size):                # noqa: A002
    """The mean over windows tiling the last dim into ``output_size``."""
    out = adaptive_avg_pool2d(F.unsqueeze(input, -2), (1, output_size))
    return F.squeeze(out, (-2,))


def adaptive_avg_pool2d(input, output_size):                # noqa: A002
    """The mean over windows that tile the input into ``output_size``."""
    from ...ops.composites import AdaptiveAvgPool2D
    return AdaptiveAvgPool2D(output_size)(input)


def adaptive_avg_pool3d(input, output_size):                # noqa: A002
    """The mean over adaptive bins tiling (D, H, W) into ``output_size`` (an int or three,
    None keeping that size): output cell i of a dim of n covers ⌊i·n/out⌋ … ⌈(i+1)·n/out⌉ − 1."""
    return _adaptive_avg_pool3d(input, output_size)


def dropout(input, p=0.5, training=True, inplace=False):    # noqa: A002
    """Zero each element with probability p, scale the rest by 1/(1 − p) (identity when not
    training)."""
    if not training or p == 0:
        return input
    return F.dropout(input, p, training)


def dropout2d(input, p=0.5, training=True, inplace=False):  # noqa: A002
    """Zero whole channels (dim 1) with probability p, scale the rest by 1/(1 − p)."""
    if not training or p == 0:
        return input
    return F.dropout2d(input, p, training)


def interpolate(input, size=None, scale_factor=None, mode="nearest",   # noqa: A002
                align_corners=None, recompute_scale_factor=None):
    """Resample ``input`` to ``size`` or by ``scale_factor`` ("nearest", "linear", "bilinear",
    "bicubic", "area"...): ``ops.interpolate``, with a ``scale_factor`` turned into the size
    ⌊n·scale_factor⌋ of each spatial dim (the same sampling for integer factors)."""
    if scale_factor is not None and size is None:
        spatial = tuple(input.shape[2:])
        factors = (tuple(scale_factor) if isinstance(scale_factor, (list, tuple))
                   else (scale_factor,) * len(spatial))
        size = tuple(int(n * f) for n, f in zip(spatial, factors))
        scale_factor = None
    return F.interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):  # noqa: A002
    """``interpolate`` (the older name)."""
    return interpolate(input, size, scale_factor, mode, align_corners)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,  # noqa: A002
              scale_grad_by_freq=False):
    """weight[input] (rows of ``weight`` picked by the integer ``input``)."""
    return F.gather(weight, input, 0)


def one_hot(tensor, num_classes=-1):
    """(…, num_classes) Int64 with 1 at each index (``num_classes`` −1: max + 1)."""
    if num_classes == -1:
        num_classes = int(F.amax(tensor).asnumpy()) + 1
    on = F.scalar_to_tensor(1, mstype.int64)
    off = F.scalar_to_tensor(0, mstype.int64)
    return F.one_hot(tensor, num_classes, on, off, -1)


def pad(input, pad, mode="constant", value=None):           # noqa: A002
    """``input`` padded by ``pad`` = (left, right, top, bottom, …) from the last dim."""
    return F.pad(input, tuple(pad), mode, value)


def pixel_shuffle(input, upscale_factor):                   # noqa: A002
    """(…, C·r², H, W) → (…, C, H·r, W·r)."""
    r = upscale_factor
    *lead, c, h, w = input.shape
    n = len(lead)
    x = F.reshape(input, tuple(lead) + (c // (r * r), r, r, h, w))
    perm = tuple(range(n)) + (n, n + 3, n + 1, n + 4, n + 2)
    x = F.transpose(x, perm)
    return F.reshape(x, tuple(lead) + (c // (r * r), h * r, w * r))


# -- normalization --------------------------------------------------------------------------

def batch_norm(input, running_mean, running_var, weight=None, bias=None,   # noqa: A002
               training=False, momentum=0.1, eps=1e-05):
    """(x − mean) / √(var + eps)·weight + bias per channel (dim 1)."""
    c = input.shape[1]
    weight = weight if weight is not None else F.ones((c,), input.dtype)
    bias = bias if bias is not None else F.zeros((c,), input.dtype)
    return F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05):  # noqa: A002
    """(x − mean) / √(var + eps)·weight + bias over the last len(normalized_shape) dims
    (var: the biased variance)."""
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    axes = tuple(range(-len(normalized_shape), 0))
    mean = F.mean(input, axes, True)
    centered = F.sub(input, mean)
    var = F.mean(F.mul(centered, centered), axes, True)
    out = F.mul(centered, F.rsqrt(F.add(var, eps)))
    if weight is not None:
        out = F.mul(out, weight)
    if bias is not None:
        out = F.add(out, bias)
    return out


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):   # noqa: A002
    """layer normalization within each of ``num_groups`` channel groups, then per-channel
    weight and bias."""
    shape = tuple(input.shape)
    n, c = shape[0], shape[1]
    grouped = F.reshape(input, (n, num_groups, -1))
    out = F.reshape(layer_norm(grouped, (grouped.shape[-1],), eps=eps), shape)
    channel = (1, c) + (1,) * (len(shape) - 2)
    if weight is not None:
        out = F.mul(out, F.reshape(weight, channel))
    if bias is not None:
        out = F.add(out, F.reshape(bias, channel))
    return out


def normalize(input, p=2.0, dim=1, eps=1e-12):              # noqa: A002
    """input / max(‖input‖_p along dim, eps)."""
    norm = F.norm(input, p, dim, True)
    return F.div(input, F.maximum(norm, eps))


# -- losses ---------------------------------------------------------------------------------

def _reduce(loss, reduction):
    if reduction == "mean":
        return F.mean(loss)
    if reduction == "sum":
        return F.sum(loss)
    if reduction == "none":
        return loss
    raise ValueError(f"For loss functions, 'reduction' must be 'mean', 'sum' or 'none', but "
                     f"got '{reduction}'.")


def mse_loss(input, target, reduction="mean"):              # noqa: A002
    """(input − target)²."""
    d = F.sub(input, target)
    return _reduce(F.mul(d, d), reduction)


def l1_loss(input, target, reduction="mean"):               # noqa: A002
    """abs(input − target)."""
    return _reduce(F.abs(F.sub(input, target)), reduction)


def smooth_l1_loss(input, target, reduction="mean", beta=1.0):   # noqa: A002
    """½d²/beta for abs(d) < beta, abs(d) − ½beta otherwise (d = input − target)."""
    return _reduce(F.smooth_l1_loss(input, target, beta, "none"), reduction)


def binary_cross_entropy(input, target, weight=None, reduction="mean"):   # noqa: A002
    """−(t·ln p + (1 − t)·ln(1 − p))."""
    return F.binary_cross_entropy(input, target, weight, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, reduction="mean",  # noqa: A002
                                     pos_weight=None):
    """binary_cross_entropy(sigmoid(input), target) = (1 − t)·x + (1 + (pos_weight − 1)·t)·
    ln(1 + e⁻ˣ), with ln(1 + e⁻ˣ) = ln(1 + e^(−abs(x))) + max(−x, 0) (no overflow).
    Differentiable in both ``input`` and ``target``."""
    x, t = _float(input), _float(target)
    softplus_neg = F.add(F.log1p(F.exp(-F.abs(x))), F.relu(-x))
    scale = 1 if pos_weight is None else F.add(F.mul(F.sub(pos_weight, 1), t), 1)
    loss = F.add(F.mul(F.sub(1, t), x), F.mul(scale, softplus_neg))
    if weight is not None:
        loss = F.mul(loss, weight)
    return _reduce(loss, reduction)


def nll_loss(input, target, weight=None, ignore_index=-100, reduction="mean"):  # noqa: A002
    """−weight[t]·input[n, t] for class indices t (dim 1 of ``input``); "mean" divides by the
    sum of the weights of the targets that are not ``ignore_index``."""
    c = input.shape[1]
    keep = F.not_equal(target, ignore_index)
    safe_target = F.select(keep, target, F.zeros_like(target))
    picked = F.squeeze(F.gather_d(input, 1, F.unsqueeze(F.cast(safe_target, mstype.int64), 1)),
                       (1,))
    w = F.ones((c,), input.dtype) if weight is None else weight
    target_weight = F.mul(F.gather(w, safe_target, 0), F.cast(keep, input.dtype))
    loss = -F.mul(picked, target_weight)
    if reduction == "mean":
        return F.div(F.sum(loss), F.sum(target_weight))
    return _reduce(loss, reduction)


def cross_entropy(input, target, weight=None, ignore_index=-100, reduction="mean",  # noqa: A002
                  label_smoothing=0.0):
    """nll_loss(log_softmax(input, 1), target) for class indices; −Σ target·log_softmax for
    class probabilities; ``label_smoothing`` ε mixes in the uniform distribution."""
    logp = F.log_softmax(input, 1)
    c = input.shape[1]
    if target.dtype.kind in ("int", "uint"):
        loss = nll_loss(logp, target, weight, ignore_index, reduction)
        if label_smoothing == 0.0:
            return loss
        smooth = _reduce(-F.mean(logp, 1), reduction)
        return loss * (1 - label_smoothing) + smooth * label_smoothing
    if label_smoothing:
        target = target * (1 - label_smoothing) + label_smoothing / c
    per_class = F.mul(logp, target)
    if weight is not None:
        shape = (1, c) + (1,) * (len(input.shape) - 2)
        per_class = F.mul(per_class, F.reshape(weight, shape))
    return _reduce(-F.sum(per_class, 1), reduction)


def kl_div(input, target, reduction="mean", log_target=False):   # noqa: A002
    """target·(ln target − input) (``input`` holds log-probabilities); "batchmean" divides the
    sum by the batch size."""
    if log_target:
        loss = F.mul(F.exp(target), F.sub(target, input))
    else:
        safe = F.select(F.greater(target, 0), target, F.ones_like(target))
        loss = F.select(F.greater(target, 0), F.mul(target, F.sub(F.log(safe), input)),
                        F.zeros_like(input))
    if reduction == "batchmean":
        return F.sum(loss) / input.shape[0]
    return _reduce(loss, reduction)


def soft_margin_loss(input, target, reduction="mean"):      # noqa: A002
    """ln(1 + e^(−target·input))."""
    return _reduce(F.log1p(F.exp(-F.mul(target, input))), reduction)


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction="mean"):
    """1 − cos(x1, x2) where target = 1, max(0, cos(x1, x2) − margin) where target = −1."""
    dot = F.sum(F.mul(input1, input2), -1)
    norms = F.sqrt(F.mul(F.sum(F.mul(input1, input1), -1), F.sum(F.mul(input2, input2), -1)))
    cos = F.div(dot, F.maximum(norms, 1e-12))
    loss = F.select(F.equal(target, 1), 1 - cos, F.relu(cos - margin))
    return _reduce(loss, reduction)


def hardsigmoid(input):                                     # noqa: A002
    """relu6(x + 3) / 6."""
    return F.hardsigmoid(input)


def hardswish(input):                                       # noqa: A002
    """x·relu6(x + 3) / 6."""
    return F.hardswish(input)


def mish(input):                                            # noqa: A002
    """x·tanh(softplus(x))."""
    return F.mul(input, F.tanh(F.softplus(input)))


def selu(input):                                            # noqa: A002
    """scale·elu(x, alpha) with the self-normalizing constants of Klambauer et al. (2017)."""
    alpha, scale = 1.6732632423543772, 1.0507009873554805
    return elu(input, alpha) * scale


def softplus(input, beta=1.0, threshold=20.0):             # noqa: A002
    """ln(1 + e^(beta·x)) / beta (x itself where beta·x > threshold)."""
    return F.softplus(input, beta, threshold)


def softshrink(input, lambd=0.5):                           # noqa: A002
    """x − lambd for x > lambd, x + lambd for x < −lambd, else 0."""
    shrunk = F.sub(input, F.mul(F.sign(input), lambd))
    return F.select(F.greater(F.abs(input), lambd), shrunk, F.zeros_like(input))


def hardshrink(input, lambd=0.5):                           # noqa: A002
    """x where abs(x) > lambd, else 0."""
    return F.select(F.greater(F.abs(input), lambd), input, F.zeros_like(input))



# -- sliding blocks and sampling grids --------------------------------------------------------

def unfold(input, kernel_size, dilation=1, padding=0, stride=1):   # noqa: A002
    """The sliding ``kernel_size`` blocks of ``input`` (N, C, H, W) as columns (N, C·kh·kw, L)
    (im2col; MindSpore 2.10 takes 4-D inputs only)."""
    return _im2col.Im2ColExt(kernel_size, dilation, padding, stride)(input)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):  # noqa: A002
    """The columns (N, C·kh·kw, L) added back into an image ``(N, C, *output_size)`` (col2im, the
    adjoint of :func:`unfold`)."""
    return _im2col.Col2ImExt(output_size, kernel_size, dilation, padding, stride)(input)
