"""What a conformance case is: a documented example, where it comes from, and how it is checked.

Two kinds, both plain data:

* :class:`Transcript` — the page's script, run as is in a subprocess with
  ``mindspore`` aliased to the implementation under test; its stdout is
  compared with the documented output (``compare.compare_text``).  ``edits``
  lists every change made to the page's code, each with its reason
  (``device_target="GPU"`` -> ``"CPU"``; a PyTorch line dropped).
* :class:`Structured` — a small function ``body(ms, check)`` that reaches the
  framework only through ``ms`` (the module under test) and reports what it
  finds through ``check`` (a :class:`Checker`).  Used for examples whose
  output is random (property tier), an error, or a comparison with a library
  that is not a dependency (PyTorch).

Every case records its :class:`Page` (seed file, MindSpore version, the
``compat`` version it runs under) and its section heading.  ``tier`` is
``"exact"`` or ``"property"`` (output depends on unseeded random values, so
only properties are checked and the case is never counted as an exact pass).
``later`` says how newer MindSpore releases (2.10) behave where they no longer
reproduce the page, and which version does; ``differs_in`` is then the first
MindSpore version verified to differ (the newest one checked, unless the
release notes date the change).  A run's target version (``--target``,
default the newest) decides which cases apply: a case holds an
implementation to its page's output only for targets from the page's version
up to, not including, ``differs_in`` (see :func:`applies_to`).
"""
import re
from dataclasses import dataclass, field
from typing import Callable, Optional, Tuple

from . import compare

__all__ = ["NEWEST", "version_key", "applies_to", "Page", "Edit", "ExpectError", "Transcript", "Structured", "OpCheck", "Uncased",
           "Checker"]

#: The newest MindSpore version the suite knows: the default target.
NEWEST = "2.10"

EXACT = "exact"
PROPERTY = "property"


@dataclass(frozen=True)
class Page:
    """One seed page: file name, title (the page's own, and in English), the MindSpore version it
    documents (as the page names it, ``r1.6``; :func:`version_key` reads the number), the compat
    to run under."""
    seed: str
    title: str
    version: str
    compat: str
    notebook: bool = False
    english: str = ""

    @property
    def release(self):
        """The documented MindSpore version as ``major.minor`` (``"r1.6"`` -> ``"1.6"``)."""
        return ".".join(str(n) for n in version_key(self.version))

    @property
    def label(self):
        """``"Using PyNative mode (MindSpore 1.6)"``: how reports name the page."""
        return f"{self.english or self.title} (MindSpore {self.release})"


def version_key(text):
    """``(major, minor)`` of the first ``N.M`` in a version text: ``"r1.7"`` -> ``(1, 7)``,
    ``"master (2.0 era)"`` -> ``(2, 0)``, ``"2.10"`` -> ``(2, 10)``."""
    found = re.search(r"(\d+)\.(\d+)", text)
    if found is None:
        raise ValueError(f"no version number in {text!r}")
    return int(found.group(1)), int(found.group(2))


def applies_to(case, target):
    """``""`` if ``case`` holds an implementation of MindSpore ``target`` to its page's output,
    else why not: the page documents a newer version, or MindSpore changed the behaviour
    at or before ``target`` (``differs_in``)."""
    wanted = version_key(target)
    if version_key(case.page.version) > wanted:
        return f"documents MindSpore {case.page.release}, newer than the target {target}"
    if case.differs_in and version_key(case.differs_in) <= wanted:
        return (f"the page documents MindSpore {case.page.release}; MindSpore {case.differs_in} "
                f"(not after the target {target}) behaves differently")
    return ""


@dataclass(frozen=True)
class Edit:
    """A change made to the page's code before running it: replace ``old`` by ``new``, because ``reason``."""
    old: str
    new: str
    reason: str


@dataclass(frozen=True)
class ExpectError:
    """The documented output is an exception of type ``type`` raised at the source line ``at``."""
    type: str
    at: str


