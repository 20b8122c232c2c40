"""``mindspore.runtime``: settings of the device runtime, and its memory statistics.

refms executes every operation synchronously on the host (or through its
optional CUDA library, which also synchronises per call), so the launch and
thread settings change nothing and are accepted for the scripts that call
them; the tutorials call ``mindspore.runtime.launch_blocking()`` to debug
PyNative errors at the line that raised them, which is what refms always does.
On device ``CPU`` MindSpore 2.10 keeps no device memory pool, and every
statistic below is ``0``, as refms reports too.
"""

__all__ = ["launch_blocking", "synchronize", "dispatch_threads_num", "set_cpu_affinity",
           "set_memory", "set_kernel_launch_group", "empty_cache", "memory_allocated",
           "max_memory_allocated", "memory_reserved", "max_memory_reserved",
           "reset_peak_memory_stats", "reset_max_memory_allocated", "reset_max_memory_reserved",
           "memory_stats"]


def _check_int(name, value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"The parameter '{name}' must be an int, but got {type(value).__name__}.")


def launch_blocking():
    """Run every operation to completion before the next starts (refms always does)."""


def synchronize():
    """Wait for the device's pending work (none: refms's operations return finished)."""


def dispatch_threads_num(threads_num):
    """The number of threads dispatching operations (one in refms)."""
    _check_int("threads_num", threads_num)


def set_cpu_affinity(enable_affinity, affinity_cpu_list=None, module_to_cpu_dict=None,
                     bind_file=None):
    """Bind runtime threads to CPU cores (refms leaves placement to the operating system)."""
    if not isinstance(enable_affinity, bool):
        raise TypeError(f"The parameter 'enable_affinity' must be a bool, but got "
                        f"{type(enable_affinity).__name__}.")


def set_memory(init_size="2GB", increase_size="2GB", max_size="1024GB", optimize_level="O0",
               huge_page_reserve_size="0GB"):
    """Sizes of the device memory pool (refms allocates each array on its own)."""


def set_kernel_launch_group(thread_num=2, kernel_group_num=8):
    """Launch kernels in groups from several threads (refms launches one at a time)."""
    _check_int("thread_num", thread_num)
    _check_int("kernel_group_num", kernel_group_num)


def empty_cache():
    """Release cached device memory (refms caches none)."""


def memory_allocated():
    """Bytes held by tensors in the device memory pool: 0 (no pool on CPU)."""
    return 0


def max_memory_allocated():
    """The peak of :func:`memory_allocated`: 0."""
    return 0


def memory_reserved():
    """Bytes the device memory pool reserved: 0."""
    return 0


def max_memory_reserved():
    """The peak of :func:`memory_reserved`: 0."""
    return 0


def reset_peak_memory_stats():
    """Restart the peaks (they stay 0)."""


def reset_max_memory_allocated():
    """Restart the peak of :func:`memory_allocated`."""


def reset_max_memory_reserved():
    """Restart the peak of :func:`memory_reserved`."""


def memory_stats():
    """The pool's statistics, all 0, under MindSpore's keys."""
    pool = {"block_unit_size": 0, "block_counts": 0, "blocks_info": {}}
    return {"total_reserved_memory": 0, "total_allocated_memory": 0, "total_idle_memory": 0,
            "total_eager_free_memory": 0, "max_reserved_memory": 0, "max_allocated_memory": 0,
            "common_mem_pool_stats": dict(pool),
            "persistent_mem_pool_stats": {"block_counts": 0, "block_unit_size": 0,
                                          "blocks_info": {}}}
