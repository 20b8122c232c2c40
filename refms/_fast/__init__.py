"""Cython twins of the hot reference kernels (optional native code).

Each compiled module here mirrors a module of :mod:`refms.kernels` — same
kernel names, same signatures, results equal to the reference within
floating-point tolerance (``tests/test_fast_kernels.py`` checks it).  Which
modules and kernels exist is not listed by hand: :mod:`refms._fast.twins`
finds them from the ``.pyx`` files of this folder (each lists its kernels in
``__all__``), and ``setup.py`` and the tests read the same list:

=================================  ==========================================
``refms/_fast/matmul.pyx``         ``matmul``, ``batch_matmul`` (BLAS ?gemm)
``refms/_fast/reduce.pyx``         ``reduce_sum``, ``reduce_mean``,
                                   ``reduce_max``, ``reduce_min``, ``reduce_prod``
``refms/_fast/pool.pyx``           ``max_pool2d``, ``max_pool2d_grad``,
                                   ``max_pool2d_grad_grad``, ``avg_pool2d``,
                                   ``avg_pool2d_grad``
``refms/_fast/conv.pyx``           ``conv2d``, ``conv2d_backprop_input``,
                                   ``conv2d_backprop_filter`` (im2col + ?gemm,
                                   depthwise as a direct loop)
``refms/_fast/softmax.pyx``        ``softmax``, ``log_softmax``,
                                   ``softmax_cross_entropy``,
                                   ``sparse_softmax_cross_entropy``
``refms/_fast/batchnorm.pyx``      ``batch_norm_statistics``, ``batch_norm``
``refms/_fast/build.pyx``          no kernel: how the others were compiled
                                   (read by :func:`refms.kernels.build_info`)
=================================  ==========================================

The loops run on OpenMP threads (``prange``) when the compiler has OpenMP.

Nothing imports this package but the kernel dispatcher, on the first kernel
call.  Importing it registers every name a compiled module lists in its
``__all__`` with :func:`refms.kernels.fast`.  When the extensions were not
built (no Cython or no compiler at install time) the import raises
ImportError; the dispatcher keeps the message for
:func:`refms.kernels.why_fast_unavailable` and runs the reference kernels.

Build them in place with ``python setup.py build_ext --inplace``.
"""
import importlib
import os

from .. import kernels
from .twins import twin_modules

#: OpenMP threads that wait for work sleep instead of spinning, unless the user chose otherwise.
#: GNU OpenMP spins by default; on a machine shared with other processes a spinning thread
#: holds a core that the thread it waits for needs, and a 2-thread loop then ran 4–10× slower
#: than on one thread.  libgomp reads the variable when it is loaded, i.e. with the first
#: extension below (if another library loaded it earlier, that library's setting stands).
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

#: The compiled modules, each the twin of the reference module of the same name.
MODULES = tuple(f"refms._fast.{name}" for name in twin_modules())

try:
    _compiled = [importlib.import_module(name) for name in MODULES]
except Exception as exc:      # not built, or built against something no longer there
    raise ImportError(f"the Cython kernels are not built or do not load ({exc}); build them "
                      f"with 'python setup.py build_ext --inplace' or reinstall refms with a "
                      f"C compiler available") from exc

for _module in _compiled:
    for _name in _module.__all__:
        kernels.fast(_name, getattr(_module, _name))
