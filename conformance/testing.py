"""Generated per-case tests for any test runner, in the manner of ONNX's backend tests.

ONNX's ``onnx.backend.test.BackendTest(backend, __name__)`` turns every model
of its suite into a ``unittest`` test of the backend under test; this module
does the same for an implementation of the MindSpore programming model::

    # test_conformance_mypkg.py  (run with pytest or python -m unittest)
    from conformance.testing import ConformanceTests

    globals().update(ConformanceTests("mypkg", target="2.10").test_cases)

``test_cases`` maps one ``unittest.TestCase`` class per area
(``Conformance_hooks``, ``Conformance_ops_math``…) to a test method per case
(``test_pynative_r16_hook_backward``).  The cases run on first use, all
together (``jobs`` at a time, as ``python -m conformance`` runs them), and each
test reports its case: a failure's problems, a not-applicable case or a
listed deviation as a skip with its reason.  ``include`` (a regular expression
or a list of them, matched against case ids) keeps part of the suite.
"""
import os
import re
import unittest

from . import adapters, cases, runner
from .case import NEWEST
from .optable.cases import PAGE as OP_PAGE, op_cases

__all__ = ["ConformanceTests"]


def _identifier(text):
    return re.sub(r"\W", "_", text)


class ConformanceTests:
    def __init__(self, impl="refms", target=NEWEST, include=None, jobs=2, deviations=None,
                 timeout=runner.DEFAULT_TIMEOUT):
        self.adapter = adapters.resolve(impl)
        ok, why = self.adapter.available()
        if not ok:
            raise RuntimeError(f"implementation {impl!r} is not available: {why}")
        self.target, self.jobs, self.timeout = target, jobs, timeout
        path = deviations or os.path.join(runner.HERE, "deviations", f"{self.adapter.name}.txt")
        self.deviations = runner.load_deviations(path)
        every = cases.all_cases() + op_cases(self.adapter.load(OP_PAGE.compat))
        if include is not None:
            patterns = [include] if isinstance(include, str) else list(include)
            every = [c for c in every if any(re.search(p, c.id) for p in patterns)]
        self.cases = every
        self._results = None
        self.test_cases = self._classes()

    def results(self):
        """``{case id: Result}``, running every selected case the first time it is asked."""
        if self._results is None:
            found = runner.run_all(self.cases, self.adapter, self.deviations, jobs=self.jobs,
                                   timeout=self.timeout, target=self.target)
            self._results = {result.case.id: result for result in found}
        return self._results

    def _test(self, case_id):
        def test(test_case):
            result = self.results()[case_id]
            if result.outcome in ("not-applicable", "expected-failure"):
                test_case.skipTest(f"{result.outcome}: {result.deviation}")
            if result.outcome == "unexpected-pass":
                test_case.fail(f"passes although listed as a deviation ({result.deviation}): "
                               f"remove its line from the deviations file")
            if result.outcome == "failed":
                test_case.fail("\n".join(result.problems))
        test.__name__ = f"test_{_identifier(case_id)}"
        return test

    def _classes(self):
        methods = {}
        for case in self.cases:
            test = self._test(case.id)
            methods.setdefault(case.area, {})[test.__name__] = test
        classes = {}
        for area, tests in methods.items():
            name = f"Conformance_{_identifier(area)}"
            classes[name] = type(name, (unittest.TestCase,), tests)
        return classes
