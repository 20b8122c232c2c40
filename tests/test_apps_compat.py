"""Calls the MindSpore application tutorials (cv, nlp, generative) make behave on refms as on MindSpore 2.10.

The probes live in ``tests/recorders/record_apps.py``; their results on
MindSpore 2.10 are recorded in ``tests/recorders/apps.json``.  Each test
runs one probe on refms and compares the whole result.
"""
import json
import os
import sys

import pytest

import refms

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "recorders"))
import record_apps  # noqa: E402

with open(os.path.join(HERE, "recorders", "apps.json")) as _f:
    RECORDED = json.load(_f)


def as_json(value):
    """``value`` as the recorder stored it (tuples become lists)."""
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("name", sorted(record_apps.PROBES))
def test_probe_matches_mindspore(name):
    assert name in RECORDED, f"probe {name} not recorded: run tests/recorders/record_apps.py"
    got = as_json(record_apps.PROBES[name](refms))
    want = RECORDED[name]
    if isinstance(want, dict):
        for key in want:
            assert got.get(key) == want[key], \
                f"{name}[{key}]: refms {got.get(key)!r}, MindSpore {want[key]!r}"
    assert got == want
