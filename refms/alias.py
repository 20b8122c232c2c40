"""Run unmodified MindSpore scripts on refms: ``import mindspore...`` resolves to ``refms...``.

``install`` puts a meta-path finder in front of Python's import system
that maps the module name ``mindspore`` and every ``mindspore.<sub>`` to
``refms`` / ``refms.<sub>``.  ``python -m refms run script.py`` installs it
and runs the script as ``__main__``.
"""
import importlib
import importlib.abc
import importlib.util
import sys

__all__ = ["install", "MindSporeAlias"]


class MindSporeAlias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finder + loader: ``mindspore.x.y`` is the already-imported module ``refms.x.y``."""

    def __init__(self, source="mindspore", target="refms"):
        self.source = source
        self.target = target

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.source and not fullname.startswith(self.source + "."):
            return None
        real = self.target + fullname[len(self.source):]
        if importlib.util.find_spec(real) is None:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):
        module = importlib.import_module(self.target + spec.name[len(self.source):])
        spec.loader_state = module.__spec__        # restored below: the module keeps its own
        return module

    def exec_module(self, module):
        """The target module is already executed; undo the import system's stamping of the alias spec."""
        alias_spec = module.__spec__
        if alias_spec is not None and alias_spec.loader_state is not None:
            module.__spec__ = alias_spec.loader_state


def install(source="mindspore", target="refms"):
    """Alias ``source`` to ``target`` for every later import (idempotent)."""
    for finder in sys.meta_path:
        if isinstance(finder, MindSporeAlias) and finder.source == source:
            return finder
    finder = MindSporeAlias(source, target)
    sys.meta_path.insert(0, finder)
    return finder
