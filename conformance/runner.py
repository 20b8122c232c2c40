"""Run the cases against one implementation and say, per case, what happened.

Every case runs in its own subprocess (a transcript through
:mod:`conformance.bootstrap`, a structured case through
:mod:`conformance.worker`), in a fresh temporary directory, so no mode, seed,
compat setting or file leaks from one case into another.

Outcomes:

``passed``            exact tier, output as documented
``property``          property tier, every property holds (never counted as passed)
``failed``            anything else, including a property that does not hold
``expected-failure``  failed, and listed in ``deviations/<impl>.txt`` with its reason
``unexpected-pass``   listed there but passed: counted as failed (strict), so the
                      stale marker gets removed
``not-applicable``    not run: the case does not apply to this implementation or target
                      version (a row ``specific_to`` another implementation, a page newer
                      than the target, a behaviour changed by the target; ``applicability``)

Op-table checks (``kind == "op"``) run in batches, one worker process per batch
of one area: each check builds its own inputs, and starting a process per
check would cost more than the checks.  For an implementation that carries
state between ops in a process (``isolate_failures``: real MindSpore), a
failed check ends its worker and is retried first in a fresh one.
"""
import dataclasses
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from . import compare
from .case import NEWEST, PROPERTY, applies_to

__all__ = ["Result", "load_deviations", "run_case", "run_op_batch", "run_all", "outcome_of",
           "applicability", "OUTCOMES"]

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
OUTCOMES = ("passed", "failed", "property", "expected-failure", "unexpected-pass", "not-applicable")
DEFAULT_TIMEOUT = 600
#: Op-table checks per worker process.
OP_BATCH = 150


@dataclasses.dataclass
class Result:
    case: object
    ok: bool
    problems: list
    seconds: float
    stdout: str = ""
    stderr: str = ""
    notes: list = dataclasses.field(default_factory=list)
    outcome: str = ""
    deviation: str = ""


def load_deviations(path):
    """``case_id: reason`` per line (``#`` starts a comment) -> ``{case_id: reason}``."""
    deviations = {}
    if not path or not os.path.exists(path):
        return deviations
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            case_id, sep, reason = line.partition(":")
            if not sep or not reason.strip():
                raise ValueError(f"{path}:{number}: expected 'case_id: reason', got {line!r}")
            deviations[case_id.strip()] = reason.strip()
    return deviations


