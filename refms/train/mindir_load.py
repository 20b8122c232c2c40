"""Reading a MindIR file: the graph it holds, run by a short interpreter.

``load(file)`` decodes the ``ModelProto`` (:mod:`refms.train.mindir_schema`)
into a :class:`MindIRGraph`: its weights become refms Parameters (named by
their ``ref_key``), its inputs are named, and its nodes are kept in order.
Running the graph walks the nodes once, keeping every value by name::

    Constant                     the node's ``value`` attribute
    REF::<primitive>(inputs)     OPERATORS[op_type](attributes, *inputs)

Side-effect bookkeeping that MindSpore adds (``Load`` of a weight,
``UpdateState`` and ``Depend`` on a monad) reduces to reading the weight and
passing the value through.  Operators refms cannot run raise a
``RuntimeError`` naming them.
"""
import numpy as np

from ..ops import operations as ops
from .._tensor import Tensor
from ..parameter import Parameter
from . import protobuf
from .mindir_schema import SCHEMA, DATA_TYPES, ATTRIBUTE_TYPES

__all__ = ["MindIRGraph", "read_mindir", "OPERATORS"]

_TYPE_NAMES = {code: name for name, code in ATTRIBUTE_TYPES.items()}
_FORMATS = {0: "NCHW", 1: "NHWC"}          # MindSpore's Format enum, as primitive functions get it


class Monad:
    """The state token of MindSpore's side-effect ordering (``U``): carries no data."""

    def __repr__(self):
        return "U"


def tensor_value(proto, where):
    """The numpy array of a TensorProto (its raw little-endian bytes)."""
    code = proto.get("data_type")
    if code not in DATA_TYPES:
        raise RuntimeError(f"For 'load', {where} has the unsupported data type code {code}.")
    dtype = np.dtype(DATA_TYPES[code]).newbyteorder("<")
    shape = tuple(proto["dims"])
    raw = proto.get("raw_data")
    if raw is None:
        raise RuntimeError(f"For 'load', {where} carries no raw_data (external or typed data "
                           f"fields are not supported).")
    array = np.frombuffer(raw, dtype)
    if array.size != int(np.prod(shape)):
        raise RuntimeError(f"For 'load', {where} holds {array.size} values but its dims are "
                           f"{list(shape)}.")
    return array.reshape(shape).astype(dtype.newbyteorder("="))


def attribute_value(attr):
    """The Python value of an AttributeProto (tuples for TUPLE/LIST, Monad for monads)."""
    kind = _TYPE_NAMES.get(attr.get("type"), "UNDEFINED")
    if kind in ("TUPLE", "LIST"):
        items = tuple(attribute_value(v) for v in attr["values"])
        return items if kind == "TUPLE" else list(items)
    if kind in ("UMONAD", "IOMONAD"):
        return Monad()
    if kind == "NONE":
        return None
    if kind == "BOOL":
        return bool(attr["i"] if "i" in attr else attr["ints"][0])
    if kind in ("INT8", "INT16", "INT32", "INT64", "UINT8", "UINT16", "UINT32", "UINT64"):
        return int(attr["i"] if "i" in attr else attr["ints"][0])
    if kind == "FLOAT":
        return float(attr["f"] if "f" in attr else attr["floats"][0])
    if kind == "DOUBLE":
        return float(attr["d"] if "d" in attr else attr["doubles"][0])
    if kind == "STRING":
        return attr.get("s", b"").decode("utf-8")
    if kind == "TENSOR":
        return Tensor(tensor_value(attr["t"], f"attribute {attr.get('name')}"))
    if kind == "TENSORS" and attr["tensors"] and "raw_data" in attr["tensors"][0]:
        return Tensor(tensor_value(attr["tensors"][0], f"attribute {attr.get('name')}"))
    raise RuntimeError(f"For 'load', the attribute {attr.get('name')!r} of type {kind} is not "
                       f"supported.")


# -- the operators: (primitive attributes, *node inputs) -> value -----------------------------

def _pair(value):
    return tuple(value[-2:]) if isinstance(value, (tuple, list)) else (value, value)


def _conv2d(attrs, x, weight):
    op = ops.Conv2D(out_channel=attrs["out_channel"], kernel_size=_pair(attrs["kernel_size"]),
                    mode=attrs.get("mode", 1), pad_mode=attrs.get("pad_mode", "valid"),
                    pad=attrs.get("pad_list", attrs.get("pad", 0)),
                    stride=_pair(attrs.get("stride", 1)),
                    dilation=_pair(attrs.get("dilation", 1)), group=attrs.get("group", 1))
    return op(x, weight)


def _pool(kind):
    def run(attrs, x):
        op = kind(kernel_size=_pair(attrs["kernel_size"]), strides=_pair(attrs["strides"]),
                  pad_mode=attrs.get("pad_mode", "valid").lower())
        return op(x)
    return run


def _matmul(attrs, a, b, transpose_a=None, transpose_b=None):
    if transpose_a is None:
        transpose_a, transpose_b = attrs.get("transpose_a", False), attrs.get("transpose_b", False)
    return ops.MatMul(transpose_a=bool(transpose_a), transpose_b=bool(transpose_b))(a, b)


