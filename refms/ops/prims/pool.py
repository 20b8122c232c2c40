"""2-D pooling: MaxPool, AvgPool, MaxPoolWithArgmaxV2 and their gradients.

``ops.MaxPool(kernel_size=1, strides=1, pad_mode="valid", data_format="NCHW")(x)``
(AvgPool alike) slides a kh×kw window over x (N, C, H, W).  ``pad_mode`` is
case-insensitive [ran 2.10]:

* ``'valid'``: OH = ⌊(H − kh) / sh⌋ + 1;
* ``'same'``:  OH = ⌈H / sh⌉, padded as Conv2D's 'same' (odd cell at the bottom/right);
  padded cells never win a max and are not counted by the average [ran 2.10].

The functional forms ``max_pool2d`` / ``avg_pool2d`` take symmetric ``padding``
and ``ceil_mode`` (then ``pad_mode`` is ``'PAD'``); ``avg_pool2d`` counts the
padding in the divisor unless ``count_include_pad=False``, or divides by
``divisor_override``.

Gradients: MaxPool routes each output's gradient to the first maximum of
its window (row-major; ties are not split [ran 2.10]); AvgPool spreads it
evenly over the window.  The gradient primitives are linear in ``dout`` and
adjoint in pairs (MaxPoolGrad ↔ MaxPoolGradGrad, AvgPoolGrad ↔ AvgPool), so
they are differentiable again.
"""
import weakref

import numpy as np

from ... import dtype as mstype
from ... import kernels
from ...kernels.pool import real_cell_counts
from .. import batching
from ..primitive import F, Primitive, Abstract, register, functional, op_error
from ._base import FLOATS, shape_str
from .conv import positive_pair, same_padding


def _pool_pair(op, name, value):
    if isinstance(value, float) or not isinstance(value, (int, np.integer, tuple, list)):
        raise op_error(op, f"the type of '{name}' should be one of '['int', 'tuple']', but got type "
                           f"'{type(value).__name__}'.")
    return positive_pair(op, name, value)


def _padding_pair(op, name, value):
    """int or (h, w) of non-negative ints."""
    pair = (value, value) if isinstance(value, (int, np.integer)) else tuple(value)
    if len(pair) != 2 or any(isinstance(p, bool) or not isinstance(p, (int, np.integer)) or p < 0
                             for p in pair):
        raise op_error(op, f"the '{name}' must be a non-negative int or a tuple of two, but got "
                           f"{value!r}.", ValueError)
    return int(pair[0]), int(pair[1])


