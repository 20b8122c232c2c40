"""Adapters: how the suite reaches one implementation of the MindSpore programming model.

An adapter is an object with this small protocol (see :class:`ModuleAdapter`):

``name``
    used for the deviations file ``conformance/deviations/<name>.txt``, reports, and
    op-table rows ``specific_to`` one implementation.
``available()``
    ``(True, "")`` or ``(False, why)``; the suite runs nothing when False.
``describe()``
    the implementation and its version, for reports (``refms 0.1.0``).
``location()``
    where it is installed, for the console and the report.
``alias_target``
    the module that ``import mindspore`` must give to transcripts
    (``None``: the real ``mindspore``).
``shims``
    ``{"old_name": "new_name"}`` attributes added to the ``mindspore``
    namespace for 1.x names that were removed without a change of behaviour.
``env(compat)``
    extra environment variables for the case's subprocess.
``load(compat)``
    imports the implementation inside a case's subprocess, applies the page's
    ``compat`` version where the implementation has such a switch, and returns
    the namespace that structured cases call ``ms``.
``compat_note``
    how the page's version is honoured (shown in the report).

``--impl refms`` and ``--impl mindspore`` use the modules of this package.
Any other name is imported: a module that defines ``conformance_adapter``
supplies its own adapter; any other module is taken to be an implementation
itself and wrapped in a plain :class:`ModuleAdapter`.
"""
import importlib
import importlib.util

__all__ = ["ModuleAdapter", "resolve"]

#: Subpackages imported eagerly so that ``ms.nn`` / ``ms.common.initializer`` work as attributes.
SUBPACKAGES = ("ops", "nn", "common", "common.initializer", "context", "train", "dataset")


class ModuleAdapter:
    """An implementation importable as one Python module that mirrors ``mindspore``'s import paths."""

    compat_note = "the page's compat version is not applicable (no compat switch known)"
    shims = {}

    def __init__(self, module_name, name=None):
        self.module_name = module_name
        self.name = name or module_name
        self.alias_target = module_name

    def available(self):
        try:
            found = importlib.util.find_spec(self.module_name)
        except (ImportError, ValueError) as error:
            return False, f"cannot look up {self.module_name}: {error}"
        if found is None:
            return False, f"module {self.module_name!r} is not importable by this Python"
        return True, ""

    def describe(self):
        module = importlib.import_module(self.module_name)
        return f"{self.module_name} {getattr(module, '__version__', '(unknown version)')}"

    def location(self):
        return getattr(importlib.import_module(self.module_name), "__file__", "?")

    def env(self, compat):
        return {}

    def load(self, compat):
        module = importlib.import_module(self.module_name)
        for sub in SUBPACKAGES:
            try:
                importlib.import_module(f"{self.module_name}.{sub}")
            except ImportError:
                pass    # not there yet: a case that needs it fails and says so
        return module


def resolve(name):
    """The adapter for ``--impl name``.

    The adapter remembers ``name`` as ``impl``: the case subprocesses resolve
    the same name again, so an adapter defined in a module other than the
    implementation's (``--impl minims_adapter``) is found there too.
    """
    own = f"{__name__}.{name}"
    if "." not in name and importlib.util.find_spec(own) is not None:
        adapter = importlib.import_module(own).adapter
    else:
        module = importlib.import_module(name)
        custom = getattr(module, "conformance_adapter", None)
        adapter = custom if custom is not None else ModuleAdapter(name)
    adapter.impl = name
    return adapter
