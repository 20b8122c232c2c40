"""The op tier: one table of rows, each testing one primitive of the implementation under test.

Every row (:class:`~conformance.optable.spec.OpRow`) calls one primitive the way
MindSpore code does (``ops.Add()(x, y)``) and states an independent numpy
reference beside it.  :mod:`conformance.optable.checks` turns each row into
checks that any implementation can be judged by:

* **forward** — dtype, shape and values against the numpy reference;
* **gradient** — a float64 random-projection check against central differences
  (skipped for primitives MindSpore does not differentiate, and for ``grad=False``);
* **error** — each documented bad input raises the documented exception type.

``python -m conformance`` runs them as cases with ids
``op.<area>.<row>.forward``, ``op.<area>.<row>.gradient`` and
``op.<area>.<row>.error<k>``; refms's own ``tests/test_op_table.py`` runs the
same rows under pytest and adds the PyNative/Graph agreement checks.

How rows reach the implementation
---------------------------------
A rows module is imported *after* :func:`load` has bound the implementation
under test to this package's ``ms``; the module reads it once at import time::

    from . import ms
    from .spec import OpRow

    ops = ms.ops

so ``ops.Add()`` is the implementation's ``Add``, and ``ms.float32`` its dtype.
:func:`load` re-imports the modules whenever it binds an implementation.

``ms`` is bound *leniently* (:class:`Lenient`): a name the implementation lacks
(``ms.ops.Foo``) is a :class:`Missing` placeholder rather than an
``AttributeError`` at import, so the rows that use it fail — saying the name
is missing — and every other row of the area still runs.

Adding rows
-----------
* A new area: add ``conformance/optable/rows_<area>.py`` that defines ``ROWS``
  (a list of ``OpRow``).  It is discovered by its file name; nothing else needs
  editing.  Its cases are ``op.<area>.*``.
* More rows for an area: append to that module's ``ROWS``.  Row ids
  (``OpRow.id``, default the primitive name) must be unique within the area.
* The numpy reference must be written from the documented definition (or
  recorded from real MindSpore), never copied from what an implementation
  printed.  Expected dtypes that differ from numpy's go in ``out_dtype``.
* A row that pins down a choice of one implementation (refms's seeded random
  stream, say) sets ``specific_to="refms"``; other implementations see it as
  not applicable.
"""
import importlib
import pkgutil
import sys
import traceback

__all__ = ["ms", "load", "area_names", "Lenient", "Missing", "missing_in"]

#: The implementation under test, bound by :func:`load` before the rows modules are imported.
ms = None


class Missing:
    """A name the implementation under test lacks.  Calling it or reading its attributes gives
    further placeholders (rows build primitives at import: ``ops.Foo(axis=0)``); a check that
    meets one in a row's result reports the name as missing."""

    def __init__(self, name):
        self.name = name

    def __call__(self, *args, **kwargs):
        return Missing(f"{self.name}(...)" if not self.name.endswith(")") else self.name)

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return Missing(f"{self.name}.{attr}")

    def __repr__(self):
        return f"<missing {self.name}>"


class Lenient:
    """The implementation's namespace, with :class:`Missing` for the names it lacks."""

    def __init__(self, namespace, path):
        self._namespace = namespace
        self._path = path

    def __getattr__(self, name):
        try:
            value = getattr(self._namespace, name)
        except AttributeError:
            return Missing(f"{self._path}.{name}")
        if isinstance(value, type(sys)):                 # a submodule: lenient too
            return Lenient(value, f"{self._path}.{name}")
        return value


def missing_in(value):
    """The first :class:`Missing` inside a row's result (a tuple or list of them), or None."""
    if isinstance(value, Missing):
        return value
    if isinstance(value, (tuple, list)):
        for item in value:
            found = missing_in(item)
            if found is not None:
                return found
    return None


def area_names():
    """The areas, from the ``rows_<area>.py`` file names, in sorted order."""
    return sorted(info.name[len("rows_"):] for info in pkgutil.iter_modules(__path__)
                  if info.name.startswith("rows_"))


def load(implementation, areas=None):
    """Bind ``implementation`` as ``ms`` and import the rows modules afresh.

    Returns ``(rows, failures)``: ``{area: [OpRow, ...]}`` and
    ``{area: traceback}`` for a module that failed to import (one broken
    module does not hide the others).
    """
    global ms
    ms = Lenient(implementation, getattr(implementation, "__name__", "ms"))
    rows, failures = {}, {}
    for area in areas or area_names():
        name = f"{__name__}.rows_{area}"
        sys.modules.pop(name, None)
        try:
            module = importlib.import_module(name)
        except Exception:       # noqa: BLE001 - reported as the area's failure
            failures[area] = traceback.format_exc()
            continue
        rows[area] = list(getattr(module, "ROWS", []))
    return rows, failures
