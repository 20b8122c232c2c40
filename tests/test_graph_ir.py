"""The IR, its checks and its dumps: verify(), the printer against golden files, save_graphs
files, Graphviz output and ``python -m refms ir``."""
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import refms as ms
from refms import Tensor
from refms.graph import ir_text, GraphCompileError
from refms.graph import graph_ops as G
from refms.graph.ir import FuncGraph, ValueNode, verify
from refms.graph.passes import PIPELINE, describe

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from golden import programs  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
GOLDEN = pathlib.Path(__file__).parent / "golden"
X = Tensor(np.array([3.0], np.float32))
Y = Tensor(np.array([2.0], np.float32))


# -- golden dumps ------------------------------------------------------------------------------

CASES = [(name, stage) for name in ("straight_line", "closure", "if_on_tensor")
         for stage in ("parse", "type_inference", "validate")]


@pytest.mark.parametrize("name,stage", CASES, ids=[f"{n}-{s}" for n, s in CASES])
def test_dump_matches_golden_file(name, stage, monkeypatch):
    monkeypatch.chdir(ROOT)                      # source paths in dumps are relative to here
    text = ir_text(ms.jit(getattr(programs, name)), X, Y, stage=stage)
    path = GOLDEN / f"{name}.{stage}.ir"
    if os.environ.get("REFMS_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_golden_dumps_show_the_mindir_concepts():
    closure = (GOLDEN / "closure.parse.ir").read_text(encoding="utf-8")
    assert "$(@closure_1:a)" in closure                          # a free variable
    assert "parent: [subgraph @closure_1]" in closure             # a nested graph
    assert "resolve(NameSpace[closure], ops)" not in closure      # nothing global used
    branch = (GOLDEN / "if_on_tensor.type_inference.ir").read_text(encoding="utf-8")
    assert "Switch(%1, @✓if_on_tensor_3, @✗if_on_tensor_5)" in branch
    final = (GOLDEN / "if_on_tensor.validate.ir").read_text(encoding="utf-8")
    assert "%3 = %2(%para1_x, %para2_y)" in final                 # closed branches after cconv
    straight = (GOLDEN / "straight_line.validate.ir").read_text(encoding="utf-8")
    assert "Fused[" in straight and "tests/golden/programs.py:" in straight


def test_dumps_never_contain_absolute_paths():
    for path in GOLDEN.glob("*.ir"):
        text = path.read_text(encoding="utf-8")
        assert str(ROOT) not in text and "/tmp/" not in text


# -- verify ------------------------------------------------------------------------------------

def test_verify_accepts_every_stage():
    from refms.graph.compiler import compile_call
    compiled = compile_call(ms.jit(programs.if_on_tensor), (X, Y), keep_stages=True)
    assert [s for s, _ in compiled.stages] == (
        ["parse", "resolve", "type_inference"] + [p.NAME for p in PIPELINE] + ["validate"])
    assert verify(compiled.entry)


def test_verify_rejects_broken_graphs():
    g = FuncGraph("g")
    x = g.add_param("x")
    first = g.apply([G.MAKE_TUPLE, x])
    g.set_output(first)
    g.order.append(first)                                       # twice in the order
    with pytest.raises(GraphCompileError, match="single assignment"):
        verify(g)
    h = FuncGraph("h")
    y = h.add_param("y")
    later = h.apply([G.MAKE_TUPLE, y])
    early = h.apply([G.MAKE_TUPLE, later])
    h.order = [early, later]                                    # used before defined
    h.set_output(early)
    with pytest.raises(GraphCompileError, match="used before it is defined"):
        verify(h)
    k = FuncGraph("k")
    k.set_output(k.apply([ValueNode(3), ValueNode(4)]))        # 3 is not callable
    with pytest.raises(GraphCompileError, match="not callable"):
        verify(k)
    outside = FuncGraph("outside")
    stranger = FuncGraph("stranger")
    z = stranger.add_param("z")
    outside.set_output(outside.apply([G.MAKE_TUPLE, z]))       # another graph's parameter
    with pytest.raises(GraphCompileError, match="outside its scope"):
        verify(outside)


# -- save_graphs, dot, CLI ------------------------------------------------------------------------

def test_save_graphs_writes_a_dump_and_a_dot_file_per_stage(tmp_path):
    ms.set_context(save_graphs=True, save_graphs_path=str(tmp_path))
    ms.jit(programs.closure)(X, Y)
    names = sorted(p.name for p in tmp_path.iterdir())
    stages = ["parse", "resolve", "type_inference"] + [p.NAME for p in PIPELINE] + ["validate"]
    for k, stage in enumerate(stages):
        assert any(n.startswith(f"{k:02d}_{stage}_") and n.endswith(".ir") for n in names), stage
        assert any(n.startswith(f"{k:02d}_{stage}_") and n.endswith(".dot") for n in names), stage
    for path in tmp_path.iterdir():
        assert str(tmp_path) not in path.read_text(encoding="utf-8")
    dot = next(tmp_path.glob("02_type_inference_*.dot")).read_text(encoding="utf-8")
    assert dot.startswith("digraph refms_ir {") and "cluster_" in dot


def test_pipeline_is_printable():
    text = describe()
    assert text.splitlines()[0].startswith("1. inline — ")
    for name in ("inline", "constant_fold", "cse", "dce", "fusion", "cconv"):
        assert f" {name} — " in text


def test_command_line_prints_the_ir(tmp_path):
    script = tmp_path / "script.py"
    script.write_text(
        "import numpy as np\n"
        "import mindspore as ms\n"
        "@ms.jit\n"
        "def add_fn(x, y):\n"
        "    return ms.ops.add(x, y) * 2\n"
        "print(add_fn(ms.Tensor(np.ones(2, np.float32)), ms.Tensor(np.ones(2, np.float32))))\n",
        encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "refms", "ir", str(script)], capture_output=True,
                          text=True, env=env, cwd=tmp_path, check=True)
    assert "# ===== graph 1: add_fn (validate) =====" in done.stdout
    assert "Fused[Add→Mul](%para1_x, %para2_y, I64(2))" in done.stdout     # the folded 2 shown
    assert "[4. 4.]" in done.stdout
    done = subprocess.run([sys.executable, "-m", "refms", "ir", "--stage", "parse", str(script)],
                          capture_output=True, text=True, env=env, cwd=tmp_path, check=True)
    assert "resolve(NameSpace[add_fn], ms)" in done.stdout
