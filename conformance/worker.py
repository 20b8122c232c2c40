"""Run one structured case in this process and write its findings as JSON.

``python -m conformance.worker --impl NAME --case ID --result FILE``

The runner starts one worker per structured case, so every case begins with
a freshly imported implementation (no mode, seed or compat left over from
another case).
"""
import argparse
import json
import sys
import traceback

from . import adapters, cases
from .case import Checker


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m conformance.worker")
    parser.add_argument("--impl", required=True)
    parser.add_argument("--case", required=True)
    parser.add_argument("--result", required=True)
    options = parser.parse_args(argv)
    case = cases.find(options.case)
    check = Checker()
    error = None
    try:
        ms = adapters.resolve(options.impl).load(case.page.compat)
        case.body(ms, check)
    except Exception:  # noqa: BLE001 - any exception is a finding of the case
        error = traceback.format_exc()
    sys.stdout.flush()
    with open(options.result, "w", encoding="utf-8") as handle:
        json.dump({"problems": check.problems, "notes": check.notes, "error": error}, handle)
    return 0


if __name__ == "__main__":
    sys.exit(main())
