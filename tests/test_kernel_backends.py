"""Backends (refms/kernels/backend.py) and the dispatcher's choice by backend.

Spec (the docstrings of refms/kernels/backend.py and refms/kernels/__init__.py):

* an op's forward runs on the backend of its tensor inputs (host inputs are
  uploaded, counted by ``upload_counts``), or on the default backend;
* inside it ``kernels.call(name)`` returns that backend's kernel; a kernel the
  backend lacks runs on the host: arrays copied to the host, the cpu kernel
  run, the results copied back, and the call counted by ``fallback_counts``
  (``reset_fallback_counts`` zeroes it); an in-place kernel's written input is
  copied back into the device array;
* ``which(name, backend)`` reports the backend's implementation or
  ``'fallback'``;
* the kernel registry loads once, safely, when several threads make their
  first kernel call at the same time.
"""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from refms import kernels
from toy_backend import ToyArray, make_toy_backend

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def toy():
    """The toy backend registered (without ``reduce_sum``) for one test, counts zeroed."""
    backend = kernels.register_backend(make_toy_backend(missing=("reduce_sum",)))
    kernels.reset_fallback_counts()
    yield backend
    kernels.unregister_backend("toy")
    kernels.reset_fallback_counts()


def test_cpu_is_always_there_and_is_the_default():
    assert "cpu" in kernels.backends()
    assert kernels.default_backend().name == "cpu"
    assert kernels.backend_of(np.ones(2)) is kernels.backend("cpu")


def test_unknown_backend_is_a_clear_error():
    with pytest.raises(ValueError, match="no backend named 'tpu'"):
        kernels.backend("tpu")
    with pytest.raises(ValueError, match="cpu"):
        kernels.unregister_backend("cpu")


def test_a_backend_registers_once(toy):
    with pytest.raises(ValueError, match="already registered"):
        kernels.register_backend(make_toy_backend())


def test_which_names_the_backends_implementation_or_the_fallback(toy):
    assert kernels.which("matmul", "toy") == "toy"
    assert kernels.which("reduce_sum", "toy") == "fallback"
    assert kernels.which("reduce_sum", "cpu") in ("reference", "fast")


def test_run_dispatches_on_the_inputs_backend(toy):
    x = ToyArray(np.arange(6.0).reshape(2, 3))

    def forward(a):
        return kernels.call("transpose")(a, (1, 0))

    out = kernels.run(forward, [x])
    assert isinstance(out, ToyArray)
    np.testing.assert_array_equal(out.host, np.arange(6.0).reshape(2, 3).T)
    assert kernels.fallback_counts() == {}


def test_a_missing_kernel_falls_back_through_the_host_and_is_counted(toy):
    x = ToyArray(np.arange(6.0).reshape(2, 3))

    def forward(a):
        return kernels.call("reduce_sum")(a, (1,), False)

    for _ in range(3):
        out = kernels.run(forward, [x])
        assert isinstance(out, ToyArray)
        np.testing.assert_array_equal(out.host, [3.0, 12.0])
    assert kernels.fallback_counts() == {("toy", "reduce_sum"): 3}
    kernels.reset_fallback_counts()
    assert kernels.fallback_counts() == {}


def test_an_in_place_kernel_that_falls_back_writes_the_device_array(toy):
    toy.kernels.pop("assign")
    variable = ToyArray(np.zeros(3, np.float32))
    kernels.run(lambda v, u: kernels.call("assign")(v, u), [variable, ToyArray(np.ones(3))])
    np.testing.assert_array_equal(variable.host, np.ones(3, np.float32))
    assert kernels.fallback_counts() == {("toy", "assign"): 1}


def test_host_inputs_of_a_device_op_are_uploaded_and_counted(toy):
    x, y = ToyArray(np.ones(3)), np.full(3, 2.0)
    out = kernels.run(lambda a, b: kernels.call("add")(a, b), [x, y])
    assert isinstance(out, ToyArray)
    np.testing.assert_array_equal(out.host, [3.0, 3.0, 3.0])
    assert kernels.upload_counts() == {"toy": 1}


def test_ops_without_device_inputs_run_on_the_default_backend(toy):
    previous = kernels.set_default_backend("toy")
    try:
        out = kernels.run(lambda: kernels.call("full")((2,), 1.5, np.float32), [])
        assert isinstance(out, ToyArray)
        np.testing.assert_array_equal(out.host, [1.5, 1.5])
    finally:
        kernels.set_default_backend(previous)


def test_the_host_runs_on_after_a_device_op(toy):
    kernels.run(lambda a: kernels.call("neg")(a), [ToyArray(np.ones(2))])
    assert kernels.call("neg") is kernels.reference_kernel("neg")


def test_first_kernel_calls_from_many_threads_at_once_are_safe():
    """Regression: concurrent first use raised KeyError: no kernel named 'reduce_sum'."""
    code = textwrap.dedent("""
        import threading
        import numpy as np
        from refms import kernels
        errors = []
        start = threading.Barrier(8)
        def first_use():
            start.wait()
            try:
                kernels.call("reduce_sum")(np.ones((3, 4)), (1,), False)
                kernels.call("matmul")(np.ones((2, 2)), np.ones((2, 2)), False, False)
            except Exception as exc:
                errors.append(repr(exc))
        threads = [threading.Thread(target=first_use) for _ in range(8)]
        for t in threads: t.start()
        for t in threads: t.join()
        print(errors)
    """)
    for _ in range(3):
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                              text=True, timeout=120,
                              env=dict(os.environ, PYTHONPATH=ROOT))
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "[]"
