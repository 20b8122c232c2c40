"""``python -m refms``: the version, clean one-line errors, ``ir --stage/--dot/--svg``, and
script errors reported as MindSpore reports them (user frames, message, source line)."""
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

import refms

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

GRAPH_SCRIPT = """
import mindspore as ms
from mindspore import ops, Tensor

@ms.jit
def shifted_relu(z):
    return ops.relu(z + 1.0)

print(shifted_relu(Tensor([1.0, -3.0])))
"""

SYNTAX_ERROR_SCRIPT = """
import mindspore as ms
from mindspore import Tensor

@ms.jit
def f(z):
    try:
        return z
    except Exception:
        return z

print(f(Tensor([1.0])))
"""

SHAPE_ERROR_SCRIPT = """
import mindspore as ms
from mindspore import Tensor, ops

@ms.jit
def f(z):
    y = ops.matmul(z, z)
    return y

print(f(Tensor([[1.0, 2.0, 3.0]])))
"""


def refms_cli(tmp_path, *args, env=None, script=None):
    if script is not None:
        (tmp_path / "script.py").write_text(textwrap.dedent(script))
    environment = dict(os.environ, PYTHONPATH=ROOT)
    environment.pop("REFMS_DEBUG", None)
    environment.update(env or {})
    return subprocess.run([sys.executable, "-m", "refms", *args], cwd=tmp_path, env=environment,
                          capture_output=True, text=True, timeout=120)


def assert_clean_error(proc, *words):
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("python -m refms: error:"), proc.stderr
    for word in words:
        assert word in last


def test_version(tmp_path):
    proc = refms_cli(tmp_path, "--version")
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"refms {refms.__version__}"


def test_missing_script(tmp_path):
    assert_clean_error(refms_cli(tmp_path, "run", "missing.py"), "no such script", "missing.py")
    assert_clean_error(refms_cli(tmp_path, "ir", "missing.py"), "no such script")


def test_unknown_stage(tmp_path):
    proc = refms_cli(tmp_path, "ir", "--stage", "nope", "script.py", script=GRAPH_SCRIPT)
    assert_clean_error(proc, "unknown stage 'nope'", "parse", "validate")
    assert "[2. 0.]" not in proc.stdout          # refused before running the script


@pytest.mark.parametrize("args", [["frob"], ["ir", "--bogus", "script.py"], []])
def test_bad_options(tmp_path, args):
    proc = refms_cli(tmp_path, *args, script=GRAPH_SCRIPT)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines()[-1].startswith("python -m refms: error:")


def test_stage_is_honoured(tmp_path):
    parse = refms_cli(tmp_path, "ir", "--stage", "parse", "script.py", script=GRAPH_SCRIPT)
    final = refms_cli(tmp_path, "ir", "script.py")
    assert parse.returncode == final.returncode == 0, parse.stderr + final.stderr
    assert "(parse) =====" in parse.stdout and "(validate) =====" in final.stdout
    assert "Fused" not in parse.stdout and "Fused" in final.stdout    # fusion is a late pass
    assert parse.stdout.strip().endswith("[2. 0.]")


def test_folded_constants_are_shown(tmp_path):
    proc = refms_cli(tmp_path, "ir", "script.py", script=GRAPH_SCRIPT)
    fused = [line for line in proc.stdout.splitlines() if "Fused[Add→ReLU]" in line]
    assert fused and fused[0].strip().endswith("(%para1_z, F32(1.0))"), proc.stdout


def test_dot_file(tmp_path):
    proc = refms_cli(tmp_path, "ir", "--stage", "type_inference", "--dot", "g.dot", "script.py",
                     script=GRAPH_SCRIPT)
    assert proc.returncode == 0, proc.stderr
    source = (tmp_path / "g.dot").read_text()
    assert source.startswith("digraph") and "type_inference" in source and "Add" in source


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_svg_file(tmp_path):
    proc = refms_cli(tmp_path, "ir", "--svg", "g.svg", "script.py", script=GRAPH_SCRIPT)
    assert proc.returncode == 0, proc.stderr
    assert "<svg" in (tmp_path / "g.svg").read_text()


def test_svg_without_graphviz_is_a_clear_error(tmp_path):
    proc = refms_cli(tmp_path, "ir", "--svg", "g.svg", "script.py", script=GRAPH_SCRIPT,
                     env={"PATH": str(tmp_path / "no-such-dir")})
    assert_clean_error(proc, "--svg", "dot")
    assert not (tmp_path / "g.svg").exists()


@pytest.mark.parametrize("script,message,source_line", [
    (SYNTAX_ERROR_SCRIPT, "Unsupported syntax 'Try'", "try:"),
    (SHAPE_ERROR_SCRIPT, "RuntimeError: For 'MatMulExt'", "y = ops.matmul(z, z)"),
])
def test_graph_errors_show_the_user_source_not_refms(tmp_path, script, message, source_line):
    proc = refms_cli(tmp_path, "run", "script.py", script=script)
    assert proc.returncode == 1
    assert message in proc.stderr and source_line in proc.stderr
    # the script's frame, by its absolute path as python shows it (python script.py)
    assert f'File "{tmp_path / "script.py"}"' in proc.stderr
    assert f"{os.sep}refms{os.sep}" not in proc.stderr, proc.stderr     # no refms frames
    assert "REFMS_DEBUG=1" in proc.stderr
    assert len(proc.stderr.splitlines()) < 15

    debug = refms_cli(tmp_path, "run", "script.py", env={"REFMS_DEBUG": "1"})
    assert debug.returncode == 1
    assert f"{os.sep}refms{os.sep}" in debug.stderr                    # the full traceback
