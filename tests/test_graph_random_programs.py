"""Differential testing of graph mode: seeded random programs run op by op, under ``jit``
and as GRAPH_MODE Cells must agree (or raise a documented GraphSyntaxError naming the
file, line and column) — never a wrong result, an internal error or a hang.

The generator is :mod:`random_programs`; ``benchmarks/bench_graph_random_programs.py`` runs a
longer series and reports compile times.  ``REFMS_RANDOM_PROGRAMS`` sets how many
programs this test runs (default 120), ``REFMS_RANDOM_GRADIENTS`` how many of them also
have their compiled gradients compared with PyNative's (default 40).
"""
import collections
import os

import numpy as np
import pytest

from refms import Tensor

import random_programs as R

COUNT = int(os.environ.get("REFMS_RANDOM_PROGRAMS", "120"))
#: A compile over this many seconds counts as a hang (the slowest program compiles in ~3 s).
LIMIT_S = 30.0


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    return R.write_module(tmp_path_factory.mktemp("programs"), range(COUNT),
                          "random_programs_generated")


def test_generated_programs_are_valid_python_that_runs_eagerly(programs):
    rng = np.random.default_rng(1)
    x, y = (Tensor(rng.standard_normal(3).astype(np.float32)) for _ in range(2))
    for seed in range(min(COUNT, 20)):
        result = getattr(programs, f"p{seed}")(x, y)
        assert isinstance(result, tuple) and len(result) == 6


def test_random_programs_agree_in_all_three_modes(programs):
    rng = np.random.default_rng(0)
    inputs = (Tensor(rng.standard_normal(3).astype(np.float32)),
              Tensor(rng.standard_normal(3).astype(np.float32)))
    outcomes = [R.check_program(programs, seed, inputs, LIMIT_S) for seed in range(COUNT)]
    counts = collections.Counter(o.kind for o in outcomes)
    bad = [o for o in outcomes if o.kind not in ("agree", "documented")]
    assert not bad, f"{counts}: " + "; ".join(repr(o) for o in bad[:5])
    assert counts["agree"] >= 0.9 * COUNT, counts


#: How many of the programs also have their gradients compared (each compiles J(program)).
GRADIENT_COUNT = int(os.environ.get("REFMS_RANDOM_GRADIENTS", "40"))


def test_random_program_gradients_agree_with_pynative(programs):
    """``jit(grad(p))`` against ``grad(p)`` op by op: loops on Tensor conditions that leave
    early once made the compiled gradient zero (test_graph_loops.py)."""
    rng = np.random.default_rng(0)
    inputs = (Tensor(rng.standard_normal(3).astype(np.float32)),
              Tensor(rng.standard_normal(3).astype(np.float32)))
    outcomes = [R.check_gradient(programs, seed, inputs, LIMIT_S)
                for seed in range(min(COUNT, GRADIENT_COUNT))]
    bad = [o for o in outcomes if o.kind not in ("agree", "documented")]
    assert not bad, "; ".join(repr(o) for o in bad[:5])


def test_a_documented_error_names_file_line_and_column(tmp_path):
    """The only accepted failure, checked on a program MindSpore rejects (``try``)."""
    path = tmp_path / "rejected_program.py"
    path.write_text("def p0(x, y):\n    try:\n        x = x + 1\n    except ValueError:\n"
                    "        pass\n    return x, y\n\n"
                    "import refms as ms\nfrom refms import nn\n"
                    "class C0(nn.Cell):\n    def construct(self, x, y):\n        try:\n"
                    "            x = x + 1\n        except ValueError:\n            pass\n"
                    "        return x, y\n")
    import importlib.util
    import sys
    spec = importlib.util.spec_from_file_location("rejected_program", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["rejected_program"] = module
    spec.loader.exec_module(module)
    x = Tensor(np.ones(3, np.float32))
    outcome = R.check_program(module, 0, (x, x))
    assert outcome.kind == "documented", outcome
    assert "rejected_program.py:2:" in outcome.detail
