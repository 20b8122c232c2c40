"""Calls the MindSpore application tutorials (cv, nlp, generative) make behave on refms as on MindSpore 2.10.

The probes live in ``tests/recorders/record_apps.py``; their results on
MindSpore 2.10 are recorded in ``tests/recorders/apps.json``.  Each test
runs one probe on refms and compares the whole result.
"""
import os
import sys

import pytest

import refms

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "recorders"))
from record_apps import PROBE_SET  # noqa: E402


@pytest.mark.parametrize("name", sorted(PROBE_SET.probes))
def test_probe_matches_mindspore(name):
    PROBE_SET.check(name, refms)
