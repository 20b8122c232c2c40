"""The import graph of ``refms/``, read from the code, checked against the layers, drawn as dot.

Every ``import`` statement of every module is read with :mod:`ast` — those at
module level *and* those inside functions, which run later but still make
the importing module depend on the imported one.  The layers, lowest first::

    base      dtype, context, compat, seed, kernels, _fast
    tensor    Tensor, Parameter, printing, initializers
    ops       primitives and their registry
    autograd  the PyNative executor, the tape, grad transforms
    graph     parser, IR, inference, passes, executor, graph autodiff
    nn        Cells, layers, losses, optimizers
    train     Model, callbacks, metrics, checkpoints, datasets
    surface   ``refms/__init__.py``, ``python -m refms``

A module may import modules of its own layer or of lower ones; importing a
higher layer, or a cycle between modules, is a violation
(``tests/test_layers.py`` fails on one).  Where a lower layer must call up,
the upper layer registers itself with the lower one at import time (see
``docs/architecture.rst``, "Registration seams").

Run ``python docs/import_graph.py`` to rewrite ``docs/_static/import_graph.dot``
(and, when Graphviz's ``dot`` is installed, ``import_graph.svg``); the test
checks that the checked-in ``.dot`` is the one the code gives.
"""
import ast
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DOT_PATH = os.path.join(HERE, "_static", "import_graph.dot")
SVG_PATH = os.path.join(HERE, "_static", "import_graph.svg")

#: (layer, module prefixes), lowest layer first.  The longest matching prefix decides.
LAYERS = [
    ("base", ["refms.dtype", "refms.context", "refms.compat", "refms.seed", "refms.kernels",
              "refms._fast", "refms.log", "refms.parallel", "refms.communication",
              "refms.profiler", "refms.runtime", "refms._cuda", "refms.cuda"]),
    ("tensor", ["refms._tensor", "refms._tensor_inplace", "refms._tensor_inplace_index", "refms._tensor_op_methods", "refms._tensor_overloads", "refms.tensor_print", "refms.hook_handle", "refms.parameter",
                "refms.initializer"]),
    ("ops", ["refms.ops", "refms.numpy"]),
    ("autograd", ["refms.autograd"]),
    ("graph", ["refms.graph"]),
    ("nn", ["refms.nn", "refms.train.metrics", "refms.mint"]),
    ("train", ["refms.train", "refms.amp", "refms.amp_loss_scaler", "refms.checkpoint", "refms.dataset", "refms.mindrecord"]),
    ("surface", ["refms", "refms.__main__", "refms.alias", "refms.common", "refms._extends"]),
]
LAYER_NAMES = [name for name, _ in LAYERS]
#: The package itself: its ``__init__`` is in the surface layer; its modules need a prefix of their own.
ROOT_PACKAGE = "refms"

#: Modules placed by name rather than by prefix, each with the reason.
EXACT = {
    # ``refms.ops`` is MindSpore's public ``mindspore.ops`` namespace: every primitive and
    # functional op, and ``GradOperation``, which the autodiff layer defines.
    "refms.ops": "surface",
    # ``ops.composite.GradOperation`` (a 1.x import path) is the autodiff layer's GradOperation.
    "refms.ops.composite": "autograd",
}
# ``refms.mint`` (``mindspore.mint``) sits in the nn layer: its ``nn`` and ``optim`` build on
# ``refms.nn``.  ``refms.train.metrics`` sits in the nn layer: metrics use only Tensors, and ``mindspore.nn``
# re-exports them (``nn.Accuracy``).  ``refms.amp`` builds training networks (train layer).


def layer_of(module):
    """The index in :data:`LAYERS` of ``module`` (its :data:`EXACT` entry, or the longest
    matching prefix)."""
    if module in EXACT:
        return LAYER_NAMES.index(EXACT[module])
    best, best_len = None, -1
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            inside = module == prefix or (prefix != ROOT_PACKAGE and module.startswith(prefix + "."))
            if inside and len(prefix) > best_len:
                best, best_len = index, len(prefix)
    return best


def find_modules(root=ROOT, package="refms"):
    """``{module name: file path}`` for every ``.py`` file of the package."""
    modules = {}
    base = os.path.join(root, package)
    for folder, dirs, files in os.walk(base):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__")))
        for file in sorted(files):
            if not file.endswith(".py"):
                continue
            rel = os.path.relpath(os.path.join(folder, file), root)[:-3]
            name = rel.replace(os.sep, ".")
            if name.endswith(".__init__"):
                name = name[:-len(".__init__")]
            modules[name] = os.path.join(folder, file)
    return modules


class Import:
    """One import statement: who imports what, where, and whether inside a function."""

    __slots__ = ("source", "target", "line", "in_function")

    def __init__(self, source, target, line, in_function):
        self.source, self.target, self.line, self.in_function = source, target, line, in_function

    def __repr__(self):
        where = "function" if self.in_function else "module"
        return f"{self.source}:{self.line} -> {self.target} ({where} level)"


