"""The optimization passes, in pipeline order.  Each is a small module with ``NAME``,
``RATIONALE`` (one line) and ``run(entry) -> entry``; each is another walk over the
same IR.

``print(refms.graph.passes.describe())`` prints the pipeline::

    1. inline — a graph call costs a frame and hides its body from the other passes
    2. simplify — a tuple built and at once taken apart costs nodes and hides the data flow
    …
"""
from . import inline, simplify, lambda_lift, constant_fold, cse, dce, fusion

#: The passes run after inference, in order.
PIPELINE = [inline, simplify, lambda_lift, constant_fold, cse, dce, fusion]

__all__ = ["PIPELINE", "describe"]


def describe():
    """The pipeline as numbered lines: ``name — rationale``."""
    return "\n".join(f"{k + 1}. {p.NAME} — {p.RATIONALE}" for k, p in enumerate(PIPELINE))
