"""The text dump of a program, modelled on MindSpore's ``.ir`` files (semantics 7.4).

::

    # IR entry: @f_1
    # Total subgraphs: 1
    # Total params: 2
    # Params:
    %para1_x: <Tensor[Float32], (3)>
    %para2_w: <Ref[Tensor[Float32]], (3), ref_key=w> : has_default

    subgraph @f_1(%para1_x) {
      %0(y) = Mul(%para1_x, %para2_w)
          : (<Tensor[Float32], (3)>, <Ref[Tensor[Float32]], (3), ref_key=w>) -> (<Tensor[Float32], (3)>)
          # In file example.py:5, 8~17/    y = x * self.w/
      Return(%0)
          : (<Tensor[Float32], (3)>)
    }

Graphs are named ``@<name>_<k>`` by their position in the dump, parameters
``%para<k>_<name>`` over the whole program, cnodes ``%<k>`` within their graph
(with the source variable in parentheses), free variables
``$(@graph:node)``.  Types are printed once inference has run; source files
are relative paths, never absolute.
"""
import numpy as np

from ..ops.primitive import Primitive
from .._tensor import Tensor
from .. import dtype as mstype
from . import abstract as A
from . import graph_ops as G
from .ir import CNode, FuncGraph, Parameter, ValueNode, graphs_of

__all__ = ["format_program", "Names"]


class Names:
    """Printable names of the graphs, parameters and cnodes of one program."""

    def __init__(self, entry, weights=()):
        self.graphs = graphs_of(entry)
        self.graph_names = {id(g): f"{g.name}_{k + 1}" for k, g in enumerate(self.graphs)}
        self.params = {}
        counter = 1
        for param in list(entry.params) + list(weights):
            self.params[id(param)] = f"para{counter}_{param.name}"
            counter += 1
        for graph in self.graphs:
            for param in graph.params:
                if id(param) not in self.params:
                    self.params[id(param)] = f"para{counter}_{param.name}"
                    counter += 1
        self._next_param = counter
        self.cnodes = {}
        for graph in self.graphs:
            for k, node in enumerate(graph.order):
                self.cnodes[id(node)] = k

    def graph(self, graph):
        return self.graph_names.get(id(graph), graph.name)

    def param(self, param):
        name = self.params.get(id(param))
        if name is None:
            name = self.params[id(param)] = f"para{self._next_param}_{param.name}"
            self._next_param += 1
        return name


def format_value(value, names):
    """A constant as MindSpore prints it: ``I64(1)``, ``F32(0.5)``, ``Bool(1)``, ``"s"``…"""
    if isinstance(value, bool):
        return f"Bool({int(value)})"
    if isinstance(value, int):
        return f"I64({value})"
    if isinstance(value, float):
        return f"F32({value!r})"
    if isinstance(value, str):
        return f'"{value}"'
    if value is None:
        return "None"
    if isinstance(value, Tensor):
        return _format_tensor(value)
    if isinstance(value, (tuple, list)):
        inner = ", ".join(format_value(v, names) for v in value)
        return f"({inner})" if isinstance(value, tuple) else f"[{inner}]"
    if isinstance(value, FuncGraph):
        return "@" + names.graph(value)
    if isinstance(value, Primitive):
        return value.name
    if isinstance(value, G.GraphOp):
        return repr(value)
    if isinstance(value, mstype.Type):
        return str(value)
    if isinstance(value, G.Undefined):
        return f"Undefined({value.name})"
    if isinstance(value, slice):
        return f"Slice({format_value(value.start, names)}, {format_value(value.stop, names)}, " \
               f"{format_value(value.step, names)})"
    if isinstance(value, G.NameSpace):
        return repr(value)
    if isinstance(value, G.Symbol):
        return value.name
    if hasattr(value, "cls_name") and hasattr(value, "construct"):
        return f"Cell<{value.cls_name}>"
    if isinstance(value, type):
        return f"Class<{value.__name__}>"
    if hasattr(value, "__name__"):
        return str(value.__name__)
    return f"<{type(value).__name__}>"


def _format_tensor(t):
    if getattr(t, "weak", False) and t.shape == ():
        return format_value(t.item(), None)
    if t.size <= 8 and t._data is not None:
        text = np.array2string(t._host(), separator=" ").replace("\n", "")
        return f"Tensor(shape={list(t.shape)}, dtype={t.dtype}, value={text})"
    return f"Tensor(shape={list(t.shape)}, dtype={t.dtype}, value=...)"


