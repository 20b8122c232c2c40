"""``set_context`` / ``get_context``: the execution mode and global settings.

``GRAPH_MODE == 0`` and ``PYNATIVE_MODE == 1`` as in MindSpore.  The default
mode follows the ``compat`` version (PyNative since 2.0; Graph in r1.x docs).
"""
from . import compat as _compat

__all__ = ["GRAPH_MODE", "PYNATIVE_MODE", "set_context", "get_context", "set_device",
           "ParallelMode", "set_auto_parallel_context", "get_auto_parallel_context",
           "reset_auto_parallel_context", "register_device_target"]

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


#: device target -> activate(device_id): puts new tensors on that device, or raises saying
#: why it cannot.  The seam through which refms.cuda plugs in the GPU (this module imports
#: nothing above it).
_TARGETS = {}


def register_device_target(target, activate):
    """Make ``set_context(device_target=target)`` call ``activate(device_id)``."""
    _TARGETS[target] = activate


def _activate(target, device_id):
    activate = _TARGETS.get(target)
    if activate is None:
        if target == "CPU":
            return
        raise RuntimeError(f"Unsupported device target {target}: refms runs on CPU, or on a "
                           f"CUDA GPU through refms.cuda.")
    activate(device_id)


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
            _activate(value, kwargs.get("device_id", _SETTINGS["device_id"]))
            _SETTINGS["device_target"] = value
        elif key in _SETTINGS:
            _SETTINGS[key] = value
        else:
            raise ValueError(f"For 'context.set_context', the keyword argument {key} is not recognized! "
                             f"Known keys: {', '.join(sorted(list(_SETTINGS) + ['compat']))}.")


def set_device(device_target, device_id=None):
    """``set_device("GPU", 0)`` (MindSpore 2.5+): the same as ``set_context(device_target=...,
    device_id=...)``; ``"GPU"`` raises, naming why, when refms's CUDA library cannot run here."""
    if device_id is None:
        set_context(device_target=device_target)
    else:
        if isinstance(device_id, bool) or not isinstance(device_id, int) or device_id < 0:
            raise ValueError(f"For 'set_device', the argument 'device_id' must be a non-negative "
                             f"int, but got {device_id!r}.")
        set_context(device_id=device_id, device_target=device_target)


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
