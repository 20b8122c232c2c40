"""Group management of ``mindspore.communication.management`` for a world of one device.

The world group holds exactly one rank (0).  Functions that ask about a rank
or a group answer for that group; asking about any other rank, or creating a
group of other ranks, raises ``ValueError`` — such a group cannot exist in
one process.
"""
HCCL_WORLD_COMM_GROUP = "hccl_world_group"
NCCL_WORLD_COMM_GROUP = "nccl_world_group"
MCCL_WORLD_COMM_GROUP = "mccl_world_group"

__all__ = ["init", "release", "get_rank", "get_group_size", "get_local_rank",
           "get_local_rank_size", "get_world_rank_from_group_rank",
           "get_group_rank_from_world_rank", "create_group", "destroy_group", "is_initialized",
           "GlobalComm", "HCCL_WORLD_COMM_GROUP", "NCCL_WORLD_COMM_GROUP",
           "MCCL_WORLD_COMM_GROUP"]


class GlobalComm:
    """The communication backend and world group (MindSpore's names)."""
    BACKEND = "hccl"
    WORLD_COMM_GROUP = HCCL_WORLD_COMM_GROUP
    INITED = False


#: Groups known in this process: name -> list of world ranks (always [0]).
_GROUPS = {}
_BACKENDS = ("hccl", "nccl", "mccl")


def _world_groups():
    return (HCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP)


def init(backend_name=None):
    """Join the communication world: in refms a world of one rank (rank 0)."""
    if backend_name is not None:
        if not isinstance(backend_name, str):
            raise TypeError(f"For 'init', the 'backend_name' should be str, but got "
                            f"{type(backend_name).__name__}.")
        if backend_name.lower() not in _BACKENDS:
            raise RuntimeError(f"For 'init', the 'backend_name' should be one of {list(_BACKENDS)}, "
                               f"but got {backend_name!r}.")
        GlobalComm.BACKEND = backend_name.lower()
        GlobalComm.WORLD_COMM_GROUP = f"{GlobalComm.BACKEND}_world_group"
    GlobalComm.INITED = True


def release():
    """Leave the communication world."""
    GlobalComm.INITED = False
    _GROUPS.clear()


def is_initialized():
    return GlobalComm.INITED


def _check_group(op, group):
    if group is None:
        return
    if not isinstance(group, str):
        raise TypeError(f"For '{op}', the 'group' should be str, but got {type(group).__name__}.")
    if group not in _world_groups() and group not in _GROUPS:
        raise ValueError(f"For '{op}', the group {group!r} does not exist: refms runs one "
                         f"process, whose only groups are the world group and groups created "
                         f"with create_group.")


def get_rank(group=None):
    """This process's rank in ``group``: 0, the only rank of a one-device world."""
    _check_group("get_rank", group)
    return 0


def get_local_rank(group=None):
    """This process's rank on its server: 0."""
    _check_group("get_local_rank", group)
    return 0


def get_group_size(group=None):
    """How many ranks ``group`` has: 1."""
    _check_group("get_group_size", group)
    return 1


def get_local_rank_size(group=None):
    """How many ranks this server has: 1."""
    _check_group("get_local_rank_size", group)
    return 1


def _check_rank(op, name, rank):
    if isinstance(rank, bool) or not isinstance(rank, int):
        raise TypeError(f"For '{op}', the '{name}' should be int, but got {type(rank).__name__}.")
    if rank != 0:
        raise ValueError(f"For '{op}', the '{name}' should be 0 (the only rank of a one-device "
                         f"world), but got {rank}.")


def get_world_rank_from_group_rank(group, group_rank_id):
    _check_group("get_world_rank_from_group_rank", group)
    _check_rank("get_world_rank_from_group_rank", "group_rank_id", group_rank_id)
    return 0


def get_group_rank_from_world_rank(world_rank_id, group):
    _check_group("get_group_rank_from_world_rank", group)
    _check_rank("get_group_rank_from_world_rank", "world_rank_id", world_rank_id)
    return 0


def create_group(group, rank_ids, options=None):
    """Create a named group; in one process it can only hold rank 0."""
    if not isinstance(group, str):
        raise TypeError(f"For 'create_group', the 'group' should be str, but got "
                        f"{type(group).__name__}.")
    if list(rank_ids) != [0]:
        raise ValueError(f"For 'create_group', refms runs one process (rank 0), so 'rank_ids' "
                         f"can only be [0], but got {list(rank_ids)}.")
    _GROUPS[group] = [0]


def destroy_group(group):
    if group not in _GROUPS:
        raise ValueError(f"For 'destroy_group', the group {group!r} was not created.")
    del _GROUPS[group]
