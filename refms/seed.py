"""Global and op-level random seeds (semantics 9; MindSpore ``common/seed.py``).

``set_seed(s)`` stores the global seed, seeds numpy's global generator and
Python's ``random`` (as MindSpore does through ``dataset.config.set_seed``),
and resets the op-seed counters.  A random op asks ``op_rng`` for a
generator; the seed pair it gets follows MindSpore's ``_get_graph_seed``:

* global seed None -> 0; global seed 0 -> 87654321; op seed None -> 0;
* both 0: a fresh random seed (values differ per run);
* otherwise ``(global, counter)``, the counter of ``(kernel, op_seed)``
  starting at ``op_seed`` and advancing after every call — so repeated calls
  differ, and re-seeding (or re-running the program) repeats the sequence.
"""
import random as _py_random

import numpy as np

__all__ = ["set_seed", "get_seed", "op_seed_pair", "op_rng"]

_KEEP_GLOBAL = 87654321
_STATE = {"global": None}
_COUNTERS = {}


def set_seed(seed):
    """Set the global seed (int >= 0); seeds numpy and Python ``random`` too."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"For 'set_seed', the argument 'seed' must be int, but got "
                        f"{type(seed).__name__}.")
    if seed < 0:
        raise ValueError(f"For 'set_seed', the argument 'seed' must be non-negative, but got {seed}.")
    _STATE["global"] = seed
    np.random.seed(seed % 2 ** 32)
    _py_random.seed(seed)
    _COUNTERS.clear()


def get_seed():
    """The global seed, or None if ``set_seed`` was never called."""
    return _STATE["global"]


def op_seed_pair(kernel, op_seed=None):
    """The ``(global, op)`` seed pair for one call of a random op (None when both are unset)."""
    global_seed = _STATE["global"]
    g = 0 if global_seed is None else (_KEEP_GLOBAL if global_seed == 0 else global_seed)
    o = 0 if op_seed is None else int(op_seed)
    if g == 0 and o == 0:
        return None
    key = (kernel, o)
    counter = _COUNTERS.get(key, o)
    _COUNTERS[key] = counter + 1
    return g, counter


def op_rng(kernel, op_seed=None):
    """A numpy Generator for one call of a random op."""
    pair = op_seed_pair(kernel, op_seed)
    if pair is None:
        return np.random.default_rng()
    return np.random.default_rng(np.random.PCG64(list(pair)))
