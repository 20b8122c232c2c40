"""The auto-parallel settings (``set/get/reset_auto_parallel_context``) of a one-device run.

MindSpore keeps these settings for the compiler that splits a network over
devices.  refms always executes on one device, so a setting changes only what
``get_auto_parallel_context`` answers: every parallel mode computes the
stand-alone result on a world of one device (an all-reduce over one device is
the identity).  The keys and defaults are MindSpore 2.10's; an unknown key or
parallel mode raises ``ValueError`` as there, and ``device_num`` other than 1
raises ``ValueError`` (a one-process world has one device).
"""
import copy

__all__ = ["ParallelMode", "auto_parallel_context", "set_auto_parallel_context",
           "get_auto_parallel_context", "reset_auto_parallel_context"]


class ParallelMode:
    """Names of MindSpore's parallel modes."""
    STAND_ALONE = "stand_alone"
    DATA_PARALLEL = "data_parallel"
    HYBRID_PARALLEL = "hybrid_parallel"
    SEMI_AUTO_PARALLEL = "semi_auto_parallel"
    AUTO_PARALLEL = "auto_parallel"
    MODE_LIST = [STAND_ALONE, DATA_PARALLEL, HYBRID_PARALLEL, SEMI_AUTO_PARALLEL, AUTO_PARALLEL]


_DEFAULTS = {
    "device_num": 1, "global_rank": 0, "gradients_mean": False, "gradient_fp32_sync": True,
    "parallel_mode": ParallelMode.STAND_ALONE, "auto_parallel_search_mode": "recursive_programming",
    "search_mode": "recursive_programming", "parameter_broadcast": False,
    "strategy_ckpt_load_file": "", "strategy_ckpt_save_file": "", "full_batch": False,
    "dataset_strategy": "data_parallel", "enable_parallel_optimizer": False,
    "enable_alltoall": False, "all_reduce_fusion_config": [], "pipeline_stages": 1,
    "grad_accumulation_step": 1, "auto_pipeline": False,
    "comm_fusion": {"openstate": True, "allreduce": {"mode": "auto", "config": None},
                    "allgather": {"mode": "auto", "config": None},
                    "reducescatter": {"mode": "auto", "config": None}},
    "strategy_ckpt_config": {"load_file": "", "save_file": "", "only_trainable_params": True},
}
# Accepted by ``set`` (MindSpore takes them) but not answered by ``get``.
_SET_ONLY = ("parallel_optimizer_config", "pipeline_config", "pipeline_result_broadcast",
             "group_ckpt_save_file", "sharding_propagation", "enable_alltoall", "force_fp32_communication")


class _AutoParallelContext:
    """The settings, with the getters MindSpore's ``parallel._auto_parallel_context`` offers."""

    def __init__(self):
        self._settings = copy.deepcopy(_DEFAULTS)

    def set(self, **kwargs):
        for key, value in kwargs.items():
            if key not in self._settings and key not in _SET_ONLY:
                raise ValueError(f"Set context keyword {key} is not recognized!")
            if key == "parallel_mode" and value not in ParallelMode.MODE_LIST:
                raise ValueError(f"The context configuration parameter 'parallel_mode' only support "
                                 f"'stand_alone', 'data_parallel', 'hybrid_parallel', "
                                 f"'semi_auto_parallel' and 'auto_parallel', but got the value : "
                                 f"{value}.")
            if key == "device_num" and value != 1:
                raise ValueError(f"For 'set_auto_parallel_context', refms runs on one device, so "
                                 f"'device_num' must be 1, but got {value}.")
        self._settings.update(kwargs)

    def get(self, key):
        if key not in self._settings:
            raise ValueError(f"Get context keyword {key} is not recognized!")
        return copy.deepcopy(self._settings[key])

    def reset(self):
        self._settings = copy.deepcopy(_DEFAULTS)

    # the getters scripts import from ``mindspore.parallel._auto_parallel_context``
    def get_device_num(self):
        return self.get("device_num")

    def get_global_rank(self):
        return self.get("global_rank")

    def get_gradients_mean(self):
        return self.get("gradients_mean")

    def get_parallel_mode(self):
        return self.get("parallel_mode")

    def get_full_batch(self):
        return self.get("full_batch")

    def get_pipeline_stages(self):
        return self.get("pipeline_stages")

    def get_enable_parallel_optimizer(self):
        return self.get("enable_parallel_optimizer")

    def get_grad_accumulation_step(self):
        return self.get("grad_accumulation_step")


_CONTEXT = _AutoParallelContext()


def auto_parallel_context():
    """The one settings object of this process."""
    return _CONTEXT


def set_auto_parallel_context(**kwargs):
    """Record parallel settings (see the module docstring: execution stays on one device)."""
    _CONTEXT.set(**kwargs)


def get_auto_parallel_context(attr_key):
    return _CONTEXT.get(attr_key)


def reset_auto_parallel_context():
    _CONTEXT.reset()
