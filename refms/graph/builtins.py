"""Python builtins with a graph meaning (MindSpore's static-graph builtin functions).

Most builtins work unchanged on the stand-ins of inference (``len`` of a
Tensor is its first dimension, ``isinstance(x, Tensor)`` is True, ``abs(x)``
calls ``Tensor.__abs__``), so resolution keeps them.  These are replaced
(``graph_version``), each documented in MindSpore's "Static Graph Syntax
Support — Python built-in functions":

* ``print`` → the runtime ``Print`` op (each call prints when the graph runs);
* ``max``/``min``/``all``/``any``/``sum`` of Tensors → Tensor ops instead of Python
  comparisons of Tensors, which would need values at compile time;
* ``map``/``filter``/``zip``/``enumerate``/``reversed``/``range`` → tuples or lists, so a
  ``for`` can index them;
* ``type`` of a run-time value → its type, not its stand-in's;

``d.keys()``, ``d.values()``, ``d.items()`` and ``d.has_key(k)`` of a dict are replaced too
(``GRAPH_DICT_METHODS``), plus the helpers the parser emits: ``graph_iter`` and
``graph_len`` (``for`` loops), ``graph_context_manager`` (``with``), ``graph_setitem``
(``x[i] = v``), ``graph_list_method`` (``xs.append(v)``), ``graph_list_inplace``
(``xs.reverse()`` on a global list), ``graph_not``.
These functions run during inference on stand-ins (they are refms library
code), so they may call refms ops freely.
"""
import builtins as _builtins

import numpy as np

from .. import dtype as mstype
from .._tensor import Tensor
from ..ops import functional as F
from ..ops.meta import install_print
from . import graph_ops as G
from .cells import call_rule_for
from .errors import GraphCompileError, NeedsValue
from .syntax_level import runtime_fallback
from .tracer import ScalarTracer, Tracer, current

__all__ = ["GRAPH_BUILTINS", "GRAPH_DICT_METHODS", "graph_version", "graph_print", "graph_len",
           "graph_iter", "graph_setitem", "graph_not", "graph_list_inplace", "graph_list_pop"]


def graph_print(*values, sep=" ", end="\n", file=None, flush=False):
    """``print(...)`` in a graph: a Print op run every time the graph runs."""
    state = current()
    if state is None:
        return print(*values, sep=sep, end=end, file=file, flush=flush)
    return state.specializer.emit_op(G.PRINT, values)


def print_op(*values):
    """``ops.Print()(*values)``: each value on its own line — now in PyNative, a string as
    it is and anything else as its ``repr`` (``Tensor(shape=[], dtype=Int64, value= 3)``,
    MindSpore 2.10, observed) — or, while tracing, a Print op run every time the graph runs
    (which shows Tensors as the graph's Print does).  Installed into :mod:`refms.ops.meta`."""
    state = current()
    if state is None:
        for value in values:
            print(value if isinstance(value, str) else repr(value))
        return None
    return state.specializer.emit_op(G.PRINT, values)


install_print(print_op)


def _tensors(values):
    return any(isinstance(v, Tensor) for v in values)


def _extremum(values, reduce_name, pair_name, python_fn):
    if len(values) == 1 and isinstance(values[0], Tensor):
        return getattr(F, reduce_name)(values[0], (), False)
    if len(values) == 1:
        values = tuple(values[0])
    if not _tensors(values):
        return python_fn(*values) if len(values) > 1 else python_fn(values)
    result = values[0]
    for value in values[1:]:
        result = getattr(F, pair_name)(result, value)
    return result


def graph_max(*values, **kwargs):
    """``max(t)`` → the largest element; ``max(a, b)`` of Tensors → ``Maximum``."""
    if kwargs:
        return _builtins.max(*values, **kwargs)
    return _extremum(values, "reduce_max", "maximum", _builtins.max)


def graph_min(*values, **kwargs):
    """``min(t)`` → the smallest element; ``min(a, b)`` of Tensors → ``Minimum``."""
    if kwargs:
        return _builtins.min(*values, **kwargs)
    return _extremum(values, "reduce_min", "minimum", _builtins.min)


