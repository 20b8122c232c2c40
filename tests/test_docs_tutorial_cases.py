"""The tutorials contain every documented example of the MindSpore pages as a doctest.

Every conformance case with an exact documented output (printed text or an
exception; :func:`tutorial_cases.doctestable`) must be listed by exactly one
tutorial's ``.. conformance-examples::`` directive.  The directive renders the
case as a doctest group: the script the suite runs, under the ``compat`` of
the page's version, expecting the page's output compared by the suite's rules.
The docs build (``sphinx-build -b doctest``) then runs them; these tests check
that nothing is missing and that what is rendered is the case itself.
"""
import os
import re
import sys

import pytest

from conformance.cases import all_cases

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "docs", "_ext"))

import tutorial_cases  # noqa: E402  (docs/_ext is not a package)

TUTORIALS = os.path.join(ROOT, "docs", "tutorials")
DOCTESTABLE = [case for case in all_cases() if tutorial_cases.doctestable(case)]


def listed():
    """``[(tutorial, case id)]`` for every id listed in a tutorial."""
    return [(page, case_id) for page, ids in tutorial_cases.tutorial_case_ids(TUTORIALS).items()
            for case_id in ids]


def block(lines, directive):
    """The body of the first ``.. <directive>`` block in ``lines`` (dedented), without its options."""
    start = lines.index(directive) + 1
    while start < len(lines) and lines[start].strip().startswith(":"):
        start += 1
    body = []
    for line in lines[start:]:
        if line.strip() and not line.startswith("   "):
            break
        body.append(line[3:])
    return "\n".join(body).strip("\n") + "\n"


def test_every_documented_example_is_in_exactly_one_tutorial():
    pages = {}
    for page, case_id in listed():
        pages.setdefault(case_id, []).append(page)
    missing = [case.id for case in DOCTESTABLE if case.id not in pages]
    repeated = {case_id: where for case_id, where in pages.items() if len(where) > 1}
    assert not missing, f"documented examples not in any tutorial: {missing}"
    assert not repeated, f"documented examples in more than one tutorial: {repeated}"
    # 40 of the suite's page cases print exact text or raise; the rest are property or prose checks.
    assert len(DOCTESTABLE) >= 40


def test_tutorials_list_only_doctestable_cases():
    ids = {case.id for case in DOCTESTABLE}
    wrong = [(page, case_id) for page, case_id in listed() if case_id not in ids]
    assert not wrong, f"not a case with an exact documented output: {wrong}"


@pytest.mark.parametrize("case", DOCTESTABLE, ids=lambda case: case.id)
def test_the_doctest_is_the_case(case):
    lines = tutorial_cases.case_rst(case)
    script, prelude = case.source_text()
    assert block(lines, f".. testcode:: {case.id}") == script.strip("\n") + "\n"
    setup = block(lines, f".. testsetup:: {case.id}")
    assert f"refms.set_context(compat={case.page.compat!r})" in setup
    for line in prelude.splitlines():
        assert "    " + line in setup.splitlines() or not line.strip()
    output_options = lines[lines.index(f".. testoutput:: {case.id}") + 1]
    output = block(lines, f".. testoutput:: {case.id}")
    if case.expect_error is None:
        assert output_options.strip() == ":options: +CONFORMANCE"
        assert output == case.expected.strip("\n") + "\n"
    else:
        assert output_options.strip() == ":options: +IGNORE_EXCEPTION_DETAIL"
        assert output.startswith("Traceback (most recent call last):")
        assert output.splitlines()[-1].startswith(case.expect_error.type + ":")


def test_the_checker_uses_the_suite_rules():
    checker = tutorial_cases.ConformanceChecker()
    flag = tutorial_cases.CONFORMANCE
    page = "[[0.00000000e+000, 1.00000000e+000]]\n2.3025854\n"
    assert checker.check_output(page, "[[ 0.00000000e+00,  1.00000000e+00]]\n2.3025854\n", flag)
    assert not checker.check_output(page, "[[0.00000000e+00, 1.00000000e+00]]\n2.3025851\n", flag)
    assert not checker.check_output(page, "[[0., 1.]]\n2.3025854\n", 0)   # without the flag: exact text
    assert checker.check_output("a  b\n", "a  b\n", 0)


def test_the_directive_is_registered():
    with open(os.path.join(ROOT, "docs", "conf.py"), encoding="utf-8") as handle:
        assert re.search(r'"refms_conformance_examples"', handle.read())
