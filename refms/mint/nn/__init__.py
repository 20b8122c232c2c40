"""``mint.nn``: PyTorch-style layers (``mint.nn.Linear``, ``mint.nn.Conv2d``, ``mint.nn.ReLU``...).

Layers whose ``refms.nn`` counterpart has the same signature are that class
(``mint.nn.Linear`` is ``refms.nn.Linear``); the others are small Cells over
:mod:`refms.mint.nn.functional`.  Parameter names follow MindSpore's (``weight``,
``bias``).
"""
import math

from ... import dtype as mstype
from ...initializer import HeUniform, Uniform, initializer
from ...nn import (Cell, Linear, Identity, Flatten, ReLU, ReLU6, Sigmoid, Tanh, SiLU, L1Loss,
                   MSELoss, BCELoss, BCEWithLogitsLoss)
from ...parameter import Parameter
from . import functional

__all__ = ["functional", "Linear", "Identity", "Flatten", "ReLU", "ReLU6", "Sigmoid", "Tanh",
           "SiLU", "L1Loss", "MSELoss", "BCELoss", "BCEWithLogitsLoss", "GELU", "Softmax",
           "LogSoftmax", "ELU", "Hardtanh", "Hardsigmoid", "Hardswish", "Hardshrink", "Mish",
           "SELU", "LogSigmoid", "Threshold", "PReLU", "Conv2d", "AvgPool2d",
           "AdaptiveAvgPool2d", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "GroupNorm",
           "SmoothL1Loss", "KLDivLoss", "SoftMarginLoss", "CosineEmbeddingLoss", "PixelShuffle",
           "ZeroPad1d", "ZeroPad2d", "ZeroPad3d", "ConstantPad1d", "ConstantPad2d",
           "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
           "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "Dropout", "Dropout2d",
           "Embedding", "LayerNorm", "MaxPool2d", "CrossEntropyLoss", "NLLLoss", "GLU",
           "Softshrink", "Conv1d", "AvgPool1d", "AdaptiveAvgPool1d", "AvgPool3d", "Upsample",
           "UpsamplingNearest2d", "UpsamplingBilinear2d", "Unfold", "Fold", "AdaptiveMaxPool1d",
           "AdaptiveMaxPool2d", "ConvTranspose2d", "Conv3d", "AdaptiveAvgPool3d", "MaxUnpool2d",
           "SyncBatchNorm"]


# -- activations: each a Cell calling one function of mint.nn.functional ----------------------

class GELU(Cell):
    """x·Φ(x) (``approximate="tanh"``: the tanh approximation)."""

    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def construct(self, input):                             # noqa: A002
        return functional.gelu(input, approximate=self.approximate)