def _all_or_any(value, reduce_name, combine_name, python_fn):
    if isinstance(value, Tensor):
        return getattr(F, reduce_name)(F.cast(value, mstype.bool_), (), False)
    items = tuple(value)
    if not _tensors(items):
        return python_fn(items)
    result = None
    for item in items:
        flag = F.cast(item, mstype.bool_) if isinstance(item, Tensor) else bool(item)
        if isinstance(flag, Tensor):
            flag = F.reduce_all(flag, (), False) if combine_name == "logical_and" else \
                F.reduce_any(flag, (), False)
        result = flag if result is None else getattr(F, combine_name)(result, flag)
    return result


def graph_all(value):
    """``all(x)``: a Tensor → ``ReduceAll``; a tuple with Tensors → logical and."""
    return _all_or_any(value, "reduce_all", "logical_and", _builtins.all)


def graph_any(value):
    """``any(x)``: a Tensor → ``ReduceAny``; a tuple with Tensors → logical or."""
    return _all_or_any(value, "reduce_any", "logical_or", _builtins.any)


def graph_sum(values, start=0):
    """``sum(t)`` of a Tensor adds its rows, as Python's ``sum`` iterates a Tensor along axis
    0: ``ReduceSum`` over axis 0 (``sum(tensor([[1, 2], [3, 4]]))`` is ``[4 6]``); of a
    sequence → Python's sum (Tensor adds)."""
    if isinstance(values, Tensor):
        rows = F.reduce_sum(values, 0, False)
        if isinstance(start, Tensor) or start != 0:
            return start + rows
        return rows
    return _builtins.sum(values, start)


def graph_map(fn, *sequences):
    """``map(fn, xs, …)`` → a list when the ``xs`` are lists, a tuple when they are tuples
    (MindSpore 2.10, observed: ``map`` over tuples gives ``(5, 7, 9)``, over lists
    ``[6, 8, 10]``; over a tuple and a list it raises RuntimeError)."""
    kinds = {type(sequence) for sequence in sequences}
    if len(kinds) > 1:
        raise RuntimeError(f"The types of arguments in Map must be consistent, but the types "
                           f"of arguments are inconsistent: "
                           f"{[type(s).__name__ for s in sequences]}.")
    mapped = _builtins.map(fn, *sequences)
    return list(mapped) if list in kinds else tuple(mapped)


def graph_filter(fn, sequence):
    """``filter(fn, xs)`` → a list, of a tuple too (MindSpore 2.10, observed)."""
    return list(_builtins.filter(fn, sequence))


def graph_range(*bounds):
    """``range(…)`` → the tuple of its numbers: a graph has no range type (MindSpore 2.10,
    observed: ``range(0, 6, 2)`` returned from a graph is ``(0, 2, 4)``)."""
    return tuple(_builtins.range(*bounds))


def graph_zip(*sequences):
    return tuple(_builtins.zip(*sequences))


def graph_enumerate(sequence, start=0):
    return tuple(_builtins.enumerate(sequence, start))


def graph_reversed(sequence):
    return tuple(_builtins.reversed(tuple(sequence)))


def graph_dict_keys(mapping):
    """``d.keys()`` → a tuple of the keys (MindSpore 2.10, observed: ``('a', 'b', 'c')``)."""
    return tuple(mapping.keys())


def graph_dict_values(mapping):
    """``d.values()`` → a tuple of the values (MindSpore 2.10, observed)."""
    return tuple(mapping.values())


def graph_dict_items(mapping):
    """``d.items()`` → a list of (key, value) tuples (MindSpore 2.10, observed)."""
    return list(mapping.items())


def graph_dict_has_key(mapping, key):
    """``d.has_key(k)``: MindSpore's dict has Python 2's ``has_key`` (syntax support:
    "Dictionary"), ``k in d``."""
    return key in mapping


#: dict method -> its graph version: views and ``has_key`` become values.
GRAPH_DICT_METHODS = {"keys": graph_dict_keys, "values": graph_dict_values,
                      "items": graph_dict_items, "has_key": graph_dict_has_key}


