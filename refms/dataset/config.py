"""``refms.dataset.config``: the dataset pipeline's seed (MindSpore ``dataset/core/config.py``).

Random pipeline steps (shuffling sources, ``shuffle``) draw from a generator
made when an iterator is created: seeded from ``set_seed`` here, else from
the global seed of ``refms.set_seed`` (MindSpore's ``set_seed`` sets both),
else from the OS (a different order every run).  Within one iterator every
epoch gets a new order; a new iterator with the same seed repeats the orders.
"""
import contextlib
import os
import threading

import numpy as np

from .. import seed as _global_seed

__all__ = ["set_seed", "get_seed", "random_generator", "row_generator",
           "set_num_parallel_workers", "get_num_parallel_workers", "set_prefetch_size",
           "get_prefetch_size", "check_num_parallel_workers"]

_STATE = {"seed": None, "global_when_set": None, "generation": 0}
_SETTINGS = {"num_parallel_workers": 1, "prefetch_size": 4}


def set_num_parallel_workers(num):
    """The worker count of sources and ``map`` steps that do not give one (default 1 here)."""
    if isinstance(num, bool) or not isinstance(num, int) or num <= 0:
        raise TypeError(f"For 'set_num_parallel_workers', the 'num' must be a positive int, but "
                        f"got {num!r}.")
    _SETTINGS["num_parallel_workers"] = num


def get_num_parallel_workers():
    return _SETTINGS["num_parallel_workers"]


def check_num_parallel_workers(value, op):
    """The ``num_parallel_workers`` a source or operation was given: None, or an int from 1 to
    the number of CPUs (MindSpore 2.10 checks the same bound, so a script asking for more
    workers than the machine has CPUs fails there too)."""
    if value is None:
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For '{op}', the 'num_parallel_workers' must be an int, but got "
                        f"{type(value).__name__}.")
    cpus = os.cpu_count() or 1
    if not 1 <= value <= cpus:
        raise ValueError(f"For '{op}', the 'num_parallel_workers' must be between 1 and the "
                         f"number of CPUs ({cpus}), but got {value}.")
    return value


def set_prefetch_size(size):
    """Rows each worker may run ahead of the consumer (the pool's window is size × workers)."""
    if isinstance(size, bool) or not isinstance(size, int) or size <= 0:
        raise TypeError(f"For 'set_prefetch_size', the 'size' must be a positive int, but got "
                        f"{size!r}.")
    _SETTINGS["prefetch_size"] = size


def get_prefetch_size():
    return _SETTINGS["prefetch_size"]
_LOCAL = threading.local()
_EAGER = {"rng": None, "key": None}


def set_seed(seed):
    """Seed the dataset pipeline (an int in [0, 2**32 − 1])."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"For 'set_seed', the argument 'seed' must be int, but got "
                        f"{type(seed).__name__}.")
    if not 0 <= seed <= 2 ** 32 - 1:
        raise ValueError(f"For 'set_seed', the argument 'seed' must be in [0, 4294967295], but got "
                         f"{seed}.")
    _STATE["seed"] = seed
    _STATE["global_when_set"] = _global_seed.get_seed()
    _STATE["generation"] = _STATE.get("generation", 0) + 1


def get_seed():
    """The pipeline seed: the latest of this module's and ``refms.set_seed``'s, else None.

    ``refms.set_seed`` does not call this module (MindSpore's ``set_seed`` calls
    ``dataset.config.set_seed``), so a global seed set after this one — seen as a change of
    the global value — takes over.
    """
    global_seed = _global_seed.get_seed()
    if _STATE["seed"] is not None and global_seed == _STATE["global_when_set"]:
        return _STATE["seed"]
    return global_seed


def random_generator():
    """The generator a random transform draws from.

    Inside a pipeline it is the current row's (see :func:`row_generator`): the
    ``map`` step seeds one per row, in row order, from the epoch's generator, so
    the augmentations depend only on the seed and the row — not on which worker
    thread runs them.  Called eagerly (``op(image)``) it is a module generator,
    restarted from :func:`get_seed` whenever a seed is set.
    """
    rng = getattr(_LOCAL, "rng", None)
    if isinstance(rng, int):                # a row's seed, its generator made on first use
        rng = _LOCAL.rng = np.random.default_rng(rng)
    if rng is not None:
        return rng
    key = (get_seed(), _STATE.get("generation", 0))
    if _EAGER["rng"] is None or _EAGER["key"] != key:
        _EAGER["rng"] = np.random.default_rng(key[0])
        _EAGER["key"] = key
    return _EAGER["rng"]


@contextlib.contextmanager
def row_generator(seed):
    """Within the block, random transforms on this thread draw from ``default_rng(seed)``
    (created when the first of them draws: rows without a random step skip the cost)."""
    previous = getattr(_LOCAL, "rng", None)
    _LOCAL.rng = int(seed)
    try:
        yield
    finally:
        _LOCAL.rng = previous
