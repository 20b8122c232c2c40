"""The compile cache: each function's compiled programs, least recently used first out.

A function compiled with ``jit`` (or a Cell in GRAPH_MODE) keeps one program per input
signature (shapes and dtypes of Tensors, values of everything else).  A function called
with many different constants would otherwise keep every program — and every constant
Tensor those programs hold — for as long as the function lives, so each function's cache
holds at most ``maxsize`` programs (default ``get_compile_cache_size``, settable per
function: ``f = jit(g); f.cache_size = 4``) and drops the least recently used.

The cache belongs to the function object (a :class:`~refms.graph.api.JitFunction`, a
Cell): when the function is dropped its programs go with it.  The parsed graphs of user
functions are kept by :mod:`refms.graph.resolve` under weak references for the same reason.
"""
import collections
import threading

__all__ = ["CompileCache", "get_compile_cache_size", "set_compile_cache_size"]

_DEFAULT_SIZE = [64]


def get_compile_cache_size():
    """How many compiled programs a function keeps unless told otherwise."""
    return _DEFAULT_SIZE[0]


def set_compile_cache_size(size):
    """Set the default number of compiled programs kept per function (caches made later)."""
    if not isinstance(size, int) or isinstance(size, bool) or size < 1:
        raise ValueError(f"the compile cache size must be a positive int, but got {size!r}")
    _DEFAULT_SIZE[0] = size


class CompileCache:
    """A mapping signature key → compiled program holding at most ``maxsize`` entries; a
    lookup marks the entry as most recently used.  Safe to share between threads."""

    def __init__(self, maxsize=None):
        self._entries = collections.OrderedDict()
        self._lock = threading.Lock()
        self.maxsize = maxsize

    @property
    def maxsize(self):
        return self._maxsize

    @maxsize.setter
    def maxsize(self, size):
        if size is None:
            size = get_compile_cache_size()
        if not isinstance(size, int) or isinstance(size, bool) or size < 1:
            raise ValueError(f"the compile cache size must be a positive int, but got {size!r}")
        self._maxsize = size
        with self._lock:
            self._trim()

    def _trim(self):
        while len(self._entries) > self._maxsize:
            self._entries.popitem(last=False)

    def get(self, key, default=None):
        with self._lock:
            value = self._entries.get(key, default)
            if key in self._entries:
                self._entries.move_to_end(key)
            return value

    def __setitem__(self, key, value):
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            self._trim()

    def __getitem__(self, key):
        with self._lock:
            value = self._entries[key]
            self._entries.move_to_end(key)
            return value

    def __contains__(self, key):
        return key in self._entries

    def __len__(self):
        return len(self._entries)

    def keys(self):
        return list(self._entries)

    def values(self):
        """The compiled programs, least recently used first."""
        with self._lock:
            return list(self._entries.values())

    def clear(self):
        with self._lock:
            self._entries.clear()
