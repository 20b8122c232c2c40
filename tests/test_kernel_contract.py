"""Every primitive forward goes through the kernel contract (refms/kernels).

A ``forward`` in ``refms/ops/prims/*.py`` computes by calling kernels
(``kernels.call(name)(...)``), never numpy or scipy directly: that is what
lets another backend (a GPU) run every primitive, and a fast twin serve
every call of its kernel.  Checked on the source (AST): inside a forward, no
name bound to numpy/scipy (``np``, ``numpy``, ``expit``, ...) is used and
neither is imported.
"""
import ast
import pathlib

import pytest

from refms import kernels

PRIMS = pathlib.Path(__file__).resolve().parent.parent / "refms" / "ops" / "prims"
NUMERIC_MODULES = ("numpy", "scipy")


def numeric_names(tree):
    """Module-level names bound to numpy/scipy or to something imported from them."""
    names = set(NUMERIC_MODULES) | {"np"}
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in NUMERIC_MODULES:
                    names.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] in NUMERIC_MODULES:
                names.update(alias.asname or alias.name for alias in node.names)
    return names


def forwards(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "forward":
                    yield node.name, item


def violations(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    banned = numeric_names(tree)
    found = []
    for cls, forward in forwards(tree):
        for node in ast.walk(forward):
            if isinstance(node, ast.Name) and node.id in banned:
                found.append(f"{path.name}:{node.lineno} {cls}.forward uses {node.id}")
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                modules = ([a.name for a in node.names] if isinstance(node, ast.Import)
                           else [node.module or ""])
                if any(m.split(".")[0] in NUMERIC_MODULES for m in modules):
                    found.append(f"{path.name}:{node.lineno} {cls}.forward imports {modules}")
    return found


PRIM_FILES = sorted(p for p in PRIMS.glob("*.py") if p.name != "__init__.py")


@pytest.mark.parametrize("path", PRIM_FILES, ids=lambda p: p.name)
def test_forwards_call_kernels_not_numpy(path):
    assert violations(path) == []


def test_the_checker_sees_numpy_in_a_forward(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import numpy as np\nfrom scipy.special import expit\n"
                   "class A:\n    def forward(self, x):\n        return np.add(x, 1)\n"
                   "class B:\n    def forward(self, x):\n        return expit(x)\n"
                   "class C:\n    def forward(self, x):\n        from scipy.special import erf\n"
                   "        return erf(x)\n")
    assert len(violations(bad)) == 3


def test_every_kernel_a_forward_names_is_registered():
    """``kernels.call("name")`` with a literal name: the name is in the registry."""
    known = set(kernels.kernel_names())
    unknown = []
    for path in PRIM_FILES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "call" and isinstance(node.func.value, ast.Name)
                    and node.func.value.id == "kernels" and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and node.args[0].value not in known):
                unknown.append(f"{path.name}:{node.lineno} {node.args[0].value}")
    assert unknown == []
