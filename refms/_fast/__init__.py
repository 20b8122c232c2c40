"""Cython twins of the hot reference kernels (optional native code).

Each compiled module here mirrors a module of :mod:`refms.kernels` — same
kernel names, same signatures, results equal to the reference within
floating-point tolerance (``tests/test_fast_kernels.py`` checks it).  Which
modules and kernels exist is not listed by hand: :mod:`refms._fast.twins`
finds them from the ``.pyx`` files of this folder (each lists its kernels in
``__all__``), and ``setup.py`` and the tests read the same list.

Nothing imports this package but the kernel dispatcher, on the first kernel
call.  Importing it registers every name a compiled module lists in its
``__all__`` with :func:`refms.kernels.fast`.  When the extensions were not
built (no Cython or no compiler at install time) the import raises
ImportError; the dispatcher keeps the message for
:func:`refms.kernels.why_fast_unavailable` and runs the reference kernels.

Build them in place with ``python setup.py build_ext --inplace``.
"""
import importlib

from .. import kernels
from .twins import twin_modules

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
