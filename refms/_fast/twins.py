"""Which fast twins exist: found from the ``.pyx`` sources of this folder, in one place.

A twin is a Cython module ``refms/_fast/<name>.pyx`` whose ``__all__`` lists
the kernels it implements (each the twin of the reference kernel of the same
name in :mod:`refms.kernels`).  Adding a ``.pyx`` file is all it takes:

* ``setup.py`` builds one extension per module (it loads this file by path,
  without importing refms, so a build never depends on refms importing);
* :mod:`refms._fast` imports those modules and registers their kernels;
* ``tests/test_fast_kernels.py`` checks every listed kernel against its reference.

This file imports nothing but the standard library.
"""
import ast
import os
import re

__all__ = ["HERE", "twin_modules", "twin_kernels"]

HERE = os.path.dirname(os.path.abspath(__file__))
_ALL = re.compile(r"^__all__\s*=\s*(\[.*?\]|\(.*?\))", re.MULTILINE | re.DOTALL)


def twin_modules(folder=HERE):
    """The twin modules' short names (``["matmul", "pool", ...]``), sorted."""
    return sorted(os.path.splitext(name)[0] for name in os.listdir(folder)
                  if name.endswith(".pyx"))


def twin_kernels(folder=HERE):
    """{kernel name: module short name}, read from each ``.pyx`` file's ``__all__``."""
    kernels = {}
    for module in twin_modules(folder):
        with open(os.path.join(folder, module + ".pyx"), encoding="utf-8") as source:
            found = _ALL.search(source.read())
        if found is None:
            raise ValueError(f"refms/_fast/{module}.pyx has no __all__ listing its kernels")
        for name in ast.literal_eval(found.group(1)):
            if name in kernels:
                raise ValueError(f"fast kernel {name!r} is in both {kernels[name]}.pyx and "
                                 f"{module}.pyx")
            kernels[name] = module
    return kernels
