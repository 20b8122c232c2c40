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
``refms/_fast/optim.pyx``          ``apply_momentum`` (in place, one pass)
``refms/_fast/elementwise.pyx``    ``relu``, ``relu_grad`` (one pass each)
``refms/_fast/build.pyx``          no kernel: how the others were compiled
                                   (read by :func:`refms.kernels.build_info`)
=================================  ==========================================

The loops run on OpenMP threads (``prange``) when the compiler has OpenMP.
The GEMMs of ``matmul`` and ``conv`` (``_blas.pxi``) call numpy's own BLAS,
found in the process by :mod:`refms._fast.numpy_blas`, so the fast and the
reference kernels share one BLAS and one thread pool (scipy's BLAS when numpy's
is not found, or with ``REFMS_BLAS=scipy``).

Nothing imports these modules but the kernel dispatcher, on the first kernel
call (``refms.kernels._load``): it imports every module
``refms._fast.twins.twin_modules`` finds and registers the names each
lists in ``__all__`` as fast twins.  When the extensions were not built (no
Cython or no compiler at install time) that import fails; the dispatcher
keeps the message for :func:`refms.kernels.why_fast_unavailable` and runs
the reference kernels.  This package imports nothing itself, so it never
imports :mod:`refms.kernels` back.

Build them in place with ``python setup.py build_ext --inplace``.
"""
