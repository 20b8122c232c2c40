"""Command line: ``python -m refms`` (or ``refms``, once installed).

``refms run script.py [args...]`` runs a MindSpore script on refms (every
``import mindspore`` resolves to refms).

``refms ir [--stage STAGE] [--dot FILE] [--svg FILE] script.py [args...]`` runs it
and prints the IR of every graph it compiles (``jit`` functions, Cells in
GRAPH_MODE) at the last stage (``validate``) unless ``--stage`` names another:
``parse``, ``resolve``, ``type_inference``, a pass (``inline``, ``cse``,
``fusion``…) or ``validate``.  ``--dot FILE`` also writes the Graphviz source
of that stage, ``--svg FILE`` the picture (needs Graphviz's ``dot`` program);
when the script compiles several graphs the second is written to
``FILE-2.dot``/``FILE-2.svg``, and so on.

``refms --version`` prints the version.

Errors are reported the way MindSpore reports them: a problem with the command
(no such script, unknown stage, bad option) is one line and exit status 2; an
exception raised by the script shows the script's own frames, the message and
the line of the user's source it points at, with refms's internal frames left
out (``REFMS_DEBUG=1`` shows the full traceback), and exit status 1.
"""
import argparse
import os
import runpy
import shutil
import subprocess
import sys
import traceback

from . import __version__
from .alias import install
from .graph import passes
from .graph.compiler import observe
from .graph.dot import format_dot

__all__ = ["main", "stages", "user_traceback"]

#: The stages before the passes, and the last one (``stages()`` lists them all).
FRONT_STAGES = ("parse", "resolve", "type_inference")
LAST_STAGE = "validate"

#: The folder of the refms package: frames inside it are refms's internals.
PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def stages():
    """The stages ``--stage`` accepts, in compilation order (the passes as the compiler runs them)."""
    return FRONT_STAGES + tuple(p.NAME for p in passes.PIPELINE) + (LAST_STAGE,)


def _internal(filename):
    path = os.path.abspath(filename)
    return path.startswith(PACKAGE_DIR + os.sep) or filename.startswith("<frozen")


def user_traceback(error):
    """The report of ``error`` with refms's (and runpy's) frames left out, as text."""
    frames = [frame for frame in traceback.extract_tb(error.__traceback__)
              if not _internal(frame.filename)]
    lines = ["Traceback (most recent call last):\n"] if frames else []
    lines += traceback.format_list(frames)
    lines += traceback.format_exception_only(type(error), error)
    return "".join(lines)


def _parser():
    parser = argparse.ArgumentParser(prog="python -m refms", description="refms command line tools")
    parser.add_argument("--version", action="version", version=f"refms {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="{run,ir}")
    run = commands.add_parser("run", help="run a MindSpore script with mindspore aliased to refms")
    run.add_argument("script")
    run.add_argument("args", nargs=argparse.REMAINDER)
    ir = commands.add_parser("ir", help="run a script and print the IR of the graphs it compiles")
    ir.add_argument("--stage", default=LAST_STAGE,
                    help="the compiler stage to print (default: validate, the final program)")
    ir.add_argument("--dot", metavar="FILE", help="also write the Graphviz source of the stage")
    ir.add_argument("--svg", metavar="FILE",
                    help="also draw the stage as SVG (needs Graphviz's `dot` on PATH)")
    ir.add_argument("script")
    ir.add_argument("args", nargs=argparse.REMAINDER)
    return parser


def _run_script(script, args):
    """Run ``script`` as ``__main__``; 1 (and the report on stderr) if it raises."""
    install()
    sys.argv = [script] + args
    try:
        # by its absolute path, as python runs a script: __file__ and tracebacks show it
        runpy.run_path(os.path.abspath(script), run_name="__main__")
    except SystemExit:
        raise
    except BaseException as error:   # noqa: BLE001 - reported like the interpreter, minus refms
        if os.environ.get("REFMS_DEBUG", "").strip() == "1" or isinstance(error, KeyboardInterrupt):
            raise
        sys.stdout.flush()
        sys.stderr.write(user_traceback(error))
        sys.stderr.write("(refms's own frames are hidden; REFMS_DEBUG=1 shows them)\n")
        return 1
    return 0


def _numbered(path, k):
    """``FILE`` for the first graph, ``FILE-2.ext`` for the second..."""
    if k == 1:
        return path
    stem, ext = os.path.splitext(path)
    return f"{stem}-{k}{ext}"


def _ir(options, parser):
    known = stages()
    if options.stage not in known:
        parser.error(f"unknown stage {options.stage!r}; the stages are: {', '.join(known)}")
    dot_program = shutil.which("dot")
    if options.svg and dot_program is None:
        parser.error("--svg needs Graphviz's `dot` program, which is not on PATH; "
                     "write the source with --dot FILE and draw it elsewhere")
    printed = []

    def show(compiled):
        printed.append(compiled.name)
        k = len(printed)
        print(f"# ===== graph {k}: {compiled.name} ({options.stage}) =====")
        print(compiled.text(options.stage))
        if options.dot or options.svg:
            graph = compiled.graphs.get(options.stage)
            source = format_dot(graph, f"{compiled.name}: {options.stage}") if graph else None
            if source is None:
                print(f"# (no graph kept for stage {options.stage!r}: nothing drawn)")
                return
            if options.dot:
                with open(_numbered(options.dot, k), "w", encoding="utf-8") as handle:
                    handle.write(source)
            if options.svg:
                subprocess.run([dot_program, "-Tsvg", "-o", _numbered(options.svg, k)],
                               input=source, text=True, check=True)

    with observe(show):
        status = _run_script(options.script, options.args)
    if not printed:
        print("# (the script compiled no graph: use refms.jit or GRAPH_MODE)")
    return status


def main(argv=None):
    parser = _parser()
    options = parser.parse_args(argv)
    if not os.path.isfile(options.script):
        parser.error(f"no such script: {options.script}")
    if options.command == "run":
        return _run_script(options.script, options.args)
    return _ir(options, parser)


if __name__ == "__main__":
    sys.exit(main())