def _bias_add(attrs, x, bias, data_format=None):
    if data_format is None:
        data_format = attrs.get("format", attrs.get("data_format", "NCHW"))
    return ops.BiasAdd(data_format=_FORMATS.get(data_format, data_format))(x, bias)


OPERATORS = {
    "Load": lambda attrs, value, monad=None: value,
    "UpdateState": lambda attrs, monad, *effects: Monad(),
    "Depend": lambda attrs, value, *after: value,
    "MakeTuple": lambda attrs, *items: tuple(items),
    "TupleGetItem": lambda attrs, items, index: items[index],
    "MatMul": _matmul,
    "BiasAdd": _bias_add,
    "Add": lambda attrs, x, y: ops.Add()(x, y),
    "Sub": lambda attrs, x, y: ops.Sub()(x, y),
    "Mul": lambda attrs, x, y: ops.Mul()(x, y),
    "ReLU": lambda attrs, x: ops.ReLU()(x),
    "Sigmoid": lambda attrs, x: ops.Sigmoid()(x),
    "Tanh": lambda attrs, x: ops.Tanh()(x),
    "Softmax": lambda attrs, x, axis=None: ops.Softmax(
        axis=attrs.get("axis", -1) if axis is None else axis)(x),
    "Flatten": lambda attrs, x: ops.Flatten()(x),
    "Reshape": lambda attrs, x, shape: ops.Reshape()(x, tuple(shape)),
    "Conv2D": _conv2d,
    "MaxPool": _pool(ops.MaxPool),
    "AvgPool": _pool(ops.AvgPool),
}


class MindIRGraph:
    """A graph read from a MindIR file: ``inputs`` (name, shape, dtype), ``parameters`` (refms
    Parameters by name), ``outputs``; ``run(*inputs)`` (or calling it) evaluates it, as does
    ``nn.GraphCell(graph)``, the MindSpore way."""

    def __init__(self, model, file_name):
        self.file_name = file_name
        self.model = model
        graph = model.get("graph")
        if not graph:
            raise RuntimeError(f"For 'load', the MindIR file {file_name} holds no graph.")
        self.name = graph.get("name", "")
        self.primitives = {p["name"]: p for p in model["primitives"]}
        self.parameters = {}                 # file name of the weight -> refms Parameter
        for proto in graph["parameter"]:
            key = proto.get("ref_key") or proto["name"].split(":")[-1]
            value = tensor_value(proto, f"parameter {proto['name']} of {file_name}")
            self.parameters[proto["name"]] = Parameter(Tensor(value), name=key)
        self.inputs = []
        for info in graph["input"]:
            tensor = info["tensor"][0] if info["tensor"] else {}
            self.inputs.append((info["name"], tuple(tensor.get("dims", ())),
                                DATA_TYPES.get(tensor.get("data_type"))))
        self.outputs = [info["name"] for info in graph["output"]]
        self.nodes = graph["node"]
        for node in self.nodes:
            op_type = node.get("op_type", "")
            if op_type.startswith("REF::"):
                prim = self.primitives.get(op_type[5:])
                if prim is None:
                    raise RuntimeError(f"For 'load', node {node.get('name')} of {file_name} "
                                       f"refers to the missing primitive {op_type[5:]}.")
                if prim["op_type"] not in OPERATORS:
                    raise RuntimeError(f"For 'load', refms cannot run the operator "
                                       f"{prim['op_type']} (node {node.get('name')} of "
                                       f"{file_name}); it runs {sorted(OPERATORS)}.")
            elif op_type != "Constant":
                raise RuntimeError(f"For 'load', node {node.get('name')} of {file_name} has the "
                                   f"unsupported op_type {op_type!r}.")

    def run(self, *args):
        if len(args) != len(self.inputs):
            raise TypeError(f"The MindIR graph {self.name} takes {len(self.inputs)} inputs "
                            f"{[name for name, _, _ in self.inputs]}, but got {len(args)}.")
        values = dict(self.parameters)
        for (name, shape, dtype), value in zip(self.inputs, args):
            values[name] = value if isinstance(value, Tensor) else Tensor(np.asarray(value))
        for node in self.nodes:
            attrs = {a["name"]: a for a in node["attribute"]}
            if node["op_type"] == "Constant":
                result = attribute_value(attrs["value"])
            else:
                prim = self.primitives[node["op_type"][5:]]
                prim_attrs = {}
                for attr in prim["attribute"]:
                    if attr.get("name") not in ("input_names", "output_names"):
                        prim_attrs[attr["name"]] = attribute_value(attr)
                inputs = [values[name] for name in node["input"]]
                result = OPERATORS[prim["op_type"]](prim_attrs, *inputs)
            for name in node["output"]:
                values[name] = result
        outputs = [values[name] for name in self.outputs]
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    __call__ = run


def read_mindir(file_name):
    """The :class:`MindIRGraph` of a ``.mindir`` file."""
    import os
    if not isinstance(file_name, str) or not os.path.isfile(file_name):
        raise ValueError(f"For 'load', the MindIR file {file_name!r} does not exist.")
    with open(file_name, "rb") as f:
        data = f.read()
    try:
        model = protobuf.decode(SCHEMA, "ModelProto", data)
    except (ValueError, UnicodeDecodeError) as e:
        raise RuntimeError(f"For 'load', {file_name} is not a valid MindIR file ({e}).") from None
    return MindIRGraph(model, file_name)