def graph_context_manager(manager):
    """The manager of a ``with`` statement, checked: an object of a ``jit_class`` or a Cell
    (syntax support: "With Statement"); MindSpore raises TypeError for any other."""
    if not getattr(type(manager), "__ms_class__", False) and call_rule_for(manager) is None:
        raise TypeError(f"Only support jit_class instance, but got {manager!r}: the manager "
                        f"of a 'with' statement in graph mode is a jit_class object or a Cell")
    return manager


def graph_type(value, *class_parts):
    """``type(x)``: the type of the value, not of its stand-in — ``Tensor`` for a run-time
    Tensor, ``int``/``float``/``bool`` for a run-time number (``type(name, bases, dict)``
    makes a class, as in Python)."""
    if class_parts:
        return type(value, *class_parts)
    if isinstance(value, ScalarTracer):
        return value.scalar_abstract.type
    if isinstance(value, Tracer):
        return Tensor
    return type(value)


def graph_len(value):
    """``len(x)``: also the bound of a ``for`` loop."""
    return len(value)


def graph_iter(value):
    """What a ``for`` loop indexes: sequences, ranges, Tensors (rows) and containers of cells
    as they are; a dict's keys; any other iterable as a tuple (at compile time)."""
    if isinstance(value, (tuple, list, range, str, Tensor)):
        return value
    if isinstance(value, dict):
        return tuple(value.keys())
    if hasattr(value, "__getitem__") and hasattr(value, "__len__"):
        return value
    return tuple(value)


def graph_setitem(container, index, value):
    """``x[i] = v`` rebinds ``x`` to an updated copy: lists, dicts and numpy arrays (values
    JIT Fallback computes at compile time) here; Tensors through the functional ``SetItem``."""
    if isinstance(container, np.ndarray):
        updated = container.copy()
        updated[index] = value
        return updated
    if isinstance(container, list):
        updated = list(container)
        updated[index] = value
        return updated
    if isinstance(container, dict):
        updated = dict(container)
        updated[index] = value
        return updated
    if isinstance(container, Tensor):
        return _tensor_setitem(container, index, value)
    raise TypeError(f"'{type(container).__name__}' object does not support item assignment")


def _tensor_setitem(x, index, value):
    """``x[index] = value`` as the functional :class:`~refms.ops.prims.getitem.SetItem` when
    the index is known at compile time; ``value`` is broadcast to the indexed region."""
    if isinstance(index, Tracer):
        return _setitem_at_run_time_index(x, index, value)
    return F.tensor_setitem(x, index, value)


def _setitem_at_run_time_index(x, index, value):
    """``x[index] = value`` with a Tensor ``index`` known only when the graph runs, as
    ``Select(picked, value, x)``: a boolean mask picks elements (rows of ``x`` when it has
    fewer dimensions); integers pick rows along axis 0, negative ones from the end.  ``value``
    is one number or Tensor broadcast to every picked element or row (MindSpore's ``x[mask] =
    v`` and ``x[i] = v`` with Tensor indices; static graph syntax, "Tensor" index assignment)."""
    rank = len(x.shape)
    if index.dtype is mstype.bool_:
        picked = index
    else:
        rows = x.shape[0]
        index = index + F.cast(F.less(index, 0), index.dtype) * rows
        every_row = Tensor(np.arange(rows).reshape((rows,) + (1,) * len(index.shape)),
                           index.dtype)
        hits = F.equal(every_row, index)
        picked = F.reduce_any(hits, tuple(range(1, len(hits.shape))), False) \
            if len(hits.shape) > 1 else hits
    region = tuple(x.shape)[len(picked.shape):]
    if not isinstance(value, Tensor):
        value = Tensor(value, x.dtype)
    if len(value.shape) > len(region):
        raise GraphCompileError(
            f"x[index] = value with a run-time Tensor index: graph mode writes one value, "
            f"broadcast to every element or row the index picks (a value of at most "
            f"{len(region)} dimensions), but got a value of shape {list(value.shape)}")
    picked = F.reshape(picked, tuple(picked.shape) + (1,) * (rank - len(picked.shape)))
    shape = tuple(x.shape)
    return F.select(F.broadcast_to(picked, shape),
                    F.broadcast_to(F.cast(value, x.dtype), shape), x)


