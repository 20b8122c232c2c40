"""Writing a MindIR file: a compiled refms graph in the form MindSpore 2.10 writes.

``export_mindir(net, inputs, file_name)`` compiles ``net`` for ``inputs`` with
the graph compiler (:mod:`refms.graph.api`), whose optimized entry graph is a flat
list of primitive applications, and writes it as a ``ModelProto``
(:mod:`refms.train.mindir_schema`):

* the network's weights become the graph's ``parameter`` tensors, named
  ``<graph>:<parameter name>`` with the name as ``ref_key``, data in ``raw_data``;
* the inputs become ``input`` value infos, the result the ``output`` one;
* each application becomes a node ``REF::<Op>:<k>`` whose primitive is listed
  once in ``ModelProto.primitives``.  MindSpore 2.10 treats most operators as
  *primitive functions* whose arguments are node inputs (MatMul's transpose
  flags become two boolean ``Constant`` nodes); classic primitives (Conv2D,
  MaxPool) keep attributes.  ``WRITERS`` says, per refms primitive, which
  form and which attributes or extra inputs MindSpore expects;
* every node carries its result's ``shape`` attribute (dims and data type), as
  MindSpore's files do.

Fused elementwise chains (the fusion pass) are written as their steps.
"""
import numpy as np

from .._tensor import Tensor
from . import protobuf
from .mindir_schema import SCHEMA, DATA_TYPES, ATTRIBUTE_TYPES, PRIMITIVE, PRIMITIVE_FUNCTION

__all__ = ["export_mindir", "WRITERS"]

_CODES = {name: code for code, name in DATA_TYPES.items()}
T = ATTRIBUTE_TYPES


def _int(value, name=None):
    return {"name": name, "i": int(value), "type": T["INT64"]}


def _ints(values, name=None):
    return {"name": name, "type": T["TUPLE"],
            "values": [{"ints": [int(v)], "type": T["INT64"]} for v in values]}


def _string(value, name=None):
    return {"name": name, "s": str(value).encode("utf-8"), "type": T["STRING"]}


def _names(values, name):
    return {"name": name, "type": T["LIST"],
            "values": [{"strings": [v.encode("utf-8")], "type": T["STRING"]} for v in values]}


def _four(value):
    value = tuple(value) if isinstance(value, (tuple, list)) else (value, value)
    return value if len(value) == 4 else (1, 1) + value[-2:]


def _conv2d_attrs(prim):
    pad = prim.pad if isinstance(prim.pad, (tuple, list)) else (prim.pad,) * 4
    return [_ints(prim.kernel_size[-2:], "kernel_size"), _int(prim.mode, "mode"),
            _int(prim.out_channel, "out_channel"), _names(["x", "w"], "input_names"),
            _ints(pad, "pad"), _string(prim.pad_mode, "pad_mode"),
            _string(prim.data_format, "format"), _ints(pad, "pad_list"),
            _int(prim.group, "groups"), _ints(_four(prim.stride), "stride"),
            _int(prim.group, "group"), _ints(_four(prim.dilation), "dilation"),
            _names(["output"], "output_names")]


def _pool_attrs(prim):
    return [_string(prim.pad_mode.upper(), "pad_mode"), _names(["output"], "output_names"),
            _ints(_four(prim.kernel_size), "kernel_size"), _string(prim.data_format, "format"),
            _ints(_four(prim.strides), "strides"), _names(["x"], "input_names")]


def _bool(value):
    return {"name": "value", "i": int(bool(value)), "type": T["BOOL"]}


#: refms primitive name -> (MindSpore op_type, prim_type, attributes of the primitive,
#: extra constant inputs after the node's own)
WRITERS = {
    "MatMul": ("MatMul", PRIMITIVE_FUNCTION, lambda p: [],
               lambda p: [_bool(p.transpose_a), _bool(p.transpose_b)]),
    "BiasAdd": ("BiasAdd", PRIMITIVE_FUNCTION, lambda p: [],
                lambda p: [dict(_int(0 if p.data_format == "NCHW" else 1), name="value")]),
    "Add": ("Add", PRIMITIVE_FUNCTION, lambda p: [], lambda p: []),
    "Sub": ("Sub", PRIMITIVE_FUNCTION, lambda p: [], lambda p: []),
    "Mul": ("Mul", PRIMITIVE_FUNCTION, lambda p: [], lambda p: []),
    "ReLU": ("ReLU", PRIMITIVE_FUNCTION, lambda p: [], lambda p: []),
    "Sigmoid": ("Sigmoid", PRIMITIVE_FUNCTION, lambda p: [], lambda p: []),
    "Tanh": ("Tanh", PRIMITIVE_FUNCTION, lambda p: [], lambda p: []),
    "Flatten": ("Flatten", PRIMITIVE_FUNCTION, lambda p: [], lambda p: []),
    "Conv2D": ("Conv2D", PRIMITIVE, _conv2d_attrs, lambda p: []),
    "MaxPool": ("MaxPool", PRIMITIVE, _pool_attrs, lambda p: []),
    "AvgPool": ("AvgPool", PRIMITIVE, _pool_attrs, lambda p: []),
}


def _shape_attr(abstract):
    """The ``shape`` attribute of a node: the dims and data type of its result."""
    return {"name": "shape", "type": T["TENSORS"],
            "tensors": [{"dims": list(abstract.shape),
                         "data_type": _CODES[np.dtype(abstract.dtype.np_type).name]}]}


def _tensor_proto(array, name, ref_key=None):
    array = np.ascontiguousarray(array)
    return {"dims": list(array.shape), "data_type": _CODES[array.dtype.name], "name": name,
            "raw_data": array.astype(array.dtype.newbyteorder("<")).tobytes(),
            "ref_key": ref_key, "compression_type": 0 if ref_key else None}


