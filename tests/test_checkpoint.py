"""Checkpoints: the protobuf wire codec, the .ckpt layout, save/load semantics, interop with MindSpore.

semantics 10 is the specification; the seed example is seed 003
("参数保存和加载": names, ``[[1. 1.]]``, ``[1.]``).
"""
import os
import shutil
import stat
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import refms as ms
from refms import Parameter, Tensor, nn, ops
from refms.checkpoint import ckpt_format, serialization, wire


# -- the wire format -------------------------------------------------------------------------

@pytest.mark.parametrize("value, encoded", [
    (0, "00"), (1, "01"), (127, "7f"), (128, "8001"), (300, "ac02"), (2 ** 63 - 1, "ffffffffffffffff7f"),
    (-1, "ffffffffffffffffff01"),
])
def test_varint_encoding_matches_the_protobuf_guide(value, encoded):
    assert wire.encode_varint(value).hex() == encoded
    reader = wire.Reader(bytes.fromhex(encoded))
    assert reader.read_int64() == value
    assert reader.at_end()


def test_reader_rejects_malformed_buffers():
    with pytest.raises(wire.WireError, match="truncated varint"):
        wire.Reader(b"\x80").read_varint()
    with pytest.raises(wire.WireError, match="longer than ten bytes"):
        wire.Reader(b"\xff" * 11).read_varint()
    with pytest.raises(wire.WireError, match="invalid field key"):
        wire.Reader(b"\x03").read_key()           # field 0
    with pytest.raises(wire.WireError, match="claims 5 bytes"):
        reader = wire.Reader(b"\x0a\x05ab")
        reader.read_key()
        reader.read_length_delimited()


def test_value_layout_is_the_2_10_wire_example():
    """semantics 10.1: a = Int32 [1, 2] starts ``0a 18 | 0a 01 'a' | 12 13 | 08 02 | 12 05 'Int32' | 1a 08 ...``."""
    entry = serialization.tensor_to_entry("a", Tensor(np.array([1, 2], np.int32)))
    data = ckpt_format.encode_entry(*entry)
    assert data.hex() == ("0a18" "0a0161" "1213" "0802" "1205" + b"Int32".hex() + "1a08"
                          "01000000" "02000000")
    assert ckpt_format.decode_checkpoint(data) == [entry]


def test_decoder_accepts_packed_dims_unknown_fields_and_any_field_order():
    tensor = (wire.encode_length_delimited(3, b"\x00\x00\x80\x3f" * 6)
              + wire.encode_length_delimited(1, wire.encode_varint(2) + wire.encode_varint(3))
              + wire.encode_key(9, wire.VARINT) + wire.encode_varint(7)        # unknown field
              + wire.encode_length_delimited(2, b"Float32"))
    value = wire.encode_length_delimited(2, tensor) + wire.encode_length_delimited(1, b"w")
    data = wire.encode_length_delimited(1, value)
    (entry,) = ckpt_format.decode_checkpoint(data)
    assert entry.tag == "w" and entry.dims == (2, 3) and entry.tensor_type == "Float32"
    value = serialization.entry_to_value(entry, "x.ckpt")
    np.testing.assert_array_equal(value.asnumpy(), np.ones((2, 3), np.float32))


def test_decoder_names_missing_required_fields():
    value = wire.encode_length_delimited(1, b"w")                   # no tensor
    with pytest.raises(wire.WireError, match="has no tensor"):
        ckpt_format.decode_checkpoint(wire.encode_length_delimited(1, value))
    tensor = wire.encode_length_delimited(3, b"")                    # no tensor_type
    value = wire.encode_length_delimited(1, b"w") + wire.encode_length_delimited(2, tensor)
    with pytest.raises(wire.WireError, match="tensor_type"):
        ckpt_format.decode_checkpoint(wire.encode_length_delimited(1, value))


# -- save / load round trips ----------------------------------------------------------------

ALL_DTYPES = [ms.bool_, ms.int8, ms.int16, ms.int32, ms.int64, ms.uint8, ms.uint16, ms.uint32,
              ms.uint64, ms.float16, ms.float32, ms.float64, ms.bfloat16]


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_every_dtype_round_trips(tmp_path, dtype):
    values = np.array([[0, 1, 2], [3, 1, 0]]).astype(dtype.np_type)
    path = str(tmp_path / "t.ckpt")
    ms.save_checkpoint([{"name": "x", "data": Tensor(values, dtype)}], path)
    loaded = ms.load_checkpoint(path)["x"]
    assert isinstance(loaded, Parameter) and loaded.dtype is dtype and loaded.shape == (2, 3)
    np.testing.assert_array_equal(loaded.asnumpy(), values)


