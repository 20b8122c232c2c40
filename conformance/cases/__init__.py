"""The cases, one module per seed page (``seed000_...``), each defining ``PAGE``, ``CASES`` and ``UNCASED``.

Case ids are ``<page>.<example>``, the page part being the module's name
without its seed number (``pynative_r16.hook_backward`` is in
``seed000_pynative_r16.py``).

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


#: Former id prefixes (``s003.sampler_bprop`` is now ``network_20.sampler_bprop``).
FORMER_PREFIXES = {"s000": "pynative_r16", "s001": "modes_r16", "s002": "pynative_r17",
                   "s003": "network_20", "s004": "modes_20"}


def find(case_id):
    """The case with this id (a former ``sNNN.`` id is accepted too)."""
    prefix, dot, rest = case_id.partition(".")
    if dot and prefix in FORMER_PREFIXES:
        case_id = f"{FORMER_PREFIXES[prefix]}.{rest}"
    for case in all_cases():
        if case.id == case_id:
            return case
    raise KeyError(f"no case {case_id!r}")
