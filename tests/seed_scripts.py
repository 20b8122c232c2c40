"""Run a seed page's code, taken from ``conformance/cases``, inside the test process against refms.

A documented example is written once, as a conformance case, and
``test_conformance_cases.py`` runs every case as its page documents it, in a
subprocess.  The tests that check more than a page prints (the example under
another compat version or mode, or the objects it leaves behind) run the same
text here: ``mindspore`` is replaced by ``refms``, and the source is registered
with ``linecache`` so that the graph compiler can parse what it defines, as it
parses a user's file.
"""
import contextlib
import dataclasses
import io
import linecache

import refms as ms
from conformance import compare

__all__ = ["exec_page_code", "run_case_script", "assert_prints"]


def exec_page_code(code, filename, namespace):
    """Run MindSpore example ``code`` against refms in ``namespace``; return what it printed."""
    program = code.replace("mindspore", "refms")
    linecache.cache[filename] = (len(program), None, program.splitlines(True), filename)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(program, filename, "exec"), namespace)  # noqa: S102 - the page's own code
    return printed.getvalue()


def run_case_script(case, *edits, compat=None):
    """Run transcript ``case`` as the conformance runner does, in this process.

    Its prelude, then its script, share one namespace; the case's own edits
    apply, then ``edits``; ``compat`` defaults to the page's version.  Returns
    ``(printed, namespace)``: what the script (not the prelude) printed, and
    the globals it left.
    """
    case = dataclasses.replace(case, edits=case.edits + tuple(edits))
    script, prelude = case.source_text()
    ms.set_context(compat=compat or case.page.compat)
    namespace = {"__name__": "__seed_script__"}
    exec_page_code(prelude, f"<{case.id} prelude>", namespace)
    return exec_page_code(script, f"<{case.id}>", namespace), namespace


def assert_prints(printed, expected):
    """``printed`` equals ``expected`` under the conformance comparison rules (conformance/README.md)."""
    problems = compare.compare_text(expected, printed)
    assert not problems, "\n".join(problems) + "\n--- printed ---\n" + printed
