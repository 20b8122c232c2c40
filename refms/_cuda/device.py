"""Device memory, copies, the stream, and when errors surface.

``Runtime``      one device: the loaded library (initialised on that device), a caching
                 allocator and the bookkeeping of launches since the last synchronizing
                 point.  ``runtime()`` is the process's runtime for the current device.
``DeviceArray``  a pointer into device memory with a shape, element strides and a numpy
                 dtype; it keeps its ``Allocation`` alive, and the allocation returns its
                 block to the allocator when the last array using it is gone.

Asynchrony.  Every kernel is launched on the library's one stream and the launching call
returns at once; Python runs ahead of the GPU.  A launch error (bad configuration) is
raised by the launching call.  An error *inside* a kernel -- a CUDA fault, or a bad index
written into the device error record (``csrc/common.cuh``) -- is only known once the
stream has reached it, i.e. at the next *synchronizing point*: a copy to the host
(``DeviceArray.numpy()``, printing a tensor) or ``synchronize()``.  The error then names
the primitive that launched the failing kernel, and the kernel: each launch that can
report one passes a launch id, and the runtime remembers, for each id, the launcher's op
label and the primitive whose forward was running (``refms.kernels.current_primitive``,
in PyNative and GRAPH_MODE alike).

``pynative_synchronize=True`` (``refms.set_context``) makes every op a synchronizing
point: the error is raised by the op that caused it, at the cost of waiting for the
GPU after every op -- the switch MindSpore documents for debugging.
"""
import ctypes
import math
import weakref
from collections import defaultdict

import numpy as np

from .. import kernels
from . import codes, loader
from .prototypes import ErrorRecord

__all__ = ["DeviceError", "Runtime", "DeviceArray", "Allocation", "runtime", "reset_runtime"]


class DeviceError(RuntimeError):
    """A CUDA error or a bad value found by a kernel, named after the op that launched it."""


def _message(library, status):
    return library.refms_cuda_error_string(status).decode(errors="replace")


class Allocation:
    """One block of device memory; returned to its allocator when garbage-collected."""
    __slots__ = ("ptr", "nbytes", "_finalizer", "__weakref__")

    def __init__(self, allocator, ptr, nbytes):
        self.ptr = ptr
        self.nbytes = nbytes
        self._finalizer = weakref.finalize(self, allocator.release, ptr, nbytes)


