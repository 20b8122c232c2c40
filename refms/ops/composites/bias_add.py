"""BiasAdd: add a per-channel bias, ``y[n, c, ...] = x[n, c, ...] + b[c]`` (channel axis 1, NCHW).

Composition: ``b`` reshaped to ``(C, 1, ..., 1)`` and added with broadcasting;
the gradient of ``b`` is ``dout`` summed over every axis but the channel axis.
"""
from ..primitive import F, op_error
from ._common import CompositeOp, check_tensor

__all__ = ["BiasAdd", "bias_add"]


def bias_add(input_x, bias):
    """``ops.bias_add(input_x, bias)``."""
    check_tensor("BiasAdd", "input_x", input_x)
    check_tensor("BiasAdd", "bias", bias)
    if len(input_x.shape) < 2 or len(bias.shape) != 1 or bias.shape[0] != input_x.shape[1]:
        raise op_error("BiasAdd", f"the 'bias' should be 1-D with input_x.shape[1] elements and "
                                  f"'input_x' at least 2-D, but got input_x shape "
                                  f"{tuple(input_x.shape)} and bias shape {tuple(bias.shape)}.",
                       ValueError)
    if input_x.dtype is not bias.dtype:
        raise op_error("BiasAdd", f"the dtypes of 'input_x' and 'bias' should be the same, but "
                                  f"got {input_x.dtype} and {bias.dtype}.")
    return input_x + F.reshape(bias, (bias.shape[0],) + (1,) * (len(input_x.shape) - 2))


class BiasAdd(CompositeOp):
    """``BiasAdd(data_format='NCHW')()(input_x, bias)`` = :func:`bias_add` (NCHW only)."""

    def __init__(self, data_format="NCHW"):
        if data_format not in ("NCHW", "NCDHW"):
            raise op_error("BiasAdd", f"refms implements the channel-first layouts 'NCHW' and "
                                      f"'NCDHW' only, but got data_format {data_format!r}.",
                           ValueError)
        self.data_format = data_format

    def __call__(self, input_x, bias):
        return bias_add(input_x, bias)
