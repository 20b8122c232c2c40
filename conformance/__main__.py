"""``python -m conformance [--impl refms|mindspore|pkg.module] [-k PATTERN] [--report FILE.md] [--coverage]``

Runs the documented examples of the seed pages against one implementation,
prints one line per case, a table per area and per page, and ends with the
line ``N passed, M failed``.  Exit status 0 only when nothing failed.
"""
import argparse
import fnmatch
import os
import sys

from . import adapters, cases, report, runner
from .optable.cases import PAGE as OP_PAGE, op_cases

HERE = os.path.dirname(os.path.abspath(__file__))


def _selected(all_cases, pattern):
    """``-k``: a substring or glob matched against the case id, area, section and page file."""
    if not pattern:
        return all_cases
    def hit(case):
        fields = (case.id, case.area, case.section, case.page.seed, case.page.version)
        glob = any(ch in pattern for ch in "*?[")
        return any(fnmatch.fnmatch(f, pattern) if glob else pattern in f for f in fields)
    return [case for case in all_cases if hit(case)]


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m conformance", description=__doc__.split("\n\n")[1])
    parser.add_argument("--impl", default="refms",
                        help="refms (default), mindspore, or the name of any importable module")
    parser.add_argument("-k", dest="pattern", help="only cases whose id/area/section/page contain PATTERN")
    parser.add_argument("--report", metavar="FILE.md", help="also write a Markdown report")
    parser.add_argument("--coverage", action="store_true",
                        help="also regenerate conformance/COVERAGE.md (needs a full run)")
    parser.add_argument("--deviations", metavar="FILE",
                        help="known deviations (default conformance/deviations/<impl>.txt)")
    parser.add_argument("-j", "--jobs", type=int, default=min(4, os.cpu_count() or 1),
                        help="cases run at once, each in its own subprocess (default: up to 4)")
    parser.add_argument("--timeout", type=int, default=runner.DEFAULT_TIMEOUT, help="seconds per case")
    parser.add_argument("--list", action="store_true", help="list the selected cases and exit")
    options = parser.parse_args(argv)

    if options.coverage and options.pattern:
        parser.error("--coverage needs the full suite; drop -k")
    try:
        adapter = adapters.resolve(options.impl)
    except Exception as error:  # noqa: BLE001 - any import failure of the implementation
        print(f"conformance: cannot import implementation {options.impl!r}: "
              f"{type(error).__name__}: {error}", file=sys.stderr)
        return 2
    ok, why = adapter.available()
    if not ok:
        print(f"conformance: implementation {options.impl!r} is not available: {why}", file=sys.stderr)
        return 2
    description = adapter.describe()
    every_case = cases.all_cases() + op_cases(adapter.load(OP_PAGE.compat))
    selected = _selected(every_case, options.pattern)
    if options.list:
        for case in selected:
            print(f"{case.id:<40} {case.kind:<10} {case.tier:<8} {case.page.seed[:3]} {case.section}")
        return 0
    if not selected:
        print(f"conformance: no case matches {options.pattern!r}", file=sys.stderr)
        return 2
    deviations_path = options.deviations or os.path.join(HERE, "deviations", f"{adapter.name}.txt")
    deviations = runner.load_deviations(deviations_path)
    known = {case.id for case in every_case}
    for stale in sorted(set(deviations) - known):
        print(f"warning: {deviations_path} names an unknown case {stale!r}", file=sys.stderr)

    location = adapter.location() if hasattr(adapter, "location") else "?"
    print(f"conformance: {len(selected)} cases against {description} ({location})")
    print(f"page versions: {adapter.compat_note}")
    if adapter.shims:
        print("shims: " + ", ".join(f"mindspore.{k} = mindspore.{v}" for k, v in adapter.shims.items()))
    print()
    results = runner.run_all(selected, adapter, deviations, jobs=options.jobs, timeout=options.timeout,
                             on_result=lambda result: print(report.case_line(result), flush=True))
    print()
    print(report.table(results))
    print()
    print(report.table(results, key=report.page_key, title="page"))
    print()
    if options.report:
        command = "python -m conformance " + " ".join(argv if argv is not None else sys.argv[1:])
        with open(options.report, "w", encoding="utf-8") as handle:
            handle.write(report.markdown_report(results, adapter, description, command))
        print(f"report written to {options.report}")
    if not options.pattern:
        report.save_results(results, adapter, description)
    if options.coverage:
        path = os.path.join(HERE, "COVERAGE.md")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(report.coverage_markdown(cases.page_modules(), report.load_saved_results()))
        print(f"coverage written to {path}")
    print(report.detail_line(results))
    print(report.summary_line(results))
    failed = sum(r.outcome in ("failed", "unexpected-pass") for r in results)
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
