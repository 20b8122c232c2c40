"""Record MindSpore 2.10's output on the programs of ``tests/zoo_model_programs.py``
(layers, losses and training entry points that model-zoo networks need).

Run with the MindSpore environment (not refms), from the repository root::

    /work/msenv/bin/python tests/recorders/record_zoo_models.py [program names]

Every program runs as a script in its own process (``GLOG_v=3``, the runner of
``record_static_syntax.py``); what it printed and the exception it raised are written to
``tests/golden/zoo_models.json``, which ``tests/test_zoo_models.py`` replays on refms.
With program names, only those are recorded again.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

from zoo_model_programs import PROGRAMS  # noqa: E402
from record_static_syntax import record_programs  # noqa: E402

OUTPUT = os.path.join(os.path.dirname(HERE), "golden", "zoo_models.json")


def main():
    record_programs(PROGRAMS, OUTPUT, sys.argv[1:])


if __name__ == "__main__":
    main()
