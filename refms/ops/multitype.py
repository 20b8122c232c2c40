"""``MultitypeFuncGraph``, ``HyperMap`` and ``Map``: MindSpore's type-dispatched functions.

A ``MultitypeFuncGraph`` is one name with several Python functions,
each registered for a signature of type names::

    add = MultitypeFuncGraph("add")

    @add.register("Number", "Tensor")
    def _(x, y): return y * x

``add(2.0, t)`` runs the function whose signature matches the arguments'
types.  ``HyperMap`` applies such a function leaf by leaf over
(nested) tuples and lists — the way optimizers update every gradient of a
``ParameterTuple`` with one function.

Type names (MindSpore's): ``Tensor``, ``Number`` (int, float, bool),
``Int``, ``Float``, ``Bool``, ``String``, ``Tuple``, ``List``, ``Dict``,
``None``, ``Function``; a :class:`refms.dtype.Type` object may stand for its
name.  When several signatures match, the one with the most exact (not
``Number``) matches wins; none matching raises ``ValueError``.

In graph mode these are ordinary Python callables run on the traced
stand-ins (which are Tensors), so dispatch happens at compile time, as in
MindSpore.
"""
import numbers

from .._tensor import Tensor

__all__ = ["MultitypeFuncGraph", "HyperMap", "Map"]


def _is_tensor(x):
    return isinstance(x, Tensor)


#: type name -> (predicate, specificity); higher specificity wins ties.
_TYPES = {
    "tensor": (_is_tensor, 2),
    "number": (lambda x: isinstance(x, numbers.Number) and not _is_tensor(x), 1),
    "int": (lambda x: isinstance(x, numbers.Integral) and not isinstance(x, bool), 2),
    "float": (lambda x: isinstance(x, float), 2),
    "bool": (lambda x: isinstance(x, bool), 2),
    "string": (lambda x: isinstance(x, str), 2),
    "str": (lambda x: isinstance(x, str), 2),
    "tuple": (lambda x: isinstance(x, tuple), 2),
    "list": (lambda x: isinstance(x, list), 2),
    "dict": (lambda x: isinstance(x, dict), 2),
    "none": (lambda x: x is None, 2),
    "function": (callable, 1),
    "rowtensor": (lambda x: False, 2),
}


def _type_key(name):
    key = str(name).lower().replace("mindspore.", "").replace("_", "")
    if key.startswith("tensor"):
        key = "tensor"
    if key not in _TYPES:
        raise TypeError(f"For 'MultitypeFuncGraph', unknown type name {name!r} in a signature; "
                        f"known: {sorted(_TYPES)}.")
    return key


def _type_name(x):
    if _is_tensor(x):
        return f"Tensor[{x.dtype}]"
    return type(x).__name__


class MultitypeFuncGraph:
    """A function chosen by the types of its arguments (see the module docstring)."""

    def __init__(self, name, read_value=False, doc_url=""):
        if not isinstance(name, str):
            raise TypeError(f"For 'MultitypeFuncGraph', the 'name' should be str, but got "
                            f"{type(name).__name__}.")
        self.name = name
        self.read_value = read_value
        self.entries = []           # [(tuple of type keys, fn)]

    def register(self, *type_names):
        """Decorator: register ``fn`` for arguments of these type names."""
        keys = tuple(_type_key(t) for t in type_names)

        def deco(fn):
            self.entries.append((keys, fn))
            return fn
        return deco

    def _match(self, args):
        best, best_score = None, -1
        for keys, fn in self.entries:
            if len(keys) != len(args):
                continue
            score = 0
            for key, arg in zip(keys, args):
                predicate, specificity = _TYPES[key]
                if not predicate(arg):
                    break
                score += specificity
            else:
                if score > best_score:
                    best, best_score = fn, score
        return best

    def __call__(self, *args):
        fn = self._match(args)
        if fn is None:
            sigs = [tuple(keys) for keys, _ in self.entries]
            raise ValueError(f"For 'MultitypeFuncGraph', cannot find fn match given args. "
                             f"'{self.name}' has signatures {sigs}, but got argument types "
                             f"({', '.join(_type_name(a) for a in args)}).")
        return fn(*args)

    def __repr__(self):
        return f"MultitypeFuncGraph({self.name!r})"


def _in_order(fn, rows, reverse):
    """``[fn(*row) for row in rows]``.  ``reverse`` is MindSpore's hint to its graph
    scheduler to visit the last elements first; run directly, MindSpore 2.10 still calls
    ``fn`` in order (measured), and so does refms."""
    return [fn(*row) for row in rows]


def _map_leaves(fn, args, reverse, op_name):
    """``fn`` over the leaves of equally shaped tuples/lists; non-sequences call ``fn`` directly."""
    if args and all(isinstance(a, (tuple, list)) for a in args):
        lengths = {len(a) for a in args}
        if len(lengths) != 1:
            raise ValueError(f"For '{op_name}', the sequence inputs must have the same length, "
                             f"but got lengths {[len(a) for a in args]}.")
        result = _in_order(lambda *items: _map_leaves(fn, items, reverse, op_name),
                           list(zip(*args)), reverse)
        return tuple(result) if isinstance(args[0], tuple) else result
    return fn(*args)


class HyperMap:
    """Apply ``ops`` to every leaf of (nested) tuples/lists: ``HyperMap()(fn, xs, ys)``.

    With ``ops`` given at construction the call takes only the sequences:
    ``HyperMap(fn)(xs, ys)``.  Sequences at one level must have the same
    length; the result has their structure.  ``reverse`` (MindSpore's scheduling hint)
    is accepted; the calls are made in order, as MindSpore 2.10 makes them.
    """

    def __init__(self, ops=None, reverse=False):
        self.ops = ops
        self.reverse = reverse

    def __call__(self, *args):
        if self.ops is None:
            if not args or not callable(args[0]):
                raise TypeError("For 'HyperMap', the first input should be a function when "
                                "'ops' was not given at construction.")
            fn, args = args[0], args[1:]
        else:
            fn = self.ops
        return _map_leaves(fn, args, self.reverse, "HyperMap")


class Map:
    """Apply ``ops`` to the elements of tuples/lists, one level deep: ``Map()(fn, xs, ys)``
    (``reverse`` is accepted, as for :class:`HyperMap`)."""

    def __init__(self, ops=None, reverse=False):
        self.ops = ops
        self.reverse = reverse

    def __call__(self, *args):
        if self.ops is None:
            if not args or not callable(args[0]):
                raise TypeError("For 'Map', the first input should be a function when 'ops' "
                                "was not given at construction.")
            fn, args = args[0], args[1:]
        else:
            fn = self.ops
        if not args or not all(isinstance(a, (tuple, list)) for a in args):
            raise TypeError(f"For 'Map', the inputs should be tuples or lists, but got "
                            f"({', '.join(_type_name(a) for a in args)}).")
        if len({len(a) for a in args}) != 1:
            raise ValueError(f"For 'Map', the sequence inputs must have the same length, but got "
                             f"lengths {[len(a) for a in args]}.")
        result = _in_order(fn, list(zip(*args)), self.reverse)
        return tuple(result) if isinstance(args[0], tuple) else result
