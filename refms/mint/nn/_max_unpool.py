"""``mint.nn.functional.max_unpool2d``: the partial inverse of ``max_pool2d(..., return_indices=True)``.

Every input value goes back to the position its index names in its (n, c) plane of the
output, and every other output entry is zero::

    out[n, c].flat[indices[n, c, i, j]] = input[n, c, i, j]

The output plane is ``(H_in − 1)·stride − 2·padding + kernel_size`` along each dim, or
``output_size`` (its last two entries) when given.  Composition: a
``TensorScatterElements`` into zeros of the flattened planes, so the gradient of the input
is the output gradient gathered at the indices (``GatherD``).  Positions named twice keep
one of the values (which one is unspecified, as in MindSpore and PyTorch).
"""
from ...ops import functional as F
from ...ops.primitive import op_error

__all__ = ["max_unpool2d"]


def _pair(name, value):
    values = tuple(value) if isinstance(value, (tuple, list)) else (value, value)
    if len(values) != 2 or any(isinstance(v, bool) or not isinstance(v, int) for v in values):
        raise op_error("max_unpool2d", f"the '{name}' must be an int or a tuple of two ints, but "
                                       f"got {value!r}.")
    return values


def _output_plane(input_size, kernel, stride, padding, output_size):
    default = tuple((size - 1) * s - 2 * p + k for size, k, s, p in
                    zip(input_size, kernel, stride, padding))
    if output_size is None:
        return default
    size = tuple(output_size)[-2:]
    if len(size) != 2 or any(n <= 0 for n in size):
        raise op_error("max_unpool2d", f"the 'output_size' must end with two positive sizes, but "
                                       f"got {output_size!r}.", ValueError)
    return size


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0,   # noqa: A002
                 output_size=None):
    """(N, C, H, W) or (C, H, W) ``input`` scattered to ``indices`` of a zero output."""
    if len(input.shape) not in (3, 4):
        raise op_error("max_unpool2d", f"the input must be 3-D or 4-D, but got shape "
                                       f"{tuple(input.shape)}.", ValueError)
    if tuple(indices.shape) != tuple(input.shape):
        raise op_error("max_unpool2d", f"the 'indices' must have the input's shape "
                                       f"{tuple(input.shape)}, but got {tuple(indices.shape)}.",
                       ValueError)
    kernel = _pair("kernel_size", kernel_size)
    step = kernel if stride is None else _pair("stride", stride)
    pad = _pair("padding", padding)
    height, width = _output_plane(input.shape[-2:], kernel, step, pad, output_size)
    lead = tuple(input.shape[:-2])
    values = F.reshape(input, lead + (-1,))
    where = F.reshape(indices, lead + (-1,))
    zeros = F.zeros(lead + (height * width,), input.dtype)
    out = F.tensor_scatter_elements(zeros, where, values, -1)
    return F.reshape(out, lead + (height, width))
