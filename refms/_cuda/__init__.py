"""The optional CUDA library of refms: kernels in CUDA C, loaded with ctypes.

* ``csrc/``: the CUDA C sources (one kernel family per file), the C ABI header
  ``refms_cuda.h``, and ``shim.h``, which compiles the same sources for the CPU so that
  the kernels are tested without a GPU;
* ``build.py``: compiles them (nvcc from ``setup.py``; a C++ compiler for the shim);
* ``prototypes.py``: the ctypes prototype of every entry point (one table);
* ``codes.py``: the header's enum values (dtypes, op codes);
* ``loader.py``: finds and loads the library, or says why it cannot;
* ``device.py``: device memory (``DeviceArray``, a caching allocator), copies, the
  stream, asynchronous error reporting and ``pynative_synchronize``;
* ``ops.py``: Python launchers -- shapes, allocation and the ctypes call of each kernel;
* ``cublas.py``: cuBLAS through ctypes, when ``libcublas.so.13`` is present;
* ``backend.py``: the ``gpu`` backend of :mod:`refms.kernels` built on ``ops.py``.

Importing this package loads nothing; the public switch is :mod:`refms.cuda`.
"""
