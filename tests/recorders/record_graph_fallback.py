"""Record MindSpore 2.10's results for the JIT Fallback cases of tests/graph_fallback_cases.py.

Run with the MindSpore environment (not refms)::

    GLOG_v=3 /work/msenv/bin/python tests/recorders/record_graph_fallback.py

It writes tests/golden/graph_fallback.json: case name -> result, or the type and first
line of the exception MindSpore raised.

Observed while writing these cases (MindSpore 2.10, CPU): ``set_context(
jit_syntax_level=STRICT)`` does not change the syntax level (``x.asnumpy()`` still runs);
``MS_DEV_JIT_SYNTAX_LEVEL=0`` does, and then ``x.asnumpy()`` is an ``AttributeError``
("In JIT strict mode, cannot get attributes asnumpy ...") while ``int(t)``, ``float(t)`` and
``bool(t)`` of computed Tensors still compile (``(3, True, 1.0)`` for ``int(x.sum()),
bool(x.sum() > 1), float(x[0])`` of ``[1.0, 2.0]``),
and ``values.reverse(); return values`` on a global list returns a reversed copy and leaves the
global unchanged (what the tutorial says of STRICT).
"""
import json
import os
import sys
import tempfile

import mindspore

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from graph_fallback_cases import CASES  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "golden",
                   "graph_fallback.json")


def main():
    os.chdir(tempfile.mkdtemp())     # MindSpore writes rank_0/om/analyze_fail.ir on failures
    results = {}
    for case in CASES:
        try:
            results[case.__name__] = {"result": case(mindspore)}
        except Exception as error:
            results[case.__name__] = {"error": type(error).__name__,
                                      "message": str(error).splitlines()[0][:300]}
    with open(OUT, "w", encoding="utf-8") as handle:
        json.dump(results, handle, indent=1, sort_keys=True)
        handle.write("\n")


if __name__ == "__main__":
    main()
