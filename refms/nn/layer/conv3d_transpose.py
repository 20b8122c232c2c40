"""``nn.Conv3dTranspose``: the adjoint of ``nn.Conv3d``, built from 2-D transposed convolutions.

Input depth slice ``i`` spreads over output depths ``i·s_d + k·d_d`` (``k`` < kernel depth):

    full[:, :, i·s_d + k·d_d] += Conv2dTranspose(x[:, :, i], w[:, :, k])

(``Conv2DBackpropInput`` with the weight slice ``(in, out/group, kh, kw)``, which also applies
the height/width padding), and the output keeps ``D_out`` of the ``(D − 1)·s + k'`` full
depths from ``head`` on (``k' = d·(k − 1) + 1``; zeros past the end):

* ``'same'``: ``D_out = D·s``, ``head = max(k' − s, 0) // 2``;
* ``'valid'``: ``D_out = D·s + max(k' − s, 0)``, ``head = 0``;
* ``'pad'``: ``D_out = (D − 1)·s + k' − pad_head − pad_tail``, ``head = pad_head``.

Gradients and graph mode come from ``Conv2DBackpropInput``, ``GetItem`` and ``Stack``.
"""
import numpy as np

from ... import dtype as mstype
from ..._tensor import Tensor
from ...initializer import initializer
from ...ops import functional as F
from ...ops.prims.conv import Conv2DBackpropInput
from ...parameter import Parameter
from ..cell import Cell
from ._checks import check_non_negative_int
from ._defaults import default_weight_init
from .conv3d import _triple
from .conv_variants import _bias, _check_common, _deconv_length

__all__ = ["Conv3dTranspose"]


class Conv3dTranspose(Cell):
    """Conv3dTranspose(in_channels, out_channels, kernel_size, stride=1, pad_mode='same',
    padding=0, dilation=1, group=1, output_padding=0, has_bias=False, weight_init=None,
    bias_init=None, data_format='NCDHW', dtype=float32)"""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, output_padding=0, has_bias=False,
                 weight_init=None, bias_init=None, data_format="NCDHW", dtype=mstype.float32):
        super().__init__()
        name = "Conv3dTranspose"
        _check_common(name, in_channels, out_channels, group, pad_mode)
        if isinstance(padding, int) and not isinstance(padding, bool):
            check_non_negative_int(padding, "padding", name)
            pads = (padding,) * 6
        elif isinstance(padding, tuple) and len(padding) == 6:
            for p in padding:
                check_non_negative_int(p, "padding", name)
            pads = padding
        else:
            raise TypeError(f"For '{name}', the 'padding' must be int or a tuple of 6 ints, but "
                            f"got {padding!r}.")
        if pad_mode != "pad" and any(pads):
            raise ValueError(f"For '{name}', the 'padding' must be 0 when 'pad_mode' is not "
                             f"'pad', but got {padding!r}.")
        if output_padding != 0:
            raise ValueError(f"For '{name}', refms implements output_padding=0 only, but got "
                             f"{output_padding!r}.")
        if data_format != "NCDHW":
            raise ValueError(f"For '{name}', only 'NCDHW' is supported, but got "
                             f"{data_format!r}.")
        self.in_channels, self.out_channels, self.group = in_channels, out_channels, group
        self.kernel_size = _triple(kernel_size, "kernel_size")
        self.stride = _triple(stride, "stride")
        self.dilation = _triple(dilation, "dilation")
        if self.dilation[0] != 1:
            raise ValueError(f"For 'Conv3DTranspose', the depth of parameter 'dilation' must be "
                             f"1, but got {self.dilation[0]}.")
        self.pad_mode, self.padding, self.pads = pad_mode, padding, pads
        shape = (in_channels, out_channels // group) + self.kernel_size
        self.weight_init = default_weight_init() if weight_init is None else weight_init
        self.weight = Parameter(initializer(self.weight_init, shape, dtype), name="weight")
        _bias(self, has_bias, bias_init, int(np.prod(shape[1:])), out_channels, dtype)
        self.deconv = Conv2DBackpropInput(out_channel=in_channels,
                                          kernel_size=self.kernel_size[1:], pad_mode=pad_mode,
                                          pad=pads[2:], stride=self.stride[1:],
                                          dilation=self.dilation[1:], group=group)

    def _depths(self, depth):
        """(D_out, head) of the module docstring."""
        k, s, d = self.kernel_size[0], self.stride[0], self.dilation[0]
        span = d * (k - 1) + 1
        if self.pad_mode == "same":
            return depth * s, max(span - s, 0) // 2
        if self.pad_mode == "valid":
            return depth * s + max(span - s, 0), 0
        return (depth - 1) * s + span - self.pads[0] - self.pads[1], self.pads[0]

    def construct(self, x):
        if len(x.shape) != 5 or x.shape[1] != self.in_channels:
            raise ValueError(f"For 'Conv3dTranspose', the input must have shape (N, "
                             f"{self.in_channels}, D, H, W), but got {tuple(x.shape)}.")
        n, _, depth, h, w = x.shape
        out_h = _deconv_length(h, self.kernel_size[1], self.stride[1], self.dilation[1],
                               self.pad_mode, self.pads[2] + self.pads[3])
        out_w = _deconv_length(w, self.kernel_size[2], self.stride[2], self.dilation[2],
                               self.pad_mode, self.pads[4] + self.pads[5])
        out_d, head = self._depths(depth)
        full = {}
        for i in range(depth):
            for k in range(self.kernel_size[0]):
                position = i * self.stride[0] + k * self.dilation[0]
                if not head <= position < head + out_d:
                    continue
                term = self.deconv(x[:, :, i], self.weight[:, :, k],
                                   (n, self.out_channels, out_h, out_w))
                full[position] = term if position not in full else full[position] + term
        zeros = Tensor(np.zeros((n, self.out_channels, out_h, out_w)), x.dtype)
        out = F.stack([full.get(p, zeros) for p in range(head, head + out_d)], 2)
        if self.has_bias:
            out = out + F.reshape(self.bias, (1, -1, 1, 1, 1))
        return out
