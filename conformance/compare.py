"""How a documented output is compared with what an implementation printed.

The rules of docs/architecture.rst, one named function each:

* :func:`normalise_whitespace` — the seed pages collapsed runs of spaces and
  lost indentation (notebook export), so whitespace is never compared: any run
  of spaces, tabs and line breaks separates two tokens and nothing more.
* :func:`tokenize` — text becomes numbers, words and single punctuation marks.
  Brackets, commas, ``shape=[...]``, ``dtype=Float32`` and every word are
  compared exactly: that is the structure, the shape and the dtype.
* :func:`same_number_kind` — an integer token (``3``) never equals a float
  token (``3.``): ``[1 2 3]`` and ``[1. 2. 3.]`` are different dtypes.
* :func:`printed_tolerance` / :func:`numbers_match` — integers compare
  exactly; floats to the precision printed: one unit in the last printed digit
  of the more precise of the two tokens, and never looser than float32's
  resolution (``2.3025854`` is checked to 1e-7 absolute; ``2.`` against
  ``2.9`` fails, since numpy's ``2.`` means 2.0 with its zeros dropped).  The exponent's digit count is irrelevant because the value
  is compared, so the three-digit exponents of seed 003 (``0.00000000e+000``,
  printed by a Windows C runtime) equal Linux's ``0.00000000e+00``.
* NaN and Inf match only NaN and an Inf of the same sign at the same position.
* :func:`compare_text` applies all of the above and returns a list of
  human-readable problems (empty when the texts agree).

Structured cases use the same rules through :func:`compare_text` on the printed
form of their values, plus :func:`check_shape`, :func:`check_dtype`,
:func:`check_bounds` and :func:`nonfinite_positions_match` for the properties
of the "property" tier.
"""
import math
import re

import numpy as np

__all__ = ["Token", "normalise_whitespace", "tokenize", "decimals", "printed_tolerance",
           "same_number_kind", "numbers_match", "compare_text", "check_shape", "check_dtype",
           "check_bounds", "nonfinite_positions_match", "parse_printed_array",
           "parse_printed_arrays"]

# A number: optional sign, digits with an optional point, optional exponent; or nan / inf.
_NUMBER = r"[-+]?(?:(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|nan\b|inf\b)"
_WORD = r"[A-Za-z_][A-Za-z_0-9]*"
_TOKEN = re.compile(rf"(?P<number>{_NUMBER})|(?P<word>{_WORD})|(?P<mark>\S)")


class Token:
    """One token of printed output: ``kind`` is ``'number'``, ``'word'`` or ``'mark'``."""

    __slots__ = ("kind", "text", "line")

    def __init__(self, kind, text, line):
        self.kind = kind
        self.text = text
        self.line = line

    def __repr__(self):
        return f"Token({self.kind}, {self.text!r}, line {self.line})"


def normalise_whitespace(text):
    """Strip every line, collapse runs of blanks to one space and drop empty lines.

    The seed pages' notebook export collapsed runs of spaces (``value= [ 2.00000000e+00]``
    instead of MindSpore's aligned fields) and removed indentation, and printed
    arrays may wrap at different widths; none of that is behaviour.
    """
    lines = []
    for line in text.splitlines():
        line = " ".join(line.split())
        if line:
            lines.append(line)
    return "\n".join(lines)


def tokenize(text):
    """Split printed output into tokens; whitespace only separates them."""
    tokens = []
    for number, line in enumerate(text.splitlines(), start=1):
        for match in _TOKEN.finditer(line):
            tokens.append(Token(match.lastgroup, match.group(), number))
    return tokens


_INTEGER = re.compile(r"[-+]?\d+")

#: float32's relative resolution (2**-23): no printed float32 is more precise than this.
FLOAT32_RESOLUTION = 2.0 ** -23


def _is_integer_literal(text):
    return _INTEGER.fullmatch(text) is not None


def same_number_kind(expected, actual):
    """An integer literal only equals an integer literal (``3`` is Int, ``3.`` is Float)."""
    return _is_integer_literal(expected) == _is_integer_literal(actual)


def decimals(text):
    """Decimal places a number was printed to, counting its exponent.

    ``2.3025854`` -> 7, ``2.`` -> 0, ``1.00000000e-01`` -> 9, ``2.9355288e-06`` -> 13, ``3`` -> 0.
    """
    mantissa, _, exponent = text.lower().partition("e")
    places = len(mantissa.partition(".")[2])
    return places - (int(exponent) if exponent else 0)


def printed_tolerance(expected, actual):
    """One unit in the last digit printed by the more precise of the two tokens,
    and never looser than float32's resolution at that magnitude.

    A page that prints ``2.3025854`` vouches for seven decimals, so the check is
    to 1e-7 absolute and not finer.  The more precise token says which digit is
    in question (``2.`` against ``2.9``: the tenths), and the float32 cap keeps
    a short print from loosening the check: numpy drops trailing zeros, so
    ``2.`` means 2.0 to float32 precision and ``2.`` against ``3.`` fails.
    """
    unit = 10.0 ** -max(decimals(expected), decimals(actual))
    magnitude = max(abs(float(expected)), abs(float(actual)))
    return min(unit, max(FLOAT32_RESOLUTION * magnitude, 10.0 ** -45))


def numbers_match(expected, actual):
    """Two number tokens agree: same kind, same non-finite class, equal to printed precision."""
    if not same_number_kind(expected, actual):
        return False
    e, a = float(expected), float(actual)
    if math.isnan(e) or math.isnan(a):
        return math.isnan(e) and math.isnan(a)
    if math.isinf(e) or math.isinf(a):
        return e == a
    if _is_integer_literal(expected):
        return e == a
    return abs(e - a) <= printed_tolerance(expected, actual) * (1 + 1e-9)


