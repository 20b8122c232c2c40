"""Backends: where a Tensor's array lives, and which kernels can run on it.

A Tensor's storage is an array of one *backend*.  ``cpu`` (numpy arrays) is
always there; others (``gpu``: the CUDA library) register themselves.  The
protocol — everything a backend provides — is the :class:`Backend` record::

    name         "cpu", "gpu", ...
    array_type   the class (or tuple of classes) of its arrays; they expose
                 .shape, .dtype (a numpy dtype), .ndim and .size
    to_host      array -> numpy.ndarray              (a copy off the device)
    from_host    numpy.ndarray -> array               (a copy onto the device)
    write_host   (array, numpy.ndarray) -> None       overwrite array's contents
                 in place (used when an in-place kernel falls back)
    kernels      {kernel name: function}: its implementations of the kernel
                 contract (refms/kernels/__init__.py), same signatures
    implementation  the name :func:`refms.kernels.which` reports for them ("cuda")

Dispatch (refms/kernels/__init__.py): an op runs on the backend of its
tensor inputs (host inputs are uploaded), or on the default backend when it
has none (creation ops).  Inside the op, ``kernels.call(name)`` returns that
backend's kernel; a kernel the backend lacks runs on the host instead: its
array arguments are copied to the host, the cpu kernel runs, the results are
copied back, and the copy is counted (:func:`refms.kernels.fallback_counts`).
The cpu backend's kernels are the ``reference``/``fast`` ones.

Adding a backend touches no primitive: ``register_backend(Backend(...))``,
then ``set_default_backend(name)`` puts new tensors there.
"""
import numpy as np

__all__ = ["Backend", "CPU"]


class Backend:
    """One backend: its array type, host copies both ways, and its kernel table."""

    def __init__(self, name, array_type, to_host, from_host, write_host, kernels=None,
                 implementation=None):
        self.name = name
        self.array_type = array_type
        self.to_host = to_host
        self.from_host = from_host
        self.write_host = write_host
        self.kernels = dict(kernels or {})
        self.implementation = implementation or name

    def owns(self, value):
        """True when ``value`` is an array of this backend."""
        return isinstance(value, self.array_type)

    def __repr__(self):
        return f"Backend({self.name!r}, {len(self.kernels)} kernels)"


def _write_numpy(array, host):
    np.copyto(array, host, casting="unsafe")


#: The host backend.  Its kernel table is filled by the dispatcher (reference or fast).
CPU = Backend("cpu", (np.ndarray, np.generic), to_host=np.asarray, from_host=np.asarray,
              write_host=_write_numpy, implementation="reference")
