"""Which lines of ``import_lines.tsv`` resolve on refms (through the ``mindspore`` alias)?

``python tests/imports/resolve.py`` prints the rate and the failing lines,
most used first; ``tests/test_import_resolution.py`` asserts the rate.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load_lines(path=os.path.join(HERE, "import_lines.tsv")):
    """[(count, resolves_on_mindspore, line)] of the data file."""
    rows = []
    with open(path) as f:
        for row in f:
            row = row.rstrip("\n")
            if row and not row.startswith("#"):
                count, on_ms, line = row.split("\t")
                rows.append((int(count), on_ms == "1", line))
    return rows


def resolve_all(rows):
    """[(count, line, error or None)] for the lines that resolve on MindSpore."""
    from refms import alias
    alias.install()
    results = []
    for count, on_ms, line in rows:
        if not on_ms:
            continue
        try:
            exec(line, {})
            error = None
        except Exception as exc:                # noqa: BLE001  (report whatever it raised)
            error = f"{type(exc).__name__}: {exc}"
        results.append((count, line, error))
    return results


def rates(results):
    """(occurrence-weighted rate, distinct-line rate)."""
    total = sum(c for c, _, _ in results)
    ok = sum(c for c, _, e in results if e is None)
    return ok / total, sum(e is None for _, _, e in results) / len(results)


if __name__ == "__main__":
    res = resolve_all(load_lines())
    weighted, distinct = rates(res)
    print(f"weighted {weighted:.1%}  distinct {distinct:.1%}  ({len(res)} lines)")
    for count, line, error in res:
        if error is not None:
            print(f"{count:5d}  {line:70s} {error[:100]}", file=sys.stdout)