@dataclass(frozen=True)
class Transcript:
    id: str
    page: Page
    section: str
    area: str
    script: str
    expected: str = ""
    prelude: str = ""
    edits: Tuple[Edit, ...] = ()
    tier: str = EXACT
    runs: int = 1
    check: Optional[Callable] = None          # property tier: check(list of stdouts) -> problems
    expect_error: Optional[ExpectError] = None
    notes: str = ""
    later: str = ""
    differs_in: str = ""
    kind: str = field(default="transcript", init=False)

    def source_text(self):
        """``(script, prelude)`` as they run: the page's code with every edit applied.

        An edit that matches neither is an error in the case, so a page
        correction cannot silently stop applying.
        """
        script, prelude = self.script, self.prelude
        for edit in self.edits:
            if edit.old not in script and edit.old not in prelude:
                raise ValueError(f"{self.id}: edit {edit.old!r} matches none of the page's code")
            script = script.replace(edit.old, edit.new)
            prelude = prelude.replace(edit.old, edit.new)
        return script, prelude


@dataclass(frozen=True)
class Structured:
    id: str
    page: Page
    section: str
    area: str
    body: Callable
    documented: str = ""       # the page's printed output (or the prose claim) this case checks
    tier: str = EXACT
    notes: str = ""
    later: str = ""
    differs_in: str = ""
    kind: str = field(default="structured", init=False)


@dataclass(frozen=True)
class OpCheck:
    """One check of one op-table row (:mod:`conformance.optable`): ``check`` is ``forward``,
    ``gradient``, ``error<k>``, or ``import`` (the rows module itself failed to import)."""
    id: str
    page: Page
    section: str
    area: str
    table: str               # the op-table area (``math`` for ``rows_math.py``)
    row: str                 # the row's name
    check: str
    specific_to: Optional[str] = None
    tier: str = EXACT
    notes: str = ""
    later: str = ""
    differs_in: str = ""
    kind: str = field(default="op", init=False)


@dataclass(frozen=True)
class Uncased:
    """A code block of a page that is not a case, and why (no documented output, PyTorch only, ...)."""
    page: Page
    section: str
    what: str
    why: str
    missing: bool = False      # True: a documented output that still lacks a case


class Checker:
    """Collects the problems a structured case finds; every method returns nothing.

    The comparisons are the named rules of :mod:`conformance.compare`.
    """

    def __init__(self):
        self.problems = []
        self.notes = []

    def _add(self, problems, what=""):
        for problem in problems:
            self.problems.append(f"{what}: {problem}" if what else problem)

    def text(self, printed, documented, what=""):
        """Printed text equals the documented text under the comparison rules."""
        self._add(compare.compare_text(documented, printed), what)

    def shape(self, tensor, shape, what=""):
        self._add(compare.check_shape(tensor.shape, shape), what)

    def dtype(self, tensor, name, what=""):
        self._add(compare.check_dtype(tensor.dtype, name), what)

    def bounds(self, values, low, high, what="values"):
        self._add(compare.check_bounds(values, low, high, what))

    def true(self, condition, message):
        if not condition:
            self.problems.append(message)

    def close(self, actual, expected, atol, what):
        """``actual`` equals a reference computed by the case (numpy) to ``atol``."""
        import numpy as np
        actual, expected = np.asarray(actual, np.float64), np.asarray(expected, np.float64)
        if actual.shape != expected.shape:
            self.problems.append(f"{what}: shape {actual.shape} != reference {expected.shape}")
            return
        self._add(compare.nonfinite_positions_match(actual, expected), what)
        finite = np.isfinite(expected) & np.isfinite(actual)
        if finite.any():
            worst = float(np.max(np.abs(actual[finite] - expected[finite])))
            if worst > atol:
                self.problems.append(f"{what}: differs from the reference by {worst:.3g} (> {atol:g})")

    def raises(self, error_type, function, what=""):
        """Calling ``function()`` raises an exception whose class is named ``error_type``; returns it."""
        try:
            function()
        except Exception as error:  # noqa: BLE001 - the type is what is checked
            if type(error).__name__ != error_type:
                self.problems.append(f"{what}: raised {type(error).__name__}: {error} "
                                     f"(documented: {error_type})")
            return error
        self.problems.append(f"{what}: no exception (documented: {error_type})")
        return None

    def note(self, text):
        """Something worth showing in the report that is not a problem."""
        self.notes.append(text)
