"""Printing tensors: ``str`` is numpy's, ``repr`` is MindSpore's own format (semantics 1.4-1.5).

``str(t)`` (semantics 1.4, MindSpore ``common/tensor.py`` ``Tensor.__str__``)
    * numpy's ``str`` of the values: ``[ 4. 10. 18.]``, ``2.5``, ``True``.
    * BFloat16 has no numpy type; MindSpore's own numpy bfloat16 prints every
      element as ``%f`` with numpy's layout: ``[1.500000 2.000000]``, ``7.000000``.
    * a lazily initialised tensor (no data yet):
      ``Tensor(shape=[3], dtype=Float32, value=<uninitialized>)``, with a newline
      after ``value=`` when ndim > 1.

``repr(t)`` (semantics 1.5; C++ ``TensorStringifier`` in ``mindspore/core/include/ir/tensor_data.h``)
    ``Tensor(shape=[2, 3], dtype=Float32, value=`` + (newline if ndim > 1 else
    one space) + body + ``)``.

    * 0-d body: C++ stream default, i.e. ``%g``: ``1``, ``0.333333``, ``1e-05``,
      ``-0``, ``-nan``; integers plain; ``True``/``False``; complex ``1+2j``.
    * elements, by dtype::

        Float32/Float64  ``%15.8e``  ``' 1.00000000e+00'``, ``'1.00000000e-300'``
        Float16          ``%11.4e``  ``' 1.5000e+00'``
        Bool             ``%5s``     ``' True'``, ``'False'``
        Int/UInt         plain, right-aligned to the widest *printed* element
        BFloat16         ``%g``, right-aligned like integers (a MindSpore quirk)
        Complex          ``%g`` real, ``%+g`` imaginary, ``j``; no padding

      Values are the stored binary values (float32 0.1 -> ``1.00000001e-01``),
      NaN keeps its sign as C's printf shows it (``-nan``).
    * layout: nested ``[...]``, elements joined by ``", "``; sub-blocks at depth
      k joined by ``",\\n"`` + (k + 1) spaces.
    * summarisation: a dimension longer than 6 (longer than 1000 for a 1-D
      tensor) shows its first 3 and last 3 entries.  Innermost: ``a, b, c ... x,
      y, z``; outer: 3 blocks, ``",\\n" + indent + "..."``, then
      ``"\\n" + indent`` + the last 3 blocks.
    * 1-D line feeds: in a run of more than 3 elements, ``"\\n "`` follows the
      separator after every 12th (float, bool) or 24th (int, BFloat16, complex)
      element, or stands before ``]`` when the length is a multiple.  Summarised
      1-D tensors print runs of 3, so they get no feeds.
    * empty tensors have an empty body: ``value= )``, or ``value=\\n)`` if ndim > 1.
    * a lazily initialised tensor prints zeros (MindSpore quirk, semantics 1.5 rule 9).

    A tensor whose storage is a numpy array (``Tensor.from_numpy``, a dataset
    pipeline's output: ``t._numpy_repr``) prints its body the way numpy does,
    ``np.array2string(values, separator=", ")``: ``value= [1.5, 2. ]``,
    ``[[1, 2],\\n [3, 4]]``, numpy's own line width and summarisation (MindSpore
    2.10 hands such a tensor's values to numpy to print).
"""
import math

import numpy as np

from . import compat

EDGE_ITEMS = 3              # entries kept at each end of a summarised dimension
SUMMARY_THRESHOLD = 6       # a dimension longer than this is summarised ...
SUMMARY_THRESHOLD_1D = 1000  # ... except in a 1-D tensor, which allows this many
LINE_FEED_MIN_RUN = 3       # 1-D line feeds only in runs longer than this
LINE_FEED_FLOAT = 12        # elements per line: float16/32/64 and bool
LINE_FEED_OTHER = 24        # elements per line: int, uint, BFloat16, complex


# -- str --------------------------------------------------------------------

def tensor_str(t):
    """``str(t)``: numpy's ``str`` of the values (semantics 1.4)."""
    if t._data is None:
        if compat.behaviour("lazy_init_computes_as_zero"):
            t.init_data()          # seed 003 (2.0-era): printing initialises the tensor
        else:
            return _header(t) + ("\n" if len(t.shape) > 1 else "") + "<uninitialized>)"
    if t.dtype.name == "BFloat16":
        return _bfloat16_str(t._host())
    return str(t._host())


def _fixed_six_digits(value):
    return "%f" % value


def _bfloat16_str(array):
    """MindSpore's numpy bfloat16 type prints ``%f`` per element in numpy's layout."""
    return np.array2string(np.asarray(array, dtype=np.float32),
                           formatter={"float_kind": _fixed_six_digits})


# -- repr -------------------------------------------------------------------

def tensor_repr(t):
    """``repr(t)``: MindSpore's C++ ``Tensor::ToStringRepr`` format (semantics 1.5)."""
    if t._data is None and any(d < 0 for d in t.shape):
        # a dynamic-shape declaration (Cell.set_inputs) has no values to show
        return _header(t) + ("\n" if len(t.shape) > 1 else " ") + ")"
    array = np.zeros(t.shape, dtype=t.dtype.np_type) if t._data is None else t._host()
    opening = "\n" if array.ndim > 1 else " "
    if t._numpy_repr and t.dtype.name != "BFloat16":
        return _header(t) + opening + np.array2string(array, separator=", ") + ")"
    return _header(t) + opening + _body(array, t.dtype) + ")"


