"""Every conformance case, run against refms as ``python -m conformance`` runs it .

A seed page's documented example is written once, as a case in
``conformance/cases``; this module makes each case a test (its id is the
case id), so ``pytest tests/`` checks the pages as well.  The selected cases
run once, two at a time, each in its own subprocess and temporary directory
(``conformance.runner.run_all``); each test reads its case's result.  An
exact-tier case must be ``passed``, a property-tier case ``property``
(conformance/README.md, "Outcomes").

A case listed in ``conformance/deviations/refms.txt`` is a strict xfail with
that line's reason, as the runner counts it: a listed case that passes fails
the run until its line is removed.
"""
import os

import pytest

from conformance import adapters, cases, report, runner
from conformance.case import EXACT

CASES = cases.all_cases()
DEVIATIONS = runner.load_deviations(os.path.join(runner.HERE, "deviations", "refms.txt"))
JOBS = 2            # cases at once; each is a subprocess, so two keep a 2-core machine busy
TIMEOUT = 300       # seconds per case


@pytest.fixture(scope="module")
def results(request):
    """``{case id: runner.Result}`` for the cases this session selected (all, or what ``-k`` kept)."""
    selected = {item.callspec.id for item in request.session.items
                if item.module is request.module and hasattr(item, "callspec")}
    adapter = adapters.resolve("refms")
    available, why = adapter.available()
    assert available, why
    # No deviations here: the outcome is the case's own, and the xfail marks below stand for them.
    # No target either: refms reproduces every page under the page's own version (compat), so
    # it is held to every case, the ones older versions documented included.
    found = runner.run_all([case for case in CASES if case.id in selected], adapter, deviations={},
                           jobs=JOBS, timeout=TIMEOUT, target=None)
    return {result.case.id: result for result in found}


def _param(case):
    marks = ()
    if case.id in DEVIATIONS:
        marks = pytest.mark.xfail(reason=DEVIATIONS[case.id], strict=True)
    return pytest.param(case, id=case.id, marks=marks)


def _explain(result):
    """The runner's line for the case (with its problems), then the tails of what the case printed."""
    text = [report.case_line(result)]
    for name, output in (("stdout", result.stdout), ("stderr", result.stderr)):
        tail = output.rstrip().splitlines()[-20:]
        if tail:
            text += [f"--- {name}, last {len(tail)} lines ---"] + tail
    return "\n".join(text)


@pytest.mark.parametrize("case", [_param(case) for case in CASES])
def test_case_behaves_as_documented(case, results):
    result = results[case.id]
    expected = "passed" if case.tier == EXACT else "property"
    if result.outcome != expected:
        pytest.fail(f"outcome {result.outcome}, expected {expected}\n{_explain(result)}", pytrace=False)


def test_every_deviation_names_a_case():
    unknown = sorted(set(DEVIATIONS) - {case.id for case in CASES})
    assert not unknown, f"conformance/deviations/refms.txt names no case: {unknown}"
