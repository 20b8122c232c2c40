"""Calls the MindSpore tutorials make behave on refms as on MindSpore 2.10.

The probes live in ``tests/recorders/record_tutorials.py``; their results on
MindSpore 2.10 are recorded in ``tests/recorders/tutorials.json``.  Each test
runs one probe on refms and compares the whole result.
"""
import os
import sys

import pytest

import refms

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "recorders"))
from record_tutorials import PROBE_SET  # noqa: E402


@pytest.mark.parametrize("name", sorted(PROBE_SET.probes))
def test_probe_matches_mindspore(name):
    PROBE_SET.check(name, refms)
