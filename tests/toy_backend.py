"""A toy backend for the tests: numpy under another name, with chosen kernels missing.

Its arrays are :class:`ToyArray` — a wrapper around a numpy array that is *not*
a numpy array, so any code that computes on a Tensor's storage without going
through the kernel contract fails on it, as it would on a GPU array.  Its
kernels are the reference kernels with the arrays unwrapped before and
wrapped after.
"""
import numpy as np

from refms import kernels


class ToyArray:
    """An array of the toy backend: shape and dtype, and the values hidden in ``host``."""

    __slots__ = ("host",)

    def __init__(self, host):
        assert isinstance(host, np.ndarray), type(host)
        self.host = host

    shape = property(lambda self: self.host.shape)
    dtype = property(lambda self: self.host.dtype)
    ndim = property(lambda self: self.host.ndim)
    size = property(lambda self: self.host.size)

    def __repr__(self):
        return f"ToyArray({self.host!r})"


def _unwrap(value):
    if isinstance(value, ToyArray):
        return value.host
    if isinstance(value, (tuple, list)):
        return type(value)(_unwrap(v) for v in value)
    return value


def _wrap(value):
    if isinstance(value, (np.ndarray, np.generic)):
        return ToyArray(np.asarray(value))
    if isinstance(value, tuple):
        return tuple(_wrap(v) for v in value)
    return value


def _toy_kernel(reference):
    def kernel(*args):
        return _wrap(reference(*_unwrap(args)))
    kernel.__name__ = f"toy_{reference.__name__}"
    return kernel


def _write_host(array, host):
    np.copyto(array.host, host, casting="unsafe")


def make_toy_backend(name="toy", missing=()):
    """A :class:`refms.kernels.Backend` with every reference kernel but those in ``missing``."""
    table = {kernel: _toy_kernel(kernels.reference_kernel(kernel))
             for kernel in kernels.kernel_names() if kernel not in missing}
    return kernels.Backend(name, ToyArray, to_host=lambda a: np.array(a.host, copy=True),
                           from_host=lambda h: ToyArray(np.array(h, copy=True)),
                           write_host=_write_host, kernels=table, implementation="toy")
