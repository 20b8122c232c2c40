"""The conformance report page: the suite is run against refms while the site is built.

The suite writes its machine-readable results (``python -m conformance
--json PATH``, schema ``refms-conformance-report/1``, see the suite's README);
this directive turns them into tables: the summary, the verdicts per page and
area, one row per documented example (page cases) with its verdict and the
MindSpore version of the output it checks, the operator tier per area, and
the API coverage weighted by use (``api_coverage``).
"""
import json
import os
import subprocess
import sys
import tempfile

from docutils import nodes
from docutils.parsers.rst import Directive


def run_suite():
    """Run the suite against refms in a subprocess and return its JSON results."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "results.json")
        subprocess.run([sys.executable, "-m", "conformance", "--impl", "refms", "--json", path],
                       cwd=root, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       env=dict(os.environ, PYTHONPATH=root))
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)


def table(header, rows):
    """A docutils table with a header row."""
    tgroup = nodes.tgroup(cols=len(header))
    for _ in header:
        tgroup += nodes.colspec(colwidth=1)
    head = nodes.thead()
    row = nodes.row()
    for cell in header:
        entry = nodes.entry()
        entry += nodes.paragraph(text=str(cell))
        row += entry
    head += row
    tgroup += head
    body = nodes.tbody()
    for values in rows:
        row = nodes.row()
        for cell in values:
            entry = nodes.entry()
            entry += nodes.paragraph(text=str(cell))
            row += entry
        body += row
    tgroup += body
    result = nodes.table()
    result += tgroup
    return result


class ConformanceReportDirective(Directive):
    has_content = False

    def run(self):
        results = run_suite()
        cases = results["cases"]
        verdicts = sorted({case["verdict"] for case in cases})
        summary = results["summary"]
        out = [nodes.paragraph(text=(
            f"{results['description']}, target MindSpore {results['target']}: "
            + ", ".join(f"{summary.get(v, 0)} {v}" for v in verdicts)
            + f" of {summary['total']} cases."))]

        pages = [case for case in cases if case["kind"] != "op"]
        operators = [case for case in cases if case["kind"] == "op"]
        out.append(section("Per page and area", table(
            ["page (MindSpore version)", "area"] + verdicts,
            counts_by(pages, lambda c: (f"{c['page']} ({c['version']})", c["area"]), verdicts))))
        out.append(section("Documented examples", table(
            ["case", "title", "version", "verdict"],
            [[c["id"], c["title"], c["version"], c["verdict"]] for c in pages])))
        out.append(section("Operator tier", table(
            ["area"] + verdicts, counts_by(operators, lambda c: (c["area"],), verdicts))))
        out.append(api_coverage_section(results.get("api_coverage", [])))
        return out


def api_coverage_section(entries):
    """The API-coverage table: names of MindSpore's API that public code uses, weighted by use."""
    from conformance.report import USAGE_NOTE

    rows = [[e["namespace"], e["names"], e["present"], e["uses"], f"{e['weighted']:.1%}"] for e in entries]
    block = section("API coverage, weighted by use", nodes.paragraph(text=USAGE_NOTE.replace("`", "")))
    block += table(["namespace", "names used", "present", "uses", "share of uses present"], rows)
    # The most used names that are missing, as a list (too long for a table column on a phone).
    missing = nodes.bullet_list()
    for e in entries:
        if e["most_used_missing"]:
            item = nodes.list_item()
            line = nodes.paragraph()
            line += nodes.strong(text=e["namespace"] + ": ")
            for i, name in enumerate(e["most_used_missing"][:5]):
                if i:
                    line += nodes.Text(", ")
                line += nodes.literal(text=name)
            item += line
            missing += item
    if len(missing):
        block += nodes.paragraph(text="The most used names refms does not have yet, per namespace:")
        block += missing
    return block


def counts_by(cases, key, verdicts):
    """Rows ``key + [count of each verdict]``, in key order."""
    groups = {}
    for case in cases:
        groups.setdefault(key(case), []).append(case["verdict"])
    return [list(k) + [found.count(v) for v in verdicts] for k, found in sorted(groups.items())]


def section(title, body):
    """A rubric-titled block (no new section, so the page's own headings stay in charge)."""
    container = nodes.container()
    container += nodes.rubric(text=title)
    container += body
    return container
