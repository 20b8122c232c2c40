"""Programs written after model-zoo networks (``tests/zoo_model_programs.py``: Inception-v4's
``DenseBnAct`` head, CRNN's blank-padded ``CTCLoss`` labels and its ``Model`` around a user
training cell, ...) compared with what MindSpore 2.10 printed running the same programs
(recorded by ``tests/recorders/record_zoo_models.py``)."""

import pytest

from test_graph_static_syntax import check_program, recorded_programs
from zoo_model_programs import PROGRAMS

RECORDED = recorded_programs("zoo_models.json")


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_program_matches_mindspore(name, tmp_path):
    check_program(PROGRAMS[name], RECORDED[name], str(tmp_path))


def test_every_program_is_recorded():
    assert set(PROGRAMS) == set(RECORDED)
