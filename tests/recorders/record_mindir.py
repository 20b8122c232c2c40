"""Record MindSpore 2.10's side of the MindIR interop for ``tests/test_mindir.py``.

    GLOG_v=3 /path/to/mindspore-python tests/recorders/record_mindir.py /path/to/refms-python

1. MindSpore exports the networks of mindir_nets.py to tests/golden/mindir/ms_<name>.mindir
   and records its outputs on their inputs;
2. refms (run by the given Python, in its own process) exports the same networks;
   MindSpore loads each file with ``mindspore.load`` + ``nn.GraphCell``, runs it, and the
   outputs are recorded with the file's sha256 (the test checks refms still writes
   exactly that file).
Everything goes to tests/golden/mindir/recorded.npz.
"""
import hashlib
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GOLDEN = os.path.join(ROOT, "tests", "golden", "mindir")
sys.path.insert(0, HERE)
from mindir_nets import networks  # noqa: E402


def main(refms_python):
    import mindspore as ms
    ms.set_context(mode=ms.GRAPH_MODE)
    os.makedirs(GOLDEN, exist_ok=True)
    arrays = {}
    for name, (net, x) in networks(ms).items():
        ms.export(net, x, file_name=os.path.join(GOLDEN, "ms_" + name), file_format="MINDIR")
        os.chmod(os.path.join(GOLDEN, f"ms_{name}.mindir"), 0o644)
        arrays[f"{name}/input"] = x.asnumpy()
        arrays[f"{name}/ms_output"] = net(x).asnumpy()
    folder = tempfile.mkdtemp()
    subprocess.run([refms_python, os.path.join(HERE, "export_refms_mindir.py"), folder],
                   check=True, env=dict(os.environ, PYTHONPATH=ROOT, REFMS_CUDA="0"))
    for name in networks(ms):
        path = os.path.join(folder, f"refms_{name}.mindir")
        with open(path, "rb") as f:
            arrays[f"{name}/refms_file_sha256"] = np.array(hashlib.sha256(f.read()).hexdigest())
        graph_cell = ms.nn.GraphCell(ms.load(path))
        arrays[f"{name}/ms_runs_refms_file"] = graph_cell(ms.Tensor(arrays[f"{name}/input"])) \
            .asnumpy()
    np.savez(os.path.join(GOLDEN, "recorded.npz"), **arrays)
    print("recorded", sorted(arrays))


if __name__ == "__main__":
    main(sys.argv[1])
