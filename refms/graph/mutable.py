"""``mutable(x)``: make a number, tuple, list or dict a *variable* of compiled graphs.

MindSpore 2.10 ``mindspore.mutable`` (``mindspore/graph/mutable.py``; syntax support,
"Constants and Variables Within JIT"): a graph input that is not a Tensor is a constant —
its value is part of the compile key and folded into the program — unless it is marked
mutable.  A mutable input is a variable, like a Tensor: its numbers are run-time scalars, so
calling again with other numbers reuses the compiled program.  "The return value of all
mutable interfaces is a variable (whether mutable is used outside the graph or inside)."

* Outside a graph ``mutable(x)`` returns ``x`` marked with ``__ms_mutable__``: a number,
  tuple, list or dict as an instance of a subclass that carries the mark (a Tensor as it
  is: it is a variable already).  ``refms.graph.abstract.abstract_of`` gives a marked
  value the broadened abstract (``plain`` removes the marks first).
* Inside a graph, ``refms.graph.infer.Specializer.call_mutable`` gives the value's node
  the same broadened abstract.

``dynamic_len=True`` (experimental in MindSpore, "not supported to be True") is accepted and
checked; refms keeps the length of a sequence part of the compile key.
"""
from .._tensor import Tensor

__all__ = ["mutable", "is_mutable", "plain"]


class _Int(int):
    pass


class _Float(float):
    pass


class _Bool(int):
    """A marked bool (``bool`` cannot be subclassed); it shows and compares as a bool."""

    def __repr__(self):
        return repr(bool(self))

    __str__ = __repr__


class _Tuple(tuple):
    pass


class _List(list):
    pass


class _Dict(dict):
    pass


_MARKED = ((bool, _Bool), (int, _Int), (float, _Float), (tuple, _Tuple), (list, _List),
           (dict, _Dict))


def _valid(value, seen):
    """Whether ``value`` is a number, Tensor or (nested, acyclic) tuple, list or dict of them."""
    if isinstance(value, (Tensor, bool, int, float)):
        return True
    if isinstance(value, (tuple, list, dict)):
        if id(value) in seen:
            return False
        items = value.values() if isinstance(value, dict) else value
        inner = seen | {id(value)}
        return all(_valid(item, inner) for item in items)
    return False


def mutable(input_data, dynamic_len=False):
    """``input_data`` marked as a variable of compiled graphs (see the module docstring)."""
    if not _valid(input_data, frozenset()):
        raise TypeError(f"For 'mutable', the 'input_data' should be one of (bool, int, float, "
                        f"Tensor, tuple, list, dict) or their nested structures with no "
                        f"self-reference, but got {type(input_data).__name__}: {input_data}.")
    if not isinstance(dynamic_len, bool):
        raise TypeError(f"For 'mutable', the second input should be bool, but got: "
                        f"{type(dynamic_len).__name__}")
    if dynamic_len and not isinstance(input_data, (tuple, list)):
        raise TypeError(f"For 'mutable', when the variable_len is True, the first input should "
                        f"be list or tuple, but got: {type(input_data).__name__}")
    if isinstance(input_data, Tensor):
        return input_data
    for base, marked in _MARKED:
        if isinstance(input_data, base):
            result = marked(input_data)
            break
    result.__ms_mutable__ = True
    result.__ms_dynamic_len__ = dynamic_len
    return result


def is_mutable(value):
    """True for a value returned by :func:`mutable` (a Tensor excluded)."""
    return getattr(value, "__ms_mutable__", False) is True and not isinstance(value, Tensor)


def plain(value):
    """``value`` with the marks removed, recursively (built-in numbers and containers)."""
    if isinstance(value, Tensor):
        return value
    if isinstance(value, _Bool):
        return bool(value)
    if type(value) is bool:
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, tuple):
        return tuple(plain(item) for item in value)
    return value
