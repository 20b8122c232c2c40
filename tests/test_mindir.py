"""export / load of MindIR files, against MindSpore 2.10 (tests/recorders/record_mindir.py).

MindSpore exported the MLP and LeNet-5 of tests/recorders/mindir_nets.py to
tests/golden/mindir/ms_*.mindir and recorded its outputs; it also loaded the files
refms exports for the same networks (their sha256 recorded) and recorded what
its GraphCell computed.
"""
import hashlib
import os
import sys

import numpy as np
import pytest

import refms as ms
from refms import nn
from refms.train import protobuf
from refms.train.mindir_schema import SCHEMA

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "golden", "mindir")
sys.path.insert(0, os.path.join(HERE, "recorders"))
from mindir_nets import networks  # noqa: E402

RECORDED = np.load(os.path.join(GOLDEN, "recorded.npz"))
NAMES = ["mlp", "lenet"]


@pytest.mark.parametrize("name", NAMES)
def test_protobuf_round_trip_is_byte_identical(name):
    with open(os.path.join(GOLDEN, f"ms_{name}.mindir"), "rb") as f:
        data = f.read()
    model = protobuf.decode(SCHEMA, "ModelProto", data)
    assert model["producer_name"] == "MindSpore" and model["mind_ir_version"] == 3
    assert protobuf.encode(SCHEMA, "ModelProto", model) == data


def test_wire_format_numbers():
    schema = {"M": {1: ("a", "int64", False), 2: ("b", "int32", True), 3: ("c", "float", False),
                    4: ("d", "double", True), 5: ("s", "string", False), 6: ("u", "uint64", False),
                    7: ("m", "M", False), 8: ("f", "bool", False)}}
    value = {"a": -1, "b": [0, 127, 128, -5, 2 ** 31 - 1], "c": 0.5, "d": [1e300, -0.0],
             "s": "é", "u": 2 ** 64 - 1, "m": {"a": 300}, "f": True}
    data = protobuf.encode(schema, "M", value)
    assert data[:11] == b"\x08" + b"\xff" * 9 + b"\x01"            # -1: ten-byte varint
    back = protobuf.decode(schema, "M", data)
    assert {k: back[k] for k in value if k != "m"} == {k: v for k, v in value.items() if k != "m"}
    assert back["m"]["a"] == 300 and back["m"]["b"] == []
    packed = b"\x12\x03\x01\x96\x01"                   # field 2 packed: [1, 150]
    assert protobuf.decode(schema, "M", packed)["b"] == [1, 150]
    assert protobuf.decode(schema, "M", b"\x48\x07\x08\x02") == \
        {"a": 2, "b": [], "d": []}                        # unknown field 9 skipped
    with pytest.raises(ValueError, match="ends inside"):
        protobuf.decode(schema, "M", b"\x08\xff")


@pytest.mark.parametrize("name", NAMES)
def test_load_runs_a_mindspore_export(name):
    graph = ms.load(os.path.join(GOLDEN, f"ms_{name}.mindir"))
    cell = nn.GraphCell(graph)
    out = cell(ms.Tensor(RECORDED[f"{name}/input"]))
    np.testing.assert_allclose(out.asnumpy(), RECORDED[f"{name}/ms_output"], rtol=1e-5,
                               atol=1e-5)
    net, _ = networks(ms)[name]
    assert sorted(p.name for p in cell.get_parameters()) == \
        sorted(p.name for p in net.get_parameters())


@pytest.mark.parametrize("name", NAMES)
def test_export_is_the_file_mindspore_loaded(name, tmp_path):
    """refms writes byte for byte the file MindSpore loaded and ran when recording, and
    MindSpore's result on it equals refms's forward pass."""
    net, x = networks(ms)[name]
    assert ms.export(net, x, file_name=str(tmp_path / name), file_format="MINDIR") is None
    path = str(tmp_path / name) + ".mindir"
    with open(path, "rb") as f:
        assert hashlib.sha256(f.read()).hexdigest() == str(RECORDED[f"{name}/refms_file_sha256"])
    np.testing.assert_allclose(net(x).asnumpy(), RECORDED[f"{name}/ms_runs_refms_file"],
                               rtol=1e-5, atol=1e-5)
    again = nn.GraphCell(ms.load(path))(x)              # and refms reads its own file
    np.testing.assert_array_equal(again.asnumpy(), net(x).asnumpy())
    np.testing.assert_array_equal(ms.load(path)(x).asnumpy(), again.asnumpy())


def test_graph_cell_params_init_and_errors(tmp_path):
    net, x = networks(ms)["mlp"]
    ms.export(net, x, file_name=str(tmp_path / "mlp"))
    path = str(tmp_path / "mlp.mindir")
    zeros = {"fc2.weight": ms.Tensor(np.zeros((3, 8), np.float32)),
             "fc2.bias": ms.Tensor(np.ones(3, np.float32))}
    out = nn.GraphCell(ms.load(path), params_init=zeros)(x)
    np.testing.assert_array_equal(out.asnumpy(), np.ones((2, 3), np.float32))
    with pytest.raises(ValueError, match="not a parameter"):
        nn.GraphCell(ms.load(path), params_init={"nope": zeros["fc2.bias"]})
    with pytest.raises(TypeError, match="takes 1 inputs"):
        nn.GraphCell(ms.load(path))(x, x)
    with pytest.raises(ValueError, match="does not exist"):
        ms.load(str(tmp_path / "missing.mindir"))
    bad = tmp_path / "bad.mindir"
    bad.write_bytes(b"\x0a\xff\xff")
    with pytest.raises(RuntimeError, match="not a valid MindIR"):
        ms.load(str(bad))
    with pytest.raises(NotImplementedError, match="ONNX"):
        ms.export(net, x, file_name=str(tmp_path / "m"), file_format="ONNX")

    class Unsupported(nn.Cell):
        def construct(self, x):
            return ms.ops.exp(x)
    with pytest.raises(NotImplementedError, match="cannot write the primitive Exp"):
        ms.export(Unsupported(), x, file_name=str(tmp_path / "u"))


def test_load_names_an_operator_it_cannot_run(tmp_path):
    with open(os.path.join(GOLDEN, "ms_mlp.mindir"), "rb") as f:
        model = protobuf.decode(SCHEMA, "ModelProto", f.read())
    for prim in model["primitives"]:
        if prim["op_type"] == "ReLU":
            prim["op_type"] = "Erfinv"
    path = tmp_path / "odd.mindir"
    path.write_bytes(protobuf.encode(SCHEMA, "ModelProto", model))
    with pytest.raises(RuntimeError, match="cannot run the operator Erfinv"):
        ms.load(str(path))
