"""API coverage weighted by use: which of the MindSpore names that public code uses an implementation has.

The data (``api_usage.tsv``, made by ``extract.py`` then ``record_mindspore.py``)
counts the references to every MindSpore name in mindspore-ai/models, each
split into a namespace (``mindspore.nn``) and a name (``Dense``) on MindSpore
2.10; ``Tensor`` rows are method calls whose name is a MindSpore ``Tensor``
method (a parser does not know the receiver's type, so numpy's ``reshape``
counts too).  Only names that exist on MindSpore 2.10 are judged.

:func:`coverage` checks, in a subprocess that imports the implementation the
way a script does (``import mindspore`` aliased, :mod:`conformance.usage.check`),
which names it has, and :func:`coverage_rows` sums them per namespace group:
distinct names present, and the share of all uses they account for.
"""
import json
import os
import subprocess
import sys

__all__ = ["GROUPS", "load_usage", "group_of", "present_names", "coverage_rows", "coverage"]

HERE = os.path.dirname(os.path.abspath(__file__))

#: Namespace groups of the table, in order: (label, prefix); a namespace joins the first that matches.
GROUPS = (
    ("mindspore (top level)", "mindspore"),
    ("mindspore.nn", "mindspore.nn."),
    ("mindspore.ops", "mindspore.ops."),
    ("mindspore.mint", "mindspore.mint."),
    ("Tensor methods", "Tensor"),
    ("mindspore.common", "mindspore.common."),
    ("mindspore.context", "mindspore.context"),
    ("mindspore.dataset", "mindspore.dataset."),
    ("mindspore.train", "mindspore.train."),
    ("mindspore.communication", "mindspore.communication."),
)
OTHER = "other mindspore.* modules"


def load_usage(path=os.path.join(HERE, "api_usage.tsv")):
    """``[(count, namespace, name)]`` of the names that exist on MindSpore 2.10, most used first."""
    rows = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.strip() and not line.startswith("#"):
                count, namespace, name, on_mindspore = line.rstrip("\n").split("\t")
                if on_mindspore == "1":
                    rows.append((int(count), namespace, name))
    return rows


def group_of(namespace):
    """The table row a namespace belongs to (``mindspore.ops.operations`` -> ``mindspore.ops``)."""
    for label, prefix in GROUPS:
        if namespace == prefix.rstrip(".") or (prefix.endswith(".") and namespace.startswith(prefix)):
            return label
    return OTHER


def present_names(rows, alias_target):
    """``[bool]``: does the implementation behind ``import mindspore`` have each ``(namespace, name)``?

    Runs here, in the process that has the alias installed (``check.py``).
    """
    import importlib
    tensor = importlib.import_module("mindspore").Tensor
    found = []
    for _, namespace, name in rows:
        if namespace == "Tensor":
            found.append(hasattr(tensor, name))
            continue
        try:
            module = importlib.import_module(namespace)
        except Exception:  # noqa: BLE001 - a namespace that does not import has none of its names
            found.append(False)
            continue
        found.append(hasattr(module, name))
    return found


def coverage_rows(rows, found):
    """Per group: ``{"namespace", "names", "present", "uses", "present_uses", "weighted"}`` (+ a total row)."""
    order = [label for label, _ in GROUPS] + [OTHER]
    table = {label: {"namespace": label, "names": 0, "present": 0, "uses": 0, "present_uses": 0}
             for label in order}
    missing = {label: [] for label in order}
    for (count, namespace, name), has in zip(rows, found):
        entry = table[group_of(namespace)]
        entry["names"] += 1
        entry["uses"] += count
        if has:
            entry["present"] += 1
            entry["present_uses"] += count
        else:
            missing[group_of(namespace)].append(f"{namespace}.{name}" if namespace != "Tensor"
                                                else f"Tensor.{name}")
    result = []
    total = {"namespace": "total", "names": 0, "present": 0, "uses": 0, "present_uses": 0}
    for label in order:
        entry = table[label]
        if not entry["names"]:
            continue
        for key in ("names", "present", "uses", "present_uses"):
            total[key] += entry[key]
        entry["most_used_missing"] = missing[label][:8]
        result.append(entry)
    total["most_used_missing"] = []
    result.append(total)
    for entry in result:
        entry["weighted"] = round(entry["present_uses"] / entry["uses"], 4) if entry["uses"] else 0.0
    return result


def coverage(adapter):
    """The coverage rows of one implementation (an adapter of :mod:`conformance.adapters`), or ``[]``
    with a note on stderr if its check fails."""
    root = os.path.dirname(os.path.dirname(HERE))
    command = [sys.executable, "-m", "conformance.usage.check"]
    if adapter.alias_target:
        command += ["--alias", adapter.alias_target]
    proc = subprocess.run(command, capture_output=True, text=True, cwd=root,
                          env=dict(os.environ, PYTHONPATH=os.pathsep.join(
                              p for p in (root, os.environ.get("PYTHONPATH", "")) if p)))
    if proc.returncode != 0:
        print(f"conformance: the API-coverage check failed:\n{proc.stderr[-2000:]}", file=sys.stderr)
        return []
    rows = load_usage()
    return coverage_rows(rows, json.loads(proc.stdout))


def format_table(entries):
    """The console/Markdown-free text table of :func:`coverage_rows`."""
    head = f"{'namespace':<28} {'names':>6} {'present':>8} {'uses':>8} {'weighted':>9}"
    out = [head, "-" * len(head)]
    for e in entries:
        out.append(f"{e['namespace']:<28} {e['names']:>6} {e['present']:>8} {e['uses']:>8} "
                   f"{e['weighted']:>8.1%}")
    return "\n".join(out)
