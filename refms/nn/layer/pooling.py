"""Pooling layers over (N, C, H, W) inputs (3-D (C, H, W) inputs get a batch axis and lose it again).

``MaxPool2d`` / ``AvgPool2d`` slide a window (``kernel_size``, ``stride``):
``pad_mode='valid'`` gives OH = ⌊(H − kh)/sh⌋ + 1 and ``'same'`` gives ⌈H/sh⌉
(semantics 8.4); ``'pad'`` takes symmetric ``padding`` and ``ceil_mode``
(AvgPool2d also ``count_include_pad`` and ``divisor_override``).  The window
arithmetic is the ``ops.MaxPool`` / ``ops.AvgPool`` primitives'.

``AdaptiveMaxPool2d`` / ``AdaptiveAvgPool2d`` produce a fixed output size
(oh, ow): output cell (i, j) pools rows ⌊i·H/oh⌋ … ⌈(i+1)·H/oh⌉ − 1 and the
columns likewise (the PyTorch/MindSpore bin rule).  When oh divides H and
ow divides W the bins are an ordinary pooling window (kernel = stride = H/oh),
so that case runs as one MaxPool/AvgPool; otherwise each bin is reduced on
its own.
"""
from ...ops import functional as F
from ...ops.composites.adaptive_pool import adaptive_pool2d
from ...ops.prims.pool import AvgPool, MaxPool
from ..cell import Cell

__all__ = ["MaxPool2d", "AvgPool2d", "AdaptiveMaxPool2d", "AdaptiveAvgPool2d", "MaxPool1d"]


def _int_or_pair(value, name, cell_name):
    pair = (value, value) if isinstance(value, int) and not isinstance(value, bool) else value
    if not (isinstance(pair, tuple) and len(pair) == 2 and
            all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in pair)):
        raise ValueError(f"For '{cell_name}', the '{name}' must be an positive int number or a "
                         f"tuple, but got {value}")
    return value


def _run_on_4d(fn, x):
    """Apply ``fn`` to an (N, C, H, W) view of ``x`` (3-D inputs get a batch axis of 1)."""
    if len(x.shape) == 3:
        return F.squeeze(fn(F.expand_dims(x, 0)), 0)
    return fn(x)


class _Pool2d(Cell):
    def __init__(self, kernel_size, stride, pad_mode, data_format):
        super().__init__()
        if not isinstance(pad_mode, str) or pad_mode.upper() not in ("VALID", "SAME", "PAD"):
            raise ValueError(f"For '{self.cls_name}', the 'pad_mode' must be one of ['VALID', "
                             f"'SAME', 'PAD'], but got {pad_mode!r}.")
        if data_format != "NCHW":
            raise ValueError(f"For '{self.cls_name}, the 'NHWC' format only support in GPU "
                             f"target, but got device target CPU.")
        self.kernel_size = _int_or_pair(kernel_size, "kernel_size", self.cls_name)
        self.stride = _int_or_pair(stride, "stride", self.cls_name)
        self.pad_mode = pad_mode.upper()
        self.format = data_format

    def extend_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"


class MaxPool2d(_Pool2d):
    """MaxPool2d(kernel_size=1, stride=1, pad_mode='valid', padding=0, dilation=1, return_indices=False, ceil_mode=False)

    y[n, c, i, j] = max of the window (i, j) of x[n, c].
    """

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1,
                 return_indices=False, ceil_mode=False, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, data_format)
        self.return_indices = return_indices
        self.use_pad = self.pad_mode == "PAD"
        if not self.use_pad and (padding != 0 or dilation != 1 or return_indices or ceil_mode):
            raise ValueError(f"For MaxPool2d, the parameter 'padding', 'dilation', "
                             f"'return_indices', 'ceil_mode' can not be set to non-default value "
                             f"when pad_mode is not 'pad', but got pad_mode:{pad_mode}.")
        self.padding, self.dilation, self.ceil_mode = padding, dilation, ceil_mode
        if not self.use_pad:
            self.max_pool = MaxPool(kernel_size=self.kernel_size, strides=self.stride,
                                    pad_mode=self.pad_mode)

    def construct(self, x):
        if self.use_pad:
            def pool(x4):
                return F.max_pool2d(x4, self.kernel_size, self.stride, self.padding, self.dilation,
                                    self.return_indices, self.ceil_mode)
            if self.return_indices and len(x.shape) == 3:
                out, indices = pool(F.expand_dims(x, 0))
                return F.squeeze(out, 0), F.squeeze(indices, 0)
            return _run_on_4d(pool, x)
        return _run_on_4d(self.max_pool, x)


