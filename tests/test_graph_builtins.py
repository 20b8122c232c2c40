"""Graph-mode builtins and statements beyond the static-syntax pages' own examples, against
MindSpore 2.10: the programs of ``tests/recorders/record_graph_builtins.py`` and what
MindSpore printed or raised running them (``tests/golden/graph_builtins.json``), replayed
on refms as ``tests/test_graph_static_syntax.py`` replays the pages' examples.  Then unit
tests of the pieces, with values from Python itself or numpy.
"""
import functools
import json
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import refms as ms  # noqa: E402
from refms import Tensor, nn, ops  # noqa: E402
from refms.alias import MINDSPORE_HOMES, install, uninstall  # noqa: E402
from refms.graph import GraphSyntaxError  # noqa: E402
from test_graph_static_syntax import problems, run_example  # noqa: E402

GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden", "graph_builtins.json")

with open(GOLDEN, encoding="utf-8") as _file:
    CASES = {case["id"]: case for case in json.load(_file)["cases"]}


@pytest.mark.parametrize("case_id", list(CASES))
def test_program_matches_mindspore(case_id, tmp_path):
    case = CASES[case_id]
    printed, error = run_example(case["code"], str(tmp_path))
    found = problems(case, printed, error)
    assert not found, f"{case['code']}\n" + "\n".join(found) + f"\nrefms printed:\n{printed}"


# -- builtins: Python's own results are the reference ------------------------------------------

def test_sum_of_a_tensor_adds_its_rows_like_python():
    data = np.arange(12, dtype=np.float32).reshape(3, 4)
    rows = lambda x: sum(x, 1)                                            # noqa: E731
    out = ms.jit(rows)(Tensor(data))
    np.testing.assert_array_equal(out.asnumpy(), sum(data, 1))      # Python's sum over rows


def test_range_is_a_tuple_and_still_drives_a_for_loop():
    @ms.jit
    def f(x):
        for i in range(1, 4):
            x = x + i
        return x, range(5, 0, -2)

    out, numbers = f(Tensor(np.zeros(2, np.float32)))
    assert numbers == tuple(range(5, 0, -2))
    np.testing.assert_array_equal(out.asnumpy(), [6.0, 6.0])


def test_dict_views_are_taken_when_called():
    @ms.jit
    def f():
        d = {"a": 1}
        keys = d.keys()
        d.update({"b": 2})
        return keys, d.keys(), d.has_key("b")

    assert f() == (("a",), ("a", "b"), True)


def test_update_of_a_global_dict_leaves_the_global_alone():
    table = {"a": 1}

    @ms.jit
    def f():
        table.update({"b": 2})
        return table

    assert f() == {"a": 1, "b": 2}
    assert table == {"a": 1}


def test_generator_expression_is_a_list():
    @ms.jit
    def f(x):
        return [x * k for k in (1, 2)], (k * k for k in range(4) if k % 2)

    scaled, squares = f(Tensor(np.ones(2, np.float32)))
    assert squares == [1, 9]
    assert [t.asnumpy().tolist() for t in scaled] == [[1.0, 1.0], [2.0, 2.0]]


def test_partial_with_keywords():
    def affine(x, w, b):
        return x * w + b

    @ms.jit
    def f(x):
        return (ops.partial(affine, w=2, b=1)(x), functools.partial(affine, b=10)(x, w=3),
                ops.partial(affine, x)(b=0, w=4))

    assert [t.asnumpy().item() for t in f(Tensor(5))] == [11, 25, 20]
    assert ops.partial(affine, w=2, b=1)(5) == 11           # PyNative: the same binding


# -- statements --------------------------------------------------------------------------------

@ms.jit_class
class Recorder:
    """Enter/exit in a log, so a test sees which ran and in which order."""

    def __init__(self, log, name):
        self.log = log
        self.name = name

    def __enter__(self):
        self.log.append("enter " + self.name)
        return len(self.log)

    def __exit__(self, exc_type, exc_value, traceback):
        self.log.append(("exit " + self.name, exc_type, exc_value, traceback))


def test_with_exits_in_reverse_and_on_break_and_continue():
    log = []

    @ms.jit
    def f(x):
        for i in range(3):
            with Recorder(log, "loop"):
                if i == 0:
                    continue
                if i == 2:
                    break
                x = x + i
        with Recorder(log, "a") as a, Recorder(log, "b") as b:
            x = x + a * b
        return x

    out = f(Tensor(0))
    # Python runs the same program the same way (enter/exit happen at compile time here)
    expected_log = []
    x = 0
    for i in range(3):
        with Recorder(expected_log, "loop"):
            if i == 0:
                continue
            if i == 2:
                break
            x = x + i
    with Recorder(expected_log, "a") as a, Recorder(expected_log, "b") as b:
        x = x + a * b
    assert log == expected_log
    assert out.asnumpy().item() == x


def test_return_inside_with_runs_exit_first():
    log = []

    @ms.jit
    def f(x):
        with Recorder(log, "r") as n:
            return x + n

    assert f(Tensor(1)).asnumpy().item() == 2
    assert log == ["enter r", ("exit r", None, None, None)]


def test_with_needs_a_jit_class_object():
    class Plain:
        def __enter__(self):
            return 1

        def __exit__(self, *args):
            return None

    @ms.jit
    def f(x):
        with Plain():
            x = x + 1
        return x

    with pytest.raises(TypeError, match="jit_class"):
        f(Tensor(1))


GLOBAL_TOTAL = Tensor(np.array([1.0, 2.0], np.float32))


