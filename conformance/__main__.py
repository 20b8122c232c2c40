"""``python -m conformance [--impl NAME] [--target VERSION] [-k PATTERN] [--json PATH] [--junit-xml PATH] [--report FILE.md]``

Runs the documented examples of the seed pages and the per-op table against
one implementation, prints one line per case, a table per area and per page,
and ends with the line ``N passed, M failed``.  Exit status 0 only when
nothing failed; 2 when the run could not start (unknown implementation, bad
option).  Nothing is written anywhere unless an option names the file.
"""
import argparse
import fnmatch
import os
import sys

from . import adapters, cases, report, runner, usage
from .case import NEWEST, version_key
from .optable.cases import PAGE as OP_PAGE, op_cases
from .progress import Progress

HERE = os.path.dirname(os.path.abspath(__file__))

#: The environment variable naming the implementation under test (as array-api-tests'
#: ``ARRAY_API_TESTS_MODULE``); ``--impl`` wins over it.
IMPL_VARIABLE = "CONFORMANCE_IMPL"
#: The environment variable naming the target version (as ``ARRAY_API_TESTS_VERSION``).
TARGET_VARIABLE = "CONFORMANCE_TARGET"


def _selected(all_cases, pattern):
    """``-k``: a substring or glob matched against the case id, area, section and page."""
    if not pattern:
        return all_cases
    def hit(case):
        fields = (case.id, case.area, case.section, report.title_of(case), case.page.seed,
                  case.page.version, case.page.english)
        glob = any(ch in pattern for ch in "*?[")
        return any(fnmatch.fnmatch(f, pattern) if glob else pattern in f for f in fields)
    return [case for case in all_cases if hit(case)]


def _target(text):
    try:
        version_key(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a MindSpore version such as {NEWEST}, "
                                         f"got {text!r}") from None
    if version_key(text) > version_key(NEWEST):
        raise argparse.ArgumentTypeError(f"the suite knows MindSpore up to {NEWEST}, not {text}")
    return text


def _parser():
    parser = argparse.ArgumentParser(prog="python -m conformance",
                                     description=__doc__.split("\n\n")[1])
    parser.add_argument("--impl", default=os.environ.get(IMPL_VARIABLE, "refms"),
                        help=f"refms (default), mindspore, or any importable module "
                             f"(default also from ${IMPL_VARIABLE})")
    parser.add_argument("--target", type=_target, default=os.environ.get(TARGET_VARIABLE, NEWEST),
                        metavar="VERSION",
                        help=f"the MindSpore version the implementation is held to (default {NEWEST}, "
                             f"or ${TARGET_VARIABLE}): cases documenting another version's "
                             f"behaviour count as not applicable")
    parser.add_argument("-k", dest="pattern", help="only cases whose id/area/section/page contain PATTERN")
    parser.add_argument("--json", metavar="PATH", help="write the results as JSON (schema in README.md)")
    parser.add_argument("--junit-xml", metavar="PATH", help="write the results as JUnit XML")
    parser.add_argument("--report", metavar="FILE.md", help="write a Markdown report")
    parser.add_argument("--coverage", action="store_true",
                        help="regenerate COVERAGE.md beside the suite's sources (needs a full run; "
                             "the only option that writes into the suite's folder)")
    parser.add_argument("--deviations", metavar="FILE",
                        help="known deviations (default: deviations/<impl>.txt of the suite)")
    parser.add_argument("-j", "--jobs", type=int, default=min(4, os.cpu_count() or 1),
                        help="cases run at once, each in its own subprocess (default: up to 4)")
    parser.add_argument("--timeout", type=int, default=runner.DEFAULT_TIMEOUT, help="seconds per case")
    parser.add_argument("--list", action="store_true", help="list the selected cases and exit")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on a terminal")
    return parser


def _write(path, text):
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def main(argv=None):
    parser = _parser()
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
            print(f"{case.id:<44} {case.kind:<10} {case.tier:<8} {case.page.release:<5} "
                  f"{report.title_of(case)}")
        return 0
    if not selected:
        print(f"conformance: no case matches {options.pattern!r}", file=sys.stderr)
        return 2
    deviations_path = options.deviations or os.path.join(HERE, "deviations", f"{adapter.name}.txt")
    try:
        deviations = runner.load_deviations(deviations_path)
    except ValueError as error:
        print(f"conformance: {error}", file=sys.stderr)
        return 2
    if options.deviations and not os.path.exists(options.deviations):
        print(f"conformance: no deviations file {options.deviations}", file=sys.stderr)
        return 2
    known = {case.id for case in every_case}
    for stale in sorted(set(deviations) - known):
        print(f"warning: {deviations_path} names an unknown case {stale!r}", file=sys.stderr)

    location = adapter.location() if hasattr(adapter, "location") else "?"
    print(f"conformance: {len(selected)} cases against {description} ({location})")
    print(f"target: MindSpore {options.target} (cases documenting other behaviour are not applicable)")
    print(f"page versions: {adapter.compat_note}")
    if adapter.shims:
        print("shims: " + ", ".join(f"mindspore.{k} = mindspore.{v}" for k, v in adapter.shims.items()))
    print(flush=True)
    progress = Progress(len(selected), label="conformance ",
                        enabled=False if options.no_progress else None)

    def on_result(result):
        progress.write(report.case_line(result))
        progress.update()

    try:
        results = runner.run_all(selected, adapter, deviations, jobs=options.jobs,
                                 timeout=options.timeout, on_result=on_result, target=options.target)
    finally:
        progress.close()
    print()
    print(report.table(results))
    print()
    print(report.table(results, key=report.page_key, title="page"))
    print()
    api_coverage = usage.coverage(adapter)
    if api_coverage:
        print("API coverage: the names of MindSpore's API that public code uses, weighted by use")
        print(usage.format_table(api_coverage))
        print()
    command = "python -m conformance " + " ".join(argv if argv is not None else sys.argv[1:])
    if options.report:
        _write(options.report, report.markdown_report(results, adapter, description, command,
                                                      api_coverage))
        print(f"Markdown report written to {options.report}")
    if options.json:
        import json
        _write(options.json, json.dumps(report.json_report(results, adapter, description, command,
                                                           options.target, api_coverage),
                                        indent=1, ensure_ascii=False) + "\n")
        print(f"JSON results written to {options.json}")
    if options.junit_xml:
        _write(options.junit_xml, report.junit_xml(results, adapter, description, options.target))
        print(f"JUnit XML written to {options.junit_xml}")
    if options.coverage:
        report.save_results(results, adapter, description)
        path = os.path.join(HERE, "COVERAGE.md")
        _write(path, report.coverage_markdown(cases.page_modules(), report.load_saved_results()))
        print(f"coverage written to {path}")
    print(report.detail_line(results))
    print(report.summary_line(results))
    failed = sum(r.outcome in ("failed", "unexpected-pass") for r in results)
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
