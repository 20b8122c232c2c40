"""Every Python example of MindSpore's static-graph syntax pages, run on refms and compared
with what MindSpore 2.10 did when it ran the same example.

The examples and MindSpore's results are recorded in ``tests/golden/static_syntax.json`` by
``tests/recorders/record_static_syntax.py`` (pages ``static_graph``, ``statements``,
``python_builtin_functions``, ``operators`` and the ``jit_class`` section of
``static_graph_expert_programming``, English and Chinese, each example once).

An example runs as a script (``import mindspore`` resolves to refms) in this process, from
MindSpore's default PyNative mode.  When MindSpore raised, refms must raise the same
exception type (or a subclass of it: refms's ``GraphSyntaxError`` is also the
``RuntimeError`` MindSpore raises); otherwise refms must not raise and must print the same text (numbers to the
printed precision, the rules of ``conformance.compare``).

``KNOWN_DIFFERENCES`` lists the examples refms does not reproduce, each with what is
missing; they are strict expected failures, so one that starts to agree fails until its
line is removed.
"""
import contextlib
import io
import json
import os
import runpy
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import refms  # noqa: E402
from conformance.compare import compare_text  # noqa: E402
from random_programs import time_limit  # noqa: E402

GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden", "static_syntax.json")

with open(GOLDEN, encoding="utf-8") as _file:
    RECORDED = json.load(_file)
CASES = {case["id"]: case for case in RECORDED["cases"]}

#: example id -> what refms lacks to reproduce MindSpore's result.
KNOWN_DIFFERENCES = {
    "static_graph.en33":
        "MindSpore 2.10's CPU backend has no in-place kernel for Tensor.add_ in PyNative "
        "(InplaceAddExt): it returns a new Tensor and leaves x at 2, and grad sees x + y.  refms "
        "implements the documented in-place update (the tutorial's output: pynative_out 5, then "
        "RuntimeError for the leaf tensor in grad), as MindSpore's graph mode on CPU also does",
    "static_graph.en66":
        "MindSpore 2.10 fails inside its runtime (RuntimeError 'The pointer[host_tensor] is "
        "null.') on this gradient of a graph that builds a dict holding its input; refms "
        "computes the documented result (out == 2). The failure follows no documented rule: "
        "with a float input it happens even when the dict is not returned, and without the "
        "dict the same gradient works",
}

LIMIT_S = 120


@contextlib.contextmanager
def mindspore_alias():
    """``import mindspore`` resolves to refms inside the block, and nothing stays behind."""
    from refms.alias import install, uninstall
    before = set(sys.modules)
    finder = install()
    try:
        yield
    finally:
        uninstall(finder)
        for name in set(sys.modules) - before:
            if name == "mindspore" or name.startswith("mindspore."):
                del sys.modules[name]


def run_example(code, directory):
    """Run ``code`` as ``__main__``; (printed text, exception or None)."""
    path = os.path.join(directory, "example.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(code)
    out = io.StringIO()
    error = None
    refms.set_context(mode=refms.PYNATIVE_MODE)
    try:
        with mindspore_alias(), contextlib.redirect_stdout(out), time_limit(LIMIT_S):
            runpy.run_path(path, run_name="__main__")
    except Exception as caught:         # compared with what MindSpore raised
        error = caught
    finally:
        refms.set_context(mode=refms.PYNATIVE_MODE)
    return out.getvalue(), error


def problems(case, printed, error):
    """What differs from MindSpore's recorded result (empty when they agree)."""
    expected = case["mindspore"]
    if expected["error"] is not None:
        want = expected["error"]["type"]
        if error is None:
            return [f"MindSpore raised {want} ({expected['error']['message'][:200]}); "
                    f"refms did not raise"]
        if want not in [cls.__name__ for cls in type(error).__mro__]:
            return [f"MindSpore raised {want}, refms {type(error).__name__}: {error}"]
        return []
    if error is not None:
        return [f"refms raised {type(error).__name__}: {str(error)[:500]}"]
    return compare_text(expected["stdout"], printed)


def recorded_programs(golden_file):
    """{name: MindSpore's recorded result} of a ``tests/golden`` file that a recorder's
    ``record_programs`` wrote."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden", golden_file)
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)["programs"]


def program_param(name, known_differences):
    """``name`` as a test parameter, a strict xfail when ``known_differences`` gives a reason."""
    reason = known_differences.get(name)
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(name, id=name, marks=marks)


def check_program(code, recorded, directory):
    """Run ``code`` on refms and assert it does what MindSpore recorded."""
    printed, error = run_example(code, directory)
    found = problems({"mindspore": recorded}, printed, error)
    assert not found, f"{code}\n" + "\n".join(found) + f"\nrefms printed:\n{printed}"


def _param(case_id):
    reason = KNOWN_DIFFERENCES.get(case_id)
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(case_id, id=case_id, marks=marks)


@pytest.mark.parametrize("case_id", [_param(case_id) for case_id in CASES])
def test_example_matches_mindspore(case_id, tmp_path):
    case = CASES[case_id]
    printed, error = run_example(case["code"], str(tmp_path))
    found = problems(case, printed, error)
    assert not found, (f"{case['source']} ({case['heading']}):\n{case['code']}\n"
                       + "\n".join(found) + f"\nrefms printed:\n{printed}")


def test_every_difference_names_a_recorded_example():
    assert set(KNOWN_DIFFERENCES) <= set(CASES)
    assert all(reason.strip() for reason in KNOWN_DIFFERENCES.values())
