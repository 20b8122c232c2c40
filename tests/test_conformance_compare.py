"""The conformance suite's comparison rules, tested on their own (docs/architecture.rst).

Each test names the rule it pins down; the texts are taken from the seed pages
where possible, so a change to a rule shows which documented output it affects.
"""
import math

import numpy as np
import pytest

from conformance import compare
from conformance.case import Checker
from conformance.runner import load_deviations, outcome_of, Result


# Collapsed whitespace: the notebook export collapsed runs of spaces and lost indentation.

def test_collapsed_spaces_equal_aligned_repr():
    documented = ("(Tensor(shape=[1, 2, 1, 1], dtype=Float32, value=\n[[[[ 1.00000000e+00]],\n"
                  " [[ 1.00000000e+00]]]]),)")
    printed = ("(Tensor(shape=[1, 2, 1, 1], dtype=Float32, value=\n[[[[ 1.00000000e+00]],\n"
               "  [[ 1.00000000e+00]]]]),)")
    assert compare.compare_text(documented, printed) == []


def test_trailing_spaces_and_print_separators_do_not_matter():
    assert compare.compare_text("x: [1. 2.] \ny: [3. 5.]", "x:  [1. 2.]\ny:  [3. 5.]\n") == []


def test_lost_indentation_and_blank_lines_do_not_matter():
    documented = "[[[[ 0.10377571 -0.0182163 ]\n[ 0.1428334 -0.01216263]]\n\n[[ 1. 2.]\n[ 3. 4.]]]]"
    printed = "[[[[ 0.10377571 -0.0182163 ]\n   [ 0.1428334  -0.01216263]]\n\n  [[ 1.  2.]\n   [ 3.  4.]]]]"
    assert compare.compare_text(documented, printed) == []


def test_normalise_whitespace_keeps_tokens_apart():
    assert compare.normalise_whitespace("  a   b \n\n   c\t d  ") == "a b\nc d"


def test_whitespace_never_joins_tokens():
    assert compare.compare_text("[1. 2.]", "[1.2.]") != []


# Three-digit exponents: seed 003 was printed by a Windows C runtime.

def test_three_digit_exponents_equal_two_digit():
    documented = "[[0.00000000e+000, 1.00000000e+000, 2.00000000e+000]]"
    printed = "[[ 0.00000000e+00,  1.00000000e+00,  2.00000000e+00]]"
    assert compare.compare_text(documented, printed) == []


def test_decimals_count_the_exponent():
    assert compare.decimals("2.3025854") == 7
    assert compare.decimals("2.") == 0
    assert compare.decimals("1.00000000e-01") == 9
    assert compare.decimals("2.9355288e-06") == 13
    assert compare.decimals("1.99998999e+000") == 8


# Precision: numbers agree to the precision the page prints, and no further.

def test_printed_precision_tolerance_is_one_unit_in_the_last_digit():
    assert compare.printed_tolerance("2.3025854", "2.3025854") == pytest.approx(1e-7)
    assert compare.printed_tolerance("9.99994993e-01", "9.99994993e-01") == pytest.approx(1e-9)
    assert compare.printed_tolerance("2.9355288e-06", "2.9355288e-06") == pytest.approx(1e-13)


def test_value_printed_to_seven_decimals_is_checked_to_1e_7():
    assert compare.numbers_match("2.3025854", "2.3025854")
    assert not compare.numbers_match("2.3025854", "2.3025851")      # 3e-7 away
    assert not compare.numbers_match("2.3025854", "2.30259")        # a shorter print is not looser


def test_fewer_printed_digits_do_not_loosen_the_check():
    # numpy drops trailing zeros: "2." is 2.0 to float32 precision, not "somewhere near 2"
    assert not compare.numbers_match("2.", "3.")
    assert not compare.numbers_match("2.", "2.9")
    assert compare.numbers_match("2.", "2.0000000")


def test_tolerance_is_never_looser_than_float32_resolution():
    tol = compare.printed_tolerance("1000.", "1000.")
    assert tol <= 1000 * 2.0 ** -23


def test_float_repr_of_the_same_float32_matches():
    assert compare.numbers_match("4.5099998", "4.5099998")
    assert compare.numbers_match("9.99994993e-01", "9.99994993e-01")
    assert not compare.numbers_match("9.99994993e-01", "1.00000000e+00")


# Structure, shape and dtype are exact.

def test_integer_and_float_tokens_differ():
    problems = compare.compare_text("[1 2 3]", "[1. 2. 3.]")
    assert problems and "different dtype" in problems[0]


def test_integers_compare_exactly():
    assert not compare.numbers_match("100", "101")
    assert compare.numbers_match("-1", "-1")


