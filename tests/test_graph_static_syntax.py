"""Every Python example of MindSpore's static-graph syntax pages, run on refms and compared
with what MindSpore 2.10 did when it ran the same example.

The examples and MindSpore's results are recorded in ``tests/golden/static_syntax.json`` by
``tests/recorders/record_static_syntax.py`` (pages ``static_graph``, ``statements``,
``python_builtin_functions``, ``operators`` and the ``jit_class`` section of
``static_graph_expert_programming``, English and Chinese, each example once).

An example runs as a script (``import mindspore`` resolves to refms) in this process, from
MindSpore's default PyNative mode.  When MindSpore raised, refms must raise the same
exception type; otherwise refms must not raise and must print the same text (numbers to the
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
    "static_graph.en04":
        "as of this recording: refms raised AttributeError: module 'refms' has no attribute 'mutable'",
    "static_graph.en08":
        "as of this recording: refms raised AttributeError: module 'refms' has no attribute 'mutable'",
    "static_graph.en15":
        "as of this recording: refms raised GraphSyntaxError: Unsupported syntax 'assignment to Subscript' in graph mode at example.py:11:7: graph mode assigns to names, tuples of n",
    "static_graph.en25":
        "as of this recording: refms raised AttributeError: 'dict' object has no attribute 'has_key'",
    "static_graph.en28":
        "as of this recording: refms raised GraphSyntaxError: Unsupported syntax 'assignment to Attribute' in graph mode at example.py:12:7: graph mode assigns to names, tuples of n",
    "static_graph.en33":
        "MindSpore 2.10's CPU backend has no in-place kernel for Tensor.add_ in PyNative "
        "(InplaceAddExt): it returns a new Tensor and leaves x at 2, and grad sees x + y.  refms "
        "implements the documented in-place update (the tutorial's output: pynative_out 5, then "
        "RuntimeError for the leaf tensor in grad), as MindSpore's graph mode on CPU also does",
    "static_graph.en42":
        "as of this recording: MindSpore raised RuntimeError, refms GraphSyntaxError: Unsupported syntax 'Try' in graph mode at example.py:8:7 try:",
    "static_graph.en47":
        "as of this recording: refms raised TypeError: 'ndarray' object does not support item assignment",
    "static_graph.en49":
        "as of this recording: refms raised GraphCompileError: asnumpy() needs the value of a Tensor (at example.py:6), but in graph mode a Tensor computed by the graph (shape [2], ",
    "static_graph.en52":
        "as of this recording: refms raised AssertionError:",
    "static_graph.en53":
        "as of this recording: refms raised AssertionError:",
    "static_graph.en58":
        "as of this recording: expected line 3: '[' != documented '(' documented: ... y is None x : ( 1 , 2 ) ... printed: ... y is None x : [ 1 , 2 ] ...",
    "static_graph.en59":
        "as of this recording: refms raised GraphCompileError: asnumpy() needs the value of a Tensor (at example.py:7), but in graph mode a Tensor computed by the graph (shape [3], ",
    "static_graph.en61":
        "as of this recording: refms raised GraphSyntaxError: Unsupported syntax 'assignment to Attribute' in graph mode at example.py:13:7: graph mode assigns to names, tuples of n",
    "static_graph.en62":
        "as of this recording: refms raised GraphSyntaxError: Unsupported syntax 'assignment to Attribute' in graph mode at example.py:9:7: graph mode assigns to names, tuples of na",
    "static_graph.en63":
        "as of this recording: refms raised GraphSyntaxError: Unsupported syntax 'assignment to Attribute' in graph mode at example.py:11:7: graph mode assigns to names, tuples of n",
    "static_graph.en64":
        "as of this recording: refms raised GraphSyntaxError: Unsupported syntax 'assignment to Attribute' in graph mode at example.py:11:7: graph mode assigns to names, tuples of n",
    "static_graph.en65":
        "as of this recording: refms raised GraphSyntaxError: Unsupported syntax 'assignment to Attribute' in graph mode at example.py:16:7: graph mode assigns to names, tuples of n",
    "static_graph.en66":
        "as of this recording: MindSpore raised RuntimeError (The pointer[host_tensor] is null.); refms did not raise",
    "static_graph.en67":
        "as of this recording: refms raised GraphCompileError: asnumpy() needs the value of a Tensor (at example.py:10), but in graph mode a Tensor computed by the graph (shape [], ",
    "static_graph.en68":
        "as of this recording: refms raised GraphSyntaxError: Unsupported syntax 'assignment to Attribute' in graph mode at example.py:11:9: graph mode assigns to names, tuples of n",
    "static_graph.en69":
        "as of this recording: refms raised GraphCompileError: Using a Tensor as a Python index needs the value of a Tensor (at example.py:6), but in graph mode a Tensor computed by",
    "static_graph.zh63":
        "as of this recording: refms raised GraphSyntaxError: Unsupported syntax 'assignment to Attribute' in graph mode at example.py:11:7: graph mode assigns to names, tuples of n",
    "static_graph.zh64":
        "as of this recording: refms raised GraphSyntaxError: Unsupported syntax 'assignment to Attribute' in graph mode at example.py:11:7: graph mode assigns to names, tuples of n",
    "static_graph.zh65":
        "as of this recording: refms raised GraphSyntaxError: Unsupported syntax 'assignment to Attribute' in graph mode at example.py:16:7: graph mode assigns to names, tuples of n",
    "statements.en02":
        "as of this recording: MindSpore raised AssertionError, refms GraphCompileError: Python's truth test (bool(), 'if', 'and', 'or' in library code) needs the value of a Tensor ",
    "statements.en11":
        "as of this recording: refms raised NameError: name 'z' is not defined on every path to this use (it is assigned in only some branches or loop iterations)",
    "statements.en16":
        "as of this recording: refms raised TypeError: partial() got an unexpected keyword argument 'x'",
    "statements.en21":
        "as of this recording: expected line 1: '(' != documented '[' documented: ... ret : [ 4 , 16 , 36 , ... printed: ... ret : ( 4 , 16 , 36 , ...",
    "statements.en22":
        "as of this recording: refms raised GraphSyntaxError: Unsupported syntax 'With' in graph mode at example.py:21:9 with obj as sample:",
    "statements.zh20":
        "as of this recording: MindSpore raised TypeError, refms GraphSyntaxError: Unsupported syntax 'comprehension with several 'for' clauses' in graph mode at example.py:6:11 res",
    "python_builtin_functions.en01":
        "as of this recording: refms raised GraphCompileError: int() needs the value of a Tensor (at example.py:4), but in graph mode a Tensor computed by the graph (shape [1], Floa",
    "python_builtin_functions.en02":
        "as of this recording: refms raised GraphCompileError: asnumpy() needs the value of a Tensor (at example.py:4), but in graph mode a Tensor computed by the graph (shape [1], ",
    "python_builtin_functions.en05":
        "as of this recording: expected line 2: 'np' != documented '1' documented: ... , 3 ) b : ( 1 , 2 , 3 ) c ... printed: ... , 3 ) b : ( np . int64 ( 1 ) , ...",
    "python_builtin_functions.en06":
        "as of this recording: expected line 2: 'np' != documented '1' documented: ... , 3 ] b_t : [ 1 , 2 , 3 ] c_t ... printed: ... , 3 ] b_t : [ np . int64 ( 1 ) , ...",
    "python_builtin_functions.en08":
        "as of this recording: refms raised GraphCompileError: asnumpy() needs the value of a Tensor (at example.py:12), but in graph mode a Tensor computed by the graph (shape [1],",
    "python_builtin_functions.en10":
        "as of this recording: refms raised GraphCompileError: asnumpy() needs the value of a Tensor (at example.py:7), but in graph mode a Tensor computed by the graph (shape [4], ",
    "python_builtin_functions.en11":
        "as of this recording: refms raised GraphCompileError: asnumpy() needs the value of a Tensor (at example.py:7), but in graph mode a Tensor computed by the graph (shape [3], ",
    "python_builtin_functions.en17":
        "as of this recording: expected line 5: '10' != documented '[' documented: ... 6 d : 16 e : [ 4 6 ] f : [ ... printed: ... 6 d : 16 e : 10 f : [ [ 4 6 ...",
    "python_builtin_functions.en19":
        "as of this recording: expected line 2: '(' != documented '[' documented: ... 7 , 9 ) ret2 : [ 6 , 8 , 10 ] ... printed: ... 7 , 9 ) ret2 : ( 6 , 8 , 10 ) ...",
    "python_builtin_functions.en21":
        "as of this recording: expected line 1: 'range' != documented '(' documented: ... x : ( 0 , 2 , 4 ) ... printed: ... x : range ( 0 , 6 , 2 ...",
    "python_builtin_functions.en25":
        "as of this recording: expected line 2: 'Tensor' != documented '3' documented: ... [ 1 2 3 ] ) 3 ... printed: ... [ 1 2 3 ] ) Tensor ( shape = [ ] , ...",
    "python_builtin_functions.en26":
        "as of this recording: expected line 1: '(' != documented '[' documented: ... ret1 : [ 1 , 3 , 5 ] ... printed: ... ret1 : ( 1 , 3 , 5 ) ...",
    "python_builtin_functions.en27":
        "as of this recording: expected line 7: 'refms' != documented 'mindspore' documented: ... > g : < class ' mindspore . common . tensor . Tensor ... printed: ... > g : < class",
    "jit_class.en02":
        "as of this recording: MindSpore raised TypeError (Decorator jit_class is used for user-defined classes and cannot be used for nn.Cell: <class '__main__.Net'>.); refms did n",
    "jit_class.en07":
        "as of this recording: MindSpore raised ValueError, refms TypeError: 'InnerNet' object is not callable",
}

LIMIT_S = 120


@contextlib.contextmanager
def mindspore_alias():
    """``import mindspore`` resolves to refms inside the block, and nothing stays behind."""
    from refms.alias import install
    before = set(sys.modules)
    finder = install()
    try:
        yield
    finally:
        sys.meta_path.remove(finder)
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
        if type(error).__name__ != want:
            return [f"MindSpore raised {want}, refms {type(error).__name__}: {error}"]
        return []
    if error is not None:
        return [f"refms raised {type(error).__name__}: {str(error)[:500]}"]
    return compare_text(expected["stdout"], printed)


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
