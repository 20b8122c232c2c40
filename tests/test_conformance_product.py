"""The conformance suite as other implementers use it: from any directory, through an
adapter of their own, at a target version, with machine-readable reports.

* a run in an empty directory writes exactly the files its options name;
* ``--json`` and ``--junit-xml`` follow the documented schema;
* ``--target`` turns the pages' older behaviour into not-applicable cases;
* the worked example adapter (``conformance/example_adapter.py``) judges a stand-in
  for its fictional framework (refms under the name ``minims``), from the command
  line and as generated unittest cases (``conformance.testing``);
* a copy of refms with one planted gradient bug fails the op table's gradient case of
  exactly that primitive, and the failure names it;
* the console progress bar never glues its line to a case line.
"""
import io
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import unittest
from xml.etree import ElementTree

import pytest

from conformance import cases, runner
from conformance.adapters import resolve
from conformance.case import NEWEST, applies_to
from conformance.progress import CLEAR_LINE, Progress

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def suite(cwd, *args, pythonpath=(), env=None):
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join([*pythonpath, ROOT]), **(env or {}))
    return subprocess.run([sys.executable, "-m", "conformance", "--no-progress", "-j", "2", *args],
                          cwd=cwd, env=environment, capture_output=True, text=True, timeout=600)


def test_reports_from_an_empty_directory(tmp_path):
    proc = suite(tmp_path, "-k", "modes_20.", "--json", "r.json", "--junit-xml", "out/r.xml")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == \
        ["out", "out/r.xml", "r.json"]
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["schema"] == "refms-conformance-report/1"
    assert report["target"] == NEWEST and report["implementation"] == "refms"
    ids = [case["id"] for case in report["cases"]]
    assert ids == [case.id for case in cases.all_cases() if case.id.startswith("modes_20.")]
    for case in report["cases"]:
        assert {"id", "title", "page", "area", "version", "verdict", "expected", "got",
                "duration"} <= set(case)
        assert case["verdict"] == "passed" and case["version"] == "2.0"
        assert case["page"] == "Graph and PyNative modes" and case["title"].isascii()
    assert report["summary"]["passed"] == len(ids) and report["summary"]["failed"] == 0
    xml = ElementTree.parse(tmp_path / "out" / "r.xml").getroot()
    testcases = xml.findall("./testsuite/testcase")
    assert sorted(t.get("name") for t in testcases) == sorted(ids)      # grouped by area
    assert not xml.findall(".//failure")


def test_target_decides_what_applies():
    by_id = {case.id: case for case in cases.all_cases()}
    changed = by_id["network_20.sampler_bprop"]          # grad's 1-tuple became a Tensor in 2.1
    assert applies_to(changed, "2.0") == ""
    assert "2.1" in applies_to(changed, "2.1") and applies_to(changed, NEWEST)
    r17 = by_id["pynative_r17.forward_hook"]             # unchanged since r1.7
    assert applies_to(r17, NEWEST) == "" and applies_to(r17, "1.7") == ""
    assert "newer than the target 1.6" in applies_to(r17, "1.6")
    not_applicable = [c.id for c in by_id.values() if applies_to(c, NEWEST)]
    assert len(not_applicable) == 11 and all(by_id[i].later for i in not_applicable)


def test_unknown_implementation_and_target_are_clean_errors(tmp_path):
    proc = suite(tmp_path, "--impl", "no_such_framework_xyz")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "cannot import implementation 'no_such_framework_xyz'" in proc.stderr
    proc = suite(tmp_path, "--target", "9.9")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "9.9" in proc.stderr


# -- the worked example: an adapter for the fictional minims -----------------------------------

MINIMS = '''
"""A stand-in for the fictional minims framework: refms under another name."""
import os
import sys

import refms
from conformance.bootstrap import AliasFinder

assert os.environ.get("MINIMS_DEVICE") == "cpu", "minims needs MINIMS_DEVICE (its adapter sets it)"
sys.meta_path.insert(0, AliasFinder("refms", source="minims"))
sys.modules[__name__] = refms
'''

EXAMPLE_CASES = ["modes_20.pynative_grad", "network_20.param_freeze", "op.math.Mul.gradient",
                 "pynative_r17.backward_hook"]