class Softmax(Cell):
    """softmax along ``dim``."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = -1 if dim is None else dim

    def construct(self, input):                             # noqa: A002
        return functional.softmax(input, self.dim)


class LogSoftmax(Softmax):
    """log_softmax along ``dim``."""

    def construct(self, input):                             # noqa: A002
        return functional.log_softmax(input, self.dim)


class ELU(Cell):
    """x for x > 0, alpha·(eˣ − 1) otherwise."""

    def __init__(self, alpha=1.0):
        super().__init__()
        self.alpha = alpha

    def construct(self, input):                             # noqa: A002
        return functional.elu(input, self.alpha)


class Hardtanh(Cell):
    """clamp(x, min_val, max_val)."""

    def __init__(self, min_val=-1.0, max_val=1.0):
        super().__init__()
        self.min_val = min_val
        self.max_val = max_val

    def construct(self, input):                             # noqa: A002
        return functional.hardtanh(input, self.min_val, self.max_val)


class Hardsigmoid(Cell):
    """relu6(x + 3) / 6."""

    def construct(self, input):                             # noqa: A002
        return functional.hardsigmoid(input)


class Hardswish(Cell):
    """x·relu6(x + 3) / 6."""

    def construct(self, input):                             # noqa: A002
        return functional.hardswish(input)


class Hardshrink(Cell):
    """x where abs(x) > lambd, else 0."""

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def construct(self, input):                             # noqa: A002
        return functional.hardshrink(input, self.lambd)


class Mish(Cell):
    """x·tanh(softplus(x))."""

    def construct(self, input):                             # noqa: A002
        return functional.mish(input)


class SELU(Cell):
    """The self-normalizing ELU."""

    def construct(self, input):                             # noqa: A002
        return functional.selu(input)


class LogSigmoid(Cell):
    """ln sigmoid(x)."""

    def construct(self, input):                             # noqa: A002
        return functional.logsigmoid(input)


class Threshold(Cell):
    """x where x > threshold, else value."""

    def __init__(self, threshold, value):
        super().__init__()
        self.threshold = threshold
        self.value = value

    def construct(self, input):                             # noqa: A002
        return functional.threshold(input, self.threshold, self.value)


class PReLU(Cell):
    """x for x ≥ 0, weight·x otherwise; ``num_parameters`` weights (1 or one per channel)."""

    def __init__(self, num_parameters=1, init=0.25, dtype=None):
        super().__init__()
        self.weight = Parameter(initializer(init, [num_parameters], dtype or mstype.float32),
                                name="weight")

    def construct(self, input):                             # noqa: A002
        return functional.prelu(input, self.weight)


class GLU(Cell):
    """a·sigmoid(b) of the two halves along ``dim``."""

    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def construct(self, input):                             # noqa: A002
        return functional.glu(input, self.dim)


class Softshrink(Cell):
    """x − lambd for x > lambd, x + lambd for x < −lambd, else 0."""

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def construct(self, input):                             # noqa: A002
        return functional.softshrink(input, self.lambd)


class Dropout(Cell):
    """Zero each element with probability p in training (scaling the rest by 1/(1 − p))."""

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"For 'Dropout', the 'p' must be in range [0, 1], but got {p}.")
        self.p = p

    def construct(self, input):                             # noqa: A002
        return functional.dropout(input, self.p, self.training)


class Dropout2d(Dropout):
    """Zero whole channels with probability p in training."""

    def construct(self, input):                             # noqa: A002
        return functional.dropout2d(input, self.p, self.training)


class Embedding(Cell):
    """weight[input]: ``num_embeddings`` rows of ``embedding_dim``, initialized from N(0, 1)
    (the ``padding_idx`` row zero)."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None,
                 norm_type=2.0, scale_grad_by_freq=False, sparse=False, _weight=None,
                 _freeze=False, dtype=None):
        super().__init__()
        dtype = dtype or mstype.float32
        self.padding_idx = padding_idx
        if _weight is None:
            table = initializer("normal", [num_embeddings, embedding_dim], dtype)
            if padding_idx is not None:
                table = table.init_data() if hasattr(table, "init_data") else table
                values = table.asnumpy()
                values[padding_idx] = 0
                from ..._tensor import Tensor
                table = Tensor(values, dtype)
        else:
            table = _weight
        self.weight = Parameter(table, name="weight", requires_grad=not _freeze)

    def construct(self, input):                             # noqa: A002
        return functional.embedding(input, self.weight, self.padding_idx)


class LayerNorm(Cell):
    """(x − mean) / √(var + eps)·weight + bias over the last dims ``normalized_shape``."""

    def __init__(self, normalized_shape, eps=1e-05, elementwise_affine=True, bias=True,
                 dtype=None):
        super().__init__()
        dtype = dtype or mstype.float32
        if isinstance(normalized_shape, int):
            normalized_shape = (normalized_shape,)
        self.normalized_shape, self.eps = tuple(normalized_shape), eps
        self.weight = self.bias = None
        if elementwise_affine:
            self.weight = Parameter(initializer("ones", list(normalized_shape), dtype),
                                    name="weight")
            if bias:
                self.bias = Parameter(initializer("zeros", list(normalized_shape), dtype),
                                      name="bias")

    def construct(self, input):                             # noqa: A002
        return functional.layer_norm(input, self.normalized_shape, self.weight, self.bias,
                                     self.eps)


