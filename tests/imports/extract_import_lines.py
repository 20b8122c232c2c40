"""Extract the MindSpore import lines of a source tree into ``import_lines.tsv``.

Run once against a checkout (or bare git directory) of public MindSpore code,
e.g. mindspore-ai/models::

    python tests/imports/extract_import_lines.py /path/to/models/.git

Every ``import``/``from ... import`` statement naming ``mindspore`` in a
``.py`` file is normalised to one line per imported name
(``from mindspore import nn, ops`` -> two lines) and counted.  Only these
lines (and their counts) are checked in as data, not the code they came from.
The second column (does the line resolve on MindSpore 2.10?) is filled in by
``record_mindspore.py``; until then it is ``?``.
"""
import ast
import collections
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "import_lines.tsv")


def python_sources(git_dir):
    """(path, text) of every .py file at HEAD of a git directory."""
    names = subprocess.run(["git", "--git-dir", git_dir, "ls-tree", "-r", "--name-only", "HEAD"],
                           check=True, capture_output=True, text=True).stdout.split("\n")
    names = [n for n in names if n.endswith(".py")]
    batch = subprocess.run(["git", "--git-dir", git_dir, "cat-file", "--batch"],
                           input="".join(f"HEAD:{n}\n" for n in names).encode(),
                           check=True, capture_output=True).stdout
    pos = 0
    for name in names:
        header_end = batch.index(b"\n", pos)
        size = int(batch[pos:header_end].split()[2])
        body = batch[header_end + 1:header_end + 1 + size]
        pos = header_end + 1 + size + 1
        yield name, body.decode("utf-8", errors="replace")


def import_lines(text):
    """Normalised MindSpore import lines of one file (one imported name each)."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "mindspore":
                    lines.append(f"import {alias.name}" + (f" as {alias.asname}" if alias.asname else ""))
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                and node.module.split(".")[0] == "mindspore":
            for alias in node.names:
                lines.append(f"from {node.module} import {alias.name}")
    return lines


def main(git_dir):
    counts = collections.Counter()
    files = 0
    for _, text in python_sources(git_dir):
        found = import_lines(text)
        if found:
            files += 1
        counts.update(found)
    with open(OUT, "w") as f:
        f.write(f"# MindSpore import lines from {files} files of mindspore-ai/models "
                f"(extract_import_lines.py)\n# count\tresolves_on_mindspore_2.10\tline\n")
        for line, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            f.write(f"{count}\t?\t{line}\n")
    print(f"{len(counts)} distinct lines, {sum(counts.values())} occurrences, {files} files")


if __name__ == "__main__":
    main(sys.argv[1])
