"""``Cell``: the unit of a network — its parameters, its children, and the one call pipeline.

A Cell owns three ordered registries, filled by ``__setattr__``
(semantics 3.2; MindSpore ``nn/cell.py`` ``__setattr__``):

``_params``   Parameter attributes.  A Parameter with an auto-generated name
              (``Parameter#3``) is renamed to the attribute name; an explicit
              name is kept.
``_cells``    child Cells.  When the parent has ``auto_prefix`` (the default),
              ``child.update_parameters_name(name + '.')`` runs at once: every
              parameter below the child is renamed to ``name.<attribute path>``.
              So names follow *where a cell was last adopted*, not how its
              parameters were declared.
plain         anything else; a Tensor assigned to an existing parameter
              attribute is written into it with ``set_data``.

Enumeration (semantics 3.3) is depth first over ``cells_and_names``,
in attribute insertion order, each parameter once.

Calling a cell (semantics 3.4, MindSpore ``Cell.__call__`` / ``_run_construct``)::

    first call: check parameter names (refresh them to full paths if two collide)
    GRAPH_MODE, or inside a compilation: compile the call (refms.graph.api.run_cell_graph)
    a set_grad() cell outside any tape: record the forward (top cell, below)
    then the one pipeline of refms.nn.cell_call: forward pre-hooks -> [backward-hook
    unit: construct or the custom-bprop unit -> forward hooks (2.x scope)] -> forward
    hooks (r1 scope)

``set_grad()`` makes the cell a *top cell*: a call outside any gradient
recording records the forward, and ``grad``/``GradOperation`` of that cell with
the same input objects reuses it instead of running the forward again
(semantics 6.3; :mod:`refms.nn.top_cell`).  ``to_float(dtype)`` makes the
operators run inside the cell cast their floating inputs to ``dtype``
(``refms.ops.apply.set_mixed_precision``).

In GRAPH_MODE the compiled call runs the same pipeline at compile time, through
the call rule this module registers with the graph compiler
(``refms.nn.cell_call.CellCallRule``); cell hooks then apply as in 2.10, or
are skipped under a compat version whose docs say graph mode ignores them
(``cell_hooks_in_graph_mode``).
"""
from collections import OrderedDict

from .. import dtype as mstype
from ..autograd import tape as _tape
from ..graph import api as graph_api
from ..graph.cells import register_call_rule
from ..ops.primitive import Primitive
from ..parameter import Parameter, ParameterTuple
from .._tensor import Tensor
from .cell_call import PYNATIVE, CellCallRule, run_pipeline
from .cell_hooks import CellHooks
from .cell_state import CellState
from . import top_cell as _top_cell

__all__ = ["Cell"]

_MIXED_PRECISION_FLAGS = (("fp16", mstype.float16), ("fp32", mstype.float32),
                          ("bf16", mstype.bfloat16))


def _is_parameter_sequence(value):
    return (isinstance(value, (list, tuple)) and not isinstance(value, ParameterTuple)
            and len(value) > 0 and all(isinstance(v, Parameter) for v in value))


def _note_cell(error, cell, args):
    """Name the innermost cell (and its input shapes) in an error raised while it ran."""
    if getattr(error, "_refms_cell_noted", False):
        return
    shapes = [tuple(a.shape) if isinstance(a, Tensor) else type(a).__name__ for a in args]
    error.add_note(f"(raised while running cell '{cell.cls_name}' on inputs {shapes})")
    error._refms_cell_noted = True


def _add_indent(text, spaces):
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * spaces + line for line in lines[1:])


