"""refms.kernels.allocator: glibc's thresholds are set once, at the first kernel call, and
never against the user's choice; build_info reports what was done."""
import os
import subprocess
import sys

import numpy as np

import refms
from refms import kernels
from refms.kernels import allocator

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROBE = ("import refms, numpy as np; from refms.kernels import allocator; "
         "print(allocator.state()); refms.ops.add(refms.Tensor(np.ones(2)), refms.Tensor(np.ones(2))); "
         "print(allocator.state())")


def _probe(**env):
    full = dict(os.environ, PYTHONPATH=ROOT, **env)
    for name in ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "REFMS_MALLOC_TUNING"):
        if name not in env:
            full.pop(name, None)
    return subprocess.run([sys.executable, "-c", PROBE], env=full, capture_output=True,
                          text=True, check=True).stdout.splitlines()


def test_tuned_at_the_first_kernel_call_not_at_import():
    before, after = _probe()
    assert before == "not tuned yet"
    assert after.startswith(("tuned: mmap threshold 32 MiB, trim threshold 512 MiB",
                             "left alone: the C library is not glibc"))


def test_the_users_choice_stands():
    assert _probe(REFMS_MALLOC_TUNING="0")[1] == "left alone: REFMS_MALLOC_TUNING=0"
    assert _probe(MALLOC_TRIM_THRESHOLD_="1000000")[1] == (
        "left alone: MALLOC_*_THRESHOLD_ set in the environment")


def test_build_info_reports_it():
    refms.ops.add(refms.Tensor(np.ones(2)), refms.Tensor(np.ones(2)))
    assert kernels.build_info()["allocator"] == allocator.state() != "not tuned yet"
