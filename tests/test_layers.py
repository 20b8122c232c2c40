"""The layers of refms only point down (docs/architecture.rst, "Layers").

The import graph is read from the source with ``ast`` (module-level and
function-level imports alike) by ``docs/import_graph.py``, which also draws
the picture in the docs; these tests fail on an upward import, on a cycle
between modules, and on a checked-in picture that no longer matches the code.
"""
import importlib.util
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _load_tool():
    path = os.path.join(ROOT, "docs", "import_graph.py")
    spec = importlib.util.spec_from_file_location("refms_import_graph", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ig = _load_tool()


@pytest.fixture(scope="module")
def graph():
    modules, imports = ig.read_imports()
    return modules, imports, ig.internal_edges(modules, imports)


def test_every_module_has_a_layer(graph):
    modules, _, _ = graph
    assert [m for m in modules if ig.layer_of(m) is None] == []


def test_no_upward_import(graph):
    modules, imports, _ = graph
    found = [f"{imp} ({ig.LAYER_NAMES[ig.layer_of(imp.source)]} imports "
             f"{ig.LAYER_NAMES[ig.layer_of(ig._owner(imp.target, modules))]})"
             for imp in ig.upward_imports(modules, imports)]
    assert found == []


def test_no_import_cycle(graph):
    _, _, edges = graph
    assert ig.cycles(edges) == []


def test_autodiff_knows_nothing_of_graph_mode_or_cells(graph):
    """The issue's first rule, spelled out: refms.autograd imports neither refms.graph nor
    refms.nn, not even inside a function."""
    modules, imports, _ = graph
    bad = [imp for imp in imports if imp.source.startswith("refms.autograd")
           and imp.target.startswith(("refms.graph", "refms.nn"))]
    assert bad == []


def test_checker_sees_what_it_must():
    """The checker itself: an upward function-level import and a cycle are both reported."""
    upward = ig.Import("refms.autograd.grad", "refms.graph.tracer", 1, True)
    modules = {"refms.autograd.grad": "", "refms.graph.tracer": ""}
    assert ig.upward_imports(modules, [upward]) == [upward]
    assert ig.cycles({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}) == [["a", "b", "c"]]


def test_import_graph_picture_is_current():
    """docs/_static/import_graph.dot is what ``python docs/import_graph.py`` writes today."""
    with open(ig.DOT_PATH, encoding="utf-8") as handle:
        checked_in = handle.read()
    assert checked_in == ig.current_dot(), \
        "the import graph changed: run `python docs/import_graph.py` and commit the result"