def test_bfloat16_is_stored_as_its_high_16_bits(tmp_path):
    """semantics 10.1: BFloat16 [1, 2] is ``803f0040``."""
    entry = serialization.tensor_to_entry("b", Tensor([1.0, 2.0], ms.bfloat16))
    assert entry.tensor_type == "BFloat16" and entry.content.hex() == "803f0040"


def test_append_dict_entries(tmp_path):
    """int -> Int64 0-d, float -> Float32 0-d, bool -> Bool, str -> 'str' with dims [0]."""
    path = str(tmp_path / "a.ckpt")
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    ms.save_checkpoint(net, path, append_dict={"epoch_num": 3, "lr": 0.5, "flag": True,
                                               "note": "hello", "empty": ""})
    loaded = ms.load_checkpoint(path)
    assert list(loaded) == ["weight", "bias", "epoch_num", "lr", "flag", "note", "empty"]
    assert loaded["epoch_num"].dtype is ms.int64 and loaded["epoch_num"].shape == ()
    assert loaded["lr"].dtype is ms.float32 and float(loaded["lr"]) == 0.5
    assert loaded["flag"].dtype is ms.bool_
    assert loaded["note"] == "hello" and loaded["empty"] == ""
    entries = ckpt_format.decode_checkpoint(open(path, "rb").read())
    assert entries[5] == ckpt_format.Entry("note", (0,), "str", "hello".encode("utf-32-le"))


def test_save_accepts_cells_lists_of_dicts_lists_of_parameters_and_dicts(tmp_path):
    p = Parameter(Tensor(np.ones(2, np.float32)), name="p")
    for obj in ([{"name": "p", "data": p}], [p], {"p": p}):
        path = str(tmp_path / "obj")
        ms.save_checkpoint(obj, path)              # '.ckpt' is appended
        assert list(ms.load_checkpoint(path + ".ckpt")) == ["p"]
        os.remove(path + ".ckpt")
    with pytest.raises(TypeError, match="save_obj"):
        ms.save_checkpoint(3, str(tmp_path / "x.ckpt"))
    with pytest.raises(TypeError, match="data in dict"):
        ms.save_checkpoint([{"name": "p", "data": 1}], str(tmp_path / "x.ckpt"))
    with pytest.raises(IsADirectoryError):
        ms.save_checkpoint([p], str(tmp_path))


def test_cell_checkpoint_uses_parameter_names_in_enumeration_order(tmp_path):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(3, 2)
            self.bn = nn.BatchNorm1d(2)

    path = str(tmp_path / "net.ckpt")
    ms.save_checkpoint(Net(), path)
    assert list(ms.load_checkpoint(path)) == ["fc.weight", "fc.bias", "bn.moving_mean",
                                              "bn.moving_variance", "bn.gamma", "bn.beta"]


def test_large_tensors_are_split_and_joined_again(tmp_path, monkeypatch):
    """MindSpore writes a tensor over SLICE_SIZE as consecutive values with one tag."""
    monkeypatch.setattr(serialization, "SLICE_SIZE_KB", 1)
    values = np.arange(1000, dtype=np.float32).reshape(10, 100)
    path = str(tmp_path / "big.ckpt")
    ms.save_checkpoint([{"name": "big", "data": Tensor(values)}], path)
    entries = ckpt_format.decode_checkpoint(open(path, "rb").read())
    assert len(entries) == 4 and {e.tag for e in entries} == {"big"}
    np.testing.assert_array_equal(ms.load_checkpoint(path)["big"].asnumpy(), values)


def test_crc_trailer_is_written_and_checked(tmp_path):
    path = str(tmp_path / "crc.ckpt")
    ms.save_checkpoint([{"name": "w", "data": Tensor([1.0, 2.0])}], path, crc_check=True)
    data = open(path, "rb").read()
    assert data[-17:-10] == b"crc_num"
    assert list(ms.load_checkpoint(path, crc_check=True)) == ["w"]
    os.chmod(path, stat.S_IWUSR | stat.S_IRUSR)
    corrupted = bytearray(data)
    corrupted[-20] ^= 0xFF                         # a content byte
    open(path, "wb").write(bytes(corrupted))
    with pytest.raises(ValueError, match="crc check is failed"):
        ms.load_checkpoint(path, crc_check=True)