def _environment(adapter, compat):
    env = dict(os.environ)
    # The suite's own folder goes last: it makes ``conformance`` importable, and must not
    # shadow the implementation the caller put first (a patched copy, another install).
    env["PYTHONPATH"] = os.pathsep.join([p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
                                        + [REPO])
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.update(adapter.env(compat))
    return env


def _impl(adapter):
    """The ``--impl`` name that resolves to ``adapter`` again in a case's subprocess."""
    return getattr(adapter, "impl", adapter.name)


def _tail(text, lines=12):
    kept = [line for line in text.rstrip().splitlines() if line.strip()]
    return "\n".join(kept[-lines:])


_EXCEPTION_LINE = re.compile(r"^(\w+\.)*\w*(Error|Exception|Warning|Exit|Interrupt)\b(:|$)")


def _check_error(proc, expect):
    """The documented exception: type as the traceback's last line, raised at the documented line."""
    if proc.returncode == 0:
        return [f"no exception; the page documents {expect.type} raised at `{expect.at}`"]
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    # The exception line starts at column 0 (frames are indented); messages may span lines.
    raised = [line for line in lines if _EXCEPTION_LINE.match(line)]
    last = raised[-1] if raised else (lines[-1] if lines else "")
    problems = []
    if not re.match(rf"^(\w+\.)*{re.escape(expect.type)}\b", last):
        problems.append(f"raised `{last}`; the page documents {expect.type}")
    if not any(line.strip() == expect.at for line in lines):
        problems.append(f"the traceback does not show the line `{expect.at}` (the page's error is "
                        f"raised synchronously at that line)")
    if problems:
        problems.append("stderr tail:\n" + _tail(proc.stderr))
    return problems


def run_transcript(case, adapter, workdir, timeout):
    script, prelude = case.source_text()
    script_path = os.path.join(workdir, f"{case.id}.py")
    with open(script_path, "w", encoding="utf-8") as handle:
        handle.write(script)
    command = [sys.executable, "-m", "conformance.bootstrap"]
    if adapter.alias_target:
        command += ["--alias", adapter.alias_target]
    for old, new in adapter.shims.items():
        command += ["--shim", f"{old}={new}"]
    if prelude:
        prelude_path = os.path.join(workdir, f"{case.id}.prelude.py")
        with open(prelude_path, "w", encoding="utf-8") as handle:
            handle.write(prelude)
        command += ["--prelude", prelude_path]
    command.append(script_path)
    runs = []
    for _ in range(case.runs):
        runs.append(subprocess.run(command, cwd=workdir, env=_environment(adapter, case.page.compat),
                                   capture_output=True, text=True, timeout=timeout))
    last = runs[-1]
    if case.expect_error is not None:
        problems = _check_error(last, case.expect_error)
    elif any(proc.returncode != 0 for proc in runs):
        failed = next(proc for proc in runs if proc.returncode != 0)
        problems = [f"the script exited with status {failed.returncode}:\n" + _tail(failed.stderr)]
    elif case.check is not None:
        problems = list(case.check([proc.stdout for proc in runs]))
    else:
        problems = compare.compare_text(case.expected, last.stdout)
    return problems, last.stdout, last.stderr, []


def run_structured(case, adapter, workdir, timeout):
    result_path = os.path.join(workdir, "result.json")
    command = [sys.executable, "-m", "conformance.worker", "--impl", _impl(adapter),
               "--case", case.id, "--result", result_path]
    proc = subprocess.run(command, cwd=workdir, env=_environment(adapter, case.page.compat),
                          capture_output=True, text=True, timeout=timeout)
    if not os.path.exists(result_path):
        return ([f"the worker exited with status {proc.returncode} without a result:\n"
                 + _tail(proc.stderr)], proc.stdout, proc.stderr, [])
    with open(result_path, encoding="utf-8") as handle:
        found = json.load(handle)
    problems = list(found["problems"])
    if found["error"]:
        problems.append("raised:\n" + _tail(found["error"]))
    return problems, proc.stdout, proc.stderr, found["notes"]


def run_case(case, adapter, timeout=DEFAULT_TIMEOUT):
    """Run one case in a fresh temporary directory; a :class:`Result` without an outcome yet."""
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="conformance-") as workdir:
        try:
            runner = run_transcript if case.kind == "transcript" else run_structured
            problems, stdout, stderr, notes = runner(case, adapter, workdir, timeout)
        except subprocess.TimeoutExpired:
            problems, stdout, stderr, notes = [f"timed out after {timeout} s"], "", "", []
    return Result(case, not problems, problems, time.monotonic() - start, stdout, stderr, notes)


def outcome_of(result, deviations):
    """Classify a result given the implementation's known deviations (see the module docstring)."""
    reason = deviations.get(result.case.id)
    if reason is not None:
        return ("unexpected-pass" if result.ok else "expected-failure"), reason
    if not result.ok:
        return "failed", ""
    return ("property" if result.case.tier == PROPERTY else "passed"), ""


def _op_worker(cases, adapter, timeout, stop_after_failure):
    """One worker process over ``cases``: ``(found or None, crash problems)``."""
    with tempfile.TemporaryDirectory(prefix="conformance-") as workdir:
        ids_path = os.path.join(workdir, "ids.txt")
        result_path = os.path.join(workdir, "result.json")
        with open(ids_path, "w", encoding="utf-8") as handle:
            handle.write("\n".join(case.id for case in cases))
        command = [sys.executable, "-m", "conformance.worker", "--impl", _impl(adapter),
                   "--ops", ids_path, "--compat", cases[0].page.compat, "--result", result_path]
        if stop_after_failure:
            command.append("--stop-after-failure")
        try:
            proc = subprocess.run(command, cwd=workdir, env=_environment(adapter, cases[0].page.compat),
                                  capture_output=True, text=True, timeout=timeout)
            found = None
            if os.path.exists(result_path):
                with open(result_path, encoding="utf-8") as handle:
                    found = json.load(handle)
            crash = [f"the op-table worker exited with status {proc.returncode} without a result:\n"
                     + _tail(proc.stderr)]
        except subprocess.TimeoutExpired:
            found, crash = None, [f"the op-table batch timed out after {timeout} s"]
    return found, crash


