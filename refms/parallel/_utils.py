"""The helpers MindSpore scripts import from ``mindspore.parallel._utils``, for one device."""
from ._auto_parallel_context import auto_parallel_context, ParallelMode

__all__ = ["_get_device_num", "_get_gradients_mean", "_get_parallel_mode",
           "_get_enable_parallel_optimizer", "_get_pipeline_stages", "_get_global_rank",
           "_is_in_auto_parallel_mode", "_get_full_batch"]


def _get_device_num():
    return auto_parallel_context().get_device_num()


def _get_global_rank():
    return auto_parallel_context().get_global_rank()


def _get_gradients_mean():
    return auto_parallel_context().get_gradients_mean()


def _get_parallel_mode():
    return auto_parallel_context().get_parallel_mode()


def _get_enable_parallel_optimizer():
    return auto_parallel_context().get_enable_parallel_optimizer()


def _get_pipeline_stages():
    return auto_parallel_context().get_pipeline_stages()


def _get_full_batch():
    return auto_parallel_context().get_full_batch()


def _is_in_auto_parallel_mode():
    return _get_parallel_mode() in (ParallelMode.SEMI_AUTO_PARALLEL, ParallelMode.AUTO_PARALLEL)
