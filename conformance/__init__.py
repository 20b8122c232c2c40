"""refms's conformance suite: every documented example of the seed pages, runnable against any implementation.

``python -m conformance`` runs it against refms; ``--impl mindspore`` against
real MindSpore (when importable); ``--impl pkg.module`` against any other
implementation.  See ``conformance/README.md`` for the case format, the
comparison rules and the adapter protocol, and ``COVERAGE.md`` for which
example is which case.  This package lives outside ``refms`` on purpose: it
judges refms and is not part of it.
"""
