"""``set_context`` / ``get_context``: the execution mode and global settings.

``GRAPH_MODE == 0`` and ``PYNATIVE_MODE == 1`` as in MindSpore.  The default
mode follows the ``compat`` version (PyNative since 2.0; Graph in r1.x docs).
"""
import warnings

from . import compat as _compat

__all__ = ["GRAPH_MODE", "PYNATIVE_MODE", "set_context", "get_context", "ParallelMode",
           "set_auto_parallel_context", "get_auto_parallel_context", "reset_auto_parallel_context"]

GRAPH_MODE = 0
PYNATIVE_MODE = 1

_DEVICE_TARGETS = ("CPU", "GPU", "Ascend")
_SETTINGS = {
    "mode": None,                   # None: the compat version's default
    "device_target": "CPU",
    "device_id": 0,
    "pynative_synchronize": False,
    "save_graphs": False,
    "save_graphs_path": ".",
    "jit_syntax_level": 2,
    "max_call_depth": 1000,
    "enable_graph_kernel": False,
    "max_device_memory": "1024GB",
    "mempool_block_size": "1GB",
    "runtime_num_threads": 30,
    "check_bprop": False,
    "deterministic": "OFF",
}


def _default_mode():
    return PYNATIVE_MODE if _compat.behaviour("default_mode") == "PYNATIVE_MODE" else GRAPH_MODE


def set_context(**kwargs):
    """Set global settings: ``mode``, ``device_target``, ``pynative_synchronize``,
    ``save_graphs``, ``save_graphs_path``, ``compat`` and MindSpore's other keys."""
    for key, value in kwargs.items():
        if key == "compat":
            _compat.set_compat(value)
        elif key == "mode":
            if value not in (GRAPH_MODE, PYNATIVE_MODE):
                raise ValueError(f"For 'context.set_context', the argument 'mode' should be "
                                 f"context.GRAPH_MODE (0) or context.PYNATIVE_MODE (1), but got {value}.")
            _SETTINGS["mode"] = value
        elif key == "device_target":
            if value not in _DEVICE_TARGETS:
                raise ValueError(f"For 'context.set_context', the argument 'device_target' must be one of "
                                 f"{_DEVICE_TARGETS}, but got {value!r}.")
            if value == "Ascend":
                raise RuntimeError("Unsupported device target Ascend: refms runs on CPU, or on a "
                                   "CUDA GPU when its optional library is built.")
            if value == "GPU" and _SETTINGS["device_target"] != "GPU":
                warnings.warn("refms: device_target='GPU' is accepted so that GPU scripts run "
                              "unchanged; the computation runs on refms's CPU kernels (the "
                              "optional CUDA library is not part of this build).", stacklevel=2)
            _SETTINGS["device_target"] = value
        elif key in _SETTINGS:
            _SETTINGS[key] = value
        else:
            raise ValueError(f"For 'context.set_context', the keyword argument {key} is not recognized! "
                             f"Known keys: {', '.join(sorted(list(_SETTINGS) + ['compat']))}.")


def get_context(attr_key):
    """Value of one setting (``mode`` resolves the compat default)."""
    if attr_key == "compat":
        return _compat.get_compat()
    if attr_key == "mode":
        return _default_mode() if _SETTINGS["mode"] is None else _SETTINGS["mode"]
    if attr_key not in _SETTINGS:
        raise ValueError(f"For 'context.get_context', the argument {attr_key} is not recognized!")
    return _SETTINGS[attr_key]


def is_graph_mode():
    return get_context("mode") == GRAPH_MODE


# Parallel settings live in refms.parallel (one device: they are recorded, execution is
# stand-alone); context re-exports them as MindSpore's ``mindspore.context`` does.
from .parallel._auto_parallel_context import (ParallelMode, set_auto_parallel_context,  # noqa: E402
                                              get_auto_parallel_context,
                                              reset_auto_parallel_context)
