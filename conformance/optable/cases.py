"""The op table as conformance cases: one :class:`~conformance.case.OpCheck` per check of each row.

Case ids are ``op.<area>.<row>.<check>`` (``op.math.Add.forward``,
``op.nn.Conv2D-same.gradient``, ``op.array.Concat.error0``).  All of them
belong to one page, :data:`PAGE`, documenting MindSpore 2.10 — the version the
expected dtypes and errors were checked on.
"""
import time
import traceback

from ..case import OpCheck, Page
from . import checks, load

__all__ = ["PAGE", "op_cases", "run_op_cases"]

PAGE = Page(seed="op-table", title="Per-op table: forward values, float64 gradients, error inputs",
            version="2.10", compat="2.10")


def _section(row, check):
    what = {"forward": "forward values", "gradient": "float64 gradient", "import": "rows module"}
    if check.startswith("error"):
        inputs, error = checks.error_inputs(row, int(check[len("error"):]))
        return f"{row.prim}: bad input raises {error.__name__}"
    return f"{row.prim}: {what[check]}"


def op_cases(implementation):
    """Every op-table check as a case, with the rows built by ``implementation`` (the ``ms`` module)."""
    areas, failures = load(implementation)
    found = []
    for area in sorted(set(areas) | set(failures)):
        if area in failures:
            found.append(OpCheck(f"op.{area}.import", PAGE, f"rows_{area}.py imports", f"ops/{area}",
                                 area, "", "import"))
            continue
        for row in areas[area]:
            for check, _ in checks.checks_of(row):
                found.append(OpCheck(f"op.{area}.{row.name}.{check}", PAGE, _section(row, check),
                                     f"ops/{area}", area, row.name, check, row.specific_to))
    return found


def run_op_cases(implementation, wanted, stop_after_failure=False):
    """Run the checks named by the case ids ``wanted`` (all of one process) against ``implementation``.

    Returns ``{case id: {"problems": [...], "seconds": float}}``; with ``stop_after_failure``
    it returns after the first check that fails, leaving the rest to a fresh process.
    """
    areas, failures = load(implementation, sorted({case_id.split(".")[1] for case_id in wanted}))
    by_id = {}
    for area, rows in areas.items():
        for row in rows:
            for check, function in checks.checks_of(row):
                by_id[f"op.{area}.{row.name}.{check}"] = (row, function)
    results = {}
    for case_id in wanted:
        start = time.monotonic()
        area = case_id.split(".")[1]
        if area in failures:
            problems = [f"rows_{area}.py failed to import:\n{failures[area]}"]
        elif case_id not in by_id:
            problems = [f"no op-table check {case_id!r}"]
        else:
            row, function = by_id[case_id]
            try:
                function(implementation, row)
                problems = []
            except checks.CheckFailed as failure:
                problems = [str(failure)]
            except Exception:       # noqa: BLE001 - anything else is the implementation failing
                problems = [f"{row.prim} ({row.name}) raised:\n"
                            + "".join(traceback.format_exc().splitlines(True)[-8:])]
        results[case_id] = {"problems": problems, "seconds": time.monotonic() - start}
        if problems and stop_after_failure:
            break
    return results
