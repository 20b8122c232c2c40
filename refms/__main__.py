"""Command line: ``python -m refms run script.py [args...]`` runs a MindSpore script on refms."""
import argparse
import runpy
import sys


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m refms",
                                     description="refms command line tools")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run a MindSpore script with mindspore aliased to refms")
    run.add_argument("script")
    run.add_argument("args", nargs=argparse.REMAINDER)
    options = parser.parse_args(argv)
    if options.command == "run":
        from .alias import install
        install()
        sys.argv = [options.script] + options.args
        runpy.run_path(options.script, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
