"""Graph errors in a plain ``python script.py``: the user's frames and source line
(file:line:column), not the compiler's internal frames."""
import os
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SCRIPTS = {
    "attribute": ("""\
        import numpy as np
        import refms as ms
        from refms import Tensor

        @ms.jit
        def f(x):
            y = x + 1
            z = y.foo_bar()
            return z

        f(Tensor(np.ones(3, np.float32)))
        """, "AttributeError: 'Tensor' object has no attribute 'foo_bar'", "script.py:8:9"),
    "shape": ("""\
        import numpy as np
        import refms as ms
        from refms import Tensor, nn, ops

        class Net(nn.Cell):
            def construct(self, x):
                y = x + 1
                return ops.matmul(y, Tensor(np.ones((4, 4), np.float32)))

        ms.set_context(mode=ms.GRAPH_MODE)
        Net()(Tensor(np.ones(3, np.float32)))
        """, "Error: For 'MatMul", "script.py:8:16"),
    "syntax": ("""\
        import numpy as np
        import refms as ms
        from refms import Tensor

        @ms.jit
        def f(x):
            try:
                x = x + 1
            except ValueError:
                pass
            return x

        f(Tensor(np.ones(3, np.float32)))
        """, "GraphSyntaxError: Unsupported syntax 'Try'", "script.py:7:5"),
}


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_script_error_points_at_user_source(name, tmp_path):
    source, message, where = SCRIPTS[name]
    (tmp_path / "script.py").write_text(textwrap.dedent(source))
    env = dict(os.environ, PYTHONPATH=ROOT, REFMS_CUDA="0")
    env.pop("REFMS_DEBUG", None)
    proc = subprocess.run([sys.executable, "script.py"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1
    report = proc.stderr
    assert message in report and where in report, report
    frames = [line for line in report.splitlines() if line.lstrip().startswith('File "')]
    internal = [line for line in frames if os.path.join(ROOT, "refms") in line]
    assert frames[0].lstrip().startswith(f'File "{tmp_path / "script.py"}"'), report
    assert len(internal) <= 2, report        # the entry the user called, at most


def test_debug_keeps_every_frame(tmp_path):
    source, message, _ = SCRIPTS["attribute"]
    (tmp_path / "script.py").write_text(textwrap.dedent(source))
    env = dict(os.environ, PYTHONPATH=ROOT, REFMS_CUDA="0", REFMS_DEBUG="1")
    proc = subprocess.run([sys.executable, "script.py"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert message in proc.stderr
    assert proc.stderr.count(os.path.join(ROOT, "refms", "graph")) > 5
