"""Count how public MindSpore code uses the API: ``python -m conformance.usage.extract GIT_DIR``.

Run once against a checkout (or bare git directory) of public MindSpore code
(mindspore-ai/models); writes ``references.tsv`` here: only the counts of
names, never the code they came from.

Every ``.py`` file is parsed (never run).  Names bound by a MindSpore import
(``import mindspore as ms``, ``import mindspore.nn as nn``, ``from
mindspore.ops import operations as P``, ``from mindspore import Tensor``) are
followed through the file: each reference ``ms.nn.Dense``, ``P.ReduceSum``,
``Tensor`` counts once under its full dotted path (``mindspore.nn.Dense``,
``mindspore.ops.operations.ReduceSum``, ``mindspore.Tensor``), the longest
chain of attributes written.  Which part of a path is a module and which a
name is decided later, on MindSpore itself (``record_mindspore.py``).

Method calls ``<expression>.name(...)`` on anything that is not such a name
are counted as ``.name``: candidates for Tensor methods (the receiver's type is
unknown to a parser, so numpy's ``reshape`` counts too; the report says so).
"""
import ast
import collections
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "references.tsv")


def python_sources(git_dir):
    """``(path, text)`` of every .py file at HEAD of a git directory."""
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


def bound_names(tree):
    """``{local name: dotted MindSpore path}`` for every MindSpore import of a module."""
    bound = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "mindspore":
                    if alias.asname:
                        bound[alias.asname] = alias.name
                    else:
                        bound["mindspore"] = "mindspore"
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                and node.module.split(".")[0] == "mindspore":
            for alias in node.names:
                if alias.name != "*":
                    bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return bound


class References(ast.NodeVisitor):
    """Counts the dotted paths of references to imported MindSpore names, and method calls."""

    def __init__(self, bound):
        self.bound = bound
        self.counts = collections.Counter()

    def chain(self, node):
        """``"mindspore.nn.Dense"`` for ``nn.Dense`` when ``nn`` is bound; else None."""
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if isinstance(node, ast.Name) and node.id in self.bound:
            return ".".join([self.bound[node.id]] + parts[::-1])
        return None

    def visit_Attribute(self, node):
        path = self.chain(node)
        if path is not None:
            self.counts[path] += 1       # the longest chain only: its prefixes are not visited
        else:
            self.generic_visit(node)

    def visit_Name(self, node):
        if node.id in self.bound and isinstance(node.ctx, ast.Load):
            self.counts[self.bound[node.id]] += 1

    def visit_Call(self, node):
        function = node.func
        if isinstance(function, ast.Attribute) and self.chain(function) is None:
            self.counts["." + function.attr] += 1
        self.generic_visit(node)

    def visit_Import(self, node):
        pass                             # an import is not a use

    visit_ImportFrom = visit_Import


def main(git_dir):
    counts = collections.Counter()
    files = 0
    for _, text in python_sources(git_dir):
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        bound = bound_names(tree)
        if not bound:
            continue
        files += 1
        visitor = References(bound)
        visitor.visit(tree)
        counts.update(visitor.counts)
    with open(OUT, "w", encoding="utf-8") as handle:
        handle.write(f"# References to MindSpore names in {files} files of mindspore-ai/models "
                     f"(conformance/usage/extract.py)\n# count\tpath\n")
        for path, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            if count >= 2:
                handle.write(f"{count}\t{path}\n")
    print(f"{len(counts)} distinct paths, {sum(counts.values())} references, {files} files")


if __name__ == "__main__":
    main(sys.argv[1])
