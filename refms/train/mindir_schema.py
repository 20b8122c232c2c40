"""The messages of a MindIR file (MindSpore's ``mind_ir`` protobuf package), as a field table.

A ``.mindir`` file is one serialized ``ModelProto``.  Its parts, in outline:

* **ModelProto** — the file: IR and producer version strings, the entry
  ``graph``, further ``functions`` (sub-graphs), ``little_endian``, the
  ``primitives`` the nodes refer to, and ``mind_ir_version`` (3 for MindSpore
  2.10: primitives may be *primitive functions*, see below).
* **GraphProto** — a graph: its ``node`` list in execution order, a ``name``,
  the weights as ``parameter`` tensors (with their bytes), the ``input`` and
  ``output`` value infos, and graph ``attribute``\\s.
* **NodeProto** — one application: ``input`` names (graph inputs, parameters,
  other nodes' outputs, constants), its ``output`` name, an ``op_type`` —
  ``"Constant"`` for a constant whose value is the attribute ``value``, or
  ``"REF::<primitive name>"`` naming an entry of ``ModelProto.primitives`` —
  and ``attribute``\\s (``shape``: the abstract of the result).
* **PrimitiveProto** — an operator: its ``name`` (as nodes refer to it), the
  operator ``op_type`` (``"Conv2D"``), ``attribute``\\s, and ``prim_type``: 1 for
  a classic primitive whose arguments are attributes, 2 for a *primitive
  function* whose arguments (MatMul's transpose flags, …) are node inputs.
* **AttributeProto** — a named value: ``type`` says which field holds it (``i``
  for INT64/BOOL and other integers, ``f``, ``d``, ``s`` for a string, ``t`` or
  ``tensors`` for tensors or abstracts, ``values`` for a TUPLE or LIST of
  attributes), with ``seq_info`` on sequences.
* **TensorProto** — ``dims``, ``data_type`` (the ``DATA_TYPES`` codes below), a
  ``name``, the bytes in ``raw_data`` (little-endian, C order), and for a
  weight its ``ref_key`` (the Parameter's name).
* **ValueInfoProto** — a graph input or output: a ``name`` and its ``tensor``
  (dims and data type, no data).

Each table maps a field number to (field name, kind, repeated); kinds are
those of :mod:`refms.train.protobuf`.  Fields refms never reads or writes
(parallel layouts, quantisation, data preprocessing) are left out and skipped
when reading.
"""
__all__ = ["SCHEMA", "DATA_TYPES", "ATTRIBUTE_TYPES", "PRIMITIVE", "PRIMITIVE_FUNCTION"]

PRIMITIVE, PRIMITIVE_FUNCTION = 1, 2

#: TensorProto.data_type codes and the numpy dtype names they stand for
DATA_TYPES = {1: "float32", 2: "uint8", 3: "int8", 4: "uint16", 5: "int16", 6: "int32",
              7: "int64", 9: "bool", 10: "float16", 11: "float64", 12: "uint32", 13: "uint64",
              14: "complex64", 15: "complex128"}

#: AttributeProto.type codes refms reads and writes
ATTRIBUTE_TYPES = {"FLOAT": 1, "UINT8": 2, "INT8": 3, "UINT16": 4, "INT16": 5, "INT32": 6,
                   "INT64": 7, "STRING": 8, "BOOL": 9, "FLOAT16": 10, "DOUBLE": 11,
                   "UINT32": 12, "UINT64": 13, "TENSOR": 17, "GRAPH": 18, "TENSORS": 19,
                   "TUPLE": 20, "LIST": 21, "DICT": 22, "UMONAD": 23, "IOMONAD": 24, "NONE": 25}

SCHEMA = {
    "ModelProto": {
        1: ("ir_version", "string", False),
        2: ("producer_name", "string", False),
        3: ("producer_version", "string", False),
        4: ("domain", "string", False),
        5: ("model_version", "string", False),
        6: ("doc_string", "string", False),
        7: ("graph", "GraphProto", False),
        8: ("functions", "GraphProto", True),
        10: ("little_endian", "bool", False),
        12: ("primitives", "PrimitiveProto", True),
        13: ("mind_ir_version", "int64", False),
    },
    "GraphProto": {
        1: ("node", "NodeProto", True),
        2: ("name", "string", False),
        3: ("parameter", "TensorProto", True),
        4: ("doc_string", "string", False),
        5: ("input", "ValueInfoProto", True),
        6: ("output", "ValueInfoProto", True),
        7: ("bprop_hash", "string", False),
        8: ("attribute", "AttributeProto", True),
        9: ("bprop_filepath", "string", False),
    },
    "NodeProto": {
        1: ("input", "string", True),
        2: ("output", "string", True),
        3: ("name", "string", False),
        4: ("op_type", "string", False),
        5: ("attribute", "AttributeProto", True),
        6: ("doc_string", "string", False),
        7: ("domain", "string", False),
        8: ("node_attr", "AttributeProto", True),
        9: ("primal_attr", "AttributeProto", True),
    },
    "PrimitiveProto": {
        1: ("name", "string", False),
        2: ("op_type", "string", False),
        3: ("attribute", "AttributeProto", True),
        4: ("instance_name", "string", False),
        5: ("prim_type", "enum", False),
    },
    "AttributeProto": {
        1: ("name", "string", False),
        2: ("f", "float", False),
        3: ("i", "int64", False),
        4: ("d", "double", False),
        5: ("s", "bytes", False),
        6: ("t", "TensorProto", False),
        7: ("g", "GraphProto", False),
        8: ("floats", "float", True),
        9: ("doubles", "double", True),
        10: ("ints", "int64", True),
        11: ("strings", "bytes", True),
        12: ("tensors", "TensorProto", True),
        13: ("graphs", "GraphProto", True),
        14: ("doc_string", "string", False),
        15: ("ref_attr_name", "string", False),
        16: ("type", "enum", False),
        17: ("values", "AttributeProto", True),
        18: ("seq_info", "SeqInfoProto", False),
    },
    "SeqInfoProto": {
        1: ("is_dyn_len", "bool", False),
        2: ("tuple_elem_item", "AttributeProto", False),
    },
    "ValueInfoProto": {
        1: ("name", "string", False),
        2: ("tensor", "TensorProto", True),
        3: ("doc_string", "string", False),
        4: ("denotation", "string", False),
        5: ("attr_info", "AttributeProto", False),
    },
    "TensorProto": {
        1: ("dims", "int64", True),
        2: ("data_type", "int32", False),
        3: ("float_data", "float", True),
        4: ("int32_data", "int32", True),
        5: ("string_data", "bytes", True),
        6: ("int64_data", "int64", True),
        7: ("name", "string", False),
        8: ("doc_string", "string", False),
        9: ("raw_data", "bytes", False),
        10: ("double_data", "double", True),
        11: ("uint64_data", "uint64", True),
        12: ("external_data", "ExternalDataProto", False),
        13: ("ref_key", "string", False),
        14: ("min_dims", "int64", True),
        15: ("max_dims", "int64", True),
        16: ("compression_type", "enum", False),
    },
    "ExternalDataProto": {
        1: ("location", "string", False),
        2: ("offset", "int64", False),
        3: ("length", "int64", False),
    },
}