# -- convolution, pooling, normalization ---------------------------------------------------------

class Conv1d(Cell):
    """1-D convolution: weight (out, in/groups, k), bias from U(−1/√fan_in, 1/√fan_in)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, bias=True, padding_mode="zeros", dtype=None):
        super().__init__()
        k = kernel_size[0] if isinstance(kernel_size, (list, tuple)) else kernel_size
        dtype = dtype or mstype.float32
        self.stride, self.padding, self.dilation, self.groups = stride, padding, dilation, groups
        shape = [out_channels, in_channels // groups, k]
        self.weight = Parameter(initializer(HeUniform(math.sqrt(5)), shape, dtype), name="weight")
        self.bias = None
        if bias:
            bound = 1 / math.sqrt(in_channels // groups * k)
            self.bias = Parameter(initializer(Uniform(bound), [out_channels], dtype), name="bias")

    def construct(self, input):                             # noqa: A002
        return functional.conv1d(input, self.weight, self.bias, self.stride, self.padding,
                                 self.dilation, self.groups)


class MaxPool2d(Cell):
    """The maximum over each kernel window."""

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        super().__init__()
        self.args = (kernel_size, stride, padding, dilation)
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def construct(self, input):                             # noqa: A002
        return functional.max_pool2d(input, *self.args, ceil_mode=self.ceil_mode,
                                     return_indices=self.return_indices)


class AvgPool1d(Cell):
    """The mean over each window of the last dim."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True):
        super().__init__()
        self.args = (kernel_size, stride, padding, ceil_mode, count_include_pad)

    def construct(self, input):                             # noqa: A002
        return functional.avg_pool1d(input, *self.args)


class AvgPool3d(Cell):
    """The mean over each (kd, kh, kw) window."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__()
        self.args = (kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override)

    def construct(self, input):                             # noqa: A002
        return functional.avg_pool3d(input, *self.args)


class AdaptiveAvgPool1d(Cell):
    """The mean over windows tiling the last dim into ``output_size``."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def construct(self, input):                             # noqa: A002
        return functional.adaptive_avg_pool1d(input, self.output_size)


def _pair(value):
    return tuple(value) if isinstance(value, (list, tuple)) else (value, value)


