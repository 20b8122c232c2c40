"""Record MindSpore 2.10's behaviour on the programs of ``tests/graph_state_programs.py``
(attribute assignment, subscript assignment and ``mutable`` in graph mode).

Run with the MindSpore environment (not refms), from the repository root::

    /work/msenv/bin/python tests/recorders/record_graph_state.py

Every program runs as a script in its own process (``GLOG_v=3``), the way
``record_static_syntax.py`` runs the documentation's examples; what it printed and the
exception it raised (type and first line) are written to ``tests/golden/graph_state.json``,
which ``tests/test_graph_state.py`` replays on refms.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

from graph_state_programs import PROGRAMS  # noqa: E402
from record_static_syntax import record_programs  # noqa: E402

OUTPUT = os.path.join(os.path.dirname(HERE), "golden", "graph_state.json")


def main():
    record_programs(PROGRAMS, OUTPUT)


if __name__ == "__main__":
    main()
