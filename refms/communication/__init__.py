"""``refms.communication`` mirrors ``mindspore.communication`` on one device.

refms runs in one process on one device, so the collective-communication
world is a group of one: after ``init``, ``get_rank`` is 0 and
``get_group_size`` is 1, which is what MindSpore reports for a
single-device job.  Everything a data-parallel script computes from these
numbers (``rank_id``, ``device_num``, dataset shards) then describes the
stand-alone run.
"""
from .management import (init, release, get_rank, get_group_size, get_local_rank,
                         get_local_rank_size, get_world_rank_from_group_rank,
                         get_group_rank_from_world_rank, create_group, destroy_group,
                         is_initialized, GlobalComm, HCCL_WORLD_COMM_GROUP,
                         NCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP)
from . import management

__all__ = ["init", "release", "get_rank", "get_group_size", "get_local_rank",
           "get_local_rank_size", "get_world_rank_from_group_rank",
           "get_group_rank_from_world_rank", "create_group", "destroy_group", "is_initialized",
           "GlobalComm", "HCCL_WORLD_COMM_GROUP", "NCCL_WORLD_COMM_GROUP",
           "MCCL_WORLD_COMM_GROUP", "management"]
