"""Cython twins of the hot reference kernels (optional native code).

Each compiled module here mirrors a module of :mod:`refms.kernels` — same
kernel names, same signatures, results equal to the reference within
floating-point tolerance (``tests/test_fast_kernels.py`` checks it).  Which
modules and kernels exist is not listed by hand: :mod:`refms._fast.twins`
finds them from the ``.pyx`` files of this folder (each lists its kernels in
``__all__``), and ``setup.py`` and the tests read the same list.

Nothing imports these modules but the kernel dispatcher, on the first kernel
call (:func:`refms.kernels._load`): it imports every module
:func:`refms._fast.twins.twin_modules` finds and registers the names each
lists in ``__all__`` as fast twins.  When the extensions were not built (no
Cython or no compiler at install time) that import fails; the dispatcher
keeps the message for :func:`refms.kernels.why_fast_unavailable` and runs
the reference kernels.  This package imports nothing itself, so it never
imports :mod:`refms.kernels` back.

Build them in place with ``python setup.py build_ext --inplace``.
"""