def test_a_global_assigned_in_a_loop_starts_from_the_global():
    @ms.jit
    def f():
        for k in range(2):
            GLOBAL_TOTAL = GLOBAL_TOTAL * 2  # noqa: F823 (MindSpore reads the global first)
        return GLOBAL_TOTAL

    np.testing.assert_array_equal(f().asnumpy(), [4.0, 8.0])


def test_a_name_assigned_in_one_branch_only_is_still_an_error():
    @ms.jit
    def f(x):
        if x.shape[0] > 5:
            never_global = x
        return never_global + 1

    with pytest.raises(NameError, match="never_global"):
        f(Tensor(np.ones(2, np.float32)))


def test_unsupported_statements_are_also_runtime_errors():
    """MindSpore raises RuntimeError ("Unsupported statement 'Try'"); so does refms."""
    @ms.jit
    def f(x):
        try:
            x = x + 1
        except ValueError:
            pass
        return x

    with pytest.raises(GraphSyntaxError) as info:
        f(Tensor(1))
    assert isinstance(info.value, RuntimeError) and "Try" in str(info.value)


# -- jit_class ---------------------------------------------------------------------------------

def test_jit_class_marks_classes_and_rejects_cells():
    class Plain:
        pass

    assert ms.jit_class(Plain).__ms_class__ is True
    with pytest.raises(TypeError, match="nn.Cell"):
        ms.jit_class(nn.Dense)
    with pytest.raises(TypeError, match="class type"):
        ms.jit_class(Plain())


# -- the lambda's source -----------------------------------------------------------------------

SCALE = 3
TWO_LINE_LAMBDA = (lambda x: x *
                   SCALE + 1)
IN_A_CALL = list(map(lambda x: x -
                     SCALE, [0]))
LAMBDAS_ON_ONE_LINE = (lambda x: x + 100, lambda x: x * SCALE *
                       SCALE)


@pytest.mark.parametrize("fn", [TWO_LINE_LAMBDA, LAMBDAS_ON_ONE_LINE[0], LAMBDAS_ON_ONE_LINE[1]],
                         ids=["two_lines", "first_of_two", "second_of_two_spans_lines"])
def test_a_lambda_body_on_several_lines_is_parsed_whole(fn):
    """Called from a compiled function, a lambda is parsed from its own source wherever it
    sits (MindSpore's rule for a lambda compiled *by itself* is the next test's)."""
    @ms.jit
    def calls(x):
        return fn(x)
    x = np.array([1.0, 2.0], np.float32)
    np.testing.assert_array_equal(calls(Tensor(x)).asnumpy(), fn(x))   # Python's value


def test_a_lambda_compiled_by_itself_must_have_a_line_of_its_own():
    """MindSpore 2.10 reads such a lambda's lines as a statement whose value must be the
    lambda (``f = lambda ...``): TypeError for one inside a call or a tuple."""
    np.testing.assert_array_equal(ms.jit(TWO_LINE_LAMBDA)(Tensor(np.float32(2))).asnumpy(),
                                  2 * SCALE + 1)
    with pytest.raises(TypeError, match="line of its own.*Tuple"):
        ms.jit(LAMBDAS_ON_ONE_LINE[0])(Tensor(np.float32(2)))
    fn = ms.jit(lambda x: x *
                SCALE - 1)
    with pytest.raises(TypeError, match="line of its own.*Call"):
        fn(Tensor(2))


def test_a_lambda_checked_once_is_not_read_again_and_a_refused_one_is_refused_every_call(
        monkeypatch):
    """The line-of-its-own check reads the lambda's source; a lambda that passed is
    remembered, so each later call of the jitted lambda costs no file read, and one that
    failed raises again on the next call."""
    from refms.graph import source
    reads = []
    getsource = source.inspect.getsource
    monkeypatch.setattr(source.inspect, "getsource", lambda fn: reads.append(fn) or getsource(fn))
    double = lambda x: x * 2                   # noqa: E731  (a line of its own)
    jitted = ms.jit(double)
    for value in (1.0, 2.0, 3.0):
        assert jitted(Tensor(np.float32(value))).asnumpy() == 2 * value
    assert len(reads) == 1
    refused = ms.jit(LAMBDAS_ON_ONE_LINE[1])
    for _ in range(2):
        with pytest.raises(TypeError, match="line of its own"):
            refused(Tensor(np.float32(2)))
    assert len(reads) == 3


def test_a_lambda_continued_inside_a_call():
    @ms.jit
    def calls(x):
        return list(map(lambda v: v *
                        SCALE - 1, [x]))[0]
    assert calls(Tensor(2)).asnumpy().item() == 2 * SCALE - 1


def test_a_lambda_error_points_at_its_continuation_line():
    fn = (lambda x: x +
          x.no_such_attribute)
    fn = ms.jit(fn)
    with pytest.raises(AttributeError) as info:
        fn(Tensor(1))
    notes = "\n".join(getattr(info.value, "__notes__", []))
    assert notes.endswith(": x.no_such_attribute)"), notes      # the note shows that line


# -- MindSpore's class paths under the alias ---------------------------------------------------

def test_alias_shows_mindspore_class_paths_and_uninstall_restores_them():
    before = {cls: cls.__module__ for cls in (Tensor, ms.Parameter, nn.Cell)}
    finder = install()
    try:
        assert repr(Tensor) == "<class 'mindspore.common.tensor.Tensor'>"
        import importlib
        for (module_name, class_name), home in MINDSPORE_HOMES.items():
            cls = getattr(importlib.import_module(module_name), class_name)
            assert getattr(importlib.import_module(home), class_name) is cls
    finally:
        uninstall(finder)
        for name in [n for n in sys.modules if n == "mindspore" or n.startswith("mindspore.")]:
            del sys.modules[name]
    assert {cls: cls.__module__ for cls in before} == before
    assert Tensor.__module__ == "refms._tensor"
