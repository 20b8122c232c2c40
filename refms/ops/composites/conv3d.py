"""3-D cross-correlation of an (N, C, D, H, W) input, built from 2-D convolutions.

    out[:, :, od] = Σ_{kd} Conv2D(x_p[:, :, od·s_d + kd·d_d], w[:, :, kd]) (+ bias)

— every output depth slice is a sum of 2-D convolutions of input depth slices with the
matching depth slice of the weight ``(out, in/groups, kd, kh, kw)``.  ``x_p`` is ``x``
zero-padded along depth; the height/width padding is the 2-D convolution's own.
Gradients and graph mode come from ``Conv2D``, ``GetItem`` and ``Stack``.  ``nn.Conv3d``
and ``mint.nn.functional.conv3d`` / ``mint.nn.Conv3d`` call ``conv3d_slices``.
"""
from ..primitive import F, op_error
from ..prims.conv import Conv2D, same_padding
from .padding import pad_axes

__all__ = ["conv3d_slices", "pads_for"]


def pads_for(mode, sizes, kernel, stride, dilation, padding6=(0,) * 6):
    """((front, back), (top, bottom), (left, right)) of a padding mode: 'valid' none, 'same'
    the output ⌈size/stride⌉ with the odd padded cell at the end, 'pad' ``padding6``."""
    if mode == "valid":
        return ((0, 0),) * 3
    if mode == "pad":
        p = padding6
        return (p[0], p[1]), (p[2], p[3]), (p[4], p[5])
    return tuple(same_padding(n, k, s, d) for n, k, s, d in zip(sizes, kernel, stride, dilation))


def conv3d_slices(op, x, weight, bias, pads, stride, dilation, groups):
    """The 3-D cross-correlation of ``x`` (N, C, D, H, W) with ``weight`` (O, C/groups, kd,
    kh, kw), padded by ``pads`` (three (before, after) pairs), plus ``bias`` (O,) if given."""
    if len(x.shape) != 5 or len(weight.shape) != 5:
        raise op_error(op, f"the input and weight must be 5-D (N, C, D, H, W) and (O, C/groups, "
                           f"kD, kH, kW), but got {tuple(x.shape)} and {tuple(weight.shape)}.",
                       ValueError)
    if x.shape[1] != weight.shape[1] * groups:
        raise op_error(op, f"the input's {x.shape[1]} channels must equal weight.shape[1] * "
                           f"groups = {weight.shape[1]} * {groups}.", ValueError)
    (pd0, pd1), (ph0, ph1), (pw0, pw1) = pads
    if pd0 or pd1:
        x = pad_axes(op, x, ((0, 0), (0, 0), (pd0, pd1), (0, 0), (0, 0)))
    kd, kh, kw = weight.shape[2:]
    sd, sh, sw = stride
    dd, dh, dw = dilation
    depth = (x.shape[2] - dd * (kd - 1) - 1) // sd + 1
    if depth <= 0:
        raise op_error(op, f"the padded depth {x.shape[2]} is smaller than the dilated kernel "
                           f"depth {dd * (kd - 1) + 1}.", ValueError)
    conv = Conv2D(out_channel=weight.shape[0], kernel_size=(kh, kw), pad_mode="pad",
                  pad=(ph0, ph1, pw0, pw1), stride=(sh, sw), dilation=(dh, dw), group=groups)
    slices = []
    for od in range(depth):
        acc = None
        for k in range(kd):
            term = conv(x[:, :, od * sd + k * dd], weight[:, :, k])
            acc = term if acc is None else acc + term
        slices.append(acc)
    out = F.stack(slices, 2)
    if bias is not None:
        out = out + F.reshape(bias, (1, -1, 1, 1, 1))
    return out
