"""Fill in column 2 of ``import_lines.tsv``: does each line resolve on real MindSpore?

Run with the MindSpore 2.10 interpreter (refms never imports mindspore)::

    GLOG_v=3 /work/msenv/bin/python tests/imports/record_mindspore.py

Each line is executed in a fresh namespace; ``1`` means it ran, ``0`` that it
raised (the exception type is written to ``import_lines_mindspore_errors.txt``).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PATH = os.path.join(HERE, "import_lines.tsv")


def main():
    import mindspore
    with open(PATH) as f:
        rows = f.read().split("\n")
    out, errors = [], []
    for row in rows:
        if not row or row.startswith("#"):
            if row.startswith("# MindSpore import lines") and "MindSpore " not in row[20:]:
                row += f"; column 2 recorded on MindSpore {mindspore.__version__}"
            out.append(row)
            continue
        count, _, line = row.split("\t")
        try:
            exec(line, {})
            ok = "1"
        except BaseException as exc:           # noqa: BLE001  (a line may raise anything)
            ok = "0"
            errors.append(f"{line}\t{type(exc).__name__}: {str(exc).splitlines()[0][:120] if str(exc) else ''}")
        out.append(f"{count}\t{ok}\t{line}")
    with open(PATH, "w") as f:
        f.write("\n".join(out))
    with open(os.path.join(HERE, "import_lines_mindspore_errors.txt"), "w") as f:
        f.write("\n".join(errors) + "\n")
    print(f"{sum(r.split(chr(9))[1] == '1' for r in out if r and not r.startswith('#'))} "
          f"of {sum(1 for r in out if r and not r.startswith('#'))} lines resolve", file=sys.stderr)


if __name__ == "__main__":
    main()