def graph_list_method(container, method, *args):
    """``xs.append(v)`` (``d.update(e)``) as a statement: a list or dict is copied and updated
    (the parser rebinds ``xs`` to the result); any other object's method is called as it is."""
    if isinstance(container, (list, dict)):
        updated = type(container)(container)
        getattr(updated, method)(*args)
        return updated
    getattr(container, method)(*args)
    return container


def graph_list_inplace(container, method, *args):
    """``xs.reverse()`` (``extend``, ``insert``) as a statement on a list from
    outside the function — a global or a closure variable: with the LAX syntax level that
    very list changes, every time the graph runs (tutorial "Supporting List Inplace
    Modification Operations"), so during inference this asks to run at run time
    (:mod:`refms.graph.fallback`); otherwise the list is copied as by ``graph_list_method``."""
    if not isinstance(container, list) or not runtime_fallback():
        return graph_list_method(container, method, *args)
    if current() is not None:
        raise NeedsValue(f"list.{method}() on a list from outside the function changes it when "
                         f"the graph runs")
    getattr(container, method)(*args)
    return container


def graph_list_pop(container, *args):
    """``xs.pop(i)`` on a list from outside the function (a global or closure variable): with
    the LAX syntax level it pops from that very list every time the graph runs (MindSpore
    2.10, recorded in tests/golden/graph_fallback.json); anything else is called as
    ``xs.pop(i)`` is in a graph; a dict is copied first (MindSpore 2.10 leaves a global dict
    as it was)."""
    if isinstance(container, dict):
        return dict(container).pop(*args)
    if isinstance(container, list) and runtime_fallback():
        if current() is not None:
            raise NeedsValue("list.pop() on a list from outside the function changes it when "
                             "the graph runs")
        return container.pop(*args)
    state = current()
    if state is None:
        return container.pop(*args)
    spec, ctx, loc = state.specializer, state.ctx, state.loc
    method = spec.const(container.pop, loc)
    pairs = [spec.from_python(ctx, a, loc) for a in args]
    node, abstract = spec.apply(ctx, method[1], method[0], pairs, {}, loc)
    return spec.to_python(ctx, node, abstract, loc)


def graph_tensor_index(x, index):
    """``x[index]`` with a run-time Tensor ``index``: integers gather along axis 0; a boolean
    mask of ``x``'s shape selects elements (a 1-D result whose length is known at run time)."""
    if index.dtype is mstype.bool_:
        if tuple(index.shape) != tuple(x.shape):
            raise GraphCompileError(
                f"x[mask] with a run-time boolean mask of shape {list(index.shape)} on a Tensor "
                f"of shape {list(x.shape)}: graph mode selects with a mask of the Tensor's own "
                f"shape only (the result's length is known at run time); use ops.masked_select "
                f"or ops.select.")
        return F.masked_select(x, index)
    return F.gather(x, index, 0)


def graph_not(value):
    """``not t`` of a one-element Tensor → ``LogicalNot``."""
    return F.logical_not(F.cast(value, mstype.bool_))


#: builtin -> its graph version (by identity).
GRAPH_BUILTINS = {
    _builtins.print: graph_print, _builtins.max: graph_max, _builtins.min: graph_min,
    _builtins.all: graph_all, _builtins.any: graph_any, _builtins.sum: graph_sum,
    _builtins.map: graph_map, _builtins.filter: graph_filter, _builtins.range: graph_range,
    _builtins.zip: graph_zip, _builtins.type: graph_type,
    _builtins.enumerate: graph_enumerate, _builtins.reversed: graph_reversed,
}


def graph_version(value):
    """The graph meaning of a resolved object (itself for everything but the builtins above)."""
    try:
        return GRAPH_BUILTINS.get(value, value)
    except TypeError:                         # unhashable
        return value