class Conv2d(Cell):
    """2-D convolution with PyTorch's defaults: weight (out, in/groups, kh, kw) and bias from
    U(−1/√fan_in, 1/√fan_in) (weight: HeUniform(√5), the same bound)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, bias=True, padding_mode="zeros", dtype=None):
        super().__init__()
        kh, kw = _pair(kernel_size)
        dtype = dtype or mstype.float32
        self.stride, self.padding, self.dilation, self.groups = stride, padding, dilation, groups
        shape = [out_channels, in_channels // groups, kh, kw]
        self.weight = Parameter(initializer(HeUniform(math.sqrt(5)), shape, dtype), name="weight")
        self.bias = None
        if bias:
            bound = 1 / math.sqrt(in_channels // groups * kh * kw)
            self.bias = Parameter(initializer(Uniform(bound), [out_channels], dtype), name="bias")

    def construct(self, input):                             # noqa: A002
        return functional.conv2d(input, self.weight, self.bias, self.stride, self.padding,
                                 self.dilation, self.groups)


class Conv3d(Cell):
    """3-D convolution with PyTorch's defaults: weight (out, in/groups, kd, kh, kw) and bias
    from U(−1/√fan_in, 1/√fan_in) (weight: HeUniform(√5), the same bound)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, bias=True, padding_mode="zeros", dtype=None):
        super().__init__()
        if padding_mode != "zeros":
            raise ValueError(f"For 'Conv3d', refms implements padding_mode='zeros' only, but "
                             f"got {padding_mode!r}.")
        kernel = tuple(kernel_size) if isinstance(kernel_size, (list, tuple)) else \
            (kernel_size,) * 3
        dtype = dtype or mstype.float32
        self.stride, self.padding, self.dilation, self.groups = stride, padding, dilation, groups
        shape = [out_channels, in_channels // groups] + list(kernel)
        self.weight = Parameter(initializer(HeUniform(math.sqrt(5)), shape, dtype), name="weight")
        self.bias = None
        if bias:
            bound = 1 / math.sqrt(in_channels // groups * kernel[0] * kernel[1] * kernel[2])
            self.bias = Parameter(initializer(Uniform(bound), [out_channels], dtype), name="bias")

    def construct(self, input):                             # noqa: A002
        return functional.conv3d(input, self.weight, self.bias, self.stride, self.padding,
                                 self.dilation, self.groups)


class AvgPool2d(Cell):
    """The mean over each kernel window."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__()
        self.args = (kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override)

    def construct(self, input):                             # noqa: A002
        return functional.avg_pool2d(input, *self.args)


class AdaptiveAvgPool2d(Cell):
    """The mean over windows tiling the input into ``output_size``."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def construct(self, input):                             # noqa: A002
        return functional.adaptive_avg_pool2d(input, self.output_size)


class AdaptiveAvgPool3d(Cell):
    """The mean over adaptive bins tiling (D, H, W) into ``output_size``."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def construct(self, input):                             # noqa: A002
        return functional.adaptive_avg_pool3d(input, self.output_size)


class MaxUnpool2d(Cell):
    """Values back at the positions ``max_pool2d(return_indices=True)`` took them from, zeros
    elsewhere (``mint.nn.functional.max_unpool2d``)."""

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding

    def construct(self, input, indices, output_size=None):  # noqa: A002
        return functional.max_unpool2d(input, indices, self.kernel_size, self.stride,
                                       self.padding, output_size)


class _BatchNorm(Cell):
    """(x − mean) / √(var + eps)·weight + bias per channel; in training the batch statistics,
    and running = (1 − momentum)·running + momentum·batch (PyTorch's momentum convention)."""

    def __init__(self, num_features, eps=1e-05, momentum=0.1, affine=True,
                 track_running_stats=True, dtype=None):
        super().__init__()
        dtype = dtype or mstype.float32
        self.eps, self.momentum = eps, momentum
        self.weight = Parameter(initializer("ones", [num_features], dtype), name="weight",
                                requires_grad=affine)
        self.bias = Parameter(initializer("zeros", [num_features], dtype), name="bias",
                              requires_grad=affine)
        self.running_mean = Parameter(initializer("zeros", [num_features], dtype),
                                      name="running_mean", requires_grad=False)
        self.running_var = Parameter(initializer("ones", [num_features], dtype),
                                     name="running_var", requires_grad=False)

    def construct(self, input):                             # noqa: A002
        return functional.batch_norm(input, self.running_mean, self.running_var, self.weight,
                                     self.bias, self.training, self.momentum, self.eps)


class BatchNorm1d(_BatchNorm):
    """Batch normalization of (N, C) or (N, C, L) input."""


class BatchNorm2d(_BatchNorm):
    """Batch normalization of (N, C, H, W) input."""


class BatchNorm3d(_BatchNorm):
    """Batch normalization of (N, C, D, H, W) input."""


class SyncBatchNorm(_BatchNorm):
    """Batch normalization whose training statistics are those of the whole batch across the
    devices of ``process_group`` (MindSpore all-reduces Σx and Σx² over the group).  refms
    runs on one device, whose batch is the whole batch, so it is ``BatchNorm2d`` for
    any (N, C, ...) input."""

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True,
                 track_running_stats=True, process_group=None, dtype=None):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, dtype)
        self.process_group = process_group


class GroupNorm(Cell):
    """Normalization within each of ``num_groups`` channel groups, then per-channel affine."""

    def __init__(self, num_groups, num_channels, eps=1e-05, affine=True, dtype=None):
        super().__init__()
        dtype = dtype or mstype.float32
        self.num_groups, self.eps = num_groups, eps
        self.weight = Parameter(initializer("ones", [num_channels], dtype), name="weight",
                                requires_grad=affine)
        self.bias = Parameter(initializer("zeros", [num_channels], dtype), name="bias",
                              requires_grad=affine)

    def construct(self, input):                             # noqa: A002
        return functional.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)


