"""What the suite prints and writes: per-case lines, the per-area table, the Markdown report and COVERAGE.md."""
import datetime
import json
import os
from collections import OrderedDict

from .case import PROPERTY

__all__ = ["case_line", "table", "page_key", "summary_line", "markdown_report", "save_results",
           "load_saved_results", "coverage_markdown"]

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS_DIR = os.path.join(HERE, ".results")
COLUMNS = ("passed", "failed", "property", "expected-failure", "not-applicable")
LABELS = {"passed": "PASS", "failed": "FAIL", "property": "PROPERTY", "expected-failure": "XFAIL",
          "unexpected-pass": "XPASS", "not-applicable": "N/A"}


def case_line(result):
    """One line per case, plus the problems of a failure (indented)."""
    line = f"{LABELS[result.outcome]:<9} {result.case.id:<40} {result.seconds:6.1f}s"
    if result.outcome in ("expected-failure", "unexpected-pass", "not-applicable"):
        line += f"  [{result.deviation}]"
    if result.outcome == "unexpected-pass":
        line += ("\n          passes although listed as a known deviation: "
                 "remove its line from the deviations file")
    if result.outcome == "failed":
        for problem in result.problems:
            line += "\n" + "\n".join("          " + text for text in problem.splitlines())
    for note in result.notes:
        line += f"\n          note: {note}"
    return line


def _counts(results, key):
    rows = OrderedDict()
    for result in results:
        row = rows.setdefault(key(result), dict.fromkeys(COLUMNS, 0))
        column = "failed" if result.outcome == "unexpected-pass" else result.outcome
        row[column] += 1
    return rows


def table(results, key=lambda r: r.case.area, title="area", markdown=False):
    """Counts of outcomes per area (or per page), with a total row."""
    rows = _counts(results, key)
    total = {c: sum(row[c] for row in rows.values()) for c in COLUMNS}
    width = max([len(title), len("total")] + [len(k) for k in rows])
    if markdown:
        out = [f"| {title} | " + " | ".join(COLUMNS) + " |", "|---" * (len(COLUMNS) + 1) + "|"]
        out += [f"| {k} | " + " | ".join(str(row[c]) for c in COLUMNS) + " |" for k, row in rows.items()]
        out.append("| **total** | " + " | ".join(f"**{total[c]}**" for c in COLUMNS) + " |")
        return "\n".join(out)
    head = f"{title:<{width}}  " + "  ".join(f"{c:>16}" if len(c) > 8 else f"{c:>8}"
                                              for c in COLUMNS)
    out = [head, "-" * len(head)]
    for k, row in list(rows.items()) + [("total", total)]:
        if k == "total":
            out.append("-" * len(head))
        out.append(f"{k:<{width}}  " + "  ".join(f"{row[c]:>16}" if len(c) > 8
                                                  else f"{row[c]:>8}" for c in COLUMNS))
    return "\n".join(out)


def summary_line(results):
    """The last line of every run: ``N passed, M failed`` (property tier and expected failures apart)."""
    passed = sum(r.outcome == "passed" for r in results)
    failed = sum(r.outcome in ("failed", "unexpected-pass") for r in results)
    return f"{passed} passed, {failed} failed"


def detail_line(results):
    counts = {o: sum(r.outcome == o for r in results) for o in LABELS}
    return (f"{len(results)} cases: {counts['passed']} passed, {counts['property']} property-tier, "
            f"{counts['expected-failure']} expected failures, {counts['failed']} failed, "
            f"{counts['unexpected-pass']} unexpected passes (counted as failed), "
            f"{counts['not-applicable']} not applicable")


def page_key(result):
    """Row label of the per-page table: seed number and the page's MindSpore version."""
    return f"{result.case.page.seed[:3]} ({result.case.page.version})"