def format_node(node, graph, names):
    """How ``node`` is referred to from inside ``graph``."""
    if isinstance(node, ValueNode):
        return format_value(node.value, names)
    if isinstance(node, Parameter):
        text = "%" + names.param(node)
        if node.graph is not None and node.graph is not graph:
            return f"$(@{names.graph(node.graph)}:{names.param(node)})"
        return text
    if isinstance(node, CNode):
        k = names.cnodes.get(id(node), "?")
        if node.graph is graph:
            return f"%{k}"
        label = node.name or f"%{k}"
        return f"$(@{names.graph(node.graph)}:{label})"
    return repr(node)


def _attrs(value):
    if not isinstance(value, Primitive):
        return ""
    attrs = value.attrs
    shown = {k: v for k, v in attrs.items() if not callable(v)}
    if not shown:
        return ""
    inner = ", ".join(f"{k}: {_short(v)}" for k, v in shown.items())
    return f" primitive_attrs: {{{inner}}}"


def _short(value):
    if isinstance(value, (list, tuple)):
        return "(" + ", ".join(_short(v) for v in value) + ")"
    if isinstance(value, bool):
        return f"Bool({int(value)})"
    return str(value)


def _callee_text(callee, graph, names):
    if isinstance(callee, ValueNode) and isinstance(callee.value, FuncGraph):
        return "call @" + names.graph(callee.value)
    return format_node(callee, graph, names)


def format_graph(graph, names, lines):
    params = ", ".join("%" + names.param(p) for p in graph.params)
    parent = ""
    if graph.parent is not None:
        parent = f" parent: [subgraph @{names.graph(graph.parent)}]"
    lines.append("")
    if graph.flags.get("custom_bprop") is not None:
        lines.append(f"# custom bprop: {graph.flags['custom_bprop'].label}")
    if graph.params and any(p.abstract is not None for p in graph.params):
        types = ", ".join(A.format_abstract(p.abstract) for p in graph.params)
        lines.append(f"# Parameters: {len(graph.params)}, ({types})")
    if graph.loc is not None:
        lines.append(f"# In file {graph.loc.describe()}")
    lines.append(f"subgraph @{names.graph(graph)}{parent}({params}) {{")
    for node in graph.order:
        k = names.cnodes[id(node)]
        label = f"%{k}({node.name})" if node.name else f"%{k}"
        callee = node.inputs[0]
        args = [format_node(i, graph, names) for i in node.inputs[1:]]
        folded = getattr(callee.value, "constants", None) if isinstance(callee, ValueNode) else None
        if callable(folded):            # a fused node: its folded constants follow its inputs
            args += [format_value(c, names) for c in folded()]
        args = ", ".join(args)
        attrs = _attrs(callee.value) if isinstance(callee, ValueNode) else ""
        lines.append(f"  {label} = {_callee_text(callee, graph, names)}({args}){attrs}")
        if node.abstract is not None:
            types = ", ".join(A.format_abstract(i.abstract) for i in node.inputs[1:])
            lines.append(f"      : ({types}) -> ({A.format_abstract(node.abstract)})")
        if node.loc is not None:
            lines.append(f"      # In file {node.loc.describe()}")
    lines.append(f"  Return({format_node(graph.output, graph, names)})")
    if graph.output is not None and graph.output.abstract is not None:
        lines.append(f"      : ({A.format_abstract(graph.output.abstract)})")
    lines.append("}")


def _weights(graphs):
    found, seen = [], set()
    for graph in graphs:
        for node in graph.order:
            for i in node.inputs:
                if isinstance(i, Parameter) and i.default is not None and id(i) not in seen:
                    seen.add(id(i))
                    found.append(i)
        out = graph.output
        if isinstance(out, Parameter) and out.default is not None and id(out) not in seen:
            seen.add(id(out))
            found.append(out)
    return found


def format_program(entry, title=None):
    """The whole program reachable from ``entry`` as dump text."""
    graphs = graphs_of(entry)
    weights = _weights(graphs)
    names = Names(entry, weights)
    lines = []
    if title:
        lines.append(f"# {title}")
    lines.append(f"# IR entry: @{names.graph(entry)}")
    lines.append(f"# Total subgraphs: {len(graphs)}")
    lines.append("")
    lines.append(f"# Total params: {len(entry.params) + len(weights)}")
    lines.append("# Params:")
    for param in entry.params:
        lines.append(f"%{names.param(param)}: {A.format_abstract(param.abstract)}")
    for weight in weights:
        lines.append(f"%{names.param(weight)}: {A.format_abstract(weight.abstract)} : has_default")
    for graph in graphs:
        format_graph(graph, names, lines)
    return "\n".join(lines) + "\n"