def test_shape_and_dtype_words_compare_exactly():
    assert compare.compare_text("Tensor(shape=[2], dtype=Float32, value= [ 1.0, 2.0])",
                                "Tensor(shape=[2], dtype=Float64, value= [ 1.0, 2.0])") != []
    assert compare.compare_text("Tensor(shape=[2], dtype=Float32, value= 1)",
                                "Tensor(shape=[1], dtype=Float32, value= 1)") != []


def test_nesting_compares_exactly():
    assert compare.compare_text("(Tensor(shape=[], dtype=Float32, value= 2),)",
                                "Tensor(shape=[], dtype=Float32, value= 2)") != []


def test_missing_and_extra_output_are_reported():
    assert "ends" in compare.compare_text("a b c", "a b")[0]
    assert "continues" in compare.compare_text("a b", "a b c")[0]


# NaN and Inf by position.

def test_nan_matches_only_nan_at_the_same_position():
    assert compare.compare_text("[nan 1.]", "[nan 1.]") == []
    assert compare.compare_text("[nan 1.]", "[1. nan]") != []


def test_inf_matches_only_inf_of_the_same_sign():
    assert compare.numbers_match("inf", "inf")
    assert compare.numbers_match("-inf", "-inf")
    assert not compare.numbers_match("inf", "-inf")
    assert not compare.numbers_match("inf", "1e+38")


def test_nonfinite_positions_in_arrays():
    a = np.array([1.0, np.nan, np.inf])
    assert compare.nonfinite_positions_match(a, np.array([5.0, np.nan, np.inf])) == []
    assert compare.nonfinite_positions_match(a, np.array([np.nan, 1.0, np.inf])) != []
    assert compare.nonfinite_positions_match(a, np.array([1.0, np.nan, -np.inf])) != []


# Property-tier helpers.

def test_bounds_of_a_documented_distribution():
    assert compare.check_bounds([0.01, -0.06, 0.069], -0.07, 0.07) == []
    assert compare.check_bounds([0.01, 0.2], -0.07, 0.07) != []
    assert compare.check_bounds([0.01, math.nan], -0.07, 0.07) != []


def test_shape_and_dtype_checks():
    assert compare.check_shape((2, 4, 3, 3), (2, 4, 3, 3)) == []
    assert compare.check_shape((2, 4, 3), (2, 4, 3, 3)) != []
    assert compare.check_dtype("Float32", "Float32") == []
    assert compare.check_dtype("Float16", "Float32") != []


def test_parse_printed_arrays():
    arrays = compare.parse_printed_arrays("[[1.5 1.25]]\n[[1. 2.]\n [3. 4.]]")
    assert [a.shape for a in arrays] == [(1, 2), (2, 2)]
    assert compare.parse_printed_array("[4.17021990e-01 7.20324516e-01]").tolist() == [0.41702199, 0.720324516]
    with pytest.raises(ValueError):
        compare.parse_printed_array("[1. 2.] [3.]")


def test_checker_collects_problems():
    check = Checker()
    check.text("[ 4. 10. 18.]", "[ 4. 10. 18.]")
    check.close([1.0, 2.0], [1.0, 2.0 + 1e-7], 1e-6, "close enough")
    assert check.problems == []
    check.close([1.0, 2.0], [1.0, 2.1], 1e-6, "too far")
    check.raises("ValueError", lambda: None, "nothing raised")
    assert len(check.problems) == 2


# Deviations and outcomes: expected failures are strict.

def test_deviation_file_format(tmp_path):
    path = tmp_path / "impl.txt"
    path.write_text("# comment\n\ns000.a: needs nn.Cell (issue 4)\n")
    assert load_deviations(str(path)) == {"s000.a": "needs nn.Cell (issue 4)"}
    path.write_text("s000.a\n")
    with pytest.raises(ValueError):
        load_deviations(str(path))


class _Case:
    def __init__(self, tier="exact"):
        self.id, self.tier = "s000.a", tier


def test_outcomes_are_strict():
    listed = {"s000.a": "needs nn.Cell (issue 4)"}
    assert outcome_of(Result(_Case(), False, ["x"], 0.0), listed)[0] == "expected-failure"
    assert outcome_of(Result(_Case(), True, [], 0.0), listed)[0] == "unexpected-pass"
    assert outcome_of(Result(_Case(), True, [], 0.0), {})[0] == "passed"
    assert outcome_of(Result(_Case("property"), True, [], 0.0), {})[0] == "property"
    assert outcome_of(Result(_Case("property"), False, ["x"], 0.0), {})[0] == "failed"
