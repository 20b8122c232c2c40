"""``mindspore.profiler``: MindSpore's device profiler is not implemented in refms.

``Profiler`` imports (scripts import it at the top and create it behind a
flag) and raises ``RuntimeError`` when created: refms records no device
timeline.  Use Python's ``cProfile`` to profile a refms run.
"""
__all__ = ["Profiler"]


class Profiler:
    """Creating a Profiler raises ``RuntimeError`` (not implemented in refms)."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("mindspore.profiler.Profiler is not implemented in refms (it records "
                           "no device timeline); profile with Python's cProfile instead.")