class CachingAllocator:
    """Keeps freed blocks for reuse, keyed by size (rounded up to 512 bytes).

    cudaMalloc and cudaFree are slow and cudaFree waits for the device; a training loop
    allocates the same sizes every step, so after the first step every allocation is a
    dictionary lookup.  Reusing a block is safe without waiting: there is one stream, so a
    kernel that writes the reused block runs after every kernel that read its old contents.
    """
    GRANULE = 512

    def __init__(self, library):
        self.library = library
        self.cache = defaultdict(list)     # rounded size -> [ptr, ...]
        self.in_use = 0                    # bytes held by live allocations
        self.cached = 0                    # bytes kept in the cache

    def allocate(self, nbytes):
        size = max(self.GRANULE, -(-nbytes // self.GRANULE) * self.GRANULE)
        if self.cache[size]:
            ptr = self.cache[size].pop()
            self.cached -= size
        else:
            ptr = self._malloc(size)
        self.in_use += size
        return Allocation(self, ptr, size)

    def _malloc(self, size):
        ptr = ctypes.c_void_p()
        status = self.library.refms_cuda_malloc(ctypes.byref(ptr), size)
        if status != 0 and self.cached:
            self.empty_cache()             # out of memory: give the cache back, try again
            status = self.library.refms_cuda_malloc(ctypes.byref(ptr), size)
        if status != 0:
            raise DeviceError(f"cannot allocate {size} bytes of device memory: CUDA error "
                              f"{status} ({_message(self.library, status)})")
        return ptr.value

    def release(self, ptr, size):
        self.in_use -= size
        self.cache[size].append(ptr)
        self.cached += size

    def empty_cache(self):
        """Free every cached block (cudaFree)."""
        for size, ptrs in self.cache.items():
            for ptr in ptrs:
                self.library.refms_cuda_free(ptr)
            self.cached -= size * len(ptrs)
        self.cache.clear()


class Runtime:
    """The library initialised on one device, its allocator and launch bookkeeping."""

    def __init__(self, library, device=0):
        status = library.refms_cuda_init(device)
        if status != 0:
            raise DeviceError(f"cannot initialise CUDA device {device}: CUDA error {status} "
                              f"({_message(library, status)})")
        self.lib = library
        self.device = device
        self.is_shim = bool(library.refms_cuda_is_shim())
        self.allocator = CachingAllocator(library)
        self.synchronous = None          # None: follow the context's pynative_synchronize
        self._pending = []               # launches since the last synchronizing point (op, primitive)
        self._ids = {}                   # launch id -> (op, primitive), for the error record
        self._next_id = 1

    # -- launching --------------------------------------------------------------------
    def launch_id(self, op):
        """A fresh id for a launch of ``op`` that may write the error record; the id
        remembers ``op`` and the primitive running now."""
        launch = self._next_id
        self._next_id = self._next_id % 2_000_000_000 + 1
        self._ids[launch] = (op, kernels.current_primitive())
        return launch

    def call(self, op, entry, *args):
        """Call entry point ``entry`` for op ``op``; raise at once if the launch failed.

        In synchronous mode (pynative_synchronize) wait for the kernel and raise its
        error here; otherwise return while it runs.
        """
        status = getattr(self.lib, entry)(*args)
        if status != 0:
            raise DeviceError(f"For '{op}', the CUDA kernel {entry} could not be launched: "
                              f"error {status} ({_message(self.lib, status)}).")
        self.call_done(op)

    def call_done(self, op):
        """Bookkeeping after a launch for ``op`` (also for cuBLAS calls on our stream)."""
        if len(self._pending) < 64:
            self._pending.append((op, kernels.current_primitive()))   # named only on error
        if self.is_synchronous():
            self.synchronize(point=f"'{op}' (pynative_synchronize=True)")

    def is_synchronous(self):
        if self.synchronous is not None:
            return self.synchronous
        from .. import context            # the context module sits below every layer
        return bool(context.get_context("pynative_synchronize"))

    # -- synchronizing points ---------------------------------------------------------
    def synchronize(self, point="synchronize()"):
        """Wait for every launched kernel; raise the first error one of them met."""
        record = ErrorRecord()
        status = self.lib.refms_cuda_read_error(ctypes.byref(record))
        pending, self._pending = self._pending, []
        ids, self._ids = self._ids, {}
        if status != 0:
            raise DeviceError(
                f"CUDA error {status} ({_message(self.lib, status)}) in a kernel launched by "
                f"one of {_names(pending)}; reported at {point}. Set "
                f"pynative_synchronize=True to raise it at the op that launched it.")
        if record.code in (codes.KERNEL_INDEX_OUT_OF_RANGE, codes.KERNEL_SIGNED_INDEX_OUT_OF_RANGE):
            op, primitive = ids.get(record.launch_id, ("an earlier op", None))
            low = 0 if record.code == codes.KERNEL_INDEX_OUT_OF_RANGE else -record.bound
            where = "" if self.is_synchronous() else (
                f" (the kernel ran asynchronously; reported at the next synchronizing point, "
                f"{point}. Set pynative_synchronize=True to raise it at the op)")
            raise DeviceError(f"For {_who(op, primitive)}, the index {record.value} is out of "
                              f"range [{low}, {record.bound}){where}.")

    # -- memory -----------------------------------------------------------------------
    def empty(self, shape, dtype):
        dtype = np.dtype(dtype)
        shape = tuple(int(s) for s in shape)
        nbytes = math.prod(shape) * dtype.itemsize
        allocation = self.allocator.allocate(nbytes) if nbytes else None
        return DeviceArray(self, allocation, shape, dtype)

    def to_device(self, array):
        """Copy a numpy array to a new contiguous DeviceArray."""
        array = np.asarray(array)
        if not array.flags.c_contiguous:
            array = array.copy(order="C")        # (np.ascontiguousarray would make 0-d 1-d)
        out = self.empty(array.shape, array.dtype)
        if array.nbytes:
            self._check(self.lib.refms_cuda_memcpy_h2d(out.ptr, array.ctypes.data, array.nbytes),
                        "copy to the device")
        return out

    def _check(self, status, what):
        if status != 0:
            raise DeviceError(f"{what} failed: CUDA error {status} ({_message(self.lib, status)})")

    def memory_in_use(self):
        """Bytes of device memory held by live arrays (cached blocks not counted)."""
        return self.allocator.in_use


def _who(op, primitive):
    """"'Gather' (CUDA kernel 'take')": the primitive, and the launcher's label when it differs."""
    if primitive is None or primitive == op:
        return f"'{op}'"
    return f"'{primitive}' (CUDA kernel '{op}')"


def _names(launches):
    unique = list(dict.fromkeys(_who(op, primitive) for op, primitive in launches))
    return ", ".join(unique[-8:]) or "(none recorded)"


class DeviceArray:
    """An array in device memory: pointer, shape, element strides, dtype, owning allocation."""
    __slots__ = ("runtime", "allocation", "ptr", "shape", "strides", "dtype", "__weakref__")

    def __init__(self, runtime, allocation, shape, dtype, strides=None, offset=0):
        self.runtime = runtime
        self.allocation = allocation
        self.dtype = np.dtype(dtype)
        self.shape = tuple(shape)
        self.strides = tuple(strides) if strides is not None else contiguous_strides(self.shape)
        base = allocation.ptr if allocation is not None else 0
        self.ptr = base + offset * self.dtype.itemsize if base else None

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return math.prod(self.shape)

    @property
    def nbytes(self):
        return self.size * self.dtype.itemsize

    def is_contiguous(self):
        return self.size <= 1 or all(
            stride == expected for size, stride, expected
            in zip(self.shape, self.strides, contiguous_strides(self.shape)) if size != 1)

    def view(self, shape, strides, offset=0):
        """Another DeviceArray on the same memory (no copy), starting ``offset`` elements on."""
        out = DeviceArray(self.runtime, None, shape, self.dtype, strides)
        out.allocation = self.allocation
        out.ptr = self.ptr + offset * self.dtype.itemsize if self.ptr is not None else None
        return out

    def reshape(self, shape):
        """A view with another shape (the array must be contiguous)."""
        shape = tuple(int(s) for s in shape)
        if -1 in shape:
            known = math.prod(s for s in shape if s != -1)
            shape = tuple(self.size // max(known, 1) if s == -1 else s for s in shape)
        if math.prod(shape) != self.size:
            raise ValueError(f"cannot reshape a device array of shape {self.shape} to {shape}")
        if not self.is_contiguous():
            raise ValueError("reshape of a non-contiguous device array; copy it first")
        return self.view(shape, contiguous_strides(shape))

    def transpose(self, axes):
        """A permuted view (no copy)."""
        return self.view([self.shape[a] for a in axes], [self.strides[a] for a in axes])

    def numpy(self):
        """Copy to a new numpy array: a synchronizing point (errors of earlier kernels surface)."""
        source = self if self.is_contiguous() else _CONTIGUOUS_COPY[0](self)
        out = np.empty(self.shape, dtype=self.dtype)
        if out.nbytes:
            status = self.runtime.lib.refms_cuda_memcpy_d2h(out.ctypes.data, source.ptr, out.nbytes)
            if status != 0:
                self.runtime.synchronize(point="a copy to the host")
        self.runtime.synchronize(point="a copy to the host")
        return out

    def __array__(self, dtype=None, copy=None):
        raise TypeError(
            f"numpy cannot compute on a DeviceArray {self.shape} {self.dtype} (device memory): "
            f"code that runs on GPU tensors must call the kernels of refms.kernels "
            f"(kernels.call(name)), or copy explicitly with kernels.to_host")

    def __repr__(self):
        return f"DeviceArray(shape={self.shape}, dtype={self.dtype})"


def contiguous_strides(shape):
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(int(size), 1)
    return tuple(reversed(strides))


_RUNTIMES = {}


def runtime(device=0):
    """The runtime of ``device`` (created on first use; raises CudaUnavailableError)."""
    if device not in _RUNTIMES:
        _RUNTIMES[device] = Runtime(loader.load(), device)
    return _RUNTIMES[device]


def reset_runtime():
    """Forget the runtimes (tests that switch libraries)."""
    _RUNTIMES.clear()


#: The contiguous-copy kernel ``numpy()`` uses for a strided view.  It is defined in
#: :mod:`refms._cuda.ops`, which builds on this module and installs it here when imported.
_CONTIGUOUS_COPY = [None]