def test_prefix_filters_and_choice_func(tmp_path):
    path = str(tmp_path / "f.ckpt")
    ms.save_checkpoint([{"name": n, "data": Tensor([1.0])} for n in ("a.w", "a.b", "c.w")], path)
    assert list(ms.load_checkpoint(path, filter_prefix="a.")) == ["c.w"]
    assert list(ms.load_checkpoint(path, specify_prefix=["a.", "zz"])) == ["a.w", "a.b"]
    assert list(ms.load_checkpoint(path, choice_func=lambda n: n.endswith("w"))) == ["a.w", "c.w"]
    with pytest.raises(ValueError, match="empty after filter"):
        ms.load_checkpoint(path, specify_prefix="zz")
    with pytest.raises(ValueError, match="can't include ''"):
        ms.load_checkpoint(path, filter_prefix=[""])


# -- atomic writes and bad files -------------------------------------------------------------

def test_writes_are_atomic_and_leave_a_read_only_file(tmp_path):
    path = str(tmp_path / "w.ckpt")
    ms.save_checkpoint([{"name": "w", "data": Tensor([1.0])}], path)
    ms.save_checkpoint([{"name": "w", "data": Tensor([2.0])}], path)     # replaces the read-only file
    assert float(ms.load_checkpoint(path)["w"].asnumpy()[0]) == 2.0
    assert stat.S_IMODE(os.stat(path).st_mode) == stat.S_IRUSR
    assert os.listdir(tmp_path) == ["w.ckpt"]                           # no temporary file left


def test_a_failed_write_keeps_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    path = str(tmp_path / "w.ckpt")
    ms.save_checkpoint([{"name": "w", "data": Tensor([1.0])}], path)

    def broken_fsync(fd):
        raise OSError("disk full")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(OSError, match="disk full"):
        ms.save_checkpoint([{"name": "w", "data": Tensor([2.0])}], path)
    assert os.listdir(tmp_path) == ["w.ckpt"]
    assert float(ms.load_checkpoint(path)["w"].asnumpy()[0]) == 1.0


def _net_with_ones():
    return nn.Dense(2, 1, weight_init="ones", bias_init="ones")


@pytest.mark.parametrize("cut", [1, 10, -3])
def test_truncated_file_raises_and_leaves_the_network_untouched(tmp_path, cut):
    source = nn.Dense(2, 1, weight_init="zeros", bias_init="zeros")
    path = str(tmp_path / "t.ckpt")
    ms.save_checkpoint(source, path)
    data = open(path, "rb").read()
    bad = str(tmp_path / "bad.ckpt")
    open(bad, "wb").write(data[:cut])
    net = _net_with_ones()
    with pytest.raises(ValueError, match="corrupted"):
        ms.load_checkpoint(bad, net=net)
    np.testing.assert_array_equal(net.weight.asnumpy(), [[1.0, 1.0]])
    np.testing.assert_array_equal(net.bias.asnumpy(), [1.0])


def test_garbage_and_inconsistent_content_raise_clear_errors(tmp_path):
    bad = str(tmp_path / "garbage.ckpt")
    open(bad, "wb").write(b"\xff\xff\xff")
    with pytest.raises(ValueError, match="Failed to read the checkpoint file"):
        ms.load_checkpoint(bad)
    wrong_size = ckpt_format.encode_entry("w", (3,), "Float32", b"\x00" * 8)
    open(bad, "wb").write(wrong_size)
    with pytest.raises(ValueError, match="claims shape \\[3\\] of Float32 \\(12 bytes\\) but holds 8"):
        ms.load_checkpoint(bad)
    open(bad, "wb").write(ckpt_format.encode_entry("w", (1,), "Float8", b"\x00"))
    with pytest.raises(ValueError, match="unknown tensor_type 'Float8'"):
        ms.load_checkpoint(bad)
    with pytest.raises(ValueError, match="does not exist"):
        ms.load_checkpoint(str(tmp_path / "missing.ckpt"))
    with pytest.raises(ValueError, match="format must same"):
        ms.load_checkpoint(str(tmp_path / "x.txt"))


# -- load_param_into_net ---------------------------------------------------------------------

def test_load_param_into_net_reports_both_sides_in_2_x():
    net = nn.Dense(2, 1, weight_init="zeros", bias_init="zeros")
    params = {"weight": Parameter(Tensor(np.ones((1, 2), np.float32)), name="weight"),
              "extra": Parameter(Tensor([1.0]), name="extra")}
    assert ms.load_param_into_net(net, params) == (["bias"], ["extra"])
    np.testing.assert_array_equal(net.weight.asnumpy(), [[1.0, 1.0]])
    np.testing.assert_array_equal(net.bias.asnumpy(), [0.0])


def test_load_param_into_net_returns_a_list_under_r1_compat():
    ms.set_context(compat="1.7")
    net = nn.Dense(2, 1, weight_init="zeros", bias_init="zeros")
    assert ms.load_param_into_net(net, {}) == ["weight", "bias"]


