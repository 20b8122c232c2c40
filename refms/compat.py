"""The one table of MindSpore behaviours that changed between versions (docs/architecture.rst).

refms follows MindSpore 2.10 by default.  ``set_context(compat="1.7")`` (or
the environment variable ``REFMS_COMPAT`` read once, before the first use)
selects the documented behaviour of an older release, so every seed page's
output can be reproduced.  Code asks :func:`behaviour` for a named switch
instead of comparing version strings itself.
"""
import functools
import os

__all__ = ["VERSIONS", "BEHAVIOURS", "behaviour", "get_compat", "set_compat", "parse_version"]

#: Versions refms knows, oldest first.
VERSIONS = ("1.6", "1.7", "1.8", "1.9", "1.10", "2.0", "2.1", "2.2", "2.3", "2.4", "2.5",
            "2.6", "2.7", "2.8", "2.9", "2.10")
DEFAULT = "2.10"

#: switch -> (first version with the new behaviour, old value, new value, evidence).
BEHAVIOURS = {
    "default_mode": ("2.0", "GRAPH_MODE", "PYNATIVE_MODE",
                     "semantics 7.1: r1.x docs say Graph is default; 2.10 runs PyNative"),
    "grad_position_single_tuple": ("2.1", True, False,
                                   "semantics 4.2/12.2: seed 003 prints a 1-tuple for "
                                   "grad_position=0; 2.10 returns a bare Tensor"),
    "backward_hook_args": ("2.0", "r1", "2.x",
                           "semantics 5.3: 2nd/3rd hook argument meaning swapped"),
    "backward_hook_scope_includes_forward_hooks": ("2.0", False, True,
                                                   "semantics 5.4"),
    "cell_hooks_in_graph_mode": ("2.0", False, True, "semantics 5.6"),
    "default_init": ("2.0", "r1", "2.x",
                     "semantics 8.1/8.2: Normal(0.01)/zeros before 2.0, HeUniform/Uniform after"),
    "load_param_into_net_returns_tuple": ("2.0", False, True, "semantics 10.2"),
    "lazy_init_computes_as_zero": ("2.1", True, False,
                                   "semantics 2.4: seed 003 text vs 2.10 RuntimeError"),
}

_STATE = {"version": None}


def parse_version(text):
    """``"1.7"`` / ``"r1.7"`` / ``"2.10.0"`` -> a tuple ``(1, 7)`` for ordering."""
    text = str(text).strip().lstrip("rv")
    parts = text.split(".")
    try:
        major, minor = int(parts[0]), int(parts[1]) if len(parts) > 1 else 0
    except ValueError:
        raise ValueError(f"compat must be a MindSpore version like '1.7' or '2.10', "
                         f"got {text!r}") from None
    return major, minor


def _canonical(text):
    major, minor = parse_version(text)
    name = f"{major}.{minor}"
    if name not in VERSIONS:
        raise ValueError(f"compat version {text!r} is not one of {', '.join(VERSIONS)}")
    return name


def get_compat():
    """The MindSpore version whose behaviour refms reproduces now."""
    if _STATE["version"] is None:
        _STATE["version"] = _canonical(os.environ.get("REFMS_COMPAT", DEFAULT) or DEFAULT)
    return _STATE["version"]


def set_compat(version):
    _STATE["version"] = _canonical(version)


def behaviour(name):
    """The value of switch ``name`` under the current compat version."""
    since, old, new, _ = BEHAVIOURS[name]
    return new if _at_least(get_compat(), since) else old


@functools.lru_cache(maxsize=None)
def _at_least(version, since):
    """``version >= since`` as MindSpore versions (remembered: ``behaviour`` is asked per call)."""
    return parse_version(version) >= parse_version(since)
