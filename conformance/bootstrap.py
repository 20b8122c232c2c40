"""Run a documented script as is, with ``mindspore`` standing for the implementation under test.

``python -m conformance.bootstrap [--alias MODULE] [--shim NAME=TARGET] [--prelude FILE] SCRIPT``

* ``--alias MODULE`` puts a meta-path finder in front of Python's importers so
  that ``mindspore`` and every ``mindspore.<sub>`` resolve to ``MODULE`` and
  ``MODULE.<sub>``: ``import mindspore.nn as nn``, ``from mindspore import
  context`` and ``from mindspore.common.initializer import Normal`` all reach
  the implementation.  Without it the real ``mindspore`` is imported.
* ``--shim NAME=TARGET`` sets ``mindspore.NAME = mindspore.TARGET`` after
  import — for a 1.x name that a later release removed although the behaviour
  it names is unchanged (``ms_function=jit``).  Shims are listed in reports.
* ``--prelude FILE`` runs earlier notebook cells first, in the same namespace
  (notebook cells share their globals), with their output sent to stderr so
  that only SCRIPT's output is compared.

An exception ends the run with its traceback on stderr (the script's own
frames: file and line numbers as in the script) and exit status 1.
"""
import argparse
import contextlib
import importlib
import importlib.abc
import importlib.util
import sys
import traceback
import types

__all__ = ["AliasFinder", "install_alias", "apply_shims", "main"]

SOURCE = "mindspore"


class AliasFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finder and loader: the module ``mindspore.x.y`` is the module ``<target>.x.y``.

    The target module is imported normally and returned as is; its own
    ``__spec__`` is put back after the import system has stamped the alias
    spec on it, so the target package keeps importing its own submodules.
    """

    def __init__(self, target, source=SOURCE):
        self.source = source
        self.target = target
        self._saved = {}

    def _real_name(self, fullname):
        return self.target + fullname[len(self.source):]

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.source and not fullname.startswith(self.source + "."):
            return None
        real = self._real_name(fullname)
        try:
            found = importlib.util.find_spec(real)
        except ModuleNotFoundError:
            found = None
        if found is None:
            return None
        is_package = found.submodule_search_locations is not None
        return importlib.util.spec_from_loader(fullname, self, is_package=is_package)

    def create_module(self, spec):
        module = importlib.import_module(self._real_name(spec.name))
        self._saved[id(module)] = (module.__spec__, getattr(module, "__loader__", None))
        return module

    def exec_module(self, module):
        """Nothing to execute (the target ran when it was imported); give it back its own spec."""
        spec, loader = self._saved.pop(id(module))
        module.__spec__ = spec
        module.__loader__ = loader


def install_alias(target):
    """Make ``mindspore`` (and its submodules) import as ``target`` from now on."""
    finder = AliasFinder(target)
    sys.meta_path.insert(0, finder)
    return finder


def apply_shims(shims):
    """``shims``: ``{"ms_function": "jit"}`` -> ``mindspore.ms_function = mindspore.jit``."""
    if not shims:
        return
    module = importlib.import_module(SOURCE)
    for name, target in shims.items():
        if not hasattr(module, name):
            setattr(module, name, getattr(module, target))


def _run(path, namespace):
    with open(path, encoding="utf-8") as handle:
        code = compile(handle.read(), path, "exec")
    exec(code, namespace)  # noqa: S102 - running the documented script is the point


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m conformance.bootstrap")
    parser.add_argument("--alias", help="module imported whenever a script imports mindspore")
    parser.add_argument("--shim", action="append", default=[], metavar="NAME=TARGET")
    parser.add_argument("--prelude", help="earlier notebook cells, output not compared")
    parser.add_argument("script")
    options = parser.parse_args(argv)
    if options.alias:
        install_alias(options.alias)
    apply_shims(dict(item.split("=", 1) for item in options.shim))
    # The script becomes the real __main__ module, as with `python script.py`: graph
    # compilers resolve a function's globals through sys.modules[fn.__module__].
    main_module = types.ModuleType("__main__")
    main_module.__file__ = options.script
    main_module.__builtins__ = __builtins__
    sys.modules["__main__"] = main_module
    namespace = main_module.__dict__
    sys.argv = [options.script]
    try:
        if options.prelude:
            with contextlib.redirect_stdout(sys.stderr):
                _run(options.prelude, namespace)
            sys.stderr.flush()
        _run(options.script, namespace)
    except Exception as error:  # noqa: BLE001 - reported like the interpreter would, minus our frames
        sys.stdout.flush()
        frames = error.__traceback__
        while frames is not None and frames.tb_frame.f_code.co_filename == __file__:
            frames = frames.tb_next
        traceback.print_exception(type(error), error, frames)
        return 1
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
