"""The cases, one module per seed page (``seed000_...``), each defining ``PAGE``, ``CASES`` and ``UNCASED``.

``PAGE`` is the page's :class:`~conformance.case.Page`; ``CASES`` its cases in
page order; ``UNCASED`` the code blocks that are not cases, with the reason
(they have no documented output, or they are PyTorch code).
"""
import importlib
import pkgutil

__all__ = ["page_modules", "all_cases", "find"]


def page_modules():
    """The seed-page modules, in seed order."""
    names = sorted(info.name for info in pkgutil.iter_modules(__path__) if info.name.startswith("seed"))
    return [importlib.import_module(f"{__name__}.{name}") for name in names]


def all_cases():
    cases = [case for module in page_modules() for case in module.CASES]
    ids = [case.id for case in cases]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise ValueError(f"duplicate case ids: {duplicates}")
    return cases


def find(case_id):
    for case in all_cases():
        if case.id == case_id:
            return case
    raise KeyError(f"no case {case_id!r}")
