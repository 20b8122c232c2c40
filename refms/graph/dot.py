"""Graphviz output: each graph a cluster, each cnode a box, edges from inputs to users.

``dot -Tsvg 02_type_inference_0001.dot -o ir.svg`` draws it.  Constants are
drawn as small ellipses next to their user; free variables are edges that
cross clusters.
"""
from .ir import CNode, Parameter, ValueNode, graphs_of
from .printer import Names, format_value

__all__ = ["format_dot"]


def _quote(text):
    """A dot string: quotes escaped, line breaks as dot's ``\\n``."""
    return '"' + str(text).replace('"', '\\"').replace("\n", "\\n") + '"'


def format_dot(entry, title=""):
    names = Names(entry)
    lines = ["digraph refms_ir {", "  compound=true;", "  node [fontname=\"monospace\"];",
             f"  label={_quote(title)};"]
    ids = {}

    def node_id(node):
        if id(node) not in ids:
            ids[id(node)] = f"n{len(ids)}"
        return ids[id(node)]

    constants = 0
    for k, graph in enumerate(graphs_of(entry)):
        lines.append(f"  subgraph cluster_{k} {{")
        lines.append(f"    label={_quote('@' + names.graph(graph))};")
        for param in graph.params:
            lines.append(f"    {node_id(param)} [shape=oval, label={_quote('%' + names.param(param))}];")
        for node in graph.order:
            callee = node.inputs[0]
            head = format_value(callee.value, names) if isinstance(callee, ValueNode) else "call"
            index = names.cnodes[id(node)]
            label = f"%{index}" + (f"({node.name})" if node.name else "") + "\n" + head
            lines.append(f"    {node_id(node)} [shape=box, label={_quote(label)}];")
        out = f"ret_{k}"
        lines.append(f"    {out} [shape=doublecircle, label=\"Return\"];")
        lines.append("  }")
        for node in graph.order:
            if isinstance(node.inputs[0], (CNode, Parameter)):      # a call of a function value
                lines.append(f"  {node_id(node.inputs[0])} -> {node_id(node)} [label=0, style=dashed];")
            for position, inp in enumerate(node.inputs[1:], start=1):
                if isinstance(inp, ValueNode):
                    constants += 1
                    cid = f"c{constants}"
                    lines.append(f"  {cid} [shape=plaintext, label={_quote(format_value(inp.value, names))}];")
                    lines.append(f"  {cid} -> {node_id(node)} [label={position}];")
                elif isinstance(inp, (CNode, Parameter)):
                    if isinstance(inp, Parameter) and inp.default is not None and id(inp) not in ids:
                        lines.append(f"  {node_id(inp)} [shape=cylinder, label={_quote(inp.name)}];")
                    lines.append(f"  {node_id(inp)} -> {node_id(node)} [label={position}];")
        output = graph.output
        if isinstance(output, ValueNode):
            constants += 1
            lines.append(f"  c{constants} [shape=plaintext, label={_quote(format_value(output.value, names))}];")
            lines.append(f"  c{constants} -> ret_{k};")
        elif output is not None:
            lines.append(f"  {node_id(output)} -> ret_{k};")
    lines.append("}")
    return "\n".join(lines) + "\n"