class Upsample(Cell):
    """``interpolate(input, size, scale_factor, mode, align_corners)``."""

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.size, self.scale_factor, self.mode = size, scale_factor, mode
        self.align_corners, self.recompute_scale_factor = align_corners, recompute_scale_factor

    def construct(self, input):                             # noqa: A002
        return functional.interpolate(input, self.size, self.scale_factor, self.mode,
                                      self.align_corners, self.recompute_scale_factor)


class UpsamplingNearest2d(Upsample):
    """Nearest-neighbour upsampling of (N, C, H, W) input."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, "nearest")


class UpsamplingBilinear2d(Upsample):
    """Bilinear upsampling of (N, C, H, W) input with aligned corners."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, "bilinear", True)


class PixelShuffle(Cell):
    """(…, C·r², H, W) → (…, C, H·r, W·r)."""

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = upscale_factor

    def construct(self, input):                             # noqa: A002
        return functional.pixel_shuffle(input, self.upscale_factor)


# -- losses ---------------------------------------------------------------------------------

class _Loss(Cell):
    def __init__(self, reduction="mean"):
        super().__init__()
        self.reduction = reduction


class SmoothL1Loss(_Loss):
    """½d²/beta for abs(d) < beta, abs(d) − ½beta otherwise."""

    def __init__(self, reduction="mean", beta=1.0):
        super().__init__(reduction)
        self.beta = beta

    def construct(self, input, target):                     # noqa: A002
        return functional.smooth_l1_loss(input, target, self.reduction, self.beta)


class KLDivLoss(_Loss):
    """target·(ln target − input)."""

    def __init__(self, reduction="mean", log_target=False):
        super().__init__(reduction)
        self.log_target = log_target

    def construct(self, input, target):                     # noqa: A002
        return functional.kl_div(input, target, self.reduction, self.log_target)


class SoftMarginLoss(_Loss):
    """ln(1 + e^(−target·input))."""

    def construct(self, input, target):                     # noqa: A002
        return functional.soft_margin_loss(input, target, self.reduction)


class CosineEmbeddingLoss(_Loss):
    """1 − cos for similar pairs, max(0, cos − margin) for dissimilar ones."""

    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(reduction)
        self.margin = margin

    def construct(self, input1, input2, target):
        return functional.cosine_embedding_loss(input1, input2, target, self.margin,
                                                self.reduction)


class CrossEntropyLoss(_Loss):
    """nll_loss(log_softmax(input, 1), target) (class indices or probabilities)."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__(reduction)
        self.weight, self.ignore_index = weight, ignore_index
        self.label_smoothing = label_smoothing

    def construct(self, input, target):                     # noqa: A002
        return functional.cross_entropy(input, target, self.weight, self.ignore_index,
                                        self.reduction, self.label_smoothing)


class NLLLoss(_Loss):
    """−weight[t]·input[n, t] for log-probabilities ``input``."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__(reduction)
        self.weight, self.ignore_index = weight, ignore_index

    def construct(self, input, target):                     # noqa: A002
        return functional.nll_loss(input, target, self.weight, self.ignore_index,
                                   self.reduction)


# -- padding: (left, right[, top, bottom[, front, back]]) from the last dim -----------------------

