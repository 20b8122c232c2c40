"""Run unmodified MindSpore scripts on refms: ``import mindspore...`` resolves to ``refms...``.

``install`` puts a meta-path finder in front of Python's import system
that maps the module name ``mindspore`` and every ``mindspore.<sub>`` to
``refms`` / ``refms.<sub>``.  ``python -m refms run script.py`` installs it
and runs the script as ``__main__``.

While it is installed, the classes a script most often prints the type of carry
MindSpore's module path (``MINDSPORE_HOMES``): ``print(type(x))`` shows
``<class 'mindspore.common.tensor.Tensor'>``, as on MindSpore, and that path
imports the same class through the alias.  ``uninstall`` restores refms's own.
"""
import importlib
import importlib.abc
import importlib.util
import sys

__all__ = ["install", "uninstall", "MindSporeAlias", "MINDSPORE_HOMES"]


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


#: (refms module, class name) -> the module MindSpore defines that class in (``__module__``
#: of ``type(mindspore.tensor(1))`` etc. on MindSpore 2.10).
MINDSPORE_HOMES = {
    ("refms._tensor", "Tensor"): "mindspore.common.tensor",
    ("refms.parameter", "Parameter"): "mindspore.common.parameter",
    ("refms.nn.cell", "Cell"): "mindspore.nn.cell",
}


def _classes_of_homes():
    for (module_name, class_name), home in MINDSPORE_HOMES.items():
        yield getattr(importlib.import_module(module_name), class_name), module_name, home


def install(source="mindspore", target="refms"):
    """Alias ``source`` to ``target`` for every later import (idempotent)."""
    for finder in sys.meta_path:
        if isinstance(finder, MindSporeAlias) and finder.source == source:
            return finder
    finder = MindSporeAlias(source, target)
    sys.meta_path.insert(0, finder)
    if (source, target) == ("mindspore", "refms"):
        for cls, _, home in _classes_of_homes():
            cls.__module__ = home
    return finder


def uninstall(finder):
    """Undo ``install``: ``import mindspore`` no longer resolves to refms, the classes of
    ``MINDSPORE_HOMES`` show refms's module paths again.  Modules already imported under
    the alias's names stay in ``sys.modules`` (the caller removes them if it wants)."""
    if finder in sys.meta_path:
        sys.meta_path.remove(finder)
    if (finder.source, finder.target) == ("mindspore", "refms"):
        for cls, module_name, _ in _classes_of_homes():
            cls.__module__ = module_name
