"""Checkpoints that go wrong: interrupted and killed saves leave no temporary file behind
(after the next save of the same path), and every malformed file raises a ValueError that
names the file and the parameter."""
import os
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import refms as ms
from refms import Tensor, nn
from refms.checkpoint import ckpt_format, serialization

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _save(path, value):
    ms.save_checkpoint([{"name": "w", "data": Tensor([value])}], str(path))


def _value(path):
    return float(ms.load_checkpoint(str(path))["w"].asnumpy()[0])


# -- interrupted and killed saves ---------------------------------------------------------------

def test_an_interrupted_save_removes_its_temporary_file(tmp_path, monkeypatch):
    path = tmp_path / "w.ckpt"
    _save(path, 1.0)

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        _save(path, 2.0)
    assert os.listdir(tmp_path) == ["w.ckpt"]
    monkeypatch.undo()
    assert _value(path) == 1.0


KILLED_SAVER = """
import os, sys, time
import refms as ms
from refms import Tensor

def hang(fd):                      # the payload is written; the process dies before the rename
    print("writing", flush=True)
    time.sleep(600)

os.fsync = hang
ms.save_checkpoint([{"name": "w", "data": Tensor([2.0] * 100000)}], sys.argv[1])
"""


def test_a_save_killed_mid_write_leaves_the_old_file_and_the_next_save_cleans_up(tmp_path):
    path = tmp_path / "w.ckpt"
    _save(path, 1.0)
    child = subprocess.Popen([sys.executable, "-c", textwrap.dedent(KILLED_SAVER), str(path)],
                             env=dict(os.environ, PYTHONPATH=ROOT), stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "writing"
        leftovers = [name for name in os.listdir(tmp_path) if name.endswith(".tmp")]
        assert len(leftovers) == 1 and leftovers[0].startswith(f"w.ckpt.{child.pid}.")
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=60)
        child.stdout.close()
    assert _value(path) == 1.0                              # the old file is intact
    assert len(os.listdir(tmp_path)) == 2                   # the killed save's temporary is left
    _save(path, 3.0)                                        # the next save of the path removes it
    assert os.listdir(tmp_path) == ["w.ckpt"]
    assert _value(path) == 3.0


def test_a_live_process_keeps_its_temporary_file(tmp_path):
    path = tmp_path / "w.ckpt"
    live = tmp_path / f"w.ckpt.{os.getppid()}.abc.tmp"      # our parent: alive
    other = tmp_path / "other.ckpt.999999999.abc.tmp"      # another path's file
    live.write_bytes(b"in progress")
    other.write_bytes(b"not ours")
    _save(path, 1.0)
    assert sorted(os.listdir(tmp_path)) == sorted(["w.ckpt", live.name, other.name])


# -- malformed files ----------------------------------------------------------------------------

def _write(path, data):
    path.write_bytes(data)
    return str(path)


def test_every_truncation_names_the_file_and_the_parameter(tmp_path):
    net = nn.Dense(2, 1, weight_init="zeros", bias_init="zeros")
    good = tmp_path / "good.ckpt"
    ms.save_checkpoint(net, str(good))
    data = good.read_bytes()
    first_value = ckpt_format.decode_checkpoint(data)[0]
    name_end = data.index(first_value.tag.encode()) + len(first_value.tag)
    boundary = len(ckpt_format.encode_entry(*first_value))     # a cut here is a shorter, valid file
    for cut in range(1, len(data)):
        if cut == boundary:
            continue
        bad = _write(tmp_path / "cut.ckpt", data[:cut])
        with pytest.raises(ValueError) as caught:
            ms.load_checkpoint(bad)
        message = str(caught.value)
        assert bad in message, (cut, message)
        if cut >= name_end:
            assert "'weight'" in message or "'bias'" in message, (cut, message)
        else:
            assert "value #0" in message, (cut, message)


def test_65_dimensions_name_the_file_and_the_parameter(tmp_path):
    bad = _write(tmp_path / "dims.ckpt",
                 ckpt_format.encode_entry("deep", (1,) * 65, "Float32", b"\x00" * 4))
    with pytest.raises(ValueError, match=r"parameter 'deep' in .*dims\.ckpt claims 65 dimensions"):
        ms.load_checkpoint(bad)


def test_an_overflowing_dimension_product_names_the_file_and_the_parameter(tmp_path):
    dims = (2 ** 32, 2 ** 32)                   # the product wraps to 0 in int64
    bad = _write(tmp_path / "huge.ckpt", ckpt_format.encode_entry("huge", dims, "Float32", b""))
    with pytest.raises(ValueError, match=r"parameter 'huge' in .*huge\.ckpt claims shape "
                                         r"\[4294967296, 4294967296\]"):
        ms.load_checkpoint(bad)


def test_stale_temporaries_of_dead_processes_only(tmp_path):
    path = str(tmp_path / "w.ckpt")
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    stale = tmp_path / f"w.ckpt.{dead.stdout.strip()}.x1.tmp"
    stale.write_bytes(b"")
    assert serialization.remove_stale_temporaries(path) == [str(stale)]
    assert not stale.exists()
    assert os.listdir(tmp_path) == []