def run_op_batch(cases, adapter, timeout=DEFAULT_TIMEOUT):
    """Run op-table checks of one area in one worker process; a :class:`Result` per case.

    An adapter with ``isolate_failures = True`` (an implementation that carries state from
    one op to the next within a process) gets a fresh worker after every failed check, and
    a check that failed after others in its worker runs again first in a fresh one: only a
    failure in a fresh process (or with nothing run before it) is recorded.
    """
    if not getattr(adapter, "isolate_failures", False):
        start = time.monotonic()
        found, crash = _op_worker(cases, adapter, timeout, False)
        if found is None:
            share = (time.monotonic() - start) / len(cases)
            return [Result(case, False, list(crash), share) for case in cases]
        return [Result(case, not found[case.id]["problems"], found[case.id]["problems"],
                       found[case.id]["seconds"]) for case in cases]
    results, remaining = {}, list(cases)
    retried = set()
    while remaining:
        start = time.monotonic()
        found, crash = _op_worker(remaining, adapter, timeout, True)
        if not found:                       # the worker died: run its first check alone
            first = remaining[0]
            if len(remaining) > 1:
                found, crash = _op_worker([first], adapter, timeout, True)
            if found:
                results[first.id] = Result(first, not found[first.id]["problems"],
                                           found[first.id]["problems"], found[first.id]["seconds"])
            else:
                results[first.id] = Result(first, False, list(crash), time.monotonic() - start)
            remaining = remaining[1:]
            continue
        ran = [case for case in remaining if case.id in found]
        last = ran[-1]
        failed_late = found[last.id]["problems"] and len(ran) > 1 and last.id not in retried
        for case in ran[:-1] if failed_late else ran:
            results[case.id] = Result(case, not found[case.id]["problems"],
                                      found[case.id]["problems"], found[case.id]["seconds"])
        if failed_late:                     # run it again, first in a fresh process
            retried.add(last.id)
            remaining = remaining[len(ran) - 1:]
        else:
            remaining = remaining[len(ran):]
    return [results[case.id] for case in cases]


def applicability(case, adapter, target=NEWEST):
    """``""`` when the case applies to ``adapter``'s implementation at MindSpore version
    ``target``, else the reason it does not (see :func:`conformance.case.applies_to`)."""
    specific = getattr(case, "specific_to", None)
    if specific and specific != adapter.name:
        return f"checks a choice specific to {specific}"
    return applies_to(case, target)


def _units(cases):
    """Lists of case indices run together: one per case, op-table checks batched per area."""
    units, ops = [], {}
    for index, case in enumerate(cases):
        if case.kind == "op":
            ops.setdefault(case.table, []).append(index)
        else:
            units.append([index])
    for indices in ops.values():
        units += [indices[i:i + OP_BATCH] for i in range(0, len(indices), OP_BATCH)]
    return units


def run_all(cases, adapter, deviations, jobs=4, timeout=DEFAULT_TIMEOUT, on_result=None,
            target=NEWEST, skip=applicability):
    """Run ``cases`` (``jobs`` at a time); results come back in case order.

    ``skip(case, adapter, target)`` gives the reason a case is not run (counted
    ``not-applicable``), or ``""``; ``target=None`` runs every case.  ``on_result`` sees each result in case
    order as soon as it and every earlier one are known.
    """
    results = [None] * len(cases)
    runnable = []
    for index, case in enumerate(cases):
        reason = skip(case, adapter, target) if target is not None else ""
        if reason:
            results[index] = Result(case, True, [], 0.0, outcome="not-applicable", deviation=reason)
        else:
            runnable.append(index)

    def work(unit):
        if cases[unit[0]].kind == "op":
            found = run_op_batch([cases[i] for i in unit], adapter, timeout)
        else:
            found = [run_case(cases[unit[0]], adapter, timeout)]
        for result in found:
            result.outcome, result.deviation = outcome_of(result, deviations)
        return list(zip(unit, found))

    emitted = 0

    def emit():
        nonlocal emitted
        while emitted < len(results) and results[emitted] is not None:
            if on_result:
                on_result(results[emitted])
            emitted += 1

    units = _units([cases[i] for i in runnable])
    units = [[runnable[i] for i in unit] for unit in units]
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        pending = [pool.submit(work, unit) for unit in units]
        emit()
        for future in pending:
            for index, result in future.result():
                results[index] = result
            emit()
    emit()
    return results
