"""Im2ColExt and Col2ImExt: sliding blocks as columns (``mint.nn.functional.unfold``) and the
sum of columns back into an image (``mint.nn.functional.fold``), MindSpore 2.10's mint names.

Each is the other's adjoint, so each one's gradient is the other applied to ``dout``::

    unfold:  cols[n, c·kh·kw + i·kw + j, l] = x_pad[n, c, sh·a + dh·i, sw·b + dw·j],  l = a·ow + b
    fold:    x[n, c, y, x] = Σ over the (i, j, l) that read pixel (y, x) of cols[n, ·, l]

Block counts along H (likewise W): ``⌊(H + 2·ph − dh·(kh − 1) − 1) / sh⌋ + 1``
(the ``torch.nn.Unfold`` definition that MindSpore's mint documents).  The kernels are
:mod:`refms.kernels.im2col`.  Every size is a pair ``(along H, along W)``.
"""
from ... import kernels
from ..primitive import Primitive, Abstract, register, op_error
from ._base import check_tensor, shape_str

__all__ = ["Im2ColExt", "Col2ImExt", "pair"]


def pair(op, name, value, minimum):
    """An int or a pair of ints, each at least ``minimum``, as a pair (MindSpore's checks)."""
    values = tuple(value) if isinstance(value, (tuple, list)) else (value, value)
    if len(values) != 2 or any(isinstance(v, bool) or not isinstance(v, int) for v in values):
        raise op_error(op, f"the '{name}' must be an int or a tuple of two ints, but got "
                           f"{value!r}.")
    if any(v < minimum for v in values):
        raise op_error(op, f"the '{name}' must be at least {minimum}, but got {value!r}.",
                       ValueError)
    return values


def _blocks(op, size, kernel, dilation, padding, stride):
    counts = tuple((size[k] + 2 * padding[k] - dilation[k] * (kernel[k] - 1) - 1) // stride[k] + 1
                   for k in range(2))
    if min(counts) < 1:
        raise op_error(op, f"the spatial size {size} with padding {padding} is smaller than the "
                           f"dilated kernel {kernel} (dilation {dilation}): no block fits.",
                       ValueError)
    return counts


def _check_float(op, x):
    if x.dtype.kind != "float":
        raise op_error(op, f"the dtype of 'input' should be a float type, but got {x.dtype}.")


@register
class Im2ColExt(Primitive):
    """cols (N, C·kh·kw, L) of the sliding ``kernel_size`` blocks of x (N, C, H, W)."""
    n_tensor_inputs = 1

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        op = "Im2ColExt"
        self.kernel_size = pair(op, "kernel_size", kernel_size, 1)
        self.dilation = pair(op, "dilation", dilation, 1)
        self.padding = pair(op, "padding", padding, 0)
        self.stride = pair(op, "stride", stride, 1)

    def infer(self, x):
        op = "Im2ColExt"
        check_tensor(op, "input", x)
        _check_float(op, x)
        if len(x.shape) != 4:
            raise op_error(op, f"the 'input' must be a 4-D tensor (N, C, H, W), but got shape "
                               f"{shape_str(x.shape)}.", ValueError)
        n, c, h, w = x.shape
        oh, ow = _blocks(op, (h, w), self.kernel_size, self.dilation, self.padding, self.stride)
        kh, kw = self.kernel_size
        return Abstract((n, c * kh * kw, oh * ow), x.dtype)

    def forward(self, x):
        return kernels.call("im2col")(x, self.kernel_size, self.dilation, self.padding,
                                      self.stride)

    def bprop(self, x, out, dout):
        h, w = x.shape[2:]
        return (Col2ImExt((h, w), self.kernel_size, self.dilation, self.padding,
                          self.stride)(dout),)


@register
class Col2ImExt(Primitive):
    """x (N, C, H, W) = the columns (N, C·kh·kw, L) added back to the pixels they cover."""
    n_tensor_inputs = 1

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        op = "Col2ImExt"
        self.output_size = pair(op, "output_size", output_size, 1)
        self.kernel_size = pair(op, "kernel_size", kernel_size, 1)
        self.dilation = pair(op, "dilation", dilation, 1)
        self.padding = pair(op, "padding", padding, 0)
        self.stride = pair(op, "stride", stride, 1)

    def infer(self, cols):
        op = "Col2ImExt"
        check_tensor(op, "input", cols)
        _check_float(op, cols)
        if len(cols.shape) != 3:
            raise op_error(op, f"the 'input' must be a 3-D tensor (N, C·kh·kw, L), but got "
                               f"shape {shape_str(cols.shape)}.", ValueError)
        n, rows, length = cols.shape
        kh, kw = self.kernel_size
        if rows % (kh * kw):
            raise op_error(op, f"the size of dimension 1 of 'input' ({rows}) must be divisible "
                               f"by the product of kernel_size {self.kernel_size}.", ValueError)
        oh, ow = _blocks(op, self.output_size, self.kernel_size, self.dilation, self.padding,
                         self.stride)
        if length != oh * ow:
            raise op_error(op, f"the size of dimension 2 of 'input' ({length}) must match the "
                               f"number of sliding blocks {oh}·{ow} = {oh * ow} of output_size "
                               f"{self.output_size}.", ValueError)
        return Abstract((n, rows // (kh * kw)) + self.output_size, cols.dtype)

    def forward(self, cols):
        return kernels.call("col2im")(cols, self.output_size, self.kernel_size, self.dilation,
                                      self.padding, self.stride)

    def bprop(self, cols, out, dout):
        return (Im2ColExt(self.kernel_size, self.dilation, self.padding, self.stride)(dout),)
