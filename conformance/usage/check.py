"""``python -m conformance.usage.check [--alias MODULE]``: print, as JSON, which used names the implementation has.

One boolean per row of :func:`conformance.usage.load_usage`, in order.  With
``--alias`` the implementation is reached as scripts reach it (``import
mindspore`` gives ``MODULE``, :mod:`conformance.bootstrap`); without, the real
``mindspore`` is checked.
"""
import argparse
import contextlib
import io
import json
import sys

from conformance.bootstrap import install_alias
from conformance.usage import load_usage, present_names


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m conformance.usage.check")
    parser.add_argument("--alias")
    options = parser.parse_args(argv)
    if options.alias:
        install_alias(options.alias)
    with contextlib.redirect_stdout(io.StringIO()):      # whatever importing prints is not the answer
        found = present_names(load_usage(), options.alias)
    json.dump(found, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
