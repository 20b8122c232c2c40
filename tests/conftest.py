"""Shared fixtures: every test starts from refms's default global state.

refms keeps a few process-wide settings (semantics 7.1, 9): the context
(execution mode and other keys), the ``compat`` version, the global and
op-level random seeds, and numpy's / Python's global generators (which
``set_seed`` reseeds).  A test that changes any of them must not leak the
change into the next test, so :func:`fresh_global_state` saves them before
each test and puts them back afterwards.  It also checks that no gradient
tape is left recording and restores the primitive executor.
"""
import copy
import random

import numpy as np
import pytest

from refms import communication, compat, context, seed
from refms.autograd import tape
from refms.ops import primitive


@pytest.fixture(autouse=True)
def fresh_global_state():
    saved_settings = copy.copy(context._SETTINGS)
    saved_compat = dict(compat._STATE)
    saved_seed = dict(seed._STATE)
    saved_counters = dict(seed._COUNTERS)
    saved_numpy = np.random.get_state()
    saved_python = random.getstate()
    saved_executor = primitive.get_executor()
    yield
    leaked_tapes = list(tape._ACTIVE)
    context._SETTINGS.clear()
    context._SETTINGS.update(saved_settings)
    context.reset_auto_parallel_context()
    communication.release()
    compat._STATE.clear()
    compat._STATE.update(saved_compat)
    seed._STATE.clear()
    seed._STATE.update(saved_seed)
    seed._COUNTERS.clear()
    seed._COUNTERS.update(saved_counters)
    np.random.set_state(saved_numpy)
    random.setstate(saved_python)
    primitive.set_executor(saved_executor)
    tape._ACTIVE.clear()
    assert not leaked_tapes, f"a gradient tape was left recording: {leaked_tapes}"