class AvgPool2d(_Pool2d):
    """AvgPool2d(kernel_size=1, stride=1, pad_mode='valid', padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None)

    y[n, c, i, j] = mean of the window (i, j) of x[n, c] (padding counted or not, see the arguments).
    """

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, data_format)
        self.is_expand = (self.pad_mode == "PAD" or padding != 0 or ceil_mode
                          or not count_include_pad or divisor_override is not None)
        if divisor_override is not None and divisor_override <= 0:
            raise ValueError(f"For '{self.cls_name}', the 'divisor_override' must be > 0, but got "
                             f"{divisor_override}.")
        self.padding, self.ceil_mode = padding, ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override
        if not self.is_expand:
            self.avg_pool = AvgPool(kernel_size=self.kernel_size, strides=self.stride,
                                    pad_mode=self.pad_mode)

    def construct(self, x):
        if self.is_expand:
            def pool(x4):
                return F.avg_pool2d(x4, self.kernel_size, self.stride, self.padding,
                                    self.ceil_mode, self.count_include_pad,
                                    self.divisor_override or 0)
            return _run_on_4d(pool, x)
        return _run_on_4d(self.avg_pool, x)


class _AdaptivePool2d(Cell):
    """Adaptive pooling (:mod:`refms.ops.composites.adaptive_pool`) of 3-D or 4-D inputs."""
    mode = None

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def construct(self, x):
        if len(x.shape) not in (3, 4):
            raise ValueError(f"For '{self.cls_name}', the input must be 3-D or 4-D, but got input "
                             f"shape {tuple(x.shape)}.")
        return _run_on_4d(self._pool4d, x)

    def _pool4d(self, x):
        return adaptive_pool2d(x, self.output_size, self.mode, self.cls_name)


class AdaptiveMaxPool2d(_AdaptivePool2d):
    """AdaptiveMaxPool2d(output_size, return_indices=False): max over adaptive bins."""
    mode = "max"

    def __init__(self, output_size, return_indices=False):
        super().__init__(output_size)
        if return_indices:
            raise NotImplementedError("refms's AdaptiveMaxPool2d does not return indices yet.")
        self.return_indices = return_indices


class AdaptiveAvgPool2d(_AdaptivePool2d):
    """AdaptiveAvgPool2d(output_size): mean over adaptive bins."""
    mode = "avg"


class MaxPool1d(Cell):
    """MaxPool1d(kernel_size=1, stride=1, pad_mode='valid', padding=0, dilation=1, return_indices=False, ceil_mode=False)

    y[n, c, i] = max of the window i of x[n, c] over an (N, C, L) or (C, L) input: the 2-D
    pooling of x viewed as (N, C, 1, L) with a (1, kernel_size) window, as MindSpore computes
    it (and prints it: ``kernel_size=(1, k), stride=(1, s)``).
    """

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1,
                 return_indices=False, ceil_mode=False):
        super().__init__()
        for name, value in (("kernel_size", kernel_size), ("stride", stride)):
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ValueError(f"For '{self.cls_name}', the '{name}' must be a positive int, "
                                 f"but got {value!r}.")
        if not isinstance(pad_mode, str) or pad_mode.upper() not in ("VALID", "SAME", "PAD"):
            raise ValueError(f"For '{self.cls_name}', the 'pad_mode' must be one of ['VALID', "
                             f"'SAME', 'PAD'], but got {pad_mode!r}.")
        self.kernel_size, self.stride = (1, kernel_size), (1, stride)
        self.pad_mode = pad_mode.upper()
        self.use_pad = self.pad_mode == "PAD"
        if not self.use_pad and (padding != 0 or dilation != 1 or return_indices or ceil_mode):
            raise ValueError(f"For MaxPool1d, the parameter 'padding', 'dilation', "
                             f"'return_indices', 'ceil_mode' can not be set to non-default value "
                             f"when pad_mode is not 'pad', but got pad_mode:{pad_mode}.")
        self.padding, self.dilation = (0, padding), (1, dilation)
        self.return_indices, self.ceil_mode = return_indices, ceil_mode
        if not self.use_pad:
            self.max_pool = MaxPool(kernel_size=self.kernel_size, strides=self.stride,
                                    pad_mode=self.pad_mode)

    def construct(self, x):
        if len(x.shape) not in (2, 3):
            raise ValueError(f"For '{self.cls_name}', the input must be 2-D (C, L) or 3-D "
                             f"(N, C, L), but got shape {tuple(x.shape)}.")
        x4 = F.expand_dims(x, -2)
        if len(x.shape) == 2:
            x4 = F.expand_dims(x4, 0)
        if not self.use_pad:
            out = self.max_pool(x4)
        else:
            out = F.max_pool2d(x4, self.kernel_size, self.stride, self.padding, self.dilation,
                               self.return_indices, self.ceil_mode)
        outs = out if self.return_indices else (out,)
        squeezed = tuple(F.squeeze(F.squeeze(o, 2), 0) if len(x.shape) == 2 else F.squeeze(o, 2)
                         for o in outs)
        return squeezed if self.return_indices else squeezed[0]

    def extend_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"