def test_load_param_into_net_matches_keys_by_suffix_and_by_key():
    net = nn.Dense(2, 1, weight_init="zeros", bias_init="zeros")
    params = {"net.fc.weight": Parameter(Tensor(np.full((1, 2), 2.0, np.float32)), name="x"),
              "net.fc.bias": Parameter(Tensor([3.0]), name="zzz")}
    net.weight.name, net.bias.name = "fc.weight", "fc.bias"
    not_loaded, ckpt_not_loaded = ms.load_param_into_net(net, params)
    assert not_loaded == [] and ckpt_not_loaded == ["net.fc.weight", "net.fc.bias"]
    np.testing.assert_array_equal(net.weight.asnumpy(), [[2.0, 2.0]])
    np.testing.assert_array_equal(net.bias.asnumpy(), [3.0])
    assert net.bias.name == "fc.bias"                    # the key matters, not the value's name


def test_load_param_into_net_checks_everything_before_writing():
    net = _net_with_ones()
    params = {"weight": Parameter(Tensor(np.zeros((1, 2), np.float32)), name="weight"),
              "bias": Parameter(Tensor(np.zeros((2,), np.float32)), name="bias")}
    with pytest.raises(RuntimeError, match="should have the same shape"):
        ms.load_param_into_net(net, params)
    np.testing.assert_array_equal(net.weight.asnumpy(), [[1.0, 1.0]])     # untouched


def test_load_param_into_net_dtype_rules():
    net = _net_with_ones()
    wide = {"bias": Parameter(Tensor(np.array([5.0])), name="bias")}        # Float64 -> Float32
    ms.load_param_into_net(net, wide)
    assert net.bias.dtype is ms.float32 and float(net.bias.asnumpy()[0]) == 5.0
    with pytest.raises(RuntimeError, match="same type"):
        ms.load_param_into_net(net, {"bias": Parameter(Tensor(np.array([5], np.int32)), name="b")})
    with pytest.raises(RuntimeError, match="same type"):
        ms.load_param_into_net(net, wide, strict_load=True)
    with pytest.raises(TypeError, match="'str' and 'Parameter'"):
        ms.load_param_into_net(net, {"bias": Tensor([1.0])})
    with pytest.raises(TypeError, match="should be a Cell"):
        ms.load_param_into_net({}, {})


def test_trailing_unit_dimensions_are_squeezed_on_load():
    net = nn.Dense(2, 1, weight_init="zeros", bias_init="zeros")
    ms.load_param_into_net(net, {"bias": Parameter(Tensor(np.ones((1, 1, 1), np.float32)), name="b")})
    np.testing.assert_array_equal(net.bias.asnumpy(), [1.0])


# -- the seed example -----------------------------------------------------------------------

def test_seed003_checkpoint_example(tmp_path, capsys, monkeypatch):
    """Seed 003 "参数保存和加载" under its r1.x defaults (bias initialised to zeros)."""
    monkeypatch.chdir(tmp_path)
    ms.set_context(compat="1.10")
    net = nn.Dense(2, 1, has_bias=True)
    for param in net.get_parameters():
        print(param.name, param.data.asnumpy())
    ms.save_checkpoint(net, "dense.ckpt")
    dense_params = ms.load_checkpoint("dense.ckpt")
    print(dense_params)
    new_params = {}
    for param_name in dense_params:
        print(param_name, dense_params[param_name].data.asnumpy())
        new_params[param_name] = ms.Parameter(ops.ones_like(dense_params[param_name].data),
                                              name=param_name)
    ms.load_param_into_net(net, new_params)
    for param in net.get_parameters():
        print(param.name, param.data.asnumpy())
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("weight [[") and lines[1] == "bias [0.]"      # random weight
    assert lines[2] == ("{'weight': Parameter (name=weight, shape=(1, 2), dtype=Float32, "
                        "requires_grad=True), 'bias': Parameter (name=bias, shape=(1,), "
                        "dtype=Float32, requires_grad=True)}")
    assert lines[3] == lines[0] and lines[4] == "bias [0.]"
    assert lines[5:] == ["weight [[1. 1.]]", "bias [1.]"]


# -- interoperability with MindSpore ---------------------------------------------------------

def _mindspore_python():
    """An interpreter that can import mindspore: this one, or $REFMS_MINDSPORE_PYTHON."""
    try:
        import mindspore  # noqa: F401  (only whether it imports matters)
        return sys.executable
    except ImportError:
        pass
    candidate = os.environ.get("REFMS_MINDSPORE_PYTHON")
    if candidate and (shutil.which(candidate) or os.path.exists(candidate)):
        return candidate
    return None


