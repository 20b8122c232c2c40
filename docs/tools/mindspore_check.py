"""Run the tutorials' examples on real MindSpore and compare with what the pages say it prints.

The tutorials, and the examples of the classes on the reference pages, are
written as MindSpore programs (``import mindspore as ms``).
Sphinx's doctest builder runs them on refms; this script runs the same code on
MindSpore 2.10, in its own process per page, so that every output printed in
the tutorials is MindSpore's and not only refms's::

    /path/to/mindspore-venv/bin/python docs/tools/mindspore_check.py docs/tutorials/*.rst docs/reference/*.rst

``--write`` records instead of checking: every ``testoutput`` block is
replaced by what MindSpore printed (how the tutorials' outputs were made).

A page reads its blocks in order: ``testsetup``, ``testcode`` and the
``testoutput`` that follows a ``testcode``.  A block whose options include
``:skipif: mindspore_skip`` documents an older release's behaviour (the page
says which) and is not run here; its output is checked by the conformance
case of the seed page it comes from.  Exit status 1 if any output differs.
"""
import doctest
import io
import os
import re
import sys
import tempfile
import traceback
import types
from contextlib import redirect_stdout

SETUP = """
import numpy as np
import mindspore
mindspore.set_context(mode=mindspore.PYNATIVE_MODE, device_target="CPU")
mindspore.set_seed(0)
"""

DIRECTIVE = re.compile(r"^( *)\.\. (testsetup|testcode|testoutput)::(.*)$")


def blocks(lines):
    """``(kind, options, body, start, end, indent)`` for every doctest block of an .rst page, in order.

    ``lines[start:end]`` holds the block's body, indented by ``indent`` (three spaces
    more than its directive: a block may sit inside another directive, such as the
    ``autoclass`` of a reference page).
    """
    i = 0
    while i < len(lines):
        match = DIRECTIVE.match(lines[i])
        i += 1
        if not match:
            continue
        kind, options = match.group(2), []
        indent = len(match.group(1)) + 3
        while i < len(lines) and lines[i].strip().startswith(":"):
            options.append(lines[i].strip())
            i += 1
        start = i
        while i < len(lines) and (not lines[i].strip() or lines[i].startswith(" " * indent)):
            i += 1
        end = i
        while end > start and not lines[end - 1].strip():
            end -= 1
        body = "\n".join(line[indent:] for line in lines[start:end]).strip("\n") + "\n"
        yield kind, options, body, start, end, indent


def page_module(path, lines):
    """A real module whose source file holds the page's code at the page's line numbers.

    MindSpore's graph compiler reads a Cell's source with ``inspect``, which needs
    the class in an importable module backed by a file; every other line is blank.
    """
    source = [""] * len(lines)
    for kind, options, _, start, end, indent in blocks(lines):
        if kind != "testoutput" and not any("mindspore_skip" in o for o in options):
            source[start:end] = [line[indent:] for line in lines[start:end]]
    name = "tutorial_" + re.sub(r"\W", "_", os.path.splitext(os.path.basename(path))[0])
    handle, filename = tempfile.mkstemp(prefix=name + "_", suffix=".py")
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        out.write("\n".join(source) + "\n")
    module = types.ModuleType(name)
    module.__file__ = filename
    sys.modules[name] = module
    return module, filename


def check_page(path, write=False):
    lines = open(path, encoding="utf-8").read().splitlines()
    module, filename = page_module(path, lines)
    namespace = module.__dict__
    exec(SETUP, namespace)
    replacements = []
    failures, pending, ran = 0, None, 0
    for kind, options, body, start, end, indent in blocks(lines):
        skipped = any("mindspore_skip" in option for option in options)
        if kind in ("testsetup", "testcode"):
            pending = None
            if skipped:
                continue
            out = io.StringIO()
            try:
                with redirect_stdout(out):
                    code = "\n" * start + "\n".join(line[indent:] for line in lines[start:end])
                    exec(compile(code, filename, "exec"), namespace)
            except Exception:   # noqa: BLE001 - an exception's last line is part of the output
                error = traceback.format_exception_only(*sys.exc_info()[:2])[-1].strip()
                out.write(error.splitlines()[0] + "\n")
                sys.stderr.write(traceback.format_exc())
            pending = out.getvalue() if kind == "testcode" else None
        elif kind == "testoutput" and pending is not None and not skipped:
            ran += 1
            same = matches(body, pending, options)
            if write and not same:
                replacements.append((start, end, pending, indent))
            elif not write and not same:
                failures += 1
                print(f"--- {path}: MindSpore printed\n{pending}--- the page says\n{body}")
            pending = None
    for start, end, printed, indent in reversed(replacements):
        while start < end and not lines[start].strip():
            start += 1
        lines[start:end] = [" " * indent + line if line else ""
                            for line in printed.rstrip("\n").split("\n")]
    if write:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")
        print(f"{path}: {ran} outputs recorded from MindSpore {mindspore_version()}")
        return 0
    print(f"{path}: {ran} outputs checked, {failures} differ")
    return failures


def matches(documented, printed, options):
    """Does MindSpore's output agree with the page's, under the block's doctest ``:options:``?

    With ``+ELLIPSIS`` the page's ``...`` stands for text that changes from run to
    run (a time); ``--write`` keeps such an output when it still matches.
    """
    flags = 0
    for option in options:
        if option.startswith(":options:"):
            for name in option.split(":", 2)[2].replace(",", " ").split():
                flags |= doctest.OPTIONFLAGS_BY_NAME[name.lstrip("+")]
    if not flags:
        return printed.strip() == documented.strip()
    return doctest.OutputChecker().check_output(documented.strip() + "\n", printed.strip() + "\n", flags)


def mindspore_version():
    import mindspore
    return mindspore.__version__


if __name__ == "__main__":
    arguments = sys.argv[1:]
    write = "--write" in arguments
    pages = [a for a in arguments if a != "--write"]
    sys.exit(1 if sum(check_page(p, write) for p in pages) else 0)
