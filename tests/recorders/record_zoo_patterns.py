"""Record MindSpore 2.10's output on the programs of ``tests/zoo_pattern_programs.py``
(training patterns of the model zoo).

Run with the MindSpore environment (not refms), from the repository root::

    /work/msenv/bin/python tests/recorders/record_zoo_patterns.py

Every program runs as a script in its own process (``GLOG_v=3``, the runner of
``record_static_syntax.py``); what it printed and the exception it raised are written to
``tests/golden/zoo_patterns.json``, which ``tests/test_zoo_patterns.py`` replays on refms.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

from zoo_pattern_programs import PROGRAMS  # noqa: E402
from record_static_syntax import record_programs  # noqa: E402

OUTPUT = os.path.join(os.path.dirname(HERE), "golden", "zoo_patterns.json")


def main():
    record_programs(PROGRAMS, OUTPUT)


if __name__ == "__main__":
    main()