MINDSPORE_PYTHON = _mindspore_python()
needs_mindspore = pytest.mark.skipif(
    MINDSPORE_PYTHON is None,
    reason="mindspore is not importable here (set REFMS_MINDSPORE_PYTHON to a Python that has it)")

_MS_SCRIPT = textwrap.dedent("""
    import sys, numpy as np, mindspore as ms
    from mindspore import Tensor
    mode, path = sys.argv[1], sys.argv[2]
    if mode == "read":
        for name, value in ms.load_checkpoint(path).items():
            if isinstance(value, str):
                print(name, "str", repr(value))
            else:
                array = value.float().asnumpy() if value.dtype == ms.bfloat16 else value.asnumpy()
                print(name, value.dtype, value.shape, array.ravel().tolist())
    else:
        data = [{"name": "f32", "data": Tensor(np.array([[1.5, -2.0], [3.25, 0.0]], np.float32))},
                {"name": "i64", "data": Tensor(np.array([-7, 8], np.int64))},
                {"name": "f16", "data": Tensor(np.array([0.5, 1.0], np.float16))},
                {"name": "bf16", "data": Tensor([1.0, 2.0], ms.bfloat16)},
                {"name": "flags", "data": Tensor(np.array([True, False]))},
                {"name": "scalar", "data": Tensor(np.array(2.5, np.float64))}]
        ms.save_checkpoint(data, path, append_dict={"epoch_num": 4, "note": "from ms"})
""")


def _run_mindspore(tmp_path, *args):
    script = tmp_path / "ms_side.py"
    script.write_text(_MS_SCRIPT)
    env = dict(os.environ, GLOG_v="3")
    done = subprocess.run([MINDSPORE_PYTHON, str(script), *args], capture_output=True, text=True,
                          env=env, timeout=300, cwd=str(tmp_path))
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@needs_mindspore
def test_refms_checkpoint_loads_in_mindspore_with_identical_values(tmp_path):
    path = str(tmp_path / "refms.ckpt")
    data = [{"name": "f32", "data": Tensor(np.array([[1.5, -2.0], [3.25, 0.0]], np.float32))},
            {"name": "i64", "data": Tensor(np.array([-7, 8], np.int64))},
            {"name": "f16", "data": Tensor(np.array([0.5, 1.0], np.float16))},
            {"name": "bf16", "data": Tensor([1.0, 2.0], ms.bfloat16)},
            {"name": "flags", "data": Tensor(np.array([True, False]))},
            {"name": "scalar", "data": Tensor(np.array(2.5, np.float64))}]
    ms.save_checkpoint(data, path, append_dict={"epoch_num": 4, "note": "from ms"})
    out = _run_mindspore(tmp_path, "read", path).splitlines()
    assert out == ["f32 Float32 (2, 2) [1.5, -2.0, 3.25, 0.0]", "i64 Int64 (2,) [-7, 8]",
                   "f16 Float16 (2,) [0.5, 1.0]", "bf16 BFloat16 (2,) [1.0, 2.0]",
                   "flags Bool (2,) [True, False]", "scalar Float64 () [2.5]",
                   "epoch_num Int64 () [4]", "note str 'from ms'"]
    written_by_mindspore = str(tmp_path / "ms.ckpt")
    _run_mindspore(tmp_path, "write", written_by_mindspore)
    assert open(written_by_mindspore, "rb").read() == open(path, "rb").read()   # byte-identical


@needs_mindspore
def test_mindspore_checkpoint_loads_in_refms(tmp_path):
    path = str(tmp_path / "ms.ckpt")
    _run_mindspore(tmp_path, "write", path)
    loaded = ms.load_checkpoint(path)
    assert list(loaded) == ["f32", "i64", "f16", "bf16", "flags", "scalar", "epoch_num", "note"]
    np.testing.assert_array_equal(loaded["f32"].asnumpy(), [[1.5, -2.0], [3.25, 0.0]])
    assert loaded["i64"].dtype is ms.int64 and loaded["i64"].asnumpy().tolist() == [-7, 8]
    assert loaded["f16"].dtype is ms.float16 and loaded["bf16"].dtype is ms.bfloat16
    assert loaded["bf16"].asnumpy().tolist() == [1.0, 2.0]
    assert loaded["flags"].asnumpy().tolist() == [True, False]
    assert loaded["scalar"].shape == () and loaded["scalar"].dtype is ms.float64
    assert loaded["note"] == "from ms" and int(loaded["epoch_num"]) == 4
