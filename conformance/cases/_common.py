"""Pieces shared by the seed-page modules: the usual edits and numpy references for property checks."""
import numpy as np

from ..case import Edit

__all__ = ["on_cpu", "conv2d_reference", "same_padding", "check_normal_weights", "conv_in_ms_function"]


def on_cpu(device, code='device_target="{}"'):
    """The pages target Ascend or GPU; the suite runs on CPU, and these examples do not depend on the device."""
    return Edit(code.format(device), code.format("CPU"),
                f"the suite runs on CPU; the example's output does not depend on {device}")


def same_padding(size, kernel, stride, dilation=1):
    """MindSpore ``pad_mode='same'``: out = ceil(in / stride); the odd pixel of padding goes bottom/right.

    semantics 8.1: total = max((out - 1) * stride + (k - 1) * dilation + 1 - in, 0).
    """
    out = -(-size // stride)
    total = max((out - 1) * stride + (kernel - 1) * dilation + 1 - size, 0)
    return total // 2, total - total // 2


def conv2d_reference(x, w, stride=1, padding=(0, 0, 0, 0)):
    """Direct 2-D convolution (cross-correlation), NCHW, float64: y[n,o,i,j] = sum x[n,c,i*s+p,j*s+q] w[o,c,p,q].

    ``padding`` is (top, bottom, left, right) as MindSpore's ``pad_mode='pad'``.
    """
    x = np.pad(np.asarray(x, np.float64), ((0, 0), (0, 0), padding[:2], padding[2:]))
    w = np.asarray(w, np.float64)
    n, c, h, width = x.shape
    o, _, kh, kw = w.shape
    oh, ow = (h - kh) // stride + 1, (width - kw) // stride + 1
    y = np.zeros((n, o, oh, ow))
    for i in range(oh):
        for j in range(ow):
            patch = x[:, :, i * stride:i * stride + kh, j * stride:j * stride + kw]
            y[:, :, i, j] = np.einsum("nchw,ochw->no", patch, w)
    return y


def check_normal_weights(check, weights, sigma, what="weights"):
    """Weights drawn from Normal(0, sigma): inside +/-6 sigma, sample mean and spread of that size.

    The r1.x default of ``Conv2d``/``Dense`` is ``'normal'`` = Normal(sigma=0.01)
    (semantics 8.1/8.2; the 2.x default HeUniform is ~10 times wider).
    """
    weights = np.asarray(weights, np.float64).ravel()
    check.bounds(weights, -6 * sigma, 6 * sigma, f"{what} (Normal(sigma={sigma}) stays within 6 sigma)")
    spread = float(weights.std())
    check.true(0.5 * sigma <= spread <= 2 * sigma,
               f"{what}: sample standard deviation {spread:.4g} is not of the documented "
               f"sigma {sigma} (accepted {0.5 * sigma:g}..{2 * sigma:g})")
    limit = 6 * sigma / np.sqrt(weights.size)
    check.true(abs(float(weights.mean())) <= limit,
               f"{what}: sample mean {weights.mean():.3g} is not near 0 (|mean| <= {limit:.3g})")


def conv_in_ms_function(ms, check):
    """Seeds 000 and 001: a Conv2d instantiated outside an ``ms_function`` and called inside it.

    Random weights and input: shape, dtype, agreement with a numpy convolution of
    the weights actually drawn, and the r1.6 default init Normal(0.01).
    """
    nn, Tensor, ms_function = ms.nn, ms.Tensor, ms.ms_function

    conv_obj = nn.Conv2d(in_channels=3, out_channels=4, kernel_size=3, stride=2, padding=0)
    conv_obj.init_parameters_data()

    @ms_function
    def conv_fn(x):
        res = conv_obj(x)
        return res

    input_data = np.random.randn(2, 3, 6, 6).astype(np.float32)
    z = conv_fn(Tensor(input_data))
    check.shape(z, (2, 4, 3, 3), "output")
    check.dtype(z, "Float32", "output")
    weight = conv_obj.weight.asnumpy()
    check.shape(conv_obj.weight, (4, 3, 3, 3), "weight")
    top, bottom = same_padding(6, 3, 2)
    expected = conv2d_reference(input_data, weight, stride=2, padding=(top, bottom, top, bottom))
    check.close(z.asnumpy(), expected, 1e-5, "output against a numpy convolution with the drawn weights")
    check_normal_weights(check, weight, 0.01, "default weight init")
