"""Every public class on the reference pages has a runnable example, and every nn class is on them.

The reference pages for nn, train, dataset, checkpoint and context document
each class with its own ``.. autoclass::`` block, and the block holds a
``testcode`` with the ``testoutput`` it prints (run by ``sphinx-build -b
doctest``; the outputs are recorded on MindSpore 2.10 by
``docs/tools/mindspore_check.py --write``, or follow from the math where the
block says so).  An ``automodule`` with ``:members:`` would document a class
added to its module later without an example: this test fails then, naming the
class and what to add.
"""
import importlib
import inspect
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGES = ["nn", "train", "dataset", "checkpoint", "context"]
DIRECTIVE = re.compile(r"^\.\. (automodule|autoclass):: (\S+)\s*$")


def directives(page):
    """``[(kind, dotted name, options, body lines)]`` of the page's top-level autodoc directives."""
    with open(os.path.join(ROOT, "docs", "reference", page + ".rst"), encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    found = []
    for i, line in enumerate(lines):
        match = DIRECTIVE.match(line)
        if not match:
            continue
        body = []
        for following in lines[i + 1:]:
            if following.strip() and not following.startswith("   "):
                break
            body.append(following)
        options = [b.strip() for b in body if b.strip().startswith(":")]
        found.append((match.group(1), match.group(2), options, body))
    return found


def member_classes(module_name, options):
    """The public classes autodoc documents for ``automodule`` with these options."""
    members = [o for o in options if o.startswith(":members:")]
    if not members:
        return []
    module = importlib.import_module(module_name)
    listed = members[0][len(":members:"):].strip()
    if listed:
        names = [n.strip() for n in listed.split(",")]
    elif hasattr(module, "__all__"):
        names = list(module.__all__)
    else:
        names = [n for n, v in vars(module).items()
                 if not n.startswith("_") and getattr(v, "__module__", None) == module_name]
    return [(n, getattr(module, n)) for n in names if inspect.isclass(getattr(module, n, None))]


def explicit(page):
    """``{class object: body lines}`` of the page's ``autoclass`` blocks."""
    result = {}
    for kind, dotted, _, body in directives(page):
        if kind == "autoclass":
            module, _, name = dotted.rpartition(".")
            result[getattr(importlib.import_module(module), name)] = body
    return result


def has_example(body):
    text = "\n".join(body)
    return ".. testcode::" in text and ".. testoutput::" in text and "\n      ?\n" not in text + "\n"


@pytest.mark.parametrize("page", PAGES)
def test_every_documented_class_has_an_example(page):
    blocks = explicit(page)
    missing = []
    for kind, dotted, options, _ in directives(page):
        if kind == "automodule":
            for name, cls in member_classes(dotted, options):
                if cls not in blocks:
                    missing.append(f"{dotted}.{name}")
    for cls, body in blocks.items():
        if not has_example(body):
            missing.append(f"{cls.__module__}.{cls.__name__} (its autoclass block has no testcode/testoutput)")
    assert not missing, (
        f"docs/reference/{page}.rst documents these classes without an example: {missing}.  Give each "
        f"its own `.. autoclass::` block with a `.. testcode::` and `.. testoutput::` inside (record "
        f"the output on MindSpore 2.10: docs/tools/mindspore_check.py --write)")


def test_every_public_nn_class_is_on_a_reference_page():
    import refms.nn as nn
    documented = {cls for page in PAGES for cls in explicit(page)}      # nn.Accuracy is train's
    absent = [name for name in nn.__all__
              if inspect.isclass(getattr(nn, name)) and getattr(nn, name) not in documented]
    assert not absent, (f"refms.nn exports classes the reference page does not document: {absent}; "
                        f"add an `.. autoclass::` block with an example to docs/reference/nn.rst")


def test_the_recorder_reads_blocks_nested_in_autoclass():
    import sys
    sys.path.insert(0, os.path.join(ROOT, "docs", "tools"))
    try:
        import mindspore_check
    finally:
        sys.path.pop(0)
    lines = [".. autoclass:: X", "", "   .. testcode::", "", "      print(1)", "",
             "   .. testoutput::", "      :options: +ELLIPSIS", "", "      1...", ""]
    found = list(mindspore_check.blocks(lines))
    assert [(kind, body, indent) for kind, _, body, _, _, indent in found] == [
        ("testcode", "print(1)\n", 6), ("testoutput", "1...\n", 6)]
    assert mindspore_check.matches("1...", "1 2 3", found[1][1])
    assert not mindspore_check.matches("1", "1 2 3", [])