def _number_mismatch(expected, actual):
    if not same_number_kind(expected, actual):
        kinds = {True: "integer", False: "float"}
        return (f"{kinds[_is_integer_literal(actual)]} {actual} where the page prints "
                f"{kinds[_is_integer_literal(expected)]} {expected} (a different dtype)")
    if "n" in (expected + actual).lower():
        return f"{actual} where the page prints {expected} (NaN/Inf are compared by position)"
    return (f"{actual} != documented {expected} "
            f"(tolerance {printed_tolerance(expected, actual):g})")


def _context(tokens, index, width=6):
    lo, hi = max(0, index - width), min(len(tokens), index + width + 1)
    return " ".join(t.text for t in tokens[lo:hi])


def compare_text(expected, actual, limit=5):
    """Problems found comparing printed ``actual`` with documented ``expected`` (empty: they agree).

    Tokens are compared one by one: words and punctuation exactly, numbers by
    :func:`numbers_match`.  At most ``limit`` problems are reported, each naming
    the expected line and showing the tokens around it.
    """
    want, got = tokenize(normalise_whitespace(expected)), tokenize(normalise_whitespace(actual))
    problems = []
    for i, (w, g) in enumerate(zip(want, got)):
        if w.kind == "number" and g.kind == "number":
            ok = numbers_match(w.text, g.text)
            why = _number_mismatch(w.text, g.text)
        else:
            ok = w.kind == g.kind and w.text == g.text
            why = f"{g.text!r} != documented {w.text!r}"
        if not ok:
            problems.append(f"expected line {w.line}: {why}\n"
                            f"    documented: ... {_context(want, i)} ...\n"
                            f"    printed:    ... {_context(got, i)} ...")
            if w.kind != "number" or g.kind != "number":
                return problems     # structure differs: later tokens are out of step
            if len(problems) >= limit:
                return problems
    if len(want) != len(got):
        shorter = "printed output ends" if len(got) < len(want) else "printed output continues"
        at = min(len(want), len(got))
        rest = want[at:] if len(got) < len(want) else got[at:]
        problems.append(f"{shorter} after {at} of {len(want)} documented tokens; "
                        f"first extra: {' '.join(t.text for t in rest[:12])}")
    return problems


def check_shape(actual, expected):
    """Shapes compare exactly (a tuple of ints)."""
    actual = tuple(int(d) for d in actual)
    return [] if actual == tuple(expected) else [f"shape {actual} != documented {tuple(expected)}"]


def check_dtype(actual, expected):
    """dtypes compare exactly by their printed name (``Float32``)."""
    return [] if str(actual) == expected else [f"dtype {actual} != documented {expected}"]


def check_bounds(values, low, high, what="values"):
    """Every value lies in the closed interval [low, high] (the documented distribution's support)."""
    values = np.asarray(values, dtype=np.float64)
    if values.size == 0:
        return [f"{what}: empty"]
    if not np.all(np.isfinite(values)):
        return [f"{what}: {int(np.sum(~np.isfinite(values)))} non-finite entries"]
    lo, hi = float(values.min()), float(values.max())
    if lo < low or hi > high:
        return [f"{what} range [{lo:.6g}, {hi:.6g}] leaves the documented bounds [{low:g}, {high:g}]"]
    return []


def nonfinite_positions_match(actual, expected):
    """NaN and +/-Inf must sit at the same positions in both arrays (values elsewhere are not compared)."""
    actual, expected = np.asarray(actual, dtype=np.float64), np.asarray(expected, dtype=np.float64)
    if actual.shape != expected.shape:
        return [f"shape {actual.shape} != documented {expected.shape}"]
    problems = []
    for name, test in (("NaN", np.isnan), ("+Inf", np.isposinf), ("-Inf", np.isneginf)):
        a, e = test(actual), test(expected)
        if not np.array_equal(a, e):
            where = np.argwhere(a != e)[:3].tolist()
            problems.append(f"{name} positions differ, e.g. at {where}")
    return problems


def parse_printed_array(text):
    """A numpy-printed array (``[[1. 2.]\\n [3. 4.]]``) back into an ndarray of float64.

    Used by property checks on transcripts whose numbers are random; raises
    ``ValueError`` on text that is not exactly one bracketed array.
    """
    arrays = parse_printed_arrays(text)
    if len(arrays) != 1:
        raise ValueError(f"expected one printed array, found {len(arrays)}")
    return arrays[0]


def parse_printed_arrays(text):
    """Every numpy-printed array in ``text``, in order (e.g. one per ``print`` call)."""
    tokens = tokenize(normalise_whitespace(text))
    pos = 0

    def parse():
        nonlocal pos
        if pos < len(tokens) and tokens[pos].text == "[":
            pos += 1
            items = []
            while pos < len(tokens) and tokens[pos].text != "]":
                if tokens[pos].text == ",":
                    pos += 1
                    continue
                items.append(parse())
            if pos >= len(tokens):
                raise ValueError("unbalanced brackets")
            pos += 1
            return items
        if pos < len(tokens) and tokens[pos].kind == "number":
            pos += 1
            return float(tokens[pos - 1].text)
        raise ValueError(f"unexpected token {tokens[pos].text if pos < len(tokens) else 'end'!r}")

    arrays = []
    while pos < len(tokens):
        arrays.append(np.array(parse(), dtype=np.float64))
    return arrays
