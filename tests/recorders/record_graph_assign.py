"""Record MindSpore 2.10's behaviour on the programs of ``tests/graph_assign_programs.py``
(a Parameter written with ``ops.assign`` and read again: forward values and gradients, in
graph and PyNative mode).

Run with the MindSpore environment (not refms), from the repository root::

    /work/msenv/bin/python tests/recorders/record_graph_assign.py [name ...]

Every program runs as a script in its own process (``GLOG_v=3``), as in
``record_graph_leftovers.py``; what it printed and the exception it raised (type and first
line) are written to ``tests/golden/graph_assign.json``, which ``tests/test_graph_assign.py``
replays on refms.  With names, only those programs are run again.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

from graph_assign_programs import PROGRAMS  # noqa: E402
from record_static_syntax import record_programs  # noqa: E402

OUTPUT = os.path.join(os.path.dirname(HERE), "golden", "graph_assign.json")


def main():
    record_programs(PROGRAMS, OUTPUT, sys.argv[1:])


if __name__ == "__main__":
    main()
