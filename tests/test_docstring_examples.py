"""MindSpore 2.10's own docstring examples print the same on refms.

``tests/recorders/record_docstring_examples.py`` ran every example of the ops,
nn, Tensor, mint, dataset-transform, train and amp docstrings on MindSpore 2.10
and on refms and kept MindSpore's printed outputs of the examples where the two
agree (``tests/golden/docstring_examples.json.gz``: id, code hash, outputs).
This test runs those examples again on refms and compares: words equal, numbers
within tolerance, exceptions by type.

The examples' code is not copied into this repository; it is read from
MindSpore's Python sources (``$REFMS_MINDSPORE_SOURCES``, or the ``mindspore``
package of a virtualenv named ``msenv`` beside the one running the tests).
Without them the test is skipped, saying so.
"""
import glob
import gzip
import json
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "recorders"))

import docstring_examples as dex  # noqa: E402  pylint: disable=wrong-import-position
import record_docstring_examples as recorder  # noqa: E402  pylint: disable=wrong-import-position


def mindspore_sources():
    """The folder of MindSpore's Python package, or ``None``."""
    if os.environ.get("REFMS_MINDSPORE_SOURCES"):
        return os.environ["REFMS_MINDSPORE_SOURCES"]
    beside = os.path.join(os.path.dirname(sys.prefix), "msenv", "lib", "python3*",
                          "site-packages", "mindspore")
    found = sorted(glob.glob(beside))
    return found[0] if found else None


def test_docstring_examples_agree_with_mindspore(tmp_path):
    sources = mindspore_sources()
    if not sources or not os.path.isdir(sources):
        pytest.skip("MindSpore 2.10's Python sources (the examples' code) are not installed; "
                    "set REFMS_MINDSPORE_SOURCES to its mindspore package folder")
    with gzip.open(recorder.GOLDEN, "rt", encoding="utf-8") as handle:
        golden = json.load(handle)["examples"]
    examples = [e for e in dex.extract(sources)
                if e["id"] in golden and golden[e["id"]]["sha"] == e["sha"]]
    assert len(examples) >= 0.95 * len(golden), (
        "only %d of the %d recorded examples found in %s: another MindSpore version?"
        % (len(examples), len(golden), sources))
    results = recorder.run_all(examples, str(tmp_path / "refms.jsonl"), sys.executable,
                               refms=True, batch=400, jobs=1)
    wrong = []
    for example in examples:
        expected = golden[example["id"]]
        actual = results[example["id"]]["out"]
        where = dex.compare(expected["out"], actual, loose=expected["loose"])
        if where is not None:
            wrong.append("%s statement %d:\n  mindspore: %r\n  refms:     %r" % (
                example["id"], where, expected["out"][where] if where < len(expected["out"]) else None,
                actual[where] if where < len(actual) else None))
    assert not wrong, "%d examples differ:\n%s" % (len(wrong), "\n".join(wrong))
