"""Resolve the counted references on MindSpore 2.10: ``<mindspore python> -m conformance.usage.record_mindspore``.

Reads ``references.tsv`` (``extract.py``) and writes ``api_usage.tsv``: one row
per name of the public API, ``count  namespace  name  on_mindspore``.  A
reference ``mindspore.nn.Dense`` is split at its longest prefix that imports
as a module on MindSpore (namespace ``mindspore.nn``, name ``Dense``); deeper
attributes are dropped, and so are private names (``_name``) (``mindspore.Tensor.from_numpy`` counts as ``Tensor``).
``on_mindspore`` is 1 if the name exists there (0: an older release's name).
A method call ``.name`` is kept only where ``name`` is a public attribute of
MindSpore's ``Tensor`` and not a method of Python's ``str``, ``bytes``,
``list``, ``tuple``, ``dict`` or ``set`` (namespace ``Tensor``).  Names used fewer than 5 times
are dropped.  The conformance report (:mod:`conformance.usage`) weighs the
names an implementation has by these counts.
"""
import collections
import importlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MIN_COUNT = 5


def read_references(path=os.path.join(HERE, "references.tsv")):
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.strip() and not line.startswith("#"):
                count, dotted = line.rstrip("\n").split("\t")
                yield int(count), dotted


def module_or_none(name, cache={}):
    if name not in cache:
        try:
            cache[name] = importlib.import_module(name)
        except Exception:  # noqa: BLE001 - any failure means: not a module there
            cache[name] = None
    return cache[name]


def split(dotted):
    """``(namespace, name, exists)`` of one reference on MindSpore, or None for a bare module."""
    parts = dotted.split(".")
    for k in range(len(parts), 0, -1):
        module = module_or_none(".".join(parts[:k]))
        if module is not None:
            if k == len(parts):
                return None
            return ".".join(parts[:k]), parts[k], hasattr(module, parts[k])
    return None


def main():
    import mindspore
    builtin_methods = {name for kind in (str, bytes, list, tuple, dict, set) for name in dir(kind)}
    tensor_names = {name for name in dir(mindspore.Tensor)
                    if not name.startswith("_") and name not in builtin_methods}
    counts = collections.Counter()
    exists = {}
    for count, dotted in read_references():
        if dotted.startswith("."):
            if dotted[1:] in tensor_names:
                key, found = ("Tensor", dotted[1:]), True
            else:
                continue
        else:
            resolved = split(dotted)
            if resolved is None:
                continue
            if resolved[1].startswith("_"):
                continue                 # private names are not API
            key, found = resolved[:2], resolved[2]
        counts[key] += count
        exists[key] = found
    with open(os.path.join(HERE, "api_usage.tsv"), "w", encoding="utf-8") as handle:
        handle.write(f"# Uses of MindSpore names in mindspore-ai/models (extract.py), resolved on MindSpore "
                     f"{mindspore.__version__} (record_mindspore.py)\n# count\tnamespace\tname\ton_mindspore\n")
        for (namespace, name), count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            if count >= MIN_COUNT:
                handle.write(f"{count}\t{namespace}\t{name}\t{int(exists[(namespace, name)])}\n")
    print(f"{sum(1 for c in counts.values() if c >= MIN_COUNT)} names", file=sys.stderr)


if __name__ == "__main__":
    main()