def markdown_report(results, adapter, description, options_line):
    """The ``--report FILE.md`` document."""
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = [f"# Conformance report: {adapter.name}", "",
           f"* implementation: {description}"
           f" ({adapter.location() if hasattr(adapter, 'location') else '?'})",
           f"* page versions: {adapter.compat_note}",
           f"* shims: {', '.join(f'mindspore.{k} = mindspore.{v}' for k, v in adapter.shims.items()) or 'none'}",
           f"* command: `{options_line}`", f"* run: {now}", "",
           "## By area", "", table(results, markdown=True), "",
           "## By page", "", table(results, key=page_key, title="page", markdown=True), "",
           "## Cases", "", "| case | page | section | tier | outcome | note |", "|---|---|---|---|---|---|"]
    for r in results:
        note = r.deviation or "; ".join(p.splitlines()[0] for p in r.problems) or "; ".join(r.notes)
        out.append(f"| `{r.case.id}` | {r.case.page.seed[:3]} {r.case.page.version} | {r.case.section} "
                   f"| {r.case.tier} | {r.outcome} | {note.replace('|', '/')} |")
    failures = [r for r in results if r.outcome in ("failed", "unexpected-pass")]
    if failures:
        out += ["", "## Failures", ""]
        for r in failures:
            out += [f"### `{r.case.id}`", "", "```text"] + [p for p in r.problems] + ["```", ""]
    out += ["", f"{detail_line(results)}", "", f"**{summary_line(results)}**", ""]
    return "\n".join(out)


def save_results(results, adapter, description):
    """Remember a full run's outcomes so COVERAGE.md can show every implementation's status."""
    os.makedirs(RESULTS_DIR, exist_ok=True)
    data = {"impl": adapter.name, "description": description,
            "when": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
            "summary": summary_line(results),
            "cases": {r.case.id: {"outcome": r.outcome, "reason": r.deviation} for r in results}}
    with open(os.path.join(RESULTS_DIR, f"{adapter.name}.json"), "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=1, ensure_ascii=False)


def load_saved_results():
    """``{impl: saved run}`` for every implementation with a saved full run."""
    saved = OrderedDict()
    if os.path.isdir(RESULTS_DIR):
        for name in sorted(os.listdir(RESULTS_DIR)):
            if name.endswith(".json"):
                with open(os.path.join(RESULTS_DIR, name), encoding="utf-8") as handle:
                    data = json.load(handle)
                saved[data["impl"]] = data
    return saved


def coverage_markdown(page_modules, saved):
    """COVERAGE.md: every code block of every seed page, its case (or why none) and its status."""
    impls = list(saved)
    out = ["# Conformance coverage", "",
           "Generated by `python -m conformance --coverage`; do not edit by hand.", "",
           "Every code block of the five seed pages (`../shared/seeds/`) is listed: a documented",
           "example is a case (its id is stable), anything else says why it is not one.",
           "Status columns are the latest full run of each implementation:"]
    for impl, data in saved.items():
        out.append(f"`{impl}` — {data['summary']} ({data['when']}; {data['description']}).")
    out.append("")
    out.append("Outcomes: `passed`; `property` (random output, properties hold; never an exact pass); "
               "`expected-failure` (listed in `deviations/<impl>.txt`, reason shown); `failed`; "
               "`unexpected-pass` (a stale deviation).")
    total_cases = 0
    for module in page_modules:
        page = module.PAGE
        out += ["", f"## {page.seed} — {page.title}", "",
                f"MindSpore {page.version}; runs under compat `{page.compat}`"
                f"{'; a notebook (cells share state: earlier cells run as the prelude)' if page.notebook else ''}.",
                "", "| # | section | case | kind | tier | " + " | ".join(impls) + " |",
                "|---|---|---|---|---|" + "---|" * len(impls)]
        for number, case in enumerate(module.CASES, start=1):
            total_cases += 1
            cells = []
            for impl in impls:
                found = saved[impl]["cases"].get(case.id)
                if found is None:
                    cells.append("not run")
                elif found["reason"]:
                    cells.append(f"{found['outcome']}: {found['reason']}")
                else:
                    cells.append(found["outcome"])
            tier = "property" if case.tier == PROPERTY else "exact"
            out.append(f"| {number} | {case.section} | `{case.id}` | {case.kind} | {tier} | "
                       + " | ".join(c.replace("|", "/") for c in cells) + " |")
        if module.UNCASED:
            out += ["", "Code blocks that are not cases:", "", "| section | code | why not a case |",
                    "|---|---|---|"]
            out += [f"| {u.section} | {u.what} | {u.why} |" for u in module.UNCASED]
    missing = [u for module in page_modules for u in module.UNCASED if u.missing]
    out += ["", f"{total_cases} cases; documented examples without a case: "
                f"{', '.join(f'{u.page.seed[:3]} {u.section}' for u in missing) or 'none'}.", ""]
    return "\n".join(out)
