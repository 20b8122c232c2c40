"""Ordered parallel work for sources and ``map``: a bounded window of pending tasks.

``parallel_map(function, items, workers, processes)`` yields
``function(item)`` for every item *in order*, keeping at most ``prefetch_size · workers`` (config, default 4)
tasks in flight, on threads or (``processes=True``, MindSpore's
``python_multiprocessing``) on forked worker processes.  The order, not the
timing, decides the output, so any worker count gives the same rows as one.
An exception in a worker is re-raised in the caller with its message; an
iterator abandoned half-way shuts its pool down.
"""
from collections import deque

from .config import get_prefetch_size

__all__ = ["parallel_map"]

_FORKED = {}


def _call_forked(key, item):
    return _FORKED[key](item)


def parallel_map(function, items, workers, processes=False):
    import concurrent.futures as futures
    import multiprocessing
    if processes and "fork" in multiprocessing.get_all_start_methods():
        key = id(function)
        _FORKED[key] = function              # inherited by the forked workers
        pool = futures.ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"))
        submit = lambda item: pool.submit(_call_forked, key, item)   # noqa: E731
    else:
        key = None
        pool = futures.ThreadPoolExecutor(workers)
        submit = lambda item: pool.submit(function, item)            # noqa: E731
    window = get_prefetch_size() * workers
    pending = deque()
    try:
        for item in items:
            pending.append(submit(item))
            if len(pending) >= window:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        for task in pending:
            task.cancel()
        pool.shutdown(wait=True, cancel_futures=True)
        if key is not None:
            _FORKED.pop(key, None)
