"""Command line.

``python -m refms run script.py [args...]`` runs a MindSpore script on refms.
``python -m refms ir script.py [--stage STAGE] [args...]`` runs it and prints the IR of
every graph it compiles (``jit`` functions, Cells in GRAPH_MODE), at the last stage
(``validate``) unless ``--stage`` names another (``parse``, ``resolve``, ``type_inference``
or a pass: ``inline``, ``cconv``, ``cse``…).
"""
import argparse
import runpy
import sys


def _run_script(script, args):
    from .alias import install
    install()
    sys.argv = [script] + args
    runpy.run_path(script, run_name="__main__")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m refms",
                                     description="refms command line tools")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run a MindSpore script with mindspore aliased to refms")
    run.add_argument("script")
    run.add_argument("args", nargs=argparse.REMAINDER)
    ir = commands.add_parser("ir", help="run a script and print the IR of the graphs it compiles")
    ir.add_argument("--stage", default="validate",
                    help="the compiler stage to print (default: validate, the final program)")
    ir.add_argument("script")
    ir.add_argument("args", nargs=argparse.REMAINDER)
    options = parser.parse_args(argv)
    if options.command == "run":
        _run_script(options.script, options.args)
    elif options.command == "ir":
        from .graph.compiler import observe
        printed = []

        def show(compiled):
            printed.append(compiled.name)
            print(f"# ===== graph {len(printed)}: {compiled.name} ({options.stage}) =====")
            print(compiled.text(options.stage))
        with observe(show):
            _run_script(options.script, options.args)
        if not printed:
            print("# (the script compiled no graph: use refms.jit or GRAPH_MODE)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
