"""The conformance report page: the suite is run against refms while the site is built.

The suite writes its machine-readable results (``python -m conformance
--json PATH``); this directive turns them into tables: per page and per area,
how many cases passed, failed or are checked by properties only, and one row
per case with its verdict and the MindSpore version of the output it checks.
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
        by = {}
        for case in cases:
            key = (case.get("page", ""), case.get("area", ""))
            by.setdefault(key, {}).setdefault(case["verdict"], 0)
            by[key][case["verdict"]] += 1
        verdicts = sorted({case["verdict"] for case in cases})
        summary = [[page, area] + [counts.get(v, 0) for v in verdicts]
                   for (page, area), counts in sorted(by.items())]
        out = [table(["page", "area"] + verdicts, summary)]
        detail = [[case["id"], case.get("title", ""), case.get("version", ""), case["verdict"]]
                  for case in cases]
        out.append(table(["case", "title", "version", "verdict"], detail))
        return out
