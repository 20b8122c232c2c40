"""Run structured cases or op-table checks in this process and write the findings as JSON.

``python -m conformance.worker --impl NAME --case ID --result FILE``
``python -m conformance.worker --impl NAME --ops IDS_FILE --compat V --result FILE
[--stop-after-failure]``

The runner starts one worker per structured case, so every case begins with
a freshly imported implementation (no mode, seed or compat left over from
another case).  Op-table checks are quick and independent (each builds its
own inputs), so one worker runs a batch of them (``--ops``: a file of case
ids, one a line) and writes ``{case id: {"problems": [...], "seconds": s}}``; with
``--stop-after-failure`` it stops at the first failed check (the runner goes on in a
fresh worker: see ``runner.run_op_batch``).
"""
import argparse
import json
import sys
import traceback

from . import adapters, cases
from .case import Checker


def run_structured(options):
    case = cases.find(options.case)
    check = Checker()
    error = None
    try:
        ms = adapters.resolve(options.impl).load(case.page.compat)
        case.body(ms, check)
    except Exception:  # noqa: BLE001 - any exception is a finding of the case
        error = traceback.format_exc()
    return {"problems": check.problems, "notes": check.notes, "error": error}


def run_ops(options):
    from .optable.cases import run_op_cases
    with open(options.ops, encoding="utf-8") as handle:
        wanted = [line.strip() for line in handle if line.strip()]
    ms = adapters.resolve(options.impl).load(options.compat)
    return run_op_cases(ms, wanted, stop_after_failure=options.stop_after_failure)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m conformance.worker")
    parser.add_argument("--impl", required=True)
    parser.add_argument("--case")
    parser.add_argument("--ops", metavar="IDS_FILE")
    parser.add_argument("--compat", default="2.10")
    parser.add_argument("--result", required=True)
    parser.add_argument("--stop-after-failure", action="store_true",
                        help="with --ops: return after the first failed check")
    options = parser.parse_args(argv)
    found = run_ops(options) if options.ops else run_structured(options)
    sys.stdout.flush()
    with open(options.result, "w", encoding="utf-8") as handle:
        json.dump(found, handle)
    return 0


if __name__ == "__main__":
    sys.exit(main())
