"""The MindSpore pages' own examples in the tutorials: each one *is* a conformance case.

``.. conformance-examples::`` takes case ids, one a line, and renders each
case of :mod:`conformance.cases` as a doctest of the tutorial that teaches its
topic::

    .. conformance-examples::

       pynative_r16.hook_backward
       pynative_r17.hook_backward

For every case the page shows where the example comes from (the page, its
MindSpore version, the section), the page's earlier cell when the example
needs one (``prelude``), the script exactly as the suite runs it (the page's
code with the case's ``edits`` applied, each edit listed with its reason) and
the page's documented output.  Sphinx's doctest builder runs the script on
refms in a group of its own, under the ``compat`` of the page's version, and
compares what it prints with the page's output by the suite's comparison rules
(:func:`conformance.compare.compare_text`, selected by the ``CONFORMANCE``
doctest option): the same check ``python -m conformance`` makes.  There is one
source: the case; the tutorial cannot drift from it.

Only cases whose documented output is exact text or an exception are rendered
(:func:`doctestable`): the "property" tier prints unseeded random values, and a
structured case checks a prose claim with code of its own, not the page's.
``tests/test_docs_tutorial_cases.py`` checks that every such case appears in
exactly one tutorial.
"""

from docutils import nodes
from docutils.parsers.rst import Directive
from docutils.statemachine import StringList
from sphinx.ext.doctest import DocTestBuilder
from sphinx.util.nodes import nested_parse_with_titles

from tutorial_cases import ConformanceChecker, case_rst, doctestable


class ConformanceExamplesDirective(Directive):
    has_content = True

    def run(self):
        from conformance.cases import find

        lines = []
        for case_id in (line.strip() for line in self.content):
            if not case_id:
                continue
            case = find(case_id)
            if not doctestable(case):
                raise self.error(f"conformance case {case_id} has no exact documented output to doctest")
            lines += case_rst(case)
        container = nodes.section()
        container.document = self.state.document
        source = f"{self.state.document.current_source} (conformance-examples)"
        nested_parse_with_titles(self.state, StringList(lines, source=source), container)
        return container.children


class ConformanceDocTestBuilder(DocTestBuilder):
    """Sphinx's doctest builder whose runners use :class:`ConformanceChecker`."""

    def test_group(self, group):
        for runner in (self.setup_runner, self.test_runner, self.cleanup_runner):
            runner._checker = ConformanceChecker()
        return super().test_group(group)


def setup(app):
    app.add_directive("conformance-examples", ConformanceExamplesDirective)
    app.add_builder(ConformanceDocTestBuilder, override=True)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