class Cell(CellHooks, CellState):
    """Cell(auto_prefix=True, flags=None)

    Subclasses call ``super().__init__()`` first, declare parameters and child
    cells as attributes, and define ``construct(*inputs)``.  A ``bprop(*inputs,
    out, dout)`` method replaces the cell's gradient (semantics 6).
    Cells start in inference mode (``training`` False) with ``requires_grad`` False.
    """

    def __init__(self, auto_prefix=True, flags=None):
        state = {
            "_params": OrderedDict(), "_cells": OrderedDict(), "_primitives": OrderedDict(),
            "_auto_prefix": auto_prefix, "training": False, "requires_grad": False,
            "_phase": "train", "_func_graph_flags": {}, "mixed_precision_type": None,
            "_checked": False, "_tuple_param_id": 1, "_list_param_names": set(),
            "_recorded_forward": None, "_inputs": None,
        }
        self.__dict__.update(state)          # directly: __setattr__ needs these registries
        self._init_hooks()
        if flags:
            self.add_flags(**flags)

    # -- identity --------------------------------------------------------------
    @property
    def cls_name(self):
        return type(self).__name__

    @property
    def has_bprop(self):
        return callable(getattr(type(self), "bprop", None))

    @property
    def phase(self):
        return self._phase

    @phase.setter
    def phase(self, value):
        self.__dict__["_phase"] = value

    def __bool__(self):
        return True

    # -- attribute registration (semantics 3.2) -------------------------------
    def _require_init(self, what):
        if "_params" not in self.__dict__:
            raise AttributeError(f"For '{type(self).__name__}', assigning {what} before "
                                 f"'Cell.__init__()' ran: call super().__init__() first.")

    def __getattr__(self, name):
        state = object.__getattribute__(self, "__dict__")
        for registry in ("_params", "_cells", "_buffers"):
            entries = state.get(registry)
            if entries is not None and name in entries:
                return entries[name]
        raise AttributeError(f"The '{type(self).__name__}' object has no attribute '{name}'.")

    def __setattr__(self, name, value):
        if isinstance(value, Parameter):
            self._require_init("a Parameter")
            self.__dict__.pop(name, None)
            self.insert_param_to_cell(name, value)
        elif isinstance(value, ParameterTuple):
            self._require_init("a ParameterTuple")
            self._set_parameter_tuple(name, value)
        elif _is_parameter_sequence(value):
            self._set_parameter_sequence(name, value)
        elif isinstance(value, Cell):
            self._require_init("a Cell")
            self.__dict__.pop(name, None)
            if self._auto_prefix:
                value.update_parameters_name(name + ".")
            self.insert_child_to_cell(name, value)
        elif isinstance(value, Primitive):
            self._primitives[name] = value
            object.__setattr__(self, name, value)
        else:
            self._set_plain(name, value)

    def _set_parameter_tuple(self, name, value):
        """Members with auto names become ``Parameter$<k>``; each is registered under its name."""
        names, seen = set(), set()
        for item in value:
            if id(item) in seen:
                continue
            seen.add(id(item))
            if item.auto_named:
                item.name = f"Parameter${self._tuple_param_id}"
                self.__dict__["_tuple_param_id"] += 1
            if item.name in names:
                raise ValueError(f"The value {value} , its name '{item.name}' already exists. "
                                 f"Please set a unique name for the parameter. (cell "
                                 f"'{self.cls_name}', attribute '{name}')")
            names.add(item.name)
            self.insert_param_to_cell(item.name, item, check_name_contain_dot=False)
        object.__setattr__(self, name, value)

    def _set_parameter_sequence(self, name, value):
        """A plain list/tuple of Parameters: kept as an attribute, names checked unique."""
        seen = set()
        for item in value:
            if id(item) in seen:
                continue
            seen.add(id(item))
            if item.name in self._list_param_names:
                raise ValueError(f"The value {value} , its name '{item.name}' already exists. "
                                 f"Please set a unique name for the parameter. (cell "
                                 f"'{self.cls_name}', attribute '{name}')")
            self._list_param_names.add(item.name)
        object.__setattr__(self, name, value)

    def _set_plain(self, name, value):
        params = self.__dict__.get("_params")
        if params is not None and name in params:
            if value is None:
                params[name] = None
            elif isinstance(value, Tensor) and params[name] is not None:
                params[name].set_data(value)
            else:
                raise TypeError(f"Parameter '{name}' already exists in network, can not assign "
                                f"this type: '{type(value)}' as a parameter.")
            return
        buffers = self.__dict__.get("_buffers")
        if buffers is not None and name in buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"For the buffer '{name}', the value must be a Tensor or None, "
                                f"but got {type(value).__name__}.")
            buffers[name] = value
            return
        cells = self.__dict__.get("_cells")
        if cells is not None and name in cells:
            if value is not None:
                raise TypeError(f"Sub cell '{name}' already exists in network, can not assign "
                                f"this type: '{type(value)}' as a cell.")
            cells[name] = None
            return
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        if name in self._params:
            del self._params[name]
        elif name in self._cells:
            del self._cells[name]
        else:
            object.__delattr__(self, name)

    def insert_param_to_cell(self, param_name, param, check_name_contain_dot=True):
        """Register ``param`` as ``param_name``; an auto-named parameter takes that name."""
        if not param_name:
            raise KeyError("For 'insert_param_to_cell', the argument 'param_name' should not be None.")
        if check_name_contain_dot and "." in param_name:
            raise KeyError("For 'insert_param_to_cell', the argument 'param_name' should not "
                           "contain'.' ")
        self._require_init("a Parameter")
        if param_name not in self._params and param_name in self.__dict__:
            raise KeyError(f"For 'insert_param_to_cell', the {param_name} parameter already "
                           f"exists in the network.Cannot insert another parameter with the "
                           f"same name.")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"For 'insert_param_to_cell', the argument 'param' must be "
                            f"'Parameter' if not None, but got {type(param)}.")
        if isinstance(param, Parameter) and param.auto_named:
            param.name = param_name
        self._params[param_name] = param

    def insert_child_to_cell(self, child_name, child_cell):
        """Register ``child_cell`` as ``child_name`` without renaming its parameters."""
        if not isinstance(child_name, str):
            raise TypeError(f"For 'insert_child_to_cell', the type of parameter 'child_name' must "
                            f"be str, but got {type(child_name)}.")
        if not child_name or "." in child_name:
            raise KeyError("For 'insert_child_to_cell', the parameter 'child_name' can not be "
                           "None and can not contain '.' ")
        self._require_init("a Cell")
        if child_name not in self._cells and child_name in self.__dict__:
            raise KeyError(f"For 'insert_child_to_cell', the {child_name} child cell already "
                           f"exists in the network.Cannot insert another child cell with the "
                           f"same name.")
        if child_cell is not None and not isinstance(child_cell, Cell):
            raise TypeError(f"For 'insert_child_to_cell', the argument 'child_cell' must be "
                            f"'Cell' if not None, but got type {type(child_cell)}.")
        self._cells[child_name] = child_cell

    # -- enumeration (semantics 3.3) ------------------------------------------
    def cells_and_names(self, cells=None, name_prefix=""):
        """``('', self)``, then every descendant as ``('a.b', cell)``, depth first, each once."""
        visited = cells if cells is not None else set()
        if id(self) in visited:
            return
        visited.add(id(self))
        yield name_prefix, self
        for name, cell in self._cells.items():
            if cell is not None:
                path = f"{name_prefix}.{name}" if name_prefix else name
                yield from cell.cells_and_names(visited, path)

    def name_cells(self):
        """OrderedDict of the direct children (each cell once)."""
        result, seen = OrderedDict(), set()
        for name, cell in self._cells.items():
            if cell is not None and id(cell) not in seen:
                seen.add(id(cell))
                result[name] = cell
        return result

    def cells(self):
        return self.name_cells().values()

    def parameters_and_names(self, name_prefix="", expand=True):
        """``(attribute path, parameter)`` pairs; the path, not ``param.name``."""
        cells = self.cells_and_names(name_prefix=name_prefix) if expand else [(name_prefix, self)]
        seen = set()
        for cell_name, cell in cells:
            for param_name, param in cell._params.items():
                if param is None or id(param) in seen:
                    continue
                seen.add(id(param))
                yield (f"{cell_name}.{param_name}" if cell_name else param_name), param

    def get_parameters(self, expand=True):
        """A generator over the parameters (depth first, each once)."""
        for _, param in self.parameters_and_names(expand=expand):
            yield param

    def trainable_params(self, recurse=True):
        return [p for p in self.get_parameters(expand=recurse) if p.requires_grad]

    def untrainable_params(self, recurse=True):
        return [p for p in self.get_parameters(expand=recurse) if not p.requires_grad]

    def parameters_dict(self, recurse=True):
        """OrderedDict keyed by ``param.name``."""
        return OrderedDict((p.name, p) for p in self.get_parameters(expand=recurse))

    def update_parameters_name(self, prefix="", recurse=True):
        """Rename every parameter to ``prefix + <attribute path>``."""
        if not isinstance(prefix, str):
            raise TypeError(f"The type of prefix should be str, but got {type(prefix).__name__}.")
        for path, param in self.parameters_and_names(expand=recurse):
            if prefix:
                param.is_init = False
            param.name = prefix + path

    def check_names_and_refresh_name(self):
        """If two parameters share a name, rename all to full paths, then require uniqueness."""
        names = [p.name for _, p in self.parameters_and_names()]
        if len(set(names)) < len(names):
            self.update_parameters_name()
            self.check_names()

    def check_names(self):
        names = set()
        for path, param in self.parameters_and_names():
            if param.name in names:
                raise ValueError(f"For cell '{self.cls_name}': the value of {path} is {param!r}, "
                                 f"its name '{param.name}' already exists. Please set a unique "
                                 f"name for the parameter.")
            names.add(param.name)

    def init_parameters_data(self, auto_parallel_mode=False):
        """Initialise every parameter; returns ``{old: new}`` (the same objects in stand-alone mode)."""
        replaced = {}
        for _, cell in self.cells_and_names():
            for key, param in cell._params.items():
                if param is not None:
                    replaced[param] = cell._params[key] = param.init_data()
            for key, value in list(cell.__dict__.items()):
                if isinstance(value, ParameterTuple):
                    cell.__dict__[key] = ParameterTuple(p.init_data() for p in value)
        return replaced

    # -- modes and flags (semantics 3.5) ----------------------------------------
    def add_flags(self, **flags):
        self._func_graph_flags.update(flags)
        self.__dict__.update(flags)
        for flag, dtype in _MIXED_PRECISION_FLAGS:
            if flags.get(flag):
                self.__dict__["mixed_precision_type"] = dtype
        return self

    def add_flags_recursive(self, **flags):
        self.add_flags(**flags)
        for cell in self.cells():
            cell.add_flags_recursive(**flags)
        return self

    def get_flags(self):
        return self._func_graph_flags

    def set_train(self, mode=True):
        """Training mode for this cell and every descendant; phase 'train' / 'predict'."""
        self.__dict__["_phase"] = "train" if mode else "predict"
        self.add_flags_recursive(training=mode)
        return self

    def set_grad(self, requires_grad=True):
        """Make this cell (not its children) a top cell that records its forward for reuse."""
        self.__dict__["requires_grad"] = requires_grad
        return self

    def to_float(self, dst_type):
        """Operators inside this cell (and its children) compute in ``dst_type``; parameters keep theirs."""
        if dst_type not in (mstype.float16, mstype.float32, mstype.bfloat16):
            raise ValueError(f"For 'to_float', the argument 'dst_type' must be mstype.float32, "
                             f"mstype.float16 or mstype.bfloat16, but got type: "
                             f"{type(dst_type)} and value: {dst_type}.")
        self.add_flags_recursive(fp16=dst_type is mstype.float16, fp32=dst_type is mstype.float32,
                                 bf16=dst_type is mstype.bfloat16)
        return self

    def apply(self, fn):
        for cell in self.cells():
            cell.apply(fn)
        fn(self)
        return self

    def set_inputs(self, *inputs, **kwargs):
        """Declare the inputs ``construct`` receives: Tensors, where ``None`` in a shape marks
        a dimension that may vary (``Tensor(shape=[None, 3], dtype=ms.float32)``).  In
        GRAPH_MODE every call is checked against the declaration
        (:mod:`refms.graph.input_signature`); PyNative mode does not check."""
        self.__dict__["_inputs"] = inputs

    def update_cell_prefix(self):
        """Set every sub cell's ``param_prefix`` to its attribute path (``"dense"``)."""
        for name, cell in self.cells_and_names():
            cell.__dict__["param_prefix"] = name

    def set_data_parallel(self):
        """Run the cell data-parallel (refms runs on one device: nothing to change)."""

    def get_inputs(self):
        return self._inputs

    # -- printing ---------------------------------------------------------------
    def extend_repr(self):
        """The one-line description inside ``ClassName(...)``; layers override it."""
        return ""

    def __repr__(self):
        extra = self.extend_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({key}): {_add_indent(repr(cell), 2)}"
                       for key, cell in self._cells.items()]
        lines = extra_lines + child_lines
        text = type(self).__name__ + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                text += extra_lines[0]
            else:
                text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"

    __str__ = __repr__

    # -- calling (semantics 3.4) ----------------------------------------------
    def construct(self, *args, **kwargs):
        raise AttributeError("For 'Cell', the method 'construct' is not defined.")

    def __call__(self, *args, **kwargs):
        if not self._checked:          # parameters are never lazy here; only names need checking
            self.check_names_and_refresh_name()
            self.__dict__["_checked"] = True
        try:
            if graph_api.in_graph_context():     # GRAPH_MODE and jit compile the call
                return graph_api.run_cell_graph(self, args, kwargs)
            if self.requires_grad and not _tape.recording():
                return _top_cell.call_as_top_cell(self, args, kwargs)
            return self._run_construct(args, kwargs)
        except Exception as error:
            _note_cell(error, self, args)
            raise

    def _run_construct(self, args, kwargs):
        """The pipeline of semantics 3.4 step 4 (hooks, custom bprop, construct), run op
        by op: :func:`refms.nn.cell_call.run_pipeline` with PyNative's steps."""
        return run_pipeline(self, args, kwargs, PYNATIVE)

    def _pop_recorded_forward(self, args):
        """Used by ``grad``/``GradOperation``: the recorded forward of the last call, if reusable."""
        return _top_cell.pop_recorded_forward(self, args)


# A Cell called inside a compiled graph runs the same pipeline (the graph layer's call rule).
register_call_rule(Cell, CellCallRule())