def _targets(module, is_package, node, modules):
    """The module names an ``import`` / ``from ... import`` statement loads."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        parts = module.split(".") if is_package else module.split(".")[:-1]
        parts = parts[:len(parts) - (node.level - 1)]
        base = ".".join(parts + ([node.module] if node.module else []))
    else:
        base = node.module
    targets = []
    for alias in node.names:
        candidate = f"{base}.{alias.name}"
        targets.append(candidate if candidate in modules else base)
    return targets


def _owner(name, modules):
    """The module (file) that defines ``name``: the longest prefix that is a module."""
    while name not in modules and "." in name:
        name = name.rsplit(".", 1)[0]
    return name if name in modules else None


def read_imports(root=ROOT, package="refms"):
    """Every import statement of the package, as :class:`Import` (targets inside it or not)."""
    modules = find_modules(root, package)
    imports = []
    for module, path in modules.items():
        with open(path, encoding="utf-8") as handle:
            tree = ast.parse(handle.read(), path)
        in_function = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                for inner in ast.walk(node):
                    if isinstance(inner, (ast.Import, ast.ImportFrom)):
                        in_function.add(id(inner))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for target in _targets(module, path.endswith("__init__.py"), node, modules):
                    imports.append(Import(module, target, node.lineno, id(node) in in_function))
    imports.sort(key=lambda i: (i.source, i.line, i.target))
    return modules, imports


def internal_edges(modules, imports):
    """``{module: sorted modules of the package it imports}``."""
    edges = {m: set() for m in modules}
    for imp in imports:
        owner = _owner(imp.target, modules)
        if owner is not None and owner != imp.source:
            edges[imp.source].add(owner)
    return {m: sorted(targets) for m, targets in edges.items()}


def upward_imports(modules, imports):
    """Imports from a lower layer of a module in a higher one."""
    found = []
    for imp in imports:
        owner = _owner(imp.target, modules)
        if owner is None:
            continue
        if layer_of(owner) > layer_of(imp.source):
            found.append(imp)
    return found


def cycles(edges):
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index, low, stack, on_stack, result = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                result.append(sorted(component))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(edges) + 100))
    try:
        for v in sorted(edges):
            if v not in index:
                visit(v)
    finally:
        sys.setrecursionlimit(limit)
    return sorted(result)


def function_level_imports(imports):
    """The import statements inside functions (one per statement, whatever it names)."""
    seen, result = set(), []
    for imp in imports:
        if imp.in_function and (imp.source, imp.line) not in seen:
            seen.add((imp.source, imp.line))
            result.append(imp)
    return result


# -- the picture -----------------------------------------------------------------------------------

def _group(module):
    """The box of the picture a module belongs to: the prefix of :data:`LAYERS` that places it
    (``refms.graph``, ``refms.train.metrics``, ``refms._tensor``), or, for a module placed by
    :data:`EXACT`, the module itself (``refms.ops/__init__`` for a package's own file)."""
    if module in EXACT:
        prefixes = [p for _, ps in LAYERS for p in ps]
        return module + "/__init__" if module in prefixes else module
    best = ""
    for _, prefixes in LAYERS:
        for prefix in prefixes:
            inside = module == prefix or (prefix != ROOT_PACKAGE and module.startswith(prefix + "."))
            if inside and len(prefix) > len(best):
                best = prefix
    return best


def _reduce(edges):
    """Drop ``a -> c`` when ``a`` reaches ``c`` another way (the transitive reduction, for a
    graph without cycles): the picture keeps the arrows that say something."""
    def reaches(start, goal, skip):
        seen, todo = {start}, [n for n in edges[start] if n != skip]
        while todo:
            node = todo.pop()
            if node == goal:
                return True
            if node not in seen:
                seen.add(node)
                todo.extend(edges[node])
        return False
    return {a: sorted(c for c in targets if not reaches(a, c, c)) for a, targets in edges.items()}


def format_dot(modules, edges):
    """The package import graph as Graphviz dot: one box per package (or top-level module),
    one cluster per layer, the highest layer at the top; arrows implied by others are left
    out (transitive reduction)."""
    groups, layer = {}, {}
    for module in modules:
        group = _group(module)
        groups.setdefault(group, set())
        layer[group] = layer_of(module)
    for module, targets in edges.items():
        for target in targets:
            a, b = _group(module), _group(target)
            if a != b:
                groups[a].add(b)
    groups = _reduce(groups)
    lines = ["// Generated by docs/import_graph.py from the imports of refms/; do not edit.",
             "digraph refms_layers {",
             '  rankdir=TB; newrank=true; node [shape=box, fontname="Helvetica", fontsize=10];',
             '  edge [color="#777777", arrowsize=0.6];']
    for index in reversed(range(len(LAYERS))):
        name = LAYER_NAMES[index]
        members = sorted(g for g in groups if layer[g] == index)
        if not members:
            continue
        lines.append(f'  subgraph cluster_{name} {{ label="{index}. {name}"; labeljust=l; '
                     f'style=rounded; color="#bbbbbb";')
        for member in members:
            label = member if member == "refms" else member[len("refms."):]
            lines.append(f'    "{member}" [label="{label}"];')
        lines.append("  }")
    for source in sorted(groups):
        for target in sorted(groups[source]):
            lines.append(f'  "{source}" -> "{target}";')
    lines.append("}")
    return "\n".join(lines) + "\n"


def current_dot():
    modules, imports = read_imports()
    return format_dot(modules, internal_edges(modules, imports))


def main():
    text = current_dot()
    os.makedirs(os.path.dirname(DOT_PATH), exist_ok=True)
    with open(DOT_PATH, "w", encoding="utf-8") as handle:
        handle.write(text)
    print(f"wrote {os.path.relpath(DOT_PATH, ROOT)}")
    if shutil.which("dot"):
        subprocess.run(["dot", "-Tsvg", DOT_PATH, "-o", SVG_PATH], check=True)
        print(f"wrote {os.path.relpath(SVG_PATH, ROOT)}")
    else:
        print("Graphviz 'dot' not found: the SVG was not regenerated")
    modules, imports = read_imports()
    print(f"{len(function_level_imports(imports))} function-level imports")
    reported = set()
    for imp in upward_imports(modules, imports):
        if (imp.source, imp.line, imp.target) not in reported:
            reported.add((imp.source, imp.line, imp.target))
            print("upward:", imp)
    for component in cycles(internal_edges(modules, imports)):
        print("cycle:", " <-> ".join(component))


if __name__ == "__main__":
    main()
