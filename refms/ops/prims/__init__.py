"""Every primitive definition lives in one module of this package.

Importing the package imports each module (no hand-kept list), and each
module registers its primitives with :func:`refms.ops.primitive.register`.
"""
import importlib
import pkgutil

for _info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
    if not _info.name.startswith("_"):
        importlib.import_module(f"{__name__}.{_info.name}")