class _Pad(Cell):
    mode = "constant"
    dims = 1

    def __init__(self, padding, value=0.0):
        super().__init__()
        if isinstance(padding, int):
            padding = (padding,) * (2 * self.dims)
        self.padding = tuple(padding)
        self.value = value

    def construct(self, input):                             # noqa: A002
        value = self.value if self.mode == "constant" else None
        return functional.pad(input, self.padding, self.mode, value)


class ConstantPad1d(_Pad):
    """Pads the last dim with ``value``."""


class ConstantPad2d(_Pad):
    """Pads the last two dims with ``value``."""
    dims = 2


class ConstantPad3d(_Pad):
    """Pads the last three dims with ``value``."""
    dims = 3


class ZeroPad1d(ConstantPad1d):
    """Pads the last dim with zeros."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)


class ZeroPad2d(ConstantPad2d):
    """Pads the last two dims with zeros."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)


class ZeroPad3d(ConstantPad3d):
    """Pads the last three dims with zeros."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)


class ReflectionPad1d(_Pad):
    """Pads the last dim by reflection."""
    mode = "reflect"


class ReflectionPad2d(ReflectionPad1d):
    """Pads the last two dims by reflection."""
    dims = 2


class ReflectionPad3d(ReflectionPad1d):
    """Pads the last three dims by reflection."""
    dims = 3


class ReplicationPad1d(_Pad):
    """Pads the last dim by repeating the edge."""
    mode = "replicate"


class ReplicationPad2d(ReplicationPad1d):
    """Pads the last two dims by repeating the edge."""
    dims = 2


class ReplicationPad3d(ReplicationPad1d):
    """Pads the last three dims by repeating the edge."""
    dims = 3


# -- sliding blocks ------------------------------------------------------------------------------

class Unfold(Cell):
    """The sliding ``kernel_size`` blocks of (N, C, H, W) as columns (N, C·kh·kw, L) (im2col)."""

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.args = (kernel_size, dilation, padding, stride)

    def construct(self, input):                             # noqa: A002
        return functional.unfold(input, *self.args)


class Fold(Cell):
    """Columns (N, C·kh·kw, L) summed back into an image ``(N, C, *output_size)`` (col2im)."""

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.args = (output_size, kernel_size, dilation, padding, stride)

    def construct(self, input):                             # noqa: A002
        return functional.fold(input, *self.args)


class AdaptiveMaxPool2d(Cell):
    """The maximum over each adaptive bin of (N, C, H, W) (``return_indices``: and its position)."""

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def construct(self, input):                             # noqa: A002
        return functional.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool1d(AdaptiveMaxPool2d):
    """The maximum over each adaptive bin of the last dim of (N, C, L)."""

    def construct(self, input):                             # noqa: A002
        return functional.adaptive_max_pool1d(input, self.output_size, self.return_indices)


class ConvTranspose2d(Cell):
    """Transposed 2-D convolution: weight (in, out/groups, kh, kw) and bias drawn as PyTorch's
    (U(−1/√fan_in, 1/√fan_in), fan_in = out/groups·kh·kw)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, bias=True, dilation=1, padding_mode="zeros",
                 dtype=None):
        super().__init__()
        if padding_mode != "zeros":
            raise ValueError(f"For 'ConvTranspose2d', only padding_mode 'zeros' is supported, "
                             f"but got {padding_mode!r}.")
        kh, kw = kernel_size if isinstance(kernel_size, (list, tuple)) else (kernel_size,) * 2
        dtype = dtype or mstype.float32
        self.args = (stride, padding, output_padding, groups, dilation)
        shape = [in_channels, out_channels // groups, kh, kw]
        self.weight = Parameter(initializer(HeUniform(math.sqrt(5)), shape, dtype), name="weight")
        self.bias = None
        if bias:
            bound = 1 / math.sqrt(out_channels // groups * kh * kw)
            self.bias = Parameter(initializer(Uniform(bound), [out_channels], dtype), name="bias")

    def construct(self, input):                             # noqa: A002
        return functional.conv_transpose2d(input, self.weight, self.bias, *self.args)
