"""``mint.nn.functional.conv_transpose2d`` and ``mint.nn.ConvTranspose2d``: the transposed
("fractionally strided") 2-D convolution, the adjoint of ``conv2d`` in its input.

``input`` (N, C_in, H, W), ``weight`` (C_in, C_out/groups, kh, kw); every input pixel spreads
its value over a kernel-sized patch of the output::

    out[n, g·C_out/groups + o, i·sh − ph + a·dh, j·sw − pw + b·dw]
        += input[n, c, i, j] · weight[c, o, a, b]          (c in group g)

with ``H_out = (H − 1)·sh − 2·ph + dh·(kh − 1) + output_padding_h + 1`` (likewise W;
``output_padding`` < stride or dilation adds rows/columns only the bottom/right taps reach).
This is ``torch.nn.functional.conv_transpose2d``'s definition, which MindSpore's mint
documents.  It runs as the registered ``Conv2DBackpropInput`` (the gradient of a convolution
of an H_out × W_out image), whose bprop gives the gradients of input and weight.
"""
from ...ops import functional as F
from ...ops.prims.conv import Conv2DBackpropInput

__all__ = ["conv_transpose2d"]


def _pair(value, name):
    values = tuple(value) if isinstance(value, (tuple, list)) else (value, value)
    if len(values) != 2 or any(isinstance(v, bool) or not isinstance(v, int) for v in values):
        raise TypeError(f"For 'conv_transpose2d', '{name}' must be an int or a pair of ints, but "
                        f"got {value!r}.")
    return values


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0,   # noqa: A002
                     output_padding=0, groups=1, dilation=1):
    """The transposed convolution of NCHW ``input`` with (C_in, C_out/groups, kh, kw)
    ``weight`` (and ``bias`` (C_out,) added per channel)."""
    (sh, sw), (ph, pw) = _pair(stride, "stride"), _pair(padding, "padding")
    (oph, opw), (dh, dw) = _pair(output_padding, "output_padding"), _pair(dilation, "dilation")
    if len(input.shape) != 4 or len(weight.shape) != 4:
        raise ValueError(f"For 'conv_transpose2d', 'input' and 'weight' must be 4-D, but got "
                         f"shapes {tuple(input.shape)} and {tuple(weight.shape)}.")
    if not (0 <= oph < max(sh, dh) and 0 <= opw < max(sw, dw)):
        raise ValueError(f"For 'conv_transpose2d', 'output_padding' {output_padding!r} must be "
                         f"smaller than the stride or the dilation.")
    n, c_in, height, width = input.shape
    if weight.shape[0] != c_in:
        raise ValueError(f"For 'conv_transpose2d', weight.shape[0] ({weight.shape[0]}) must equal "
                         f"the input channels ({c_in}).")
    kh, kw = weight.shape[2], weight.shape[3]
    c_out = weight.shape[1] * groups
    out_h = (height - 1) * sh - 2 * ph + dh * (kh - 1) + oph + 1
    out_w = (width - 1) * sw - 2 * pw + dw * (kw - 1) + opw + 1
    adjoint = Conv2DBackpropInput(out_channel=c_in, kernel_size=(kh, kw), pad_mode="pad",
                                  pad=(ph, ph, pw, pw), stride=(sh, sw), dilation=(dh, dw),
                                  group=groups)
    out = adjoint(input, weight, (n, c_out, out_h, out_w))
    if bias is not None:
        out = out + F.reshape(bias, (1, c_out, 1, 1))
    return out
