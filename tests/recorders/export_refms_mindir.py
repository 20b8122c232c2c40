"""Export the MindIR interop networks with refms (called by record_mindir.py).

    PYTHONPATH=. python tests/recorders/export_refms_mindir.py OUT_DIR
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from mindir_nets import networks  # noqa: E402


def main(folder):
    import refms as ms
    for name, (net, x) in networks(ms).items():
        ms.export(net, x, file_name=os.path.join(folder, "refms_" + name), file_format="MINDIR")
        print(os.path.join(folder, "refms_" + name + ".mindir"))


if __name__ == "__main__":
    main(sys.argv[1])
