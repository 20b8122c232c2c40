"""``refms.parallel`` mirrors ``mindspore.parallel`` for a one-device run.

Settings (``set_algo_parameters``, ``ParallelMode``) are accepted and
recorded: with one device there is nothing to split.  The functions that
only make sense across several devices (merging or loading sliced
checkpoints, strategy files, ``shard``) raise ``RuntimeError`` naming what
is missing when called.
"""
from ._auto_parallel_context import ParallelMode

__all__ = ["ParallelMode", "set_algo_parameters", "get_algo_parameters", "reset_algo_parameters",
           "load_distributed_checkpoint", "build_searched_strategy", "merge_sliced_parameter",
           "shard"]

_ALGO_DEFAULTS = {"fully_use_devices": True, "elementwise_op_strategy_follow": False,
                  "enable_algo_approxi": False, "algo_approxi_epsilon": 0.1,
                  "tensor_slice_align_enable": False, "tensor_slice_align_size": 16}
_ALGO = dict(_ALGO_DEFAULTS)


def set_algo_parameters(**kwargs):
    """Record strategy-search parameters (no search runs on one device)."""
    for key in kwargs:
        if key not in _ALGO_DEFAULTS:
            raise ValueError(f"Set context keyword {key} is not recognized!")
    _ALGO.update(kwargs)


def get_algo_parameters(attr_key):
    if attr_key not in _ALGO:
        raise ValueError(f"Get context keyword {attr_key} is not recognized!")
    return _ALGO[attr_key]


def reset_algo_parameters():
    _ALGO.clear()
    _ALGO.update(_ALGO_DEFAULTS)


def _multi_device_only(name):
    def fn(*args, **kwargs):
        raise RuntimeError(f"'{name}' works on checkpoints or strategies split over several "
                           f"devices; refms runs on one device and does not implement it.")
    fn.__name__ = name
    fn.__doc__ = f"Multi-device only: calling ``{name}`` raises ``RuntimeError`` in refms."
    return fn


load_distributed_checkpoint = _multi_device_only("load_distributed_checkpoint")
build_searched_strategy = _multi_device_only("build_searched_strategy")
merge_sliced_parameter = _multi_device_only("merge_sliced_parameter")
shard = _multi_device_only("shard")