def _header(t):
    shape = ", ".join(str(int(d)) for d in t.shape)
    return f"Tensor(shape=[{shape}], dtype={t.dtype}, value="


def _body(array, dtype):
    if array.size == 0:
        return ""
    if array.ndim == 0:
        return _scalar_text(array[()], dtype)
    format_element = _element_formatter(array, dtype)
    return _block_text(array, 0, array.ndim, format_element, _line_feed_every(dtype))


# -- 0-d body ---------------------------------------------------------------

def _scalar_text(value, dtype):
    """A 0-d value as a default C++ ``ostream`` writes it."""
    if dtype.kind == "bool":
        return "True" if value else "False"
    if dtype.kind in ("int", "uint"):
        return str(int(value))
    if dtype.kind == "complex":
        return _complex_text(value)
    return _c_printf("%g", float(value))


# -- elements ---------------------------------------------------------------

def _c_printf(spec, value):
    """C's ``printf(spec, value)`` for one double.

    Python's ``%`` matches glibc's printf except that it drops the sign of a
    NaN, which glibc prints (``-nan``); format ``-inf`` and rename it instead.
    """
    if math.isnan(value) and math.copysign(1.0, value) < 0:
        return (spec % -math.inf).replace("inf", "nan")
    return spec % value


def _complex_text(value):
    """MindSpore's ``ComplexStorage`` stream output: ``1+2j``, ``-0-1j``, ``nan+1j``."""
    return _c_printf("%g", float(value.real)) + _c_printf("%+g", float(value.imag)) + "j"


def _float_element(value):
    return _c_printf("%15.8e", float(value))


def _float16_element(value):
    return _c_printf("%11.4e", float(value))


def _bool_element(value):
    return "%5s" % ("True" if value else "False")


def _element_formatter(array, dtype):
    """The function that turns one element of ``array`` into its text."""
    if dtype.kind == "bool":
        return _bool_element
    if dtype.kind == "complex":
        return _complex_text
    if dtype.name == "Float16":
        return _float16_element
    if dtype.name in ("Float32", "Float64"):
        return _float_element
    return _padded_formatter(array, dtype)


def _plain_text(value, dtype):
    """An int or BFloat16 element before padding: plain digits or ``%g``."""
    if dtype.kind in ("int", "uint"):
        return str(int(value))
    return _c_printf("%g", float(value))


def _padded_formatter(array, dtype):
    """Ints and BFloat16: right-align to the widest element that is printed."""
    width = max(len(_plain_text(value, dtype)) for value in _printed_elements(array).flat)

    def format_padded(value):
        return _plain_text(value, dtype).rjust(width)
    return format_padded


def _line_feed_every(dtype):
    if dtype.kind == "bool" or dtype.name in ("Float16", "Float32", "Float64"):
        return LINE_FEED_FLOAT
    return LINE_FEED_OTHER


# -- layout and summarisation -----------------------------------------------

def _shown_indices(length, ndim):
    """Indices printed along a dimension: (head, tail); tail is None if nothing is skipped."""
    threshold = SUMMARY_THRESHOLD_1D if ndim == 1 else SUMMARY_THRESHOLD
    if length <= threshold:
        return list(range(length)), None
    return list(range(EDGE_ITEMS)), list(range(length - EDGE_ITEMS, length))


def _printed_elements(array):
    """The sub-array of the elements a summarised repr shows."""
    for axis in range(array.ndim):
        head, tail = _shown_indices(array.shape[axis], array.ndim)
        array = np.take(array, head + (tail or []), axis=axis)
    return array


def _block_text(block, depth, ndim, format_element, line_feed_every):
    """``[...]`` for the sub-array ``block`` at nesting ``depth`` of an ``ndim``-D tensor."""
    head, tail = _shown_indices(len(block), ndim)
    if block.ndim == 1:
        return "[" + _row_text(block, head, tail, ndim, format_element, line_feed_every) + "]"
    indent = " " * (depth + 1)

    def blocks(indices):
        texts = [_block_text(block[i], depth + 1, ndim, format_element, line_feed_every)
                 for i in indices]
        return (",\n" + indent).join(texts)

    text = "[" + blocks(head)
    if tail is not None:
        text += ",\n" + indent + "..." + "\n" + indent + blocks(tail)
    return text + "]"


def _row_text(row, head, tail, ndim, format_element, line_feed_every):
    """The innermost dimension: ``a, b, c`` or ``a, b, c ... x, y, z``."""
    if tail is None:
        return _run_text(row[head], ndim, format_element, line_feed_every)
    return (_run_text(row[head], ndim, format_element, line_feed_every) + " ... "
            + _run_text(row[tail], ndim, format_element, line_feed_every))


def _run_text(values, ndim, format_element, line_feed_every):
    """Elements joined by ``", "``, with the 1-D line feeds (rule 7 of semantics 1.5)."""
    feeds = ndim == 1 and len(values) > LINE_FEED_MIN_RUN
    pieces = []
    for i, value in enumerate(values):
        pieces.append(format_element(value))
        if i != len(values) - 1:
            pieces.append(", ")
        if feeds and (i + 1) % line_feed_every == 0:
            pieces.append("\n ")
    return "".join(pieces)