def _ceil_extra(size, kernel, stride, pad):
    """Extra bottom/right cells ``ceil_mode`` windows reach: the output rounds up, but the
    last window must still start inside the input or its left/top padding."""
    out = -(-(size + 2 * pad - kernel) // stride) + 1
    if (out - 1) * stride >= size + pad:
        out -= 1
    return max((out - 1) * stride + kernel - (size + 2 * pad), 0)


class _Pool2D(Primitive):
    """Window geometry shared by every pooling primitive (attributes as MindSpore stores them)."""
    n_tensor_inputs = None

    def __init__(self, kernel_size=1, strides=1, pad_mode="valid", data_format="NCHW"):
        op = type(self).__name__
        self.kernel_size = (1, 1) + _pool_pair(op, "kernel_size", kernel_size)
        self.strides = (1, 1) + _pool_pair(op, "strides", strides)
        mode = pad_mode.upper() if isinstance(pad_mode, str) else pad_mode
        if mode not in ("VALID", "SAME"):
            raise op_error(op, f"the 'pad_mode' must be str and must be in '['VALID', 'SAME']', but "
                               f"got {pad_mode!r}.", ValueError)
        if data_format != "NCHW":
            raise op_error(op, f"the 'data_format' must be 'NCHW' (refms runs on CPU; 'NHWC' is only "
                               f"supported in GPU target), but got {data_format!r}.", ValueError)
        self.pad_mode = mode
        self.data_format = data_format

    @classmethod
    def explicit(cls, kernel_size, strides, padding=0, ceil_mode=False, **extra):
        """The functional forms' pooling: symmetric ``padding`` (h, w), optional ``ceil_mode``."""
        prim = cls(kernel_size, strides)
        prim.pad_mode = "PAD"
        prim.pad = _padding_pair(cls.__name__, "padding", padding)
        prim.ceil_mode = bool(ceil_mode)
        for key, value in extra.items():
            setattr(prim, key, value)
        return prim

    @classmethod
    def like(cls, prim):
        """A ``cls`` primitive with exactly the window attributes of ``prim`` (for the gradients)."""
        new = cls.__new__(cls)
        new.__dict__.update(prim.attrs)
        return new

    # -- geometry ----------------------------------------------------------------------
    def window(self):
        return self.kernel_size[2:], self.strides[2:]

    def pads(self, x_shape):
        """(top, bottom, left, right) for an input of shape ``x_shape``."""
        (kh, kw), (sh, sw) = self.window()
        h, w = x_shape[2:]
        if self.pad_mode == "VALID":
            return (0, 0, 0, 0)
        if self.pad_mode == "SAME":
            return same_padding(h, kh, sh) + same_padding(w, kw, sw)
        ph, pw = self.pad
        extra_h = _ceil_extra(h, kh, sh, ph) if self.ceil_mode else 0
        extra_w = _ceil_extra(w, kw, sw, pw) if self.ceil_mode else 0
        return (ph, ph + extra_h, pw, pw + extra_w)

    def output_shape(self, x):
        op = self.name
        if len(x.shape) != 4:
            raise op_error(op, f"the length of input must be equal to 4, but got {len(x.shape)} "
                               f"(input shape {shape_str(x.shape)}).", ValueError)
        if x.dtype not in FLOATS:
            raise op_error(op, f"the input argument[x] must be a type of {{Tensor[Float16], "
                               f"Tensor[Float32], Tensor[Float64]}}, but got Tensor[{x.dtype}].")
        (kh, kw), (sh, sw) = self.window()
        top, bottom, left, right = self.pads(x.shape)
        oh = (x.shape[2] + top + bottom - kh) // sh + 1
        ow = (x.shape[3] + left + right - kw) // sw + 1
        shape = tuple(x.shape[:2]) + (oh, ow)
        if oh <= 0 or ow <= 0:
            raise op_error(op, f"the each element of the output shape must be larger than 0, but got "
                               f"output shape: {shape_str(shape)}. The input shape: "
                               f"{shape_str(x.shape)}, kernel size: {self.kernel_size}, strides: "
                               f"{self.strides}, pads: {(top, bottom, left, right)}.", ValueError)
        return shape

    def kernel_args(self, x_shape):
        kernel, stride = self.window()
        return kernel, stride, self.pads(x_shape)

    def argmax(self, x, out=None):
        """The argmax of each window of x: remembered from the forward that produced ``out``
        when there was one (see :class:`_ArgmaxMemo`), else found again."""
        args = self.kernel_args(x.shape)
        argmax = _ARGMAX.recall(x, out, args)
        if argmax is None:
            argmax = kernels.call("max_pool2d")(x, *args)[1]
        return argmax

    def max_pool(self, x):
        """(y, argmax) of x; the argmax is remembered for the gradient of this very y."""
        args = self.kernel_args(x.shape)
        y, argmax = kernels.call("max_pool2d")(x, *args)
        _ARGMAX.remember(x, y, args, argmax)
        return y, argmax


class _ArgmaxMemo:
    """The argmax a max-pool forward found, kept while its input and output arrays live.

    MaxPoolGrad receives (x, y, dy): the winners of y's windows are where the
    forward found them, so instead of searching the windows of x again the
    gradient looks up the argmax saved with y.  An entry is found only for
    the very same x and y array objects and window geometry; it disappears
    when y is garbage collected.  (Writing into x in place between the
    forward and the gradient would make the saved argmax stale, as it would
    make y stale.)
    """

    def __init__(self):
        self.entries = {}

    def remember(self, x, y, args, argmax):
        key = id(y)
        try:
            ref = weakref.ref(y, lambda _, key=key: self.entries.pop(key, None))
        except TypeError:              # not weak-referenceable: nothing is remembered
            return
        self.entries[key] = (ref, weakref.ref(x), args, argmax)

    def recall(self, x, y, args):
        entry = self.entries.get(id(y)) if y is not None else None
        if entry is None:
            return None
        y_ref, x_ref, saved_args, argmax = entry
        if y_ref() is y and x_ref() is x and saved_args == args:
            return argmax
        return None


_ARGMAX = _ArgmaxMemo()


@register
class MaxPool(_Pool2D):
    """y[n, c, i, j] = max of x over window (i, j);  dx = MaxPoolGrad(x, y, dy)."""

    def infer(self, x):
        return Abstract(self.output_shape(x), x.dtype)

    def batch(self, batched, x):
        """vmap: the batch folds into N."""
        return batching.merge_batch(self, x)

    def forward(self, x):
        return self.max_pool(x)[0]

    def bprop(self, x, out, dout):
        return (MaxPoolGrad.like(self)(x, out, dout),)


#: −FLT_MAX by item size (float16, float32, float64): where MindSpore's MaxPoolWithArgmaxV2
#: starts its scan.
_LOWEST = {2: -65504.0, 4: -3.4028234663852886e38, 8: -1.7976931348623157e308}


@register
class MaxPoolWithArgmaxV2(_Pool2D):
    """(y, argmax): MaxPool with symmetric ``pads`` and ``ceil_mode``; argmax = flat index h·W + w in x.

    The primitive behind ``ops.max_pool2d``.  Only ``dilation = 1`` is implemented.
    """
    n_outputs = 2

    def __init__(self, kernel_size, strides=None, pads=0, dilation=(1, 1), ceil_mode=False,
                 argmax_type=mstype.int64):
        super().__init__(kernel_size, kernel_size if strides is None else strides)
        if positive_pair("MaxPoolWithArgmaxV2", "dilation", dilation) != (1, 1):
            raise op_error("MaxPoolWithArgmaxV2", f"refms implements only dilation=1, but got "
                                                  f"{dilation!r}.", ValueError)
        self.pad_mode = "PAD"
        self.pad = _padding_pair("MaxPoolWithArgmaxV2", "pads", pads)
        for size, pad in zip(self.kernel_size[2:], self.pad):
            if 2 * pad > size:
                raise op_error("MaxPoolWithArgmaxV2", f"it is required that the `pads` is no more "
                                                      f"than half of the `kernel_size`, but got pads"
                                                      f"{self.pad} and kernel_size"
                                                      f"{self.kernel_size[2:]}.", ValueError)
        self.ceil_mode = bool(ceil_mode)
        self.argmax_type = mstype.to_dtype(argmax_type)

    def infer(self, x):
        shape = self.output_shape(x)
        return Abstract(shape, x.dtype), Abstract(shape, self.argmax_type)

    def forward(self, x):
        """NaN cells never win: MindSpore 2.10's kernel scans from −FLT_MAX, so a window of
        only NaN gives −FLT_MAX (recorded).  Unlike :class:`MaxPool`, whose first cell wins."""
        nan = kernels.call("isnan")(x)
        if bool(kernels.call("reduce_any")(nan, (), False)):
            lowest = kernels.call("full_like")(x, _LOWEST[x.dtype.itemsize])
            x = kernels.call("where")(nan, lowest, x)
        return self.max_pool(x)

    def bprop(self, x, out, dout):
        return (MaxPoolGrad.like(self)(x, out[0], dout[0]),)


@register
class MaxPoolGrad(_Pool2D):
    """dx = scatter of dy to each window's argmax.  Inputs ``(x, y, dy)``.

    Linear in dy; its adjoint gathers at the argmax: d(dy) = MaxPoolGradGrad(x, y, ddx).
    """

    def infer(self, x, out, dout):
        if tuple(dout.shape) != self.output_shape(x):
            raise op_error(self.name, f"the shape of 'grad' should be {shape_str(self.output_shape(x))}, "
                                      f"but got {shape_str(dout.shape)}.", ValueError)
        return Abstract(x.shape, x.dtype)

    def batch(self, batched, x, out, dout):
        """vmap with every input batched: the batch folds into N."""
        if not all(batched):
            return NotImplemented
        return batching.merge_batch_all(self, (x, out, dout))

    def forward(self, x, out, dout):
        return kernels.call("max_pool2d_grad")(dout, self.argmax(x, out), x.shape)

    def bprop(self, x, out, dout, dx, ddx):
        return F.zeros_like(x), F.zeros_like(out), MaxPoolGradGrad.like(self)(x, out, ddx)


@register
class MaxPoolGradGrad(_Pool2D):
    """ddy = ddx gathered at each window's argmax.  Inputs ``(x, y, ddx)``; adjoint of MaxPoolGrad."""

    def infer(self, x, out, ddx):
        return Abstract(self.output_shape(x), x.dtype)

    def forward(self, x, out, ddx):
        return kernels.call("max_pool2d_grad_grad")(ddx, self.argmax(x, out))

    def bprop(self, x, out, ddx, ddy, d):
        return F.zeros_like(x), F.zeros_like(out), MaxPoolGrad.like(self)(x, out, d)


class _AvgDivisor:
    """The divisor of each window: real cells ('valid'/'same' and count_include_pad=False),
    cells of the padded input (count_include_pad=True), or ``divisor_override``."""

    def divisor(self, x_shape):
        override = getattr(self, "divisor_override", 0)
        if override:
            return float(override)
        if self.pad_mode != "PAD" or not self.count_include_pad:
            return None                      # the kernel's default: real cells per window
        (kernel, stride), (ph, pw) = self.window(), self.pad
        top, bottom, left, right = self.pads(x_shape)
        padded = tuple(x_shape[:2]) + (x_shape[2] + 2 * ph, x_shape[3] + 2 * pw)
        return real_cell_counts(padded, kernel, stride, (0, bottom - ph, 0, right - pw))


@register
class AvgPool(_AvgDivisor, _Pool2D):
    """y[n, c, i, j] = (Σ window (i, j) of x) / divisor;  dx = AvgPoolGrad(x, y, dy)."""

    def infer(self, x):
        return Abstract(self.output_shape(x), x.dtype)

    def batch(self, batched, x):
        """vmap: the batch folds into N."""
        return batching.merge_batch(self, x)

    def forward(self, x):
        return kernels.call("avg_pool2d")(x, *self.kernel_args(x.shape), self.divisor(x.shape))

    def bprop(self, x, out, dout):
        return (AvgPoolGrad.like(self)(x, out, dout),)


@register
class AvgPoolGrad(_AvgDivisor, _Pool2D):
    """dx = each dy[i, j] / divisor spread over window (i, j).  Inputs ``(x, y, dy)``.

    Linear in dy and the adjoint of AvgPool, so d(dy) = AvgPool(ddx).
    """

    def infer(self, x, out, dout):
        if tuple(dout.shape) != self.output_shape(x):
            raise op_error(self.name, f"the shape of 'grad' should be {shape_str(self.output_shape(x))}, "
                                      f"but got {shape_str(dout.shape)}.", ValueError)
        return Abstract(x.shape, x.dtype)

    def batch(self, batched, x, out, dout):
        """vmap with every input batched: the batch folds into N."""
        if not all(batched):
            return NotImplemented
        return batching.merge_batch_all(self, (x, out, dout))

    def forward(self, x, out, dout):
        return kernels.call("avg_pool2d_grad")(dout, x.shape, *self.kernel_args(x.shape),
                                               self.divisor(x.shape))

    def bprop(self, x, out, dout, dx, ddx):
        return F.zeros_like(x), F.zeros_like(out), AvgPool.like(self)(ddx)


def max_pool2d(x, kernel_size, stride=None, padding=0, dilation=1, return_indices=False,
               ceil_mode=False):
    """ops.max_pool2d: max pooling with symmetric ``padding``; ``return_indices`` adds the Int64 argmax."""
    out, argmax = MaxPoolWithArgmaxV2(kernel_size, stride, padding, dilation, ceil_mode)(x)
    return (out, argmax) if return_indices else out


def avg_pool2d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=0):
    """ops.avg_pool2d: average pooling with symmetric ``padding`` (counted unless
    ``count_include_pad=False``) or a fixed ``divisor_override``."""
    op = "avg_pool2d"
    kernel = _pool_pair(op, "kernel_size", kernel_size)
    pad = _padding_pair(op, "padding", padding)
    if any(2 * p > k for p, k in zip(pad, kernel)):
        raise op_error(op, f"the sum of the pads in the two directions should be less than or equal "
                           f"to the corresponding kernel size, but got padding {pad} and kernel "
                           f"{kernel}.", ValueError)
    prim = AvgPool.explicit(kernel, stride, pad, ceil_mode,
                            count_include_pad=bool(count_include_pad),
                            divisor_override=int(divisor_override or 0))
    return prim(input_x)


functional("max_pool2d", max_pool2d)
functional("avg_pool2d", avg_pool2d)
