"""Graph mode against MindSpore 2.10 on in-place list methods of list attributes and
global lists, comprehensions over host values, a training step's effects and
``mutable(dynamic_len=True)`` (programs in ``tests/graph_leftovers_programs.py``, recorded
by ``tests/recorders/record_graph_leftovers.py``).

Each program runs as a script with ``import mindspore`` resolving to refms; where MindSpore
raised, refms must raise the same exception type, otherwise print the same text.
"""

import pytest

from graph_leftovers_programs import PROGRAMS
from test_graph_static_syntax import check_program, program_param, recorded_programs

RECORDED = recorded_programs("graph_leftovers.json")


#: program -> what refms lacks to reproduce MindSpore's result.
_FOLDED_LEN = ("MindSpore 2.10 changes the global list in place when the graph runs (refms "
               "too) but folds a later len(GL) of the same program at compile time, so the "
               "second run still returns the first run's length; refms reads the list when "
               "the graph runs, as Python does")
_DROPPED = ("MindSpore 2.10 drops self.lst.{}() in a Cell's construct: the attribute stays "
            "as it was and a later len(self.lst) is the old length; refms calls the method "
            "once, when the program is compiled (a plain object's method called from a "
            "graph, e.g. a context manager's __exit__ appending to a log, relies on that)")
KNOWN_DIFFERENCES = {
    "attribute_append": _DROPPED.format("append"),
    "attribute_clear": _DROPPED.format("clear"),
    "attribute_pop_append": "MindSpore 2.10 pops from self.lst when the graph runs (refms too) "
                            "but drops self.lst.append(y * 10); refms appends when the graph "
                            "runs (y is known only then)",
    "global_extend": _FOLDED_LEN,
    "global_insert": _FOLDED_LEN,
    "global_pop_append": "MindSpore 2.10 pops from the global list when the graph runs but "
                         "types the copy that GL.append(y * 10) makes with the length the "
                         "list had at compile time (3 at every run); refms takes the length "
                         "when the graph runs (2 at the second run)",
}


@pytest.mark.parametrize("name", [program_param(name, KNOWN_DIFFERENCES) for name in PROGRAMS])
def test_program_matches_mindspore(name, tmp_path):
    check_program(PROGRAMS[name], RECORDED[name], str(tmp_path))


def test_every_program_is_recorded():
    assert set(PROGRAMS) == set(RECORDED)
