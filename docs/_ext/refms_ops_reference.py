"""The operator reference, generated from refms's primitive registry while the site is built.

For every registered primitive: its MindSpore names (the Primitive class and the
functional spellings registered for it), its constructor attributes, the
definition's docstring (the math), the shape/dtype rule and the ``bprop`` — shown
as their source, so the page can never drift from the code — the kernels
that serve its forward pass with the implementations available for each, and
its status in the conformance suite's op table (how many rows test it, and
whether they check the gradient and bad inputs).
"""
import inspect
import re
import textwrap

from docutils import nodes
from docutils.parsers.rst import Directive

KERNEL_CALL = re.compile(r"""kernels?\.(?:call|kernel|run)\(\s*["'](\w+)["']""")


def functional_names():
    """Primitive class name -> the functional names registered as its spellings."""
    from refms.ops.primitive import FUNCTIONAL
    names = {}
    for name, fn in FUNCTIONAL.items():
        for cell in fn.__closure__ or ():
            target = cell.cell_contents
            if hasattr(target, "forward") and hasattr(target, "infer"):
                names.setdefault(type(target).__name__, []).append(name)
                break
        else:
            match = re.search(r":class:`(\w+)`", fn.__doc__ or "")
            if match:
                names.setdefault(match.group(1), []).append(name)
    return names


def kernels_of(cls):
    """The kernel names the forward of ``cls`` calls, read from its source."""
    try:
        source = inspect.getsource(cls.forward)
    except (OSError, TypeError):
        return []
    return sorted(set(KERNEL_CALL.findall(source)))


def cuda_kernel_names():
    """The kernels the CUDA backend implements (its table is known without a GPU)."""
    from refms._cuda import backend
    return set(backend.make_backend().kernels)


def implementations(kernel, cuda):
    """Which implementations of ``kernel`` exist: reference, fast (built here), cuda."""
    from refms import kernels
    found = ["reference"]
    if kernels.fast_kernel(kernel) is not None:
        found.append("fast")
    if kernel in cuda:
        found.append("cuda")
    return found


def op_table_rows():
    """Primitive name -> the op-table rows (``conformance.optable``) that test it."""
    import refms
    from conformance import optable
    rows, _ = optable.load(refms)
    by_prim = {}
    for area, area_rows in rows.items():
        for row in area_rows:
            by_prim.setdefault(row.prim, []).append((area, row))
    return by_prim


def op_table_status(found):
    """One line: rows, gradient-checked rows, bad inputs, e.g. '3 rows (math); gradient ...'."""
    if not found:
        return "not in the op table"
    areas = sorted({area for area, _ in found})
    graded = sum(1 for _, row in found if row.grad)
    errors = sum(len(row.errors) for _, row in found)
    return (f"{len(found)} row{'s' if len(found) != 1 else ''} ({', '.join(areas)}); "
            f"gradient checked in {graded}; {errors} bad input{'s' if errors != 1 else ''}")


def method_source(cls, name):
    """The source of ``cls.name`` as defined nearest in its class hierarchy, and where."""
    for klass in cls.__mro__:
        if name in vars(klass):
            try:
                return textwrap.dedent(inspect.getsource(vars(klass)[name])), klass
            except (OSError, TypeError):
                return None, klass
    return None, None


class OpReferenceDirective(Directive):
    has_content = False

    def run(self):
        from refms.ops import primitive
        import refms.ops  # noqa: F401 - registers every primitive
        spellings = functional_names()
        table = op_table_rows()
        cuda = cuda_kernel_names()
        result = []
        for name, cls in sorted(primitive.REGISTRY.items()):
            section = nodes.section(ids=[f"op-{name.lower()}"])
            section += nodes.title(text=name)
            module = cls.__module__
            summary = nodes.paragraph()
            summary += nodes.strong(text="MindSpore names: ")
            spelled = [f"ops.{name}()"] + [f"ops.{f}" for f in sorted(spellings.get(name, []))]
            summary += nodes.literal(text=", ".join(spelled))
            summary += nodes.Text(f" — defined in {module}")
            if not getattr(cls, "differentiable", True) or name in primitive.NON_DIFFERENTIABLE:
                summary += nodes.Text("; not differentiable")
            section += summary
            doc = inspect.getdoc(cls)
            if doc:
                section += nodes.literal_block(doc, doc, language="text")
            status = nodes.paragraph()
            status += nodes.strong(text="Op table: ")
            status += nodes.Text(op_table_status(table.get(name, [])))
            section += status
            used = kernels_of(cls)
            if used:
                line = nodes.paragraph()
                line += nodes.strong(text="Kernels: ")
                line += nodes.Text("; ".join(f"{k} ({', '.join(implementations(k, cuda))})" for k in used))
                section += line
            for method, what in (("infer", "Shape and dtype rule"), ("bprop", "Gradient (bprop)")):
                source, owner = method_source(cls, method)
                if source is None:
                    continue
                heading = nodes.paragraph()
                heading += nodes.strong(text=what)
                if owner is not cls:
                    heading += nodes.Text(f" (inherited from {owner.__name__})")
                section += heading
                section += nodes.literal_block(source, source, language="python")
            result.append(section)
        return result
