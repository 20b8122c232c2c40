"""The pure part of the tutorials' conformance examples (no Sphinx needed; the tests import it).

:func:`case_rst` renders a conformance case as the reStructuredText of a
doctest group, :class:`ConformanceChecker` compares outputs by the suite's
rules for examples marked ``+CONFORMANCE``, and :func:`tutorial_case_ids` reads
which cases each tutorial includes.  The directive itself is in
:mod:`refms_conformance_examples`.
"""
import doctest
import os
import re

#: Doctest option: compare the output with the conformance suite's rules, not character by character.
CONFORMANCE = doctest.register_optionflag("CONFORMANCE")

__all__ = ["CONFORMANCE", "doctestable", "case_rst", "ConformanceChecker", "tutorial_case_ids"]


def doctestable(case):
    """True for a case a doctest can check: an exact-tier transcript (printed text or an exception)."""
    return case.kind == "transcript" and case.tier == "exact" and case.check is None


def _indent(text):
    return ["   " + line if line.strip() else "" for line in text.rstrip("\n").split("\n")]


def case_rst(case):
    """The reStructuredText lines that show ``case`` and run it as a doctest (group = the case id)."""
    from conformance.cases.titles import english

    script, prelude = case.source_text()
    page = case.page
    lines = [f".. rubric:: {page.label}: {english(case.section)}", "",
             f"Conformance case ``{case.id}``, run under ``compat=\"{page.compat}\"`` "
             f"(MindSpore {page.release}, the version the page documents).", ""]
    for edit in case.edits:
        change = ["- " + line for line in edit.old.rstrip("\n").split("\n")]
        if edit.new:
            change += ["+ " + line for line in edit.new.rstrip("\n").split("\n")]
        lines += [f"Changed from the page ({edit.reason}):", "", ".. code-block:: diff", ""]
        lines += _indent("\n".join(change)) + [""]
    if case.differs_in:
        lines += [f".. note:: MindSpore {case.differs_in} prints something else here: {case.later}", ""]
    setup = ["import refms", f"refms.set_context(compat={page.compat!r})"]
    if prelude:
        # The page's earlier cell runs first in the same namespace; its output is not compared
        # (the suite sends it to stderr).
        lines += ["The page's earlier cell, run first (what it prints is not part of the example):", "",
                  ".. code-block:: python", ""] + _indent(prelude) + [""]
        setup += ["import contextlib as _contextlib, io as _io",
                  "with _contextlib.redirect_stdout(_io.StringIO()):"]
        setup += ["    " + line for line in prelude.rstrip("\n").split("\n")]
    lines += [f".. testsetup:: {case.id}", ""] + _indent("\n".join(setup)) + [""]
    lines += [f".. testcode:: {case.id}", ""] + _indent(script) + [""]
    if case.expect_error is not None:
        error = case.expect_error
        output = f"Traceback (most recent call last):\n  ...\n{error.type}: (raised at `{error.at}`)\n"
        options = "+IGNORE_EXCEPTION_DETAIL"
        lines += [f"The page documents a ``{error.type}`` raised at ``{error.at}``; its message "
                  f"depends on the platform, so only the type is compared.", ""]
    else:
        output, options = case.expected, "+CONFORMANCE"
    lines += [f".. testoutput:: {case.id}", f"   :options: {options}", ""] + _indent(output) + [""]
    return lines


class ConformanceChecker(doctest.OutputChecker):
    """Doctest's checker, plus the suite's comparison rules for examples marked ``+CONFORMANCE``."""

    def check_output(self, want, got, optionflags):
        if optionflags & CONFORMANCE:
            from conformance.compare import compare_text
            return not compare_text(want, got)
        return super().check_output(want, got, optionflags)

    def output_difference(self, example, got, optionflags):
        text = super().output_difference(example, got, optionflags)
        if optionflags & CONFORMANCE:
            from conformance.compare import compare_text
            text += "Differences by the conformance rules:\n" + "\n".join(
                "    " + problem for problem in compare_text(example.want, got)) + "\n"
        return text



DIRECTIVE = re.compile(r"^\.\. conformance-examples::\s*$")


def tutorial_case_ids(tutorials_dir):
    """``{page name: [case ids]}``: the ids listed by each tutorial's ``conformance-examples`` directives."""
    found = {}
    for name in sorted(os.listdir(tutorials_dir)):
        if not name.endswith(".rst"):
            continue
        with open(os.path.join(tutorials_dir, name), encoding="utf-8") as handle:
            lines = handle.read().splitlines()
        ids = []
        for i, line in enumerate(lines):
            if DIRECTIVE.match(line):
                for body in lines[i + 1:]:
                    if body.strip() and not body.startswith("   "):
                        break
                    if body.strip():
                        ids.append(body.strip())
        if ids:
            found[name[:-len(".rst")]] = ids
    return found
