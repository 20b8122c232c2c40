"""What the suite prints and writes: per-case lines, the per-area table, the Markdown report and COVERAGE.md."""
import datetime
import json
import os
from collections import OrderedDict

from .case import PROPERTY
from .cases.titles import english

__all__ = ["case_line", "table", "page_key", "summary_line", "markdown_report", "json_report",
           "junit_xml", "title_of", "JSON_SCHEMA", "save_results", "load_saved_results",
           "coverage_markdown"]

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
    """Row label of the per-page table: the page's English title and MindSpore version."""
    return result.case.page.label


def markdown_report(results, adapter, description, options_line, api_coverage=()):
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
           "## API coverage, weighted by use", "", USAGE_NOTE, "",
           "| namespace | names used | present | uses | share of uses present |", "|---|---|---|---|---|",
           *(f"| {e['namespace']} | {e['names']} | {e['present']} | {e['uses']} | {e['weighted']:.1%} |"
             for e in api_coverage), "",
           "## Cases", "", "| case | page | section | tier | outcome | note |", "|---|---|---|---|---|---|"]
    for r in results:
        note = r.deviation or "; ".join(p.splitlines()[0] for p in r.problems) or "; ".join(r.notes)
        out.append(f"| `{r.case.id}` | {r.case.page.label} | {title_of(r.case)} "
                   f"| {r.case.tier} | {r.outcome} | {note.replace('|', '/')} |")
    failures = [r for r in results if r.outcome in ("failed", "unexpected-pass")]
    if failures:
        out += ["", "## Failures", ""]
        for r in failures:
            out += [f"### `{r.case.id}`", "", "```text"] + [p for p in r.problems] + ["```", ""]
    out += ["", f"{detail_line(results)}", "", f"**{summary_line(results)}**", ""]
    return "\n".join(out)


#: What the API-coverage table counts (console, Markdown and the docs page say it the same way).
USAGE_NOTE = ("Names of MindSpore 2.10's API referenced in the Python files of mindspore-ai/models, "
              "counted by conformance/usage/extract.py and resolved on MindSpore 2.10 "
              "(conformance/usage/api_usage.tsv); `Tensor methods` counts method calls by name, "
              "whatever the receiver (numpy's reshape counts too).")


def title_of(case):
    """The case's English title: its section heading translated (op-table sections are English)."""
    return english(case.section)


#: Version of the ``--json`` document's layout (see README.md, "Machine-readable reports").
JSON_SCHEMA = "refms-conformance-report/1"


def _expected_and_got(result):
    """What the page documents and what the implementation printed (empty where not text)."""
    case = result.case
    if case.kind == "transcript":
        return (case.expected or (f"{case.expect_error.type} raised at `{case.expect_error.at}`"
                                  if case.expect_error else "")), result.stdout
    if case.kind == "structured":
        return case.documented, result.stdout
    return "", ""


def json_report(results, adapter, description, command, target, api_coverage=()):
    """The ``--json PATH`` document (a dict; the schema is in README.md).

    ``api_coverage`` is :func:`conformance.usage.coverage`'s table (the names of
    MindSpore's API that public code uses, weighted by use).
    """
    cases = []
    for r in results:
        expected, got = _expected_and_got(r)
        cases.append({
            "id": r.case.id, "title": title_of(r.case), "section": r.case.section,
            "page": r.case.page.english or r.case.page.title,
            "page_title": r.case.page.title, "page_source": r.case.page.seed,
            "area": r.case.area, "version": r.case.page.release, "kind": r.case.kind,
            "tier": r.case.tier, "verdict": r.outcome, "reason": r.deviation,
            "problems": list(r.problems), "notes": list(r.notes),
            "expected": expected, "got": got, "duration": round(r.seconds, 4)})
    counts = {o: sum(r.outcome == o for r in results) for o in LABELS}
    return {"schema": JSON_SCHEMA, "implementation": adapter.name, "description": description,
            "target": target, "command": command,
            "when": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "summary": dict(counts, total=len(results),
                            failed=counts["failed"] + counts["unexpected-pass"]),
            "api_coverage": list(api_coverage), "cases": cases}


def junit_xml(results, adapter, description, target):
    """The ``--junit-xml PATH`` document: one ``<testsuite>`` per area, one ``<testcase>`` per case.

    ``failed`` and ``unexpected-pass`` are ``<failure>``; ``expected-failure`` and
    ``not-applicable`` are ``<skipped>`` with their reason, as pytest writes xfails.
    """
    from xml.etree import ElementTree as ET
    root = ET.Element("testsuites", name=f"conformance of {description} (target {target})")
    suites = OrderedDict()
    for r in results:
        suites.setdefault(r.case.area, []).append(r)
    for area, members in suites.items():
        failures = sum(r.outcome in ("failed", "unexpected-pass") for r in members)
        skipped = sum(r.outcome in ("expected-failure", "not-applicable") for r in members)
        suite = ET.SubElement(root, "testsuite", name=area, tests=str(len(members)),
                              failures=str(failures), errors="0", skipped=str(skipped),
                              time=f"{sum(r.seconds for r in members):.3f}")
        for r in members:
            case = ET.SubElement(suite, "testcase", classname=f"conformance.{adapter.name}.{area}",
                                 name=r.case.id, time=f"{r.seconds:.3f}")
            ET.SubElement(case, "properties")
            for key, value in (("title", title_of(r.case)), ("page", r.case.page.label),
                               ("verdict", r.outcome)):
                ET.SubElement(case[0], "property", name=key, value=value)
            if r.outcome == "failed":
                failure = ET.SubElement(case, "failure", message=(r.problems or ["failed"])[0].splitlines()[0])
                failure.text = "\n".join(r.problems)
            elif r.outcome == "unexpected-pass":
                ET.SubElement(case, "failure", message=f"passes although listed as a deviation: {r.deviation}")
            elif r.outcome in ("expected-failure", "not-applicable"):
                ET.SubElement(case, "skipped", message=f"{r.outcome}: {r.deviation}")
            if r.stdout:
                ET.SubElement(case, "system-out").text = r.stdout
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def save_results(results, adapter, description):
    """Remember a full run's outcomes so COVERAGE.md can show every implementation's status
    (only with ``--coverage``: a plain run writes nothing into the source tree)."""
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
           "Every code block of the five seed pages (the MindSpore tutorial pages the cases were taken from) is listed: a documented",
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
        out += ["", f"## {page.english} — {page.title} (`{page.seed}`)", "",
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
            out.append(f"| {number} | {english(case.section)} | `{case.id}` | {case.kind} | {tier} | "
                       + " | ".join(c.replace("|", "/") for c in cells) + " |")
        if module.UNCASED:
            out += ["", "Code blocks that are not cases:", "", "| section | code | why not a case |",
                    "|---|---|---|"]
            out += [f"| {u.section} | {u.what} | {u.why} |" for u in module.UNCASED]
    missing = [u for module in page_modules for u in module.UNCASED if u.missing]
    out += ["", f"{total_cases} cases; documented examples without a case: "
                f"{', '.join(f'{u.page.seed[:3]} {u.section}' for u in missing) or 'none'}.", ""]
    return "\n".join(out)