class _Writer:
    """Collects the nodes, constants and primitives of one graph."""

    def __init__(self, graph_name):
        self.graph_name = graph_name
        self.nodes, self.primitives, self.prim_names = [], [], {}
        self.count = 0

    def fresh(self, stem):
        self.count += 1
        return f"{self.graph_name}:{stem}_{self.count}"

    def constant(self, attribute):
        name = self.fresh("ValueNode")
        self.nodes.append({"output": [name], "name": name, "op_type": "Constant",
                           "attribute": [attribute]})
        return name

    def primitive(self, prim):
        """The name ``Op:k`` of ``prim`` in ModelProto.primitives (added on first use)."""
        if prim.name not in WRITERS:
            raise NotImplementedError(f"For 'export', refms cannot write the primitive "
                                      f"{prim.name} to MindIR yet; it writes {sorted(WRITERS)}.")
        op_type, prim_type, attrs, _ = WRITERS[prim.name]
        attributes = attrs(prim)
        key = (op_type, repr(attributes))
        if key not in self.prim_names:
            name = f"{op_type}:{len(self.primitives) + 1}"
            self.prim_names[key] = name
            self.primitives.append({"name": name, "op_type": op_type, "attribute": attributes,
                                    "instance_name": "", "prim_type": prim_type})
        return self.prim_names[key]

    def apply(self, prim, inputs, abstract):
        op = self.primitive(prim)
        extra = [self.constant(attribute) for attribute in WRITERS[prim.name][3](prim)]
        name = self.fresh("CNode")
        self.nodes.append({"input": list(inputs) + extra, "output": [name], "name": name,
                           "op_type": "REF::" + op, "attribute": [_shape_attr(abstract)]})
        return name


def _emit(writer, graph, names):
    from ..graph.ir import CNode, ValueNode
    from ..graph.passes.fusion import FusedElementwise
    from ..ops.primitive import Primitive

    def ref(node):
        if isinstance(node, ValueNode):
            value = node.value
            if isinstance(value, Tensor):
                value = value.asnumpy()
            if isinstance(value, np.ndarray):
                return writer.constant({"name": "value", "type": T["TENSOR"],
                                        "t": _tensor_proto(value, writer.fresh("Tensor"))})
            raise NotImplementedError(f"For 'export', the constant {value!r} can not be written "
                                      f"to MindIR yet.")
        return names[node]

    for node in graph.order:
        head = node.inputs[0].value if isinstance(node.inputs[0], ValueNode) else None
        args = node.inputs[1:]
        if isinstance(head, Primitive):
            names[node] = writer.apply(head, [ref(a) for a in args], node.abstract)
        elif isinstance(head, FusedElementwise):
            results = []
            for prim, refs, abstract in head.steps:
                inputs = []
                for kind, item in refs:
                    if kind == "in":
                        inputs.append(ref(args[item]))
                    elif kind == "step":
                        inputs.append(results[item])
                    else:
                        inputs.append(ref(ValueNode(item)))
                results.append(writer.apply(prim, inputs, abstract))
            names[node] = results[-1]
        else:
            raise NotImplementedError(f"For 'export', the graph node {node!r} (not a primitive "
                                      f"application) can not be written to MindIR.")
    return graph.output


def export_mindir(net, inputs, file_name):
    """Compile ``net`` for ``inputs`` and write ``file_name`` (+ ``.mindir``); returns the path."""
    from ..graph.compiler import compile_call
    from ..graph.ir import CNode, Parameter as IRParameter
    if not inputs or not all(isinstance(x, Tensor) for x in inputs):
        raise TypeError("For 'export', the inputs must be one or more Tensors giving the shapes "
                        "and dtypes to compile the network for.")
    compiled = compile_call(net, list(inputs))
    graph = compiled.entry
    graph_name = f"{type(net).__name__}_construct"
    writer = _Writer(graph_name)
    names, parameters, input_infos = {}, [], []
    weights = []                                   # in order of first use
    for cnode in graph.order:
        for item in cnode.inputs:
            if isinstance(item, IRParameter) and item.default is not None and \
                    item not in weights:
                weights.append(item)
    for node, value in zip(graph.params, inputs):
        name = f"{graph_name}:{node.name}"
        names[node] = name
        input_infos.append({"name": name, "tensor": [{
            "dims": list(value.shape), "data_type": _CODES[np.dtype(value.dtype.np_type).name]}]})
    for node in weights:
        param = node.default
        name = f"{graph_name}:{param.name}"
        names[node] = name
        parameters.append(_tensor_proto(param.asnumpy(), name, ref_key=param.name))
    output = _emit(writer, graph, names)
    if not isinstance(output, CNode) or output not in names:
        raise NotImplementedError("For 'export', the network must return one Tensor computed by "
                                  "its operators.")
    abstract = output.abstract
    model = {
        "ir_version": "1.1", "producer_name": "MindSpore", "model_version": "2.10.0",
        "graph": {"node": writer.nodes, "name": graph_name, "parameter": parameters,
                  "input": input_infos,
                  "output": [{"name": names[output], "tensor": [{
                      "dims": list(abstract.shape),
                      "data_type": _CODES[np.dtype(abstract.dtype.np_type).name]}]}],
                  "bprop_hash": "", "bprop_filepath": ""},
        "little_endian": True, "primitives": writer.primitives, "mind_ir_version": 3,
    }
    path = file_name if file_name.endswith(".mindir") else file_name + ".mindir"
    with open(path, "wb") as f:
        f.write(protobuf.encode(SCHEMA, "ModelProto", model))
    return path