@pytest.fixture
def minims(tmp_path, monkeypatch):
    folder = tmp_path / "site"
    (folder / "minims").mkdir(parents=True)
    (folder / "minims" / "__init__.py").write_text(MINIMS)
    monkeypatch.setenv("MINIMS_DEVICE", "cpu")        # the parent process imports minims too
    return folder


def test_example_adapter_from_the_command_line(tmp_path, minims):
    proc = suite(tmp_path, "--impl", "conformance.example_adapter", "-k", "modes_20.pynative_grad",
                 "--json", "r.json", pythonpath=[str(minims)])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "against minims 0.1.0" in proc.stdout
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["implementation"] == "minims"
    assert [c["verdict"] for c in report["cases"]] == ["passed"]


def test_example_adapter_as_generated_unittest_cases(minims, monkeypatch):
    from conformance.testing import ConformanceTests
    monkeypatch.syspath_prepend(str(minims))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(minims), ROOT]))
    generated = ConformanceTests("conformance.example_adapter", target="2.10",
                                 include=[re.escape(i) + "$" for i in EXAMPLE_CASES])
    assert set(generated.test_cases) == {"Conformance_autodiff", "Conformance_cells",
                                         "Conformance_ops_math", "Conformance_hooks"}
    loader = unittest.TestLoader()
    tests = unittest.TestSuite(loader.loadTestsFromTestCase(cls)
                               for cls in generated.test_cases.values())
    outcome = unittest.TestResult()
    tests.run(outcome)
    assert outcome.testsRun == 4 and not outcome.failures and not outcome.errors
    assert [test.id().split(".")[-1] for test, _ in outcome.skipped] == \
        ["test_pynative_r17_backward_hook"]        # r1.7 behaviour: not applicable at 2.10
    sys.modules.pop("minims", None)


# -- a planted bug -------------------------------------------------------------------------------

def test_planted_gradient_bug_is_named(tmp_path):
    copy = tmp_path / "planted"
    shutil.copytree(os.path.join(ROOT, "refms"), copy / "refms",
                    ignore=shutil.ignore_patterns("__pycache__"))
    source = copy / "refms" / "ops" / "prims" / "arithmetic.py"
    text = source.read_text()
    right = "return grad_like(dout * y, x), grad_like(dout * x, y)"
    assert text.count(right) == 1, "Mul's bprop moved: update the planted bug"
    source.write_text(text.replace(right, "return grad_like(dout * y, x), grad_like(dout * y, y)"))
    proc = suite(tmp_path, "-k", "op.math.Mul", "--json", "r.json", pythonpath=[str(copy)])
    assert proc.returncode == 1
    assert str(copy) in proc.stdout                    # the run judged the copy
    report = json.loads((tmp_path / "r.json").read_text())
    failed = [c for c in report["cases"] if c["verdict"] == "failed"]
    assert [c["id"] for c in failed] == ["op.math.Mul.gradient", "op.math.Mul-broadcast.gradient"]
    assert all(c["problems"][0].startswith("Mul (Mul") and "wrong gradient" in c["problems"][0]
               for c in failed)
    assert all(c["verdict"] == "passed" for c in report["cases"] if c not in failed)


# -- the progress bar ----------------------------------------------------------------------------

class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_bar_never_glues_lines():
    terminal = Terminal()
    bar = Progress(3, label="run ", stream=terminal)
    for k in range(3):
        bar.write(f"case {k} done", stream=terminal)
        bar.update()
    bar.close()
    screen = terminal.getvalue()
    # What a terminal shows: \r and ESC[K erase the bar before each line and at the end.
    shown = [line.split(CLEAR_LINE)[-1] for line in screen.split("\n")]
    assert shown == ["case 0 done", "case 1 done", "case 2 done", ""]
    assert "[" in screen and "3/3" in screen                # the bar was drawn


def test_progress_bar_is_off_without_a_terminal():
    plain = io.StringIO()
    bar = Progress(2, stream=plain)
    bar.write("one", stream=plain)
    bar.update()
    bar.close()
    assert plain.getvalue() == "one\n"
